//! `sissa selfplay`: in-process matches between two configurations of the engine.
