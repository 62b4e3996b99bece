//! Board shapes: a rectangle of up to 16x16 squares with any set of holes, laid out as a
//! padded mailbox. Every square outside the board, and every hole, holds the
//! [`OFFBOARD`](crate::rules::role::OFFBOARD) sentinel, so a move generator that walks one step at a
//! time stops at holes and edges with the same single test it uses for pieces.

use std::fmt;

/// Largest number of files or ranks a board may have.
pub const MAX_SIDE: usize = 16;
/// Padding columns on the right of each row and padding rows above and below the board.
/// Two is enough for the longest leap any pattern takes (the knight's two-square leg); every
/// longer move walks one step at a time and stops at the first padding cell.
const PAD: usize = 2;
/// Size of the mailbox arrays; large enough for a 16x16 board with its padding.
pub const CELLS: usize = 512;

/// A mailbox index. Only meaningful together with the [`Geometry`] that made it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Square(pub u16);

impl Square {
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The square `delta` cells away (a mailbox offset from [`Geometry::offset`]).
    #[inline]
    pub fn shift(self, delta: i16) -> Square {
        Square((self.0 as i16).wrapping_add(delta) as u16)
    }
}

/// A set of mailbox squares.
#[derive(Clone, Copy, Default)]
pub struct SquareSet([u64; CELLS / 64]);

impl SquareSet {
    #[inline]
    pub fn insert(&mut self, sq: Square) {
        self.0[sq.index() >> 6] |= 1 << (sq.index() & 63);
    }

    #[inline]
    pub fn contains(&self, sq: Square) -> bool {
        self.0[sq.index() >> 6] & (1 << (sq.index() & 63)) != 0
    }
}

/// The shape of a board: its size, its holes, and the mailbox layout derived from them.
#[derive(Clone, Debug)]
pub struct Geometry {
    files: u8,
    ranks: u8,
    stride: i16,
    on_board: Vec<bool>,
    file_of: Vec<i8>,
    rank_of: Vec<i8>,
    squares: Vec<Square>,
}

impl Geometry {
    /// A `files` x `ranks` rectangle without the squares in `holes` (given as (file, rank),
    /// both 0-based). Panics on a size outside 1..=16: variants are compiled-in data.
    pub fn new(files: u8, ranks: u8, holes: &[(u8, u8)]) -> Geometry {
        assert!((1..=MAX_SIDE as u8).contains(&files) && (1..=MAX_SIDE as u8).contains(&ranks));
        let stride = files as i16 + PAD as i16;
        let mut g = Geometry {
            files,
            ranks,
            stride,
            on_board: vec![false; CELLS],
            file_of: vec![-1; CELLS],
            rank_of: vec![-1; CELLS],
            squares: Vec::new(),
        };
        for rank in 0..ranks {
            for file in 0..files {
                let sq = g.raw_square(file, rank);
                g.file_of[sq.index()] = file as i8;
                g.rank_of[sq.index()] = rank as i8;
                if !holes.contains(&(file, rank)) {
                    g.on_board[sq.index()] = true;
                    g.squares.push(sq);
                }
            }
        }
        g
    }

    #[inline]
    fn raw_square(&self, file: u8, rank: u8) -> Square {
        Square(((rank as usize + PAD) * self.stride as usize + file as usize + PAD) as u16)
    }

    pub fn files(&self) -> u8 {
        self.files
    }

    pub fn ranks(&self) -> u8 {
        self.ranks
    }

    /// The square at (file, rank), 0-based, if it exists (is inside and not a hole).
    pub fn square(&self, file: i32, rank: i32) -> Option<Square> {
        if file < 0 || rank < 0 || file >= self.files as i32 || rank >= self.ranks as i32 {
            return None;
        }
        let sq = self.raw_square(file as u8, rank as u8);
        self.on_board[sq.index()].then_some(sq)
    }

    /// True for (file, rank) inside the rectangle but missing from the board.
    pub fn is_hole(&self, file: i32, rank: i32) -> bool {
        file >= 0
            && rank >= 0
            && file < self.files as i32
            && rank < self.ranks as i32
            && self.square(file, rank).is_none()
    }

    /// A dense number for a real square, `rank * files + file`: below [`Geometry::area`], for
    /// tables that would be mostly padding if indexed by mailbox cell.
    #[inline]
    pub fn dense_index(&self, sq: Square) -> usize {
        self.rank_of[sq.index()] as usize * self.files as usize + self.file_of[sq.index()] as usize
    }

    /// The square of a dense number, if it is a real square.
    pub fn from_dense(&self, i: usize) -> Option<Square> {
        let files = self.files as usize;
        self.square((i % files) as i32, (i / files) as i32)
    }

    /// Files times ranks: the size of a table indexed by [`Geometry::dense_index`].
    pub fn area(&self) -> usize {
        self.files as usize * self.ranks as usize
    }

    /// Whether a mailbox index is a real square.
    #[inline]
    pub fn contains(&self, sq: Square) -> bool {
        self.on_board.get(sq.index()).copied().unwrap_or(false)
    }

    /// 0-based file of a real square.
    #[inline]
    pub fn file(&self, sq: Square) -> i32 {
        self.file_of[sq.index()] as i32
    }

    /// 0-based rank of a real square.
    #[inline]
    pub fn rank(&self, sq: Square) -> i32 {
        self.rank_of[sq.index()] as i32
    }

    /// The mailbox offset of a step of `df` files and `dr` ranks.
    #[inline]
    pub fn offset(&self, df: i32, dr: i32) -> i16 {
        (dr * self.stride as i32 + df) as i16
    }

    /// Every real square, rank 1 first, files left to right.
    pub fn squares(&self) -> &[Square] {
        &self.squares
    }

    /// Number of real squares.
    pub fn square_count(&self) -> usize {
        self.squares.len()
    }

    /// The rank a side counts as its own `relative` rank (0 = its back rank).
    #[inline]
    pub fn relative_rank(&self, sq: Square, white: bool) -> i32 {
        let r = self.rank(sq);
        if white { r } else { self.ranks as i32 - 1 - r }
    }

    /// Square name with ranks counted from `rank_base` (1 for UCI and FEN; CECP uses 0 on
    /// boards with exactly 10 ranks).
    pub fn name(&self, sq: Square, rank_base: i32) -> SquareName {
        SquareName {
            file: self.file(sq) as u8,
            rank: self.rank(sq) + rank_base,
        }
    }

    /// Reads a square name such as `e4` or `j10` (ranks counted from `rank_base`). Returns the
    /// square and the number of bytes read; `None` if the text does not start with a square of
    /// this board.
    pub fn parse_square(&self, text: &str, rank_base: i32) -> Option<(Square, usize)> {
        let bytes = text.as_bytes();
        let file = bytes.first()?.wrapping_sub(b'a');
        if file >= self.files {
            return None;
        }
        let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 || digits > 2 {
            return None;
        }
        let rank: i32 = text[1..1 + digits].parse().ok()?;
        let sq = self.square(file as i32, rank - rank_base)?;
        Some((sq, 1 + digits))
    }

    /// Reads exactly one square name.
    pub fn parse_square_exact(&self, text: &str, rank_base: i32) -> Option<Square> {
        match self.parse_square(text, rank_base) {
            Some((sq, n)) if n == text.len() => Some(sq),
            _ => None,
        }
    }
}

/// A printable square name (`e4`, `j10`, `a0`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SquareName {
    file: u8,
    rank: i32,
}

impl fmt::Display for SquareName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file) as char, self.rank)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gustavian() -> Geometry {
        let mut holes = Vec::new();
        for r in 1..7 {
            holes.push((0, r));
            holes.push((9, r));
        }
        Geometry::new(10, 8, &holes)
    }

    #[test]
    fn gustavian_board_has_68_squares_and_its_holes() {
        let g = gustavian();
        assert_eq!(g.square_count(), 68);
        assert!(g.square(0, 0).is_some());
        assert!(g.square(0, 1).is_none());
        assert!(g.is_hole(9, 6));
        assert!(!g.is_hole(9, 7));
        assert!(!g.is_hole(10, 7));
    }

    #[test]
    fn names_round_trip_with_both_rank_bases() {
        let g = Geometry::new(10, 10, &[]);
        for &sq in g.squares() {
            for base in [0, 1] {
                let name = g.name(sq, base).to_string();
                assert_eq!(g.parse_square_exact(&name, base), Some(sq), "{name}");
            }
        }
        assert_eq!(g.parse_square_exact("j11", 1), None);
        assert_eq!(g.parse_square_exact("k1", 1), None);
        assert_eq!(g.parse_square_exact("a0", 1), None);
        assert!(g.parse_square_exact("a0", 0).is_some());
    }

    #[test]
    fn padding_stops_every_single_step_and_knight_leap() {
        let g = gustavian();
        for &sq in g.squares() {
            let steps = crate::rules::pattern::KNIGHT
                .iter()
                .chain(&crate::rules::pattern::KING_STEPS);
            for &(df, dr) in steps {
                let (df, dr) = (df as i32, dr as i32);
                let to = sq.shift(g.offset(df, dr));
                let expected = g.square(g.file(sq) + df, g.rank(sq) + dr);
                assert_eq!(g.contains(to), expected.is_some());
                if let Some(e) = expected {
                    assert_eq!(e, to);
                }
            }
        }
    }
}
