//! A record as the native reader reads it (the twin of `notation/records/model.py` for what
//! the fast path needs): games of cells, each cell an action with its place in the text.

use crate::notation::plays::WrittenPlay;
use crate::vocabulary::{Side, WrittenMove};

/// What one cell of a row says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Roll { dice: (u8, u8), play: WrittenPlay },
    Double { value: u64 },
    Beaver { value: u64 },
    Raccoon { value: u64 },
    Take,
    Drop,
    Win { value: u64, and_the_match: bool },
    Loss,
}

/// One cell with its place in the text (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub side: Side,
    pub line: usize,
    pub column: usize,
    pub action: Action,
}

/// One `Game N` as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameText {
    pub number: u32,
    pub line: usize,
    pub players: (String, String),
    pub score: Option<(u32, u32)>,
    pub cells: Vec<Cell>,
}

/// A whole record: its `;`/`#` lines (stripped, each with the number of games before it,
/// for Python to read the tags and start positions from), the match length and the games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordText {
    pub comments: Vec<(usize, String)>,
    pub match_length: Option<u32>,
    pub games: Vec<GameText>,
}

impl RecordText {
    /// Whether any play of the record marks a hit with `*`.
    pub fn hits_marked(&self) -> bool {
        self.games.iter().flat_map(|game| &game.cells).any(|cell| {
            matches!(&cell.action, Action::Roll { play: WrittenPlay::Moves(moves), .. }
                if moves.iter().any(|m: &WrittenMove| m.mark))
        })
    }
}
