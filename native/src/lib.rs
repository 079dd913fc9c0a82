//! The native core of nardy-referee, in the layers of the Python engine (which stays the
//! reference and the fallback), each importing only those before it:
//!
//! - `error`, `vocabulary`: the caller's errors and the words every layer shares;
//! - `notation`: play texts and the `.mat` record reader (pure syntax, no rules);
//! - `rules`: the board, the variants and options, legal plays, judging, the cube and the
//!   game flow (no notation);
//! - `bridge`: a play's steps as written moves and canonical text;
//! - `engine`: a player for the nardy games (a network trained by self-play, searched at
//!   0 or 1 ply), beside the move generator it reuses;
//! - `adjudication`: one record game checked by driving the game flow;
//! - `py` (feature `python`): the Python module `nardy_native`.
//!
//! `tests/layers.rs` holds the order and the absence of import cycles.

pub mod adjudication;
pub mod bridge;
pub mod engine;
pub mod error;
pub mod notation;
pub mod rules;
pub mod vocabulary;

#[cfg(feature = "python")]
mod py;

pub use error::Error;
