//! Adjudication (the twin of `referee/adjudication` for the record fast path): what a
//! record's game says, checked against the rules' game flow.

pub mod game;
