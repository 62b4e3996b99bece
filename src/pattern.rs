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
/// The two forward diagonals of a Venator leg along orthogonal direction `d`.
pub fn venator_diagonals(d: Delta) -> [Delta; 2] {
    if d.1 == 0 {
        [(d.0, 1), (d.0, -1)]
    } else {
        [(1, d.1), (-1, d.1)]
    }
}

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
    /// The same moves in XBetza ([`crate::betza`]), as XBoard's `piece` command reads them;
    /// `None` for the pawns, whose moves depend on the variant's pawn kind. A test walks
    /// each description against the generator on random positions of every variant.
    pub xbetza: Option<&'static str>,
}

/// The move pattern of `role`.
pub fn pattern(role: Role) -> Pattern {
    type Leaps = &'static [&'static [Delta]];
    type Row = (Leaps, &'static [Delta], Special, Option<&'static str>);
    let (leaps, slides, special, xbetza): Row = match role {
        Role::Pawn => (&[], &[], Special::Pawn, None),
        Role::Ninja => (&[], &[], Special::Ninja, None),
        Role::Knight => (&[&KNIGHT], &[], Special::None, Some("N")),
        Role::Bishop => (&[], &DIAGONAL, Special::None, Some("B")),
        Role::Rook => (&[], &ORTHOGONAL, Special::None, Some("R")),
        Role::Queen => (&[], &KING_STEPS, Special::None, Some("Q")),
        Role::King => (&[&KING_STEPS], &[], Special::None, Some("K")),
        Role::Amazon => (&[&KNIGHT], &KING_STEPS, Special::None, Some("QN")),
        Role::WazirKnight => (&[&KNIGHT, &ORTHOGONAL], &[], Special::None, Some("NW")),
        Role::FerzKnight => (&[&KNIGHT, &DIAGONAL], &[], Special::None, Some("NF")),
        Role::Archbishop => (&[&KNIGHT], &DIAGONAL, Special::None, Some("BN")),
        Role::Chancellor => (&[&KNIGHT], &ORTHOGONAL, Special::None, Some("RN")),
        // n orthogonal steps, then n diagonal ones at 45 or 135 degrees (or the reverse):
        // `i` on the second leg makes it as long as the first.
        Role::Sissa => (&[], &[], Special::Sissa, Some("maifsbsRmaifsbsB")),
        // The knight square by its two one-step paths, the zebra square by its two
        // two-step paths.
        Role::Snake => (&[], &[], Special::Snake, Some("mafsWmafsFmafsmafWmafmafsF")),
        // Slide to a screen (g: turn there), step over it onto an empty square (y: turn
        // there, becoming a rider again), slide on a forward diagonal.
        Role::Venator => (&[], &[], Special::Venator, Some("gafyafsR")),
    };
    Pattern {
        leaps,
        slides,
        special,
        xbetza,
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
