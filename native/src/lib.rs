//! The native core of nardy-referee: the board, the three variants, legal-play enumeration,
//! play judging and the record fast path (reading a `.mat` text, checking its games),
//! step for step the same as the Python engine (`referee/rules`), which
//! stays the reference and the fallback.

pub mod board;
pub mod error;
pub mod judge;
pub mod movegen;
pub mod notation;
pub mod record;
pub mod record_game;
pub mod record_play;
pub mod variants;

#[cfg(feature = "python")]
mod python;
#[cfg(feature = "python")]
mod python_record;

pub use error::Error;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_record;
