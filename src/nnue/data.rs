//! Training data files: positions sampled from self-play with the search score and the game
//! result, in a compact binary format with a versioned header.
//!
//! Layout (little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `SISSADAT` |
//! | 2 | format version ([`VERSION`]) |
//! | 1 + n | variant id: its length, then its ASCII letters |
//! | 1, 1, 2 | files, ranks and real squares of the variant's board |
//! | 8 | number of records |
//! | ... | the records |
//!
//! A record: one flag byte (bit 0 the side to move, 1 for Black; bits 1-2 the game's result
//! for White: 0 loss, 1 draw, 2 win), the search score (i16, centipawns, side to move's
//! view), the game ply (u16), White's and Black's pieces in hand (u8 each), an occupancy
//! bitmap over the board's real squares in [`crate::rules::geometry::Geometry::squares`] order
//! (one bit a square, rounded up to whole bytes), then one piece code a set bit (colour bit
//! and role, as on the board). Castling rights, en passant and the move counters are not
//! kept: the evaluation does not read them.

use std::collections::HashSet;
use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;

use crate::rules::position::Position;
use crate::rules::role::{Color, Piece};
use crate::rules::variant::Variant;

/// The first bytes of every data file.
pub const MAGIC: &[u8; 8] = b"SISSADAT";
/// The format version this build reads and writes.
pub const VERSION: u16 = 1;
/// Bytes of a record before its occupancy bitmap.
const FIXED: usize = 7;

/// The game's result from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    BlackWins = 0,
    Draw = 1,
    WhiteWins = 2,
}

impl GameResult {
    /// The result of a game won by `winner` (`None`: drawn).
    pub fn of_winner(winner: Option<Color>) -> GameResult {
        match winner {
            None => GameResult::Draw,
            Some(Color::White) => GameResult::WhiteWins,
            Some(Color::Black) => GameResult::BlackWins,
        }
    }

    fn from_bits(bits: u8) -> Option<GameResult> {
        match bits {
            0 => Some(GameResult::BlackWins),
            1 => Some(GameResult::Draw),
            2 => Some(GameResult::WhiteWins),
            _ => None,
        }
    }

    /// The result as a score for the side `c`: 1, 1/2 or 0.
    pub fn score_for(self, c: Color) -> f32 {
        let white = self as u8 as f32 / 2.0;
        if c == Color::White {
            white
        } else {
            1.0 - white
        }
    }
}

/// One position with its label, decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    pub side: Color,
    pub result: GameResult,
    /// Search score in centipawns, from the side to move's view.
    pub score: i16,
    /// Plies played in the game before this position.
    pub ply: u16,
    /// Pieces in hand (Venomous Ninja pawns), White's and Black's.
    pub hands: [u8; 2],
    /// The occupied squares as (index into the variant's square list, piece), in that order.
    pub pieces: Vec<(u16, Piece)>,
}

impl Sample {
    /// The sample of `pos` (its board, hands and side to move).
    pub fn of(pos: &Position, score: i16, result: GameResult) -> Sample {
        let g = &pos.variant().geometry;
        let pieces = g
            .squares()
            .iter()
            .enumerate()
            .filter_map(|(i, &sq)| pos.piece_at(sq).map(|p| (i as u16, p)))
            .collect();
        Sample {
            side: pos.side_to_move(),
            result,
            score,
            ply: pos.ply().min(u16::MAX as usize) as u16,
            hands: [pos.hand(Color::White), pos.hand(Color::Black)],
            pieces,
        }
    }

    /// Appends the record to `out`; `squares` is the board's real square count.
    pub fn encode(&self, squares: usize, out: &mut Vec<u8>) {
        out.push(u8::from(self.side == Color::Black) | (self.result as u8) << 1);
        out.extend_from_slice(&self.score.to_le_bytes());
        out.extend_from_slice(&self.ply.to_le_bytes());
        out.extend_from_slice(&self.hands);
        let start = out.len();
        out.resize(start + squares.div_ceil(8), 0);
        for &(i, _) in &self.pieces {
            out[start + i as usize / 8] |= 1 << (i % 8);
        }
        out.extend(self.pieces.iter().map(|&(_, p)| p.code()));
    }

    /// Reads one record from the front of `bytes`: the sample and the bytes it took, or
    /// what is wrong with it.
    pub fn decode(bytes: &[u8], squares: usize) -> Result<(Sample, usize), String> {
        let map_len = squares.div_ceil(8);
        if bytes.len() < FIXED + map_len {
            return Err("truncated".to_string());
        }
        let flags = bytes[0];
        let result = GameResult::from_bits((flags >> 1) & 3)
            .filter(|_| flags >> 3 == 0)
            .ok_or_else(|| format!("bad flag byte {flags:#04x}"))?;
        let side = if flags & 1 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let score = i16::from_le_bytes([bytes[1], bytes[2]]);
        let ply = u16::from_le_bytes([bytes[3], bytes[4]]);
        let hands = [bytes[5], bytes[6]];
        let map = &bytes[FIXED..FIXED + map_len];
        let mut squares_set = Vec::new();
        for (b, &byte) in map.iter().enumerate() {
            for bit in 0..8 {
                if byte & (1 << bit) != 0 {
                    let i = b * 8 + bit;
                    if i >= squares {
                        return Err(format!("occupancy bit {i} beyond the {squares} squares"));
                    }
                    squares_set.push(i as u16);
                }
            }
        }
        let codes_start = FIXED + map_len;
        let end = codes_start + squares_set.len();
        if bytes.len() < end {
            return Err("truncated".to_string());
        }
        let mut pieces = Vec::with_capacity(squares_set.len());
        for (&i, &code) in squares_set.iter().zip(&bytes[codes_start..end]) {
            let p = Piece::from_code(code).ok_or_else(|| format!("bad piece code {code}"))?;
            pieces.push((i, p));
        }
        let sample = Sample {
            side,
            result,
            score,
            ply,
            hands,
            pieces,
        };
        Ok((sample, end))
    }

    /// A key of the position alone (board, hands, side to move), for removing duplicates:
    /// FNV-1a over the record's position bytes.
    pub fn key(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |b: u8| {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        };
        eat(u8::from(self.side == Color::Black));
        eat(self.hands[0]);
        eat(self.hands[1]);
        for &(i, p) in &self.pieces {
            eat(i as u8);
            eat((i >> 8) as u8);
            eat(p.code());
        }
        h
    }

    /// The position as X-FEN (no castling, no en passant: the record does not keep them).
    pub fn fen(&self, v: &'static Variant) -> Result<String, String> {
        self.position(v).map(|pos| pos.fen())
    }

    /// The position, checked by the FEN reader (no castling rights, no en passant, clocks
    /// `0 1`: the record does not keep them).
    pub fn position(&self, v: &'static Variant) -> Result<Position, String> {
        let g = &v.geometry;
        let mut pos = Position::empty(v);
        for &(i, p) in &self.pieces {
            let sq = *g
                .squares()
                .get(i as usize)
                .ok_or_else(|| format!("square {i} beyond the board"))?;
            pos.put_piece(sq, p);
        }
        if v.spec.hand.is_none() && self.hands != [0, 0] {
            return Err(format!("{} has no hand, the record does", v.id()));
        }
        pos.hands = self.hands;
        pos.side = self.side;
        let fen = pos.fen();
        Position::from_fen(v, &fen).map_err(|e| format!("{fen}: {e}"))
    }
}

/// The header of a data file.
#[derive(Clone, Copy, Debug)]
pub struct Header {
    pub variant: &'static Variant,
    pub count: u64,
}

fn header_bytes(v: &'static Variant, count: u64) -> Vec<u8> {
    let g = &v.geometry;
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    let id = v.id().as_bytes();
    out.push(id.len() as u8);
    out.extend_from_slice(id);
    out.push(g.files());
    out.push(g.ranks());
    out.extend_from_slice(&(g.square_count() as u16).to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    out
}

/// Reads a header from the front of `bytes`: the header and its length.
fn read_header(bytes: &[u8]) -> Result<(Header, usize), String> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err("not a Sissa data file (no SISSADAT magic)".to_string());
    }
    let short = || "truncated header".to_string();
    let at = |i: usize| bytes.get(i).copied().ok_or_else(short);
    let version = u16::from_le_bytes([at(8)?, at(9)?]);
    if version != VERSION {
        return Err(format!(
            "format version {version}; this build reads version {VERSION}"
        ));
    }
    let n = at(10)? as usize;
    let id = bytes.get(11..11 + n).ok_or_else(short)?;
    let id = std::str::from_utf8(id).map_err(|_| "variant id is not text".to_string())?;
    let v = Variant::lookup(id)?;
    let i = 11 + n;
    let (files, ranks) = (at(i)?, at(i + 1)?);
    let squares = u16::from_le_bytes([at(i + 2)?, at(i + 3)?]) as usize;
    let g = &v.geometry;
    if (files, ranks, squares) != (g.files(), g.ranks(), g.square_count()) {
        return Err(format!(
            "board {files}x{ranks} with {squares} squares, but {id} has {}x{} with {}",
            g.files(),
            g.ranks(),
            g.square_count()
        ));
    }
    let count = bytes.get(i + 4..i + 12).ok_or_else(short)?;
    let count = u64::from_le_bytes(count.try_into().map_err(|_| short())?);
    Ok((Header { variant: v, count }, i + 12))
}

/// A whole data file in memory: the header and the record bytes, with an offset a record.
pub struct DataSet {
    pub variant: &'static Variant,
    bytes: Vec<u8>,
    offsets: Vec<usize>,
}

impl DataSet {
    /// Reads and checks a file: its header, and that it holds exactly the records the header
    /// counts, each well formed. Errors name the file and the fault.
    pub fn read(path: &Path) -> Result<DataSet, String> {
        let mut bytes = Vec::new();
        File::open(path)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        DataSet::parse(bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Reads a file's bytes (see [`DataSet::read`]).
    pub fn parse(mut bytes: Vec<u8>) -> Result<DataSet, String> {
        let (header, start) = read_header(&bytes)?;
        let squares = header.variant.geometry.square_count();
        let mut offsets = Vec::new();
        let mut at = start;
        while at < bytes.len() {
            if offsets.len() as u64 == header.count {
                return Err(format!(
                    "{} bytes after the last of the {} records",
                    bytes.len() - at,
                    header.count
                ));
            }
            let (_, used) = Sample::decode(&bytes[at..], squares).map_err(|e| {
                format!(
                    "record {} of {} at byte {at}: {e}",
                    offsets.len() + 1,
                    header.count
                )
            })?;
            offsets.push(at - start);
            at += used;
        }
        if (offsets.len() as u64) < header.count {
            return Err(format!(
                "truncated: {} of the {} records the header counts",
                offsets.len(),
                header.count
            ));
        }
        bytes.drain(..start);
        Ok(DataSet {
            variant: header.variant,
            bytes,
            offsets,
        })
    }

    pub fn len(&self) -> usize {
        self.offsets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.offsets.is_empty()
    }

    /// The `i`-th sample (checked when the file was read).
    pub fn get(&self, i: usize) -> Sample {
        let squares = self.variant.geometry.square_count();
        Sample::decode(&self.bytes[self.offsets[i]..], squares)
            .map(|(s, _)| s)
            .expect("records are checked when the file is read")
    }
}

/// Writes a data file record by record; the header's count is filled in by
/// [`DataWriter::finish`]. Samples whose position was written before are skipped.
pub struct DataWriter {
    variant: &'static Variant,
    out: BufWriter<File>,
    count: u64,
    seen: HashSet<u64>,
    buffer: Vec<u8>,
}

impl DataWriter {
    pub fn create(path: &Path, variant: &'static Variant) -> Result<DataWriter, String> {
        let file = File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut out = BufWriter::new(file);
        out.write_all(&header_bytes(variant, 0))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(DataWriter {
            variant,
            out,
            count: 0,
            seen: HashSet::new(),
            buffer: Vec::new(),
        })
    }

    /// Writes `s` unless its position is already in the file; true when written.
    pub fn write(&mut self, s: &Sample) -> Result<bool, String> {
        if !self.seen.insert(s.key()) {
            return Ok(false);
        }
        self.buffer.clear();
        s.encode(self.variant.geometry.square_count(), &mut self.buffer);
        self.out
            .write_all(&self.buffer)
            .map_err(|e| e.to_string())?;
        self.count += 1;
        Ok(true)
    }

    /// Records written so far.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Writes the final count into the header and closes the file.
    pub fn finish(mut self) -> Result<u64, String> {
        let header = header_bytes(self.variant, self.count);
        let count_at = header.len() as u64 - 8;
        self.out
            .seek(SeekFrom::Start(count_at))
            .and_then(|_| self.out.write_all(&self.count.to_le_bytes()))
            .and_then(|_| self.out.flush())
            .map_err(|e| e.to_string())?;
        Ok(self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples(v: &'static Variant) -> Vec<Sample> {
        let mut pos = Position::startpos(v);
        let mut out = Vec::new();
        for i in 0..12 {
            let result = [
                GameResult::WhiteWins,
                GameResult::Draw,
                GameResult::BlackWins,
            ][i % 3];
            out.push(Sample::of(&pos, (i as i16 - 6) * 37, result));
            let moves = pos.legal_moves();
            pos.make(moves[(i * 7) % moves.len()]);
        }
        out
    }

    #[test]
    fn records_round_trip_in_every_variant() {
        for v in Variant::all() {
            let squares = v.geometry.square_count();
            for s in samples(v) {
                let mut bytes = Vec::new();
                s.encode(squares, &mut bytes);
                let (back, used) = Sample::decode(&bytes, squares).expect("decode");
                assert_eq!(used, bytes.len());
                assert_eq!(back, s);
                let fen = s.fen(v).expect("fen");
                let pos = Position::from_fen(v, &fen).expect("fen reads");
                assert_eq!(Sample::of(&pos, s.score, s.result).pieces, s.pieces);
            }
        }
    }

    #[test]
    fn files_round_trip_and_faults_are_named() {
        let v = Variant::by_name("venomous").expect("venomous");
        let dir = std::env::temp_dir().join(format!("sissa-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("a.bin");
        let mut w = DataWriter::create(&path, v).expect("create");
        let all = samples(v);
        for s in &all {
            assert!(w.write(s).expect("write"));
        }
        assert!(!w.write(&all[0]).expect("write"), "duplicates are skipped");
        assert_eq!(w.finish().expect("finish"), all.len() as u64);
        let d = DataSet::read(&path).expect("read");
        assert_eq!(d.variant.id(), "venomous");
        assert_eq!((0..d.len()).map(|i| d.get(i)).collect::<Vec<_>>(), all);

        let bytes = std::fs::read(&path).expect("bytes");
        let err = |b: Vec<u8>| DataSet::parse(b).err().unwrap_or_default();
        assert!(err(bytes[..bytes.len() - 3].to_vec()).contains("truncated"));
        assert!(err(bytes[..20].to_vec()).contains("truncated"));
        assert!(err(b"PK\x03\x04 a zip file".to_vec()).contains("not a Sissa data file"));
        let mut extra = bytes.clone();
        extra.push(0);
        assert!(err(extra).contains("bytes after the last"));
        let mut version = bytes.clone();
        version[8] = 9;
        assert!(err(version).contains("format version 9"));
        let mut foreign = header_bytes(Variant::chess(), 0);
        foreign[11..16].copy_from_slice(b"shogi");
        assert!(err(foreign).contains("unknown variant 'shogi'"));
        let mut board = bytes.clone();
        board[11 + "venomous".len()] = 9;
        assert!(err(board).contains("board 9x10"));
        std::fs::remove_dir_all(&dir).ok();
    }
}
