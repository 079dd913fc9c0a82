//! What the engine refuses: a caller's mistake, never a rule question.

use std::fmt;

use crate::rules::variants::Variant;

/// Why the engine cannot do what it was asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The engine plays the nardy games only.
    NotNardy(Variant),
    /// A weights file that cannot be read: what is wrong with it.
    BadWeights(String),
    /// A network for one variant asked about another: (the network's, the one asked).
    WrongVariant(Variant, Variant),
    /// A game that needed more throws than it was given (how many it was given).
    DiceRanOut(usize),
    /// A throw with a die outside 1 to 6.
    BadThrow(u8, u8),
    /// A game still going after this many turns (neither side can move any more).
    TooLong(u32),
    /// A search depth other than 0 or 1 ply.
    Plies(u8),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::NotNardy(variant) => {
                write!(
                    f,
                    "the engine plays long nardy and khachapuri, not {variant:?}"
                )
            }
            EngineError::BadWeights(why) => write!(f, "unreadable weights: {why}"),
            EngineError::WrongVariant(net, asked) => {
                write!(f, "a {net:?} network cannot play {asked:?}")
            }
            EngineError::DiceRanOut(given) => {
                write!(f, "the game needed more than the {given} throws given")
            }
            EngineError::BadThrow(a, b) => write!(f, "the throw {a}-{b} is not two dice"),
            EngineError::TooLong(turns) => write!(f, "the game did not end in {turns} turns"),
            EngineError::Plies(plies) => write!(f, "the engine searches 0 or 1 ply, not {plies}"),
        }
    }
}

impl std::error::Error for EngineError {}
