//! Colours, piece roles and the one-byte piece code the board stores.

use std::fmt;

/// The side a piece belongs to, or the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    /// The other side.
    #[inline]
    pub fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black: an index into per-side tables.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The colour bit this side's pieces carry in a [`Piece`] code.
    #[inline]
    pub fn bit(self) -> u8 {
        match self {
            Color::White => WHITE_BIT,
            Color::Black => BLACK_BIT,
        }
    }

    /// `'w'` or `'b'`, as in FEN.
    pub fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// What a piece is, independent of its colour. Each role has one move pattern
/// (see [`crate::rules::pattern`]); a variant chooses which roles its army uses and which letters
/// name them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    Pawn = 1,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
    /// Queen + knight (Gustav III's General-Adjutant).
    Amazon,
    /// Orthogonal slide to a screen, hop, forward-diagonal slide (Venator Chess).
    Venator,
    /// Knight or one orthogonal step (Venomous).
    WazirKnight,
    /// Knight or one diagonal step (Venomous).
    FerzKnight,
    /// n orthogonal + n diagonal steps, or the reverse (Venomous).
    Sissa,
    /// Lame knight and zebra with two paths each (Venomous).
    Snake,
    /// Venomous Ninja pawn: pawn steps, sideways steps, dropped from the hand.
    Ninja,
    /// Bishop + knight (Capablanca's archbishop, also called cardinal or princess).
    Archbishop,
    /// Rook + knight (Capablanca's chancellor, also called marshal or empress).
    Chancellor,
    /// Sixteen slots for pieces a variant file defines in XBetza ([`crate::rules::pattern::custom`]
    /// holds each one's name, moves and value once it is defined).
    Custom1,
    Custom2,
    Custom3,
    Custom4,
    Custom5,
    Custom6,
    Custom7,
    Custom8,
    Custom9,
    Custom10,
    Custom11,
    Custom12,
    Custom13,
    Custom14,
    Custom15,
    Custom16,
}

/// Number of role codes, counting the unused 0: sizes per-role tables.
pub const ROLE_COUNT: usize = 32;

/// Number of roles a variant file may define.
pub const CUSTOM_ROLES: usize = 16;

impl Role {
    /// The roles built into Sissa, in code order.
    pub const BUILTIN: [Role; 15] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
        Role::Amazon,
        Role::Venator,
        Role::WazirKnight,
        Role::FerzKnight,
        Role::Sissa,
        Role::Snake,
        Role::Ninja,
        Role::Archbishop,
        Role::Chancellor,
    ];

    /// The slots of the pieces variant files define, in code order.
    pub const CUSTOM: [Role; CUSTOM_ROLES] = [
        Role::Custom1,
        Role::Custom2,
        Role::Custom3,
        Role::Custom4,
        Role::Custom5,
        Role::Custom6,
        Role::Custom7,
        Role::Custom8,
        Role::Custom9,
        Role::Custom10,
        Role::Custom11,
        Role::Custom12,
        Role::Custom13,
        Role::Custom14,
        Role::Custom15,
        Role::Custom16,
    ];

    /// Every role, in code order.
    pub const ALL: [Role; ROLE_COUNT - 1] = {
        let mut all = [Role::Pawn; ROLE_COUNT - 1];
        let mut i = 0;
        while i < Role::BUILTIN.len() {
            all[i] = Role::BUILTIN[i];
            i += 1;
        }
        while i < ROLE_COUNT - 1 {
            all[i] = Role::CUSTOM[i - Role::BUILTIN.len()];
            i += 1;
        }
        all
    };

    /// The role with this code (the low bits of a [`Piece`]).
    #[inline]
    pub fn from_code(code: u8) -> Option<Role> {
        Role::ALL.get((code as usize).wrapping_sub(1)).copied()
    }

    /// Index into per-role tables (1..ROLE_COUNT).
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The role's own upper-case letter (see docs/protocol.md), unique among the built-in
    /// roles; a variant may write a role with another letter
    /// ([`crate::rules::variant::Variant::letter`]), and always does for a file's pieces (their
    /// own letter is `?`).
    pub fn letter(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'N',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            Role::Queen => 'Q',
            Role::King => 'K',
            Role::Amazon => 'A',
            Role::Venator => 'V',
            Role::WazirKnight => 'W',
            Role::FerzKnight => 'F',
            Role::Sissa => 'S',
            Role::Snake => 'X',
            Role::Ninja => 'J',
            Role::Archbishop => 'H',
            Role::Chancellor => 'M',
            _ => '?',
        }
    }

    /// English name, for messages and documentation; a file's piece has the name its file
    /// gives it.
    pub fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
            Role::Amazon => "amazon",
            Role::Venator => "venator",
            Role::WazirKnight => "wazir-knight",
            Role::FerzKnight => "ferz-knight",
            Role::Sissa => "sissa",
            Role::Snake => "sorcerer snake",
            Role::Ninja => "ninja pawn",
            Role::Archbishop => "archbishop",
            Role::Chancellor => "chancellor",
            _ => crate::rules::pattern::custom(self).map_or("undefined piece", |c| c.name.as_str()),
        }
    }

    /// Pawns of either kind (they promote, never move backwards, reset the 50-move counter).
    #[inline]
    pub fn is_pawn_like(self) -> bool {
        matches!(self, Role::Pawn | Role::Ninja)
    }

    /// Whether this is the slot of a piece a variant file defines.
    #[inline]
    pub fn is_custom(self) -> bool {
        self as usize > Role::BUILTIN.len()
    }

    /// The six pieces of orthodox chess, which every GUI knows.
    pub fn is_orthodox(self) -> bool {
        matches!(
            self,
            Role::Pawn | Role::Knight | Role::Bishop | Role::Rook | Role::Queen | Role::King
        )
    }

    /// Bit of this role in a `u32` role mask.
    #[inline]
    pub fn mask(self) -> u32 {
        1 << (self as u32)
    }
}

/// White's colour bit in a piece code.
pub const WHITE_BIT: u8 = 0x40;
/// Black's colour bit in a piece code.
pub const BLACK_BIT: u8 = 0x80;
/// Mask of the colour bits.
pub const COLOR_BITS: u8 = 0xC0;
/// The code of an empty square.
pub const EMPTY: u8 = 0;
/// The code of a square that does not exist (a hole or the padding around the board).
/// It carries both colour bits, so it is "own" for either side: nothing lands on it.
pub const OFFBOARD: u8 = 0xC0;

/// A coloured piece as the board stores it: a colour bit plus the role code.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    pub fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// The board byte of this piece.
    #[inline]
    pub fn code(self) -> u8 {
        self.color.bit() | self.role as u8
    }

    /// Decodes a board byte; `None` for empty squares and holes.
    #[inline]
    pub fn from_code(code: u8) -> Option<Piece> {
        let color = match code & COLOR_BITS {
            WHITE_BIT => Color::White,
            BLACK_BIT => Color::Black,
            _ => return None,
        };
        Role::from_code(code & 0x1F).map(|role| Piece { color, role })
    }
}

/// The role code stored in a board byte (meaningless for empty squares and holes).
#[inline]
pub fn code_role(code: u8) -> u8 {
    code & 0x1F
}
