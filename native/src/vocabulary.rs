//! The words every layer shares (the twin of the Python `vocabulary` package): the sides,
//! what a position asks for next, a single move as written, and the points `off` and
//! `bar`. It imports nothing of the crate.

/// Borne off: a point number in each side's own numbering (RULES.md §1.4).
pub const OFF: usize = 0;
/// The bar (backgammon only), entered from as if it were point 25.
pub const BAR: usize = 25;
/// Checkers per side in every variant.
pub const CHECKERS: u8 = 15;

/// The two players; White is the left-hand column of a `.mat` file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    White,
    Black,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// The one-letter id the Python engine uses.
    pub fn letter(self) -> &'static str {
        match self {
            Side::White => "w",
            Side::Black => "b",
        }
    }
}

/// What the side on turn must do now (the position string's state field).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    Roll,
    Move,
    /// A double (beaver, raccoon) waits for its answer.
    Doubled,
    End,
}

/// One reason a well-formed position is not a valid one (the twin of Python's
/// `PositionProblem`): a stable code, a sentence and the position string's field at fault
/// when one field alone is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionProblem {
    pub code: &'static str,
    pub message: String,
    pub field: Option<&'static str>,
}

/// One move as written `from/to`, in the mover's own numbering (it may span several dice);
/// `mark` when it is marked `*` (in a canonical play: when it hits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WrittenMove {
    pub from: u32,
    pub to: u32,
    pub mark: bool,
}
