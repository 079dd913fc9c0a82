//! Pure game logic (the twin of `referee/rules`): boards, variants and options, legal
//! plays, judging a written play, the doubling cube and the game flow. It knows nothing of
//! notation.

pub mod board;
pub mod cube;
pub mod flow;
pub mod judge;
pub mod movegen;
pub mod options;
pub mod variants;
