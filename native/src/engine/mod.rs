//! A player for the nardy games (long nardy and khachapuri), beside the move generator it
//! reuses: a network evaluation trained by temporal differences from self-play, searched
//! at 0 or 1 ply.
//!
//! - `error`: what the engine refuses;
//! - `rng`: the seeded dice and numbers;
//! - `game`: rules, positions from the roller's side, the 21 rolls, a game and its score;
//! - `features`: the network's inputs;
//! - `net`: the network, its estimates and its weights file;
//! - `search`: choosing a play at 0 or 1 ply;
//! - `players`: the engine, a random player and a heuristic one;
//! - `duel`: one game between two players with given throws (mirrored pairs);
//! - `train`: TD(λ) self-play.

pub mod duel;
pub mod error;
pub mod features;
pub mod game;
pub mod net;
pub mod players;
pub mod rng;
pub mod search;
pub mod train;
