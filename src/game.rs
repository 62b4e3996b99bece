//! The end of the game by the rules: checkmate, stalemate, threefold repetition, the 50-move
//! rule and insufficient material.

use crate::position::Position;
use crate::role::{Color, Role};
use crate::variant::InsufficientMaterial;

/// How a finished game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    Checkmate,
    Stalemate,
    Repetition,
    FiftyMoves,
    InsufficientMaterial,
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
            (Termination::Stalemate, _) => "Stalemate",
            (Termination::Repetition, _) => "Draw by repetition",
            (Termination::FiftyMoves, _) => "50-move rule",
            (Termination::InsufficientMaterial, _) => "Insufficient material",
        }
    }
}

impl Position {
    /// How often the current position has occurred, counting this time (same board, side,
    /// castling rights, en-passant possibilities and hands), looking back to the last
    /// irreversible move.
    pub fn repetitions(&self) -> usize {
        let mut n = 1;
        let back = (self.reversible as usize).min(self.history.len());
        let start = self.history.len() - back;
        for undo in self.history[start..].iter().rev().skip(1).step_by(2) {
            if undo.hash == self.hash {
                n += 1;
            }
        }
        n
    }

    /// Whether the position occurred before (within the reversible moves): the search's draw
    /// test.
    pub fn is_repetition(&self) -> bool {
        self.repetitions() > 1
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

    /// The game's end by the rules, if it has ended.
    pub fn outcome(&mut self) -> Option<Outcome> {
        if self.legal_moves().is_empty() {
            return Some(if self.in_check() {
                Outcome {
                    winner: Some(self.side.flip()),
                    termination: Termination::Checkmate,
                }
            } else {
                Outcome {
                    winner: None,
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
        if self.halfmove >= 100 {
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
