//! PGN: writing games (tags, SAN movetext with comments, line-wrapped) and reading them back
//! (tags, SAN in the forms of [`crate::notation::san`], comments, NAGs, variations skipped).
//!
//! The `Variant` tag names the variant by engine id (`chess`, `gustav3`, `venator`,
//! `venomous`; `Standard` is read as chess); `FEN` with `SetUp "1"` gives the start position.

use crate::notation::san::{SanError, parse_san};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::role::Color;
use crate::rules::variant::Variant;

/// One move of a game as PGN stores it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnMove {
    pub san: String,
    /// The text of the comment after the move, if any (comments are joined with a space).
    pub comment: Option<String>,
}

/// A game: tags in order, moves, the result token and a comment before the first move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<PgnMove>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// A comment that precedes every move (used for the end reason of a game without moves).
    pub first_comment: Option<String>,
}

/// Why a PGN text could not be read or replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnError {
    /// The text is not PGN: an unterminated tag, comment or variation, a stray character.
    Syntax { line: usize, reason: String },
    /// The tags name no known variant or carry a bad FEN.
    Setup { game: usize, reason: String },
    /// A move that does not read as a legal move.
    Move {
        game: usize,
        ply: usize,
        error: SanError,
    },
}

impl std::fmt::Display for PgnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PgnError::Syntax { line, reason } => write!(f, "PGN line {line}: {reason}"),
            PgnError::Setup { game, reason } => write!(f, "game {game}: {reason}"),
            PgnError::Move { game, ply, error } => {
                let number = ply / 2 + 1;
                let dots = if ply % 2 == 0 { "." } else { "..." };
                write!(f, "game {game}, move {number}{dots}: {error}")
            }
        }
    }
}

impl std::error::Error for PgnError {}

impl PgnGame {
    /// The value of a tag, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The variant the tags name (chess without a `Variant` tag).
    pub fn variant(&self) -> Option<&'static Variant> {
        match self.tag("Variant") {
            None => Some(Variant::chess()),
            Some(v) if v.eq_ignore_ascii_case("standard") => Some(Variant::chess()),
            Some(v) => Variant::by_name(v),
        }
    }

    /// The start position the tags give.
    pub fn start_position(&self, game: usize) -> Result<Position, PgnError> {
        let setup = |reason: String| PgnError::Setup { game, reason };
        let name = self.tag("Variant").unwrap_or("chess");
        let v = match self.variant() {
            Some(v) => v,
            None => Variant::lookup(name).map_err(setup)?,
        };
        match self.tag("FEN") {
            Some(fen) => Position::from_fen(v, fen).map_err(|e| setup(format!("bad FEN tag: {e}"))),
            None => Ok(Position::startpos(v)),
        }
    }

    /// Plays the moves from the start position; returns the final position.
    pub fn replay(&self, game: usize) -> Result<Position, PgnError> {
        self.replay_each(game, |_, _, _| {})
    }

    /// [`PgnGame::replay`], showing `visit` each position before its move is made, with the
    /// move and its PGN form (comment included).
    pub fn replay_each(
        &self,
        game: usize,
        mut visit: impl FnMut(&Position, Move, &PgnMove),
    ) -> Result<Position, PgnError> {
        let mut pos = self.start_position(game)?;
        for (ply, m) in self.moves.iter().enumerate() {
            let mv =
                parse_san(&mut pos, &m.san).map_err(|error| PgnError::Move { game, ply, error })?;
            visit(&pos, mv, m);
            pos.make(mv);
        }
        Ok(pos)
    }

    /// The game's end as its result token says: `Some(winner)` (`None` a draw) for a
    /// finished game, `None` for `*` or anything else.
    pub fn winner(&self) -> Option<Option<Color>> {
        match self.result.as_str() {
            "1-0" => Some(Some(Color::White)),
            "0-1" => Some(Some(Color::Black)),
            "1/2-1/2" => Some(None),
            _ => None,
        }
    }

    /// The game as PGN text, ending with a blank line. Move text lines stay within 80
    /// characters where the tokens allow it.
    pub fn to_pgn(&self) -> String {
        let mut out = String::new();
        for (name, value) in &self.tags {
            let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
            out.push_str(&format!("[{name} \"{escaped}\"]\n"));
        }
        out.push('\n');
        let start_ply = self.start_ply();
        let mut tokens: Vec<String> = Vec::new();
        if let Some(c) = &self.first_comment {
            tokens.push(format!("{{{}}}", clean_comment(c)));
        }
        for (i, m) in self.moves.iter().enumerate() {
            let ply = start_ply + i;
            let number = ply / 2 + 1;
            if ply.is_multiple_of(2) {
                tokens.push(format!("{number}."));
            } else if i == 0 || self.moves[i - 1].comment.is_some() {
                tokens.push(format!("{number}..."));
            }
            tokens.push(m.san.clone());
            if let Some(c) = &m.comment {
                tokens.push(format!("{{{}}}", clean_comment(c)));
            }
        }
        tokens.push(self.result.clone());
        let mut line = String::new();
        for t in tokens {
            if !line.is_empty() && line.len() + 1 + t.len() > 80 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&t);
        }
        out.push_str(&line);
        out.push_str("\n\n");
        out
    }

    /// The ply number of the first move (0 = White's first move) from the FEN's move number
    /// and side to move.
    fn start_ply(&self) -> usize {
        let Some(fen) = self.tag("FEN") else {
            return 0;
        };
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let black = fields.get(1) == Some(&"b");
        let number: usize = fields
            .get(5)
            .and_then(|n| n.parse().ok())
            .unwrap_or(1)
            .max(1);
        (number - 1) * 2 + black as usize
    }
}

/// A comment must not contain `}`.
fn clean_comment(c: &str) -> String {
    c.replace('}', ")").replace('{', "(")
}

/// Reads every game of a PGN file. A file that is not UTF-8 is read as Latin-1 (older PGN
/// files often are; every byte is a Latin-1 character), with a note on stderr.
pub fn read_pgn_file(path: &std::path::Path) -> Result<Vec<PgnGame>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            eprintln!(
                "sissa: {} is not UTF-8 (byte {}); read as Latin-1",
                path.display(),
                e.utf8_error().valid_up_to()
            );
            e.into_bytes().into_iter().map(char::from).collect()
        }
    };
    parse_pgn(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads every game of a PGN text.
pub fn parse_pgn(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut started = false;
    let mut chars = text.char_indices().peekable();
    let mut line = 1;
    let syntax = |line: usize, reason: &str| PgnError::Syntax {
        line,
        reason: reason.to_string(),
    };
    while let Some(&(_, c)) = chars.peek() {
        match c {
            '\n' => {
                line += 1;
                chars.next();
            }
            c if c.is_whitespace() => {
                chars.next();
            }
            '%' => {
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        line += 1;
                        break;
                    }
                }
            }
            '[' => {
                if !game.moves.is_empty() {
                    return Err(syntax(line, "a tag inside movetext (missing result?)"));
                }
                chars.next();
                let mut name = String::new();
                while let Some(&(_, c)) = chars.peek() {
                    if c.is_alphanumeric() || c == '_' {
                        name.push(c);
                        chars.next();
                    } else {
                        break;
                    }
                }
                while chars.peek().is_some_and(|&(_, c)| c == ' ' || c == '\t') {
                    chars.next();
                }
                if name.is_empty() || chars.next().map(|(_, c)| c) != Some('"') {
                    return Err(syntax(line, "a tag is written [Name \"value\"]"));
                }
                let mut value = String::new();
                loop {
                    match chars.next().map(|(_, c)| c) {
                        Some('\\') => {
                            if let Some((_, c)) = chars.next() {
                                value.push(c);
                            }
                        }
                        Some('"') => break,
                        Some('\n') | None => {
                            return Err(syntax(line, "unterminated tag value"));
                        }
                        Some(c) => value.push(c),
                    }
                }
                while chars.peek().is_some_and(|&(_, c)| c == ' ' || c == '\t') {
                    chars.next();
                }
                if chars.next().map(|(_, c)| c) != Some(']') {
                    return Err(syntax(line, "a tag must end with ]"));
                }
                game.tags.push((name, value));
                started = true;
            }
            '{' => {
                let start_line = line;
                chars.next();
                let mut comment = String::new();
                loop {
                    match chars.next().map(|(_, c)| c) {
                        Some('}') => break,
                        Some('\n') => {
                            line += 1;
                            comment.push(' ');
                        }
                        Some(c) => comment.push(c),
                        None => return Err(syntax(start_line, "unterminated comment")),
                    }
                }
                let comment = comment.trim().to_string();
                let slot = match game.moves.last_mut() {
                    Some(m) => &mut m.comment,
                    None => &mut game.first_comment,
                };
                match slot {
                    Some(old) => {
                        old.push(' ');
                        old.push_str(&comment);
                    }
                    None => *slot = Some(comment),
                }
                started = true;
            }
            ';' => {
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        line += 1;
                        break;
                    }
                }
            }
            '(' => {
                let start_line = line;
                let mut depth = 0;
                loop {
                    match chars.next().map(|(_, c)| c) {
                        Some('(') => depth += 1,
                        Some(')') => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        Some('{') => {
                            for (_, c) in chars.by_ref() {
                                if c == '\n' {
                                    line += 1;
                                }
                                if c == '}' {
                                    break;
                                }
                            }
                        }
                        Some('\n') => line += 1,
                        Some(_) => {}
                        None => return Err(syntax(start_line, "unterminated variation")),
                    }
                }
            }
            ')' => return Err(syntax(line, "unmatched )")),
            _ => {
                let mut token = String::new();
                while let Some(&(_, c)) = chars.peek() {
                    if c.is_whitespace() || "{}()[];".contains(c) {
                        break;
                    }
                    token.push(c);
                    chars.next();
                }
                if token.is_empty() {
                    return Err(syntax(line, &format!("unexpected '{c}'")));
                }
                started = true;
                match token.as_str() {
                    "1-0" | "0-1" | "1/2-1/2" | "*" => {
                        game.result = token;
                        games.push(std::mem::take(&mut game));
                        started = false;
                    }
                    t if t.starts_with('$') => {}
                    t => {
                        let san = if t.starts_with("0-0")
                            || !t.starts_with(|c: char| c.is_ascii_digit())
                        {
                            t
                        } else {
                            let rest = t.trim_start_matches(|c: char| c.is_ascii_digit());
                            if !rest.starts_with('.') {
                                return Err(syntax(line, &format!("unexpected token '{t}'")));
                            }
                            rest.trim_start_matches('.')
                        };
                        if !san.is_empty() {
                            game.moves.push(PgnMove {
                                san: san.to_string(),
                                comment: None,
                            });
                        }
                    }
                }
            }
        }
    }
    if started {
        return Err(syntax(line, "the last game has no result token"));
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes() {
        let text = "[Event \"t\"]\n[Variant \"venomous\"]\n\n1. e4 {+0.10/3 0.01s} e7 2. J@e3 \
                    $1 (2. d4 {x} d5) 2... J@e8 {book} 1/2-1/2\n\n[Event \"u\"]\n\n1. e4 *\n";
        let games = parse_pgn(text).expect("parse");
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.tag("Variant"), Some("venomous"));
        assert_eq!(g.moves.len(), 4);
        assert_eq!(g.moves[0].comment.as_deref(), Some("+0.10/3 0.01s"));
        assert_eq!(g.result, "1/2-1/2");
        let pos = g.replay(1).expect("replay");
        assert_eq!(pos.ply(), 4);
        let again = parse_pgn(&g.to_pgn()).expect("reparse");
        assert_eq!(&again[0], g);
    }

    #[test]
    fn noise_never_panics() {
        let alphabet: Vec<char> =
            "abcdefghijKQRBNPJSXWFVAOx0123456789=+#@-/.[]{}()\";$%*?! \n\u{e9}\u{1F600}"
                .chars()
                .collect();
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        for round in 0..4000 {
            let len = round % 40;
            let text: String = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    alphabet[(x % alphabet.len() as u64) as usize]
                })
                .collect();
            if let Ok(games) = parse_pgn(&text) {
                for (i, g) in games.iter().enumerate() {
                    let _ = g.replay(i + 1);
                    let _ = g.to_pgn();
                }
            }
            for v in Variant::all() {
                let mut p = Position::startpos(v);
                let _ = parse_san(&mut p, &text);
                let _ = parse_san(&mut p, text.trim());
            }
        }
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!(parse_pgn("[Event \"x\n").is_err());
        assert!(parse_pgn("1. e4 {never closed").is_err());
        assert!(parse_pgn("1. e4 e5").is_err());
        assert!(parse_pgn("1. e4 ) 1-0").is_err());
        assert!(parse_pgn("1. e4 } 1-0").is_err());
        assert!(parse_pgn("] 1-0").is_err());
        let games = parse_pgn("1. e5 1-0").expect("syntax is fine");
        assert!(matches!(games[0].replay(1), Err(PgnError::Move { .. })));
        let games = parse_pgn("[Variant \"shogi\"]\n1. e4 1-0").expect("syntax is fine");
        assert!(matches!(games[0].replay(1), Err(PgnError::Setup { .. })));
    }
}
