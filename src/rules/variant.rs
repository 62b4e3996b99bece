//! A variant is data ([`VariantSpec`]: a section of variants/builtin.ini for the four built-in
//! ones, embedded in the binary, or of a user's variant file), compiled once into the tables
//! the generator reads ([`Variant`]): mailbox offsets for every role's leaps and slides,
//! attack probes, castling squares, pawn ranges.

use std::sync::{OnceLock, RwLock};

use crate::rules::geometry::{CELLS, Geometry, Square};
use crate::rules::paths::snake::{SnakeRoute, snake_routes};
use crate::rules::paths::venator::venator_diagonals;
use crate::rules::pattern::{self, Delta, Special};
use crate::rules::role::{Color, ROLE_COUNT, Role};

/// A value computed once per variant from its data (evaluation tables, ...): without a lock
/// for the built-in variants, behind one for those loaded from files.
pub struct PerVariant<T: 'static> {
    builtin: [OnceLock<T>; 4],
    loaded: RwLock<Vec<(usize, &'static T)>>,
}

impl<T: 'static> Default for PerVariant<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: 'static> PerVariant<T> {
    pub const fn new() -> Self {
        PerVariant {
            builtin: [const { OnceLock::new() }; 4],
            loaded: RwLock::new(Vec::new()),
        }
    }

    /// The value for `v`, made by `make` the first time.
    pub fn get(&'static self, v: &'static Variant, make: impl FnOnce() -> T) -> &'static T {
        if let Some(i) = Variant::all().iter().position(|&w| std::ptr::eq(w, v)) {
            return self.builtin[i].get_or_init(make);
        }
        let key = std::ptr::from_ref(v) as usize;
        let find = |l: &[(usize, &'static T)]| l.iter().find(|(k, _)| *k == key).map(|e| e.1);
        if let Some(t) = self.loaded.read().ok().and_then(|l| find(&l)) {
            return t;
        }
        let mut l = self.loaded.write().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = find(&l) {
            return t;
        }
        let t: &'static T = Box::leak(Box::new(make()));
        l.push((key, t));
        t
    }
}

/// The letter `role` is written with under `letters` (a variant's other letters): its own
/// unless the list names another.
pub fn letter_in(letters: &[(Role, char)], role: Role) -> char {
    letters
        .iter()
        .find(|(r, _)| *r == role)
        .map_or(role.letter(), |&(_, c)| c)
}

/// Which castling right a castling uses: `K` (king side, the rook on the higher file) or `Q`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CastleSide {
    King = 0,
    Queen = 1,
}

/// The castling rights of both sides: for each colour, king side and queen side.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CastlingRights(u8);

impl CastlingRights {
    /// No right at all.
    pub const NONE: CastlingRights = CastlingRights(0);

    /// The one right of `color` on `side`.
    pub fn one(color: Color, side: CastleSide) -> CastlingRights {
        CastlingRights(1 << (2 * color.index() + side as usize))
    }

    /// Both rights of `color`.
    pub fn both(color: Color) -> CastlingRights {
        CastlingRights(0b11 << (2 * color.index()))
    }

    /// Whether every right of `other` is held.
    pub fn contains(self, other: CastlingRights) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether any right of `other` is held.
    pub fn intersects(self, other: CastlingRights) -> bool {
        self.0 & other.0 != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// These rights and `other`'s.
    pub fn with(self, other: CastlingRights) -> CastlingRights {
        CastlingRights(self.0 | other.0)
    }

    /// These rights without `other`'s.
    pub fn without(self, other: CastlingRights) -> CastlingRights {
        CastlingRights(self.0 & !other.0)
    }

    /// A number in 0..16, one for each set of rights (for hash keys).
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The rights in FEN order with their letters: `K`, `Q`, `k`, `q`.
    pub const FEN: [(Color, CastleSide, char); 4] = [
        (Color::White, CastleSide::King, 'K'),
        (Color::White, CastleSide::Queen, 'Q'),
        (Color::Black, CastleSide::King, 'k'),
        (Color::Black, CastleSide::Queen, 'q'),
    ];
}

/// One castling, as files on White's back rank; Black mirrors it on the last rank.
#[derive(Copy, Clone, Debug)]
pub struct CastlingRule {
    pub side: CastleSide,
    pub king_from: u8,
    pub king_to: u8,
    pub rook_from: u8,
    pub rook_to: u8,
}

/// Pieces in hand that may be dropped (Venomous Ninja pawns).
#[derive(Copy, Clone, Debug)]
pub struct HandRule {
    pub role: Role,
    /// How many each side starts with.
    pub count: u8,
    /// Relative rank (0 = own back rank) the piece is placed on.
    pub drop_rank: u8,
    /// Highest relative rank a drop with its push may reach.
    pub push_to_rank: u8,
}

/// When the game is drawn for lack of mating material.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum InsufficientMaterial {
    /// FIDE: K v K, K+minor v K, K+B v K+B with bishops on one colour.
    Fide,
    /// Only bare kings (and empty hands).
    KingsOnly,
}

/// What a stalemated side gets.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StalemateResult {
    Draw,
    /// The stalemated side loses (shatranj, courier).
    Loss,
}

/// How a game ends besides checkmate, repetition and insufficient material.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EndRules {
    pub stalemate: StalemateResult,
    /// A side left with its king alone loses, unless it bares the other king at once in
    /// reply: Fairy-Stockfish's `extinctionValue = loss` for all pieces with
    /// `extinctionClaim` (shatranj, courier).
    pub bare_king: bool,
    /// The n-move rule: a draw after this many moves of each side without a capture or a
    /// pawn move.
    pub move_rule: u16,
}

impl EndRules {
    /// Orthodox chess: stalemate draws, no bare-king rule, 50 moves.
    pub const STANDARD: EndRules = EndRules {
        stalemate: StalemateResult::Draw,
        bare_king: false,
        move_rule: 50,
    };
}

/// The data that defines a variant.
#[derive(Clone, Debug)]
pub struct VariantSpec {
    /// Engine id (`chess`, `gustav3`, `venator`, `venomous`).
    pub id: &'static str,
    /// Name in XBoard's `variant` command.
    pub cecp_name: &'static str,
    pub files: u8,
    pub ranks: u8,
    /// Missing squares, as (file, rank) 0-based.
    pub holes: Vec<(u8, u8)>,
    /// The roles of the army; their letters are [`Role::letter`].
    pub army: &'static [Role],
    pub start_fen: &'static str,
    pub promotions: &'static [Role],
    /// How many of the last ranks a pawn promotes on (1: the last only; makruk: 3). The
    /// promotion is compulsory on each of them.
    pub promotion_zone: u8,
    /// Whether a pawn entering the zone before its last rank may stay a pawn (grand chess).
    pub promotion_optional: bool,
    /// Promotion pieces a side may have only so many of, for a pawn to promote to them
    /// (grand chess: one queen, two rooks...).
    pub promotion_limit: &'static [(Role, u8)],
    /// For each relative rank (0-based) a pawn stands on, the highest relative rank its
    /// non-capturing forward move may reach (every rank in between is a legal move too).
    pub pawn_reach: Vec<u8>,
    pub castling: &'static [CastlingRule],
    /// The piece the king castles with: the rook, or a file's piece on the rook's square
    /// (New Zealand chess).
    pub castling_rook: Role,
    pub hand: Option<HandRule>,
    pub insufficient: InsufficientMaterial,
    pub end: EndRules,
    /// Roles this variant writes with another letter than [`Role::letter`] (upper case), so
    /// that its FEN is another program's (Capablanca's archbishop is `A`, as the Amazon is in
    /// Gustav III's Chess).
    pub letters: &'static [(Role, char)],
}

/// A castling rule resolved to squares for one colour.
#[derive(Clone, Debug)]
pub struct Castling {
    pub side: CastleSide,
    pub king_from: Square,
    pub king_to: Square,
    pub rook_from: Square,
    pub rook_to: Square,
    /// Squares strictly between king and rook: all must be empty.
    pub between: Vec<Square>,
    /// Squares the king passes or lands on (its start excluded): none may be attacked.
    pub king_path: Vec<Square>,
}

/// A compiled Snake route in mailbox offsets, with its (file, rank) offset for matching.
#[derive(Copy, Clone, Debug)]
pub struct SnakeStep {
    pub delta: Delta,
    pub target: i16,
    pub paths: [[i16; 2]; 2],
    pub steps: usize,
}

/// A compiled variant: the spec plus the tables the hot loops read.
#[derive(Debug)]
pub struct Variant {
    pub spec: VariantSpec,
    pub geometry: Geometry,
    /// Leap offsets per role.
    pub leaps: Vec<Vec<i16>>,
    /// Slide directions per role.
    pub slides: Vec<Vec<i16>>,
    pub special: Vec<Special>,
    /// (offset, roles that leap it) for every leap any role of the army makes.
    pub leap_probes: Vec<(i16, u32)>,
    /// (direction, roles that slide along it).
    pub slide_probes: Vec<(i16, u32)>,
    /// Roles with the Sissa, Snake, Venator or XBetza walkers, whose attacks are checked per
    /// piece.
    pub path_attackers: u32,
    /// The same roles as a list of role codes, for the quick "has it any?" test.
    pub path_roles: arrayvec::ArrayVec<u8, ROLE_COUNT>,
    /// Roles walked from their XBetza ([`Special::Betza`]).
    pub betza_roles: u32,
    pub snake: Vec<SnakeStep>,
    /// Orthogonal and diagonal unit steps as offsets.
    pub orth: [i16; 4],
    pub diag: [i16; 4],
    /// The two forward diagonals for a Venator's orthogonal leg along `orth[i]`.
    pub venator_diagonals: [[i16; 2]; 4],
    /// Castlings per colour.
    pub castlings: [Vec<Castling>; 2],
    /// Castling rights lost when a piece leaves or lands on a square.
    pub castle_clear: Vec<CastlingRights>,
    /// Pawn reach per colour and square: the farthest square a forward move may reach (as a
    /// number of steps).
    pub pawn_steps: [Vec<u8>; 2],
    /// Whether a square is in the promotion zone, per colour.
    pub promotion_square: [Vec<bool>; 2],
    /// Whether a pawn arriving there must promote (the last rank, or the whole zone unless
    /// promotion is optional), per colour.
    pub promotion_forced: [Vec<bool>; 2],
    /// The most pieces of a role a side may have for a pawn to promote to it (255: any).
    pub promotion_limit: [u8; ROLE_COUNT],
    /// Whether a square is in the enemy half (where a Ninja captures sideways), per colour.
    pub enemy_half: [Vec<bool>; 2],
    /// Forward step per colour.
    pub forward: [i16; 2],
    /// Whether the role belongs to the army.
    pub in_army: u32,
    /// The start position's board (piece codes by cell), for XBetza's `i` moves: a piece
    /// counts as unmoved on a square where the start position has a piece of its kind and
    /// colour. Set by the FEN reader when it first reads a position of the variant.
    pub(crate) start_board: OnceLock<Vec<u8>>,
}

fn offset_of(g: &Geometry, d: Delta) -> i16 {
    g.offset(d.0 as i32, d.1 as i32)
}

impl Variant {
    /// Compiles a spec after checking it: the error names the first inconsistency (a
    /// castling square that is a hole, a hand piece outside the army, ...).
    pub fn try_build(spec: VariantSpec) -> Result<Variant, String> {
        let s = &spec;
        let side = 1..=crate::rules::geometry::MAX_SIDE as u8;
        if !side.contains(&s.files) || !side.contains(&s.ranks) {
            return Err(format!("a {}x{} board is too large", s.files, s.ranks));
        }
        let g = Geometry::new(s.files, s.ranks, &s.holes);
        let in_army = |r: Role| s.army.contains(&r);
        for c in s.castling {
            if !in_army(Role::King) || !in_army(s.castling_rook) {
                return Err(format!(
                    "castling needs a king and a {} in the army",
                    s.castling_rook.name()
                ));
            }
            for file in [c.king_from, c.king_to, c.rook_from, c.rook_to] {
                for rank in [0, s.ranks as i32 - 1] {
                    if g.square(file as i32, rank).is_none() {
                        return Err(format!(
                            "castling uses file {} of rank {}, which is not on the board",
                            (b'a' + file) as char,
                            rank + 1
                        ));
                    }
                }
            }
            if c.king_from == c.rook_from || c.king_to == c.rook_to {
                return Err("a castling's king and rook share a square".to_string());
            }
        }
        if let Some(h) = s.hand
            && (!in_army(h.role) || h.push_to_rank >= s.ranks || h.drop_rank > h.push_to_rank)
        {
            return Err("the hand piece must be in the army and drop on the board".to_string());
        }
        if let Some(r) = s.promotions.iter().find(|r| !in_army(**r)) {
            return Err(format!(
                "promotion to {}, which is not in the army",
                r.name()
            ));
        }
        if s.pawn_reach.len() != s.ranks as usize {
            return Err("pawn reach must give one rank for each rank".to_string());
        }
        Ok(Variant::build(spec))
    }

    /// Compiles a spec. Panics on inconsistent data: specs are compiled-in, and the tests
    /// build every one of them ([`Variant::try_build`] checks first).
    pub fn build(spec: VariantSpec) -> Variant {
        let g = Geometry::new(spec.files, spec.ranks, &spec.holes);
        let mut leaps = vec![Vec::new(); ROLE_COUNT];
        let mut slides = vec![Vec::new(); ROLE_COUNT];
        let mut special = vec![Special::None; ROLE_COUNT];
        let mut leap_probes: Vec<(i16, u32)> = Vec::new();
        let mut slide_probes: Vec<(i16, u32)> = Vec::new();
        let mut path_attackers = 0;
        let mut betza_roles = 0;
        let mut in_army = 0;
        for &role in spec.army {
            in_army |= role.mask();
            let p = pattern::pattern(role);
            special[role.index()] = p.special;
            if matches!(
                p.special,
                Special::Sissa | Special::Snake | Special::Venator | Special::Betza
            ) {
                path_attackers |= role.mask();
            }
            if p.special == Special::Betza {
                betza_roles |= role.mask();
            }
            for &d in p.leaps.iter().copied().flatten() {
                let off = offset_of(&g, d);
                leaps[role.index()].push(off);
                match leap_probes.iter_mut().find(|(o, _)| *o == off) {
                    Some((_, m)) => *m |= role.mask(),
                    None => leap_probes.push((off, role.mask())),
                }
            }
            for &d in p.slides {
                let off = offset_of(&g, d);
                slides[role.index()].push(off);
                match slide_probes.iter_mut().find(|(o, _)| *o == off) {
                    Some((_, m)) => *m |= role.mask(),
                    None => slide_probes.push((off, role.mask())),
                }
            }
        }
        let path_roles = spec
            .army
            .iter()
            .filter(|r| path_attackers & r.mask() != 0)
            .map(|&r| r as u8)
            .collect();
        let snake = snake_routes()
            .into_iter()
            .map(|r: SnakeRoute| SnakeStep {
                delta: r.target,
                target: offset_of(&g, r.target),
                paths: [
                    [offset_of(&g, r.paths[0][0]), offset_of(&g, r.paths[0][1])],
                    [offset_of(&g, r.paths[1][0]), offset_of(&g, r.paths[1][1])],
                ],
                steps: r.steps,
            })
            .collect();
        let orth = pattern::ORTHOGONAL.map(|d| offset_of(&g, d));
        let diag = pattern::DIAGONAL.map(|d| offset_of(&g, d));
        let venator_diagonals =
            pattern::ORTHOGONAL.map(|d| venator_diagonals(d).map(|f| offset_of(&g, f)));

        let last = spec.ranks - 1;
        let mut castle_clear = vec![CastlingRights::NONE; CELLS];
        let castlings = Color::ALL.map(|c| {
            let rank = if c == Color::White { 0 } else { last as i32 };
            let sq = |file: u8| {
                g.square(file as i32, rank)
                    .expect("castling square on board")
            };
            spec.castling
                .iter()
                .map(|r| {
                    let king = &mut castle_clear[sq(r.king_from).index()];
                    *king = king.with(CastlingRights::both(c));
                    let rook = &mut castle_clear[sq(r.rook_from).index()];
                    *rook = rook.with(CastlingRights::one(c, r.side));
                    let span = |a: u8, b: u8| -> Vec<u8> {
                        if a < b {
                            (a + 1..b).collect()
                        } else {
                            (b + 1..a).collect()
                        }
                    };
                    let mut king_path: Vec<Square> =
                        span(r.king_from, r.king_to).into_iter().map(sq).collect();
                    king_path.push(sq(r.king_to));
                    Castling {
                        side: r.side,
                        king_from: sq(r.king_from),
                        king_to: sq(r.king_to),
                        rook_from: sq(r.rook_from),
                        rook_to: sq(r.rook_to),
                        between: span(r.king_from, r.rook_from).into_iter().map(sq).collect(),
                        king_path,
                    }
                })
                .collect::<Vec<_>>()
        });

        let mut pawn_steps = [vec![0u8; CELLS], vec![0u8; CELLS]];
        let mut promotion_square = [vec![false; CELLS], vec![false; CELLS]];
        let mut promotion_forced = [vec![false; CELLS], vec![false; CELLS]];
        let mut enemy_half = [vec![false; CELLS], vec![false; CELLS]];
        for &s in g.squares() {
            for c in Color::ALL {
                let rel = g.relative_rank(s, c == Color::White);
                let reach = spec.pawn_reach.get(rel as usize).copied().unwrap_or(0) as i32;
                pawn_steps[c.index()][s.index()] = (reach - rel).max(0) as u8;
                promotion_square[c.index()][s.index()] =
                    rel > last as i32 - spec.promotion_zone as i32;
                promotion_forced[c.index()][s.index()] = promotion_square[c.index()][s.index()]
                    && (rel == last as i32 || !spec.promotion_optional);
                enemy_half[c.index()][s.index()] = rel >= spec.ranks as i32 / 2;
            }
        }
        let mut promotion_limit = [u8::MAX; ROLE_COUNT];
        for &(role, n) in spec.promotion_limit {
            promotion_limit[role.index()] = n;
        }
        let forward = [g.offset(0, 1), g.offset(0, -1)];
        Variant {
            spec,
            geometry: g,
            leaps,
            slides,
            special,
            leap_probes,
            slide_probes,
            path_attackers,
            path_roles,
            betza_roles,
            snake,
            orth,
            diag,
            venator_diagonals,
            castlings,
            castle_clear,
            pawn_steps,
            promotion_square,
            promotion_forced,
            promotion_limit,
            enemy_half,
            forward,
            in_army,
            start_board: OnceLock::new(),
        }
    }

    /// Whether the piece of code `code` on `sq` counts as unmoved: the start position has
    /// the same piece there.
    #[inline]
    pub(crate) fn unmoved(&self, sq: Square, code: u8) -> bool {
        self.start_board
            .get()
            .is_some_and(|b| b.get(sq.index()) == Some(&code))
    }

    /// The engine id (`chess`, `gustav3`, `venator`, `venomous`).
    pub fn id(&self) -> &'static str {
        self.spec.id
    }

    /// Whether `role` is part of this variant's army.
    #[inline]
    pub fn has_role(&self, role: Role) -> bool {
        self.in_army & role.mask() != 0
    }

    /// The upper-case letter this variant writes `role` with.
    pub fn letter(&self, role: Role) -> char {
        letter_in(self.spec.letters, role)
    }

    /// The role written with `letter` (either case) in this variant.
    pub fn role_of_letter(&self, letter: char) -> Option<Role> {
        let up = letter.to_ascii_uppercase();
        self.spec
            .army
            .iter()
            .copied()
            .find(|&r| self.letter(r) == up)
    }

    /// Every variant the engine knows.
    /// They are data: variants/builtin.ini, embedded and read the first time (a test reads it
    /// and plays every perft suite, so a fault in it cannot reach a release).
    pub fn all() -> [&'static Variant; 4] {
        static CELL: OnceLock<[Variant; 4]> = OnceLock::new();
        let v = CELL.get_or_init(|| {
            let text = include_str!("../../variants/builtin.ini");
            let specs = crate::rules::variant_file::builtin_specs(text)
                .unwrap_or_else(|e| panic!("the embedded variants/builtin.ini: {e}"));
            let [chess, gustav3, venator, venomous]: [VariantSpec; 4] = specs
                .try_into()
                .unwrap_or_else(|_| panic!("variants/builtin.ini holds four variants"));
            [chess, gustav3, venator, venomous].map(Variant::build)
        });
        [&v[0], &v[1], &v[2], &v[3]]
    }

    /// Looks a variant up by engine id, UCI_Variant value or CECP name: the built-in ones,
    /// then those loaded from files ([`crate::rules::variant_file`]).
    pub fn by_name(name: &str) -> Option<&'static Variant> {
        let name = name.trim().to_ascii_lowercase();
        Variant::all()
            .into_iter()
            .chain(crate::rules::variant_file::loaded())
            .find(|v| v.spec.id == name || v.spec.cecp_name == name)
    }

    /// [`Variant::by_name`], or the error every tool gives for a name it does not know.
    pub fn lookup(name: &str) -> Result<&'static Variant, String> {
        Variant::by_name(name).ok_or_else(|| {
            format!(
                "unknown variant '{}' (known: {})",
                name.trim(),
                Variant::names()
            )
        })
    }

    /// Orthodox chess.
    pub fn chess() -> &'static Variant {
        Variant::all()[0]
    }

    /// The names accepted by [`Variant::by_name`], for messages.
    pub fn names() -> String {
        Variant::known()
            .iter()
            .map(|v| v.spec.id)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The built-in variants, then those loaded from files.
    pub fn known() -> Vec<&'static Variant> {
        let mut all = Variant::all().to_vec();
        all.extend(crate::rules::variant_file::loaded());
        all
    }
}
