//! Layouts and steps, each side in its own numbering (RULES.md §1.4, §14.1): index 0 = borne
//! off, 1..24 = the side's own points (24 = where it starts, 1..6 = its home), 25 = the bar.

use crate::error::Error;
use crate::vocabulary::{Side, CHECKERS, OFF};

/// The highest point of the home.
pub const HOME_TOP: usize = 6;
/// The head: where every nardy checker starts.
pub const HEAD: usize = 24;
/// Cells in a layout.
pub const CELLS: usize = 26;

/// One side's 26 counts: `[off, point 1, ..., point 24, bar]`.
pub type Layout = [u8; CELLS];

/// One die played by one checker in the mover's numbering; `hit` when it hit a blot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    pub from: u8,
    pub to: u8,
    pub die: u8,
    pub hit: bool,
}

/// Both sides' layouts (the Python engine's `Board`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub white: Layout,
    pub black: Layout,
}

impl Board {
    /// The board from the layouts of `side` (`mine`) and of the other side (`theirs`).
    pub fn from_sides(side: Side, mine: Layout, theirs: Layout) -> Board {
        match side {
            Side::White => Board {
                white: mine,
                black: theirs,
            },
            Side::Black => Board {
                white: theirs,
                black: mine,
            },
        }
    }

    /// `side`'s layout, then the other side's.
    pub fn sides(&self, side: Side) -> (Layout, Layout) {
        match side {
            Side::White => (self.white, self.black),
            Side::Black => (self.black, self.white),
        }
    }

    /// How many checkers `side` has borne off.
    pub fn borne_off(&self, side: Side) -> u8 {
        self.sides(side).0[OFF]
    }
}

/// A legal play: its canonical step sequence and both layouts after it (mover's first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Play {
    pub steps: Vec<Step>,
    pub mine: Layout,
    pub theirs: Layout,
}

/// The dice of a roll, larger first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dice {
    pub high: u8,
    pub low: u8,
}

impl Dice {
    /// The roll of `first` and `second`, each 1..6.
    pub fn new(first: u8, second: u8) -> Result<Dice, Error> {
        if !(1..=6).contains(&first) || !(1..=6).contains(&second) {
            return Err(Error::InvalidDice(first, second));
        }
        Ok(Dice {
            high: first.max(second),
            low: first.min(second),
        })
    }

    pub fn is_double(self) -> bool {
        self.high == self.low
    }

    /// How many single moves the roll allows at most.
    pub fn full(self) -> usize {
        if self.is_double() {
            4
        } else {
            2
        }
    }
}

/// A layout from a slice of 26 counts that place all 15 checkers.
pub fn layout_from_slice(cells: &[u8]) -> Result<Layout, Error> {
    let layout: Layout = cells
        .try_into()
        .map_err(|_| Error::InvalidLayout(cells.len()))?;
    let checkers = layout.iter().map(|&count| u32::from(count)).sum();
    if checkers != u32::from(CHECKERS) {
        return Err(Error::InvalidCheckers(checkers));
    }
    Ok(layout)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_are_ordered_larger_first_and_checked() {
        assert_eq!(Dice::new(2, 5).unwrap(), Dice { high: 5, low: 2 });
        assert_eq!(Dice::new(3, 3).unwrap().full(), 4);
        assert_eq!(Dice::new(0, 3), Err(Error::InvalidDice(0, 3)));
        assert_eq!(Dice::new(7, 1), Err(Error::InvalidDice(7, 1)));
    }

    #[test]
    fn a_layout_needs_26_cells() {
        let mut cells = [0u8; CELLS];
        cells[HEAD] = 15;
        assert_eq!(layout_from_slice(&cells).unwrap(), cells);
        assert_eq!(
            layout_from_slice(&cells[..25]),
            Err(Error::InvalidLayout(25))
        );
    }

    #[test]
    fn a_layout_places_exactly_15_checkers() {
        let mut cells = [0u8; CELLS];
        cells[HEAD] = 14;
        assert_eq!(layout_from_slice(&cells), Err(Error::InvalidCheckers(14)));
        cells[HEAD] = 200;
        cells[OFF] = 100;
        assert_eq!(layout_from_slice(&cells), Err(Error::InvalidCheckers(300)));
    }
}
