//! The protocol front ends: UCI and CECP (XBoard), chosen by the first command.
//!
//! PLACEHOLDER: issue 4 builds this.

/// Runs the engine on standard input and output until `quit` or end of input.
pub fn run() -> Result<(), String> {
    Err("the protocol front end is not built yet".to_string())
}
