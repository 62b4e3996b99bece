//! Loading variant files ([`crate::rules::variant_file`] reads them): each start position is
//! checked with the FEN reader, then the variants are registered.

use std::path::Path;

use crate::rules::position::Position;
use crate::rules::variant::Variant;
use crate::rules::variant_file::{FileError, compile, register};

/// Parses and checks every variant of a file's text, start positions included, without
/// registering any. `file` names the text in messages.
pub fn parse(file: &str, text: &str) -> Result<Vec<&'static Variant>, FileError> {
    compile(file, text, &|v| {
        Position::from_fen(v, v.spec.start_fen)
            .map(|_| ())
            .map_err(|e| e.to_string())
    })
}

/// Loads a file's variants and makes them known to [`Variant::by_name`]: all of them, or
/// none if any has an error.
pub fn load(path: &Path) -> Result<Vec<&'static Variant>, FileError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| FileError {
        file: file.clone(),
        line: 0,
        fault: format!("cannot read it: {e}"),
    })?;
    let variants = parse(&file, &text)?;
    register(&variants);
    Ok(variants)
}
