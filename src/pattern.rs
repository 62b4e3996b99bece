//! How each role moves, as data: leaps, slides and the three pieces whose paths need their
//! own walker. The generator ([`crate::movegen`]) and attack detection ([`crate::attacks`])
//! loop over these; a new role needs an entry here and nothing else unless it brings a new
//! kind of path.

use crate::role::Role;

/// A step or leap as (files, ranks).
pub type Delta = (i8, i8);

pub const ORTHOGONAL: [Delta; 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
pub const DIAGONAL: [Delta; 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
pub const KING_STEPS: [Delta; 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, 1),
    (1, -1),
    (-1, -1),
];
pub const KNIGHT: [Delta; 8] = [
    (1, 2),
    (2, 1),
    (-1, 2),
    (-2, 1),
    (1, -2),
    (2, -1),
    (-1, -2),
    (-2, -1),
];
/// Moves that are neither plain leaps nor plain slides.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Special {
    None,
    /// Forward steps by the variant's per-rank ranges, diagonal captures, en passant.
    Pawn,
    /// Pawn steps, sideways steps, sideways captures in the enemy half; no en passant.
    Ninja,
    /// n steps one way, turn, n steps of the other kind (orthogonal/diagonal); every square
    /// passed must be empty.
    Sissa,
    /// Knight and zebra squares by two non-jumping paths each.
    Snake,
    /// Orthogonal slide to a screen, hop it, slide on a forward diagonal.
    Venator,
}

/// One role's move pattern. Leaps and slides are symmetric for every role, which lets attack
/// detection look outward from the attacked square.
#[derive(Copy, Clone, Debug)]
pub struct Pattern {
    /// Leap sets; a compound piece lists several (the Wazir-Knight: knight and wazir).
    pub leaps: &'static [&'static [Delta]],
    pub slides: &'static [Delta],
    pub special: Special,
}

/// The move pattern of `role`.
pub fn pattern(role: Role) -> Pattern {
    type Leaps = &'static [&'static [Delta]];
    let (leaps, slides, special): (Leaps, &'static [Delta], Special) = match role {
        Role::Pawn => (&[], &[], Special::Pawn),
        Role::Ninja => (&[], &[], Special::Ninja),
        Role::Knight => (&[&KNIGHT], &[], Special::None),
        Role::Bishop => (&[], &DIAGONAL, Special::None),
        Role::Rook => (&[], &ORTHOGONAL, Special::None),
        Role::Queen => (&[], &KING_STEPS, Special::None),
        Role::King => (&[&KING_STEPS], &[], Special::None),
        Role::Amazon => (&[&KNIGHT], &KING_STEPS, Special::None),
        Role::WazirKnight => (&[&KNIGHT, &ORTHOGONAL], &[], Special::None),
        Role::FerzKnight => (&[&KNIGHT, &DIAGONAL], &[], Special::None),
        Role::Sissa => (&[], &[], Special::Sissa),
        Role::Snake => (&[], &[], Special::Snake),
        Role::Venator => (&[], &[], Special::Venator),
    };
    Pattern {
        leaps,
        slides,
        special,
    }
}

/// One Sorcerer Snake target with its two paths. Each path lists the `steps` intermediate
/// squares (1 for a knight square, 2 for a zebra square) that must all be empty.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SnakeRoute {
    pub target: Delta,
    pub paths: [[Delta; 2]; 2],
    pub steps: usize,
}

/// The Sorcerer Snake's 16 targets. For a knight square (1,2) the paths go via (0,1) or
/// (1,1); for a zebra square (2,3) via (0,1),(1,2) or (1,1),(2,2): the orthogonal step always
/// runs along the longer axis of the offset (docs/rules/venomous.md).
pub fn snake_routes() -> Vec<SnakeRoute> {
    let mut routes = Vec::new();
    for (sx, sy) in [(1i8, 1i8), (-1, 1), (1, -1), (-1, -1)] {
        for swap in [false, true] {
            let t = |x: i8, y: i8| -> Delta {
                if swap {
                    (y * sx, x * sy)
                } else {
                    (x * sx, y * sy)
                }
            };
            routes.push(SnakeRoute {
                target: t(1, 2),
                paths: [[t(0, 1), (0, 0)], [t(1, 1), (0, 0)]],
                steps: 1,
            });
            routes.push(SnakeRoute {
                target: t(2, 3),
                paths: [[t(0, 1), t(1, 2)], [t(1, 1), t(2, 2)]],
                steps: 2,
            });
        }
    }
    routes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_has_sixteen_distinct_targets_and_paths_end_next_to_them() {
        let routes = snake_routes();
        let mut targets: Vec<Delta> = routes.iter().map(|r| r.target).collect();
        targets.sort();
        targets.dedup();
        assert_eq!(targets.len(), 16);
        for r in &routes {
            for path in &r.paths {
                let last = path[r.steps - 1];
                let gap = (r.target.0 - last.0, r.target.1 - last.1);
                assert!(gap.0.abs() <= 1 && gap.1.abs() <= 1 && gap != (0, 0));
            }
        }
    }
}
