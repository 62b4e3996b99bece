//! The variants, one small data file each. Adding a variant means adding a file here and a
//! line in [`crate::variant::Variant::all`]; the generator does not change.

pub mod chess;
pub mod gustav3;
pub mod venator;
pub mod venomous;

/// The holes of the Gustavian board: files a and j exist only on ranks 1 and 8.
pub(crate) fn gustavian_holes() -> Vec<(u8, u8)> {
    (1..7).flat_map(|r| [(0, r), (9, r)]).collect()
}

/// Orthodox pawn ranges for a board of `ranks` ranks: a double step from the second rank,
/// one step elsewhere.
pub(crate) fn orthodox_pawn_reach(ranks: u8) -> Vec<u8> {
    (0..ranks)
        .map(|r| if r == 1 { 3 } else { (r + 1).min(ranks - 1) })
        .collect()
}
