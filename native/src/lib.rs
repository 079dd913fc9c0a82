//! The native core of nardy-referee: the board, the three variants, legal-play enumeration
//! and play judging, step for step the same as the Python engine (`referee/rules`), which
//! stays the reference and the fallback.

pub mod board;
pub mod error;
pub mod judge;
pub mod movegen;
pub mod notation;
pub mod variants;

#[cfg(feature = "python")]
mod python;

pub use error::Error;

#[cfg(test)]
mod tests;
