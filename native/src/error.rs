//! The errors of the native core: bad input from the caller, never a rule problem (those
//! are answers, not errors).

use std::fmt;

/// What the caller got wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// A variant id the core does not know.
    UnknownVariant(String),
    /// An option value outside its closed set: (option, value).
    InvalidOption(&'static str, String),
    /// Dice outside 1..6.
    InvalidDice(u8, u8),
    /// A layout without exactly 26 cells (the count given).
    InvalidLayout(usize),
    /// A layout placing other than 15 checkers (the number placed).
    InvalidCheckers(u32),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::UnknownVariant(name) => write!(f, "unknown variant {name:?}"),
            Error::InvalidOption(option, value) => {
                write!(f, "option {option:?} cannot be {value:?}")
            }
            Error::InvalidDice(first, second) => write!(f, "dice {first}-{second} are not 1 to 6"),
            Error::InvalidLayout(cells) => write!(f, "a layout has 26 cells, not {cells}"),
            Error::InvalidCheckers(checkers) => {
                write!(f, "a layout places 15 checkers, not {checkers}")
            }
        }
    }
}

impl std::error::Error for Error {}
