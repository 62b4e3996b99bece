//! The end of the game by the rules: checkmate, stalemate (a draw or, by the variant's rule,
//! a loss), a bare king where the variant says so, threefold repetition, the n-move rule and
//! insufficient material.

use crate::rules::position::Position;
use crate::rules::role::{Color, Role};
use crate::rules::variant::{InsufficientMaterial, StalemateResult};

/// How a finished game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    Checkmate,
    Stalemate,
    Repetition,
    FiftyMoves,
    InsufficientMaterial,
    /// A side was left with its king alone (the variant's bare-king rule).
    BareKing,
}

/// A finished game: the winner (`None` for a draw) and why.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub winner: Option<Color>,
    pub termination: Termination,
}

impl Outcome {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The reason as CECP writes it in a result claim.
    pub fn reason(&self) -> &'static str {
        match (self.termination, self.winner) {
            (Termination::Checkmate, Some(Color::White)) => "White mates",
            (Termination::Checkmate, _) => "Black mates",
            (Termination::Stalemate, Some(Color::White)) => "Black is stalemated",
            (Termination::Stalemate, Some(Color::Black)) => "White is stalemated",
            (Termination::Stalemate, None) => "Stalemate",
            (Termination::BareKing, Some(Color::White)) => "Black has a bare king",
            (Termination::BareKing, _) => "White has a bare king",
            (Termination::Repetition, _) => "Draw by repetition",
            (Termination::FiftyMoves, _) => "Move-count rule",
            (Termination::InsufficientMaterial, _) => "Insufficient material",
        }
    }
}

impl Position {
    /// How often the current position has occurred, counting this time (same board, side,
    /// castling rights, en-passant possibilities and hands), looking back to the last
    /// irreversible move.
    pub fn repetitions(&self) -> usize {
        1 + self.earlier_occurrences().count()
    }

    /// The history indices at which the current position stood before, latest first: the
    /// same side to move, back to the last irreversible move.
    fn earlier_occurrences(&self) -> impl Iterator<Item = usize> + '_ {
        let back = (self.reversible as usize).min(self.history.len());
        let start = self.history.len() - back;
        let earlier = self.history.iter().enumerate().skip(start).rev();
        earlier
            .skip(1)
            .step_by(2)
            .filter(|(_, undo)| undo.hash == self.hash)
            .map(|(i, _)| i)
    }

    /// The number of moves played from the position the game was set up in (the
    /// history's length), which [`Position::is_repetition_since`] takes as a root.
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// The search's draw test, given the length of the history at the search's root: the
    /// position occurred before within the reversible moves, either after the root (a cycle
    /// the search itself made, which the side that wants it can repeat to a threefold) or
    /// twice already (a threefold now). A single occurrence before the root is not a draw:
    /// the opponent may leave the cycle, and counting it as one made a losing side believe
    /// it could draw by returning to a position of the game once.
    pub fn is_repetition_since(&self, root: usize) -> bool {
        let mut before_root = 0;
        self.earlier_occurrences().any(|i| {
            before_root += usize::from(i <= root);
            i > root || before_root >= 2
        })
    }

    /// Whether neither side can ever mate, by the variant's rule.
    pub fn insufficient_material(&self) -> bool {
        let only_kings = |c: Color| self.pieces(c).len() == 1 && self.hand(c) == 0;
        match self.variant.spec.insufficient {
            InsufficientMaterial::KingsOnly => only_kings(Color::White) && only_kings(Color::Black),
            InsufficientMaterial::Fide => {
                let minors = |c: Color| {
                    let n = self.pieces(c).len() - 1;
                    let b = self.count(c, Role::Bishop) as usize;
                    let k = self.count(c, Role::Knight) as usize;
                    (n, b, k)
                };
                let (wn, wb, wk) = minors(Color::White);
                let (bn, bb, bk) = minors(Color::Black);
                match (wn, bn) {
                    (0, 0) => true,
                    (1, 0) => wb + wk == 1,
                    (0, 1) => bb + bk == 1,
                    (1, 1) if wb == 1 && bb == 1 => {
                        let g = &self.variant.geometry;
                        let colour = |c: Color| {
                            self.pieces(c)
                                .iter()
                                .find(|&&s| {
                                    self.piece_at(s).is_some_and(|p| p.role == Role::Bishop)
                                })
                                .map(|&s| (g.file(s) + g.rank(s)) % 2)
                        };
                        colour(Color::White) == colour(Color::Black)
                    }
                    _ => false,
                }
            }
        }
    }

    /// The side that has lost by the variant's bare-king rule, if one has: a side whose king
    /// stands alone loses when the other has a piece besides its king, except that the side to
    /// move, bared by the last move, may still bare the other king in reply (so it loses at
    /// once only against two pieces or more). As Fairy-Stockfish's extinction rule with
    /// `extinctionClaim`, so that perft agrees. Inlined: every move generation asks, and for
    /// most variants the answer is the rule's flag.
    #[inline]
    pub fn bare_king_loser(&self) -> Option<Color> {
        if !self.variant.spec.end.bare_king {
            return None;
        }
        let count = |c: Color| self.pieces(c).len() + self.hand(c) as usize;
        let (us, them) = (self.side, self.side.flip());
        if count(them) <= 1 && count(us) >= 2 {
            Some(them)
        } else if count(us) <= 1 && count(them) >= 3 {
            Some(us)
        } else {
            None
        }
    }

    /// The plies without a capture or pawn move after which the n-move rule draws.
    pub fn move_rule_plies(&self) -> u32 {
        2 * self.variant.spec.end.move_rule as u32
    }

    /// The game's end by the rules, if it has ended.
    pub fn outcome(&mut self) -> Option<Outcome> {
        if let Some(loser) = self.bare_king_loser() {
            return Some(Outcome {
                winner: Some(loser.flip()),
                termination: Termination::BareKing,
            });
        }
        if self.legal_moves().is_empty() {
            let stalemate_loses = self.variant.spec.end.stalemate == StalemateResult::Loss;
            return Some(if self.in_check() {
                Outcome {
                    winner: Some(self.side.flip()),
                    termination: Termination::Checkmate,
                }
            } else {
                Outcome {
                    winner: stalemate_loses.then_some(self.side.flip()),
                    termination: Termination::Stalemate,
                }
            });
        }
        let draw = |termination| {
            Some(Outcome {
                winner: None,
                termination,
            })
        };
        if self.halfmove >= self.move_rule_plies() {
            return draw(Termination::FiftyMoves);
        }
        if self.repetitions() >= 3 {
            return draw(Termination::Repetition);
        }
        if self.insufficient_material() {
            return draw(Termination::InsufficientMaterial);
        }
        None
    }
}
