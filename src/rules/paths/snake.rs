//! The Sorcerer Snake (Venomous): the knight and zebra squares, each by two paths that must be
//! empty (blocked only if both are).

use super::Route;
use crate::rules::geometry::Square;
use crate::rules::pattern::Delta;
use crate::rules::position::Position;
use crate::rules::role::EMPTY;

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

impl Position {
    #[inline(always)]
    pub(crate) fn snake_targets(&self, from: Square, own: u8, visit: &mut impl FnMut(Square)) {
        for route in &self.variant.snake {
            // The path first: only an open path proves the target lies on the board.
            let open = route.paths.iter().any(|p| {
                p[..route.steps]
                    .iter()
                    .all(|&off| self.board[from.shift(off).index()] == EMPTY)
            });
            if open {
                let to = from.shift(route.target);
                if self.board[to.index()] & own == 0 {
                    visit(to);
                }
            }
        }
    }

    /// The Snake routes from `from` to `to` (two, or none when `to` is not a Snake square).
    pub(crate) fn snake_routes_to(
        &self,
        from: Square,
        to: Square,
    ) -> impl Iterator<Item = Route> + '_ {
        let g = &self.variant.geometry;
        let delta = (
            (g.file(to) - g.file(from)) as i8,
            (g.rank(to) - g.rank(from)) as i8,
        );
        self.variant
            .snake
            .iter()
            .filter(move |s| s.delta == delta)
            .flat_map(|s| {
                s.paths.iter().map(move |p| {
                    // One or two intermediate squares, each a single step from the last.
                    let second = p[1].wrapping_sub(p[0]);
                    Route {
                        a: p[0],
                        first: 1,
                        b: second,
                        second: s.steps as i32 - 1,
                    }
                })
            })
    }

    /// Whether the Sorcerer Snake on `from` could capture on `to`.
    pub fn snake_attacks(&self, from: Square, to: Square) -> bool {
        self.snake_routes_to(from, to)
            .any(|r| self.route_open(from, r))
    }
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
