//! The network's inputs for a nardy position, seen from the side about to roll (so the
//! side to move is the encoding's own frame: "mine" always rolls next). Each side is
//! encoded alike, in its own numbering, the roller's side first:
//!
//! - each point 1..24: four inputs for its checkers (at least 1, 2, 3, and (n − 3) / 4
//!   above three), as TD-Gammon encoded a point;
//! - borne off / 15, the pip count / 360, the checkers at home / 15, all at home (bearing
//!   off allowed), the head's checkers / 15;
//! - its blocks: the longest run of points it holds along the other side's path (where a
//!   block stops him, RULES.md §7) as length / 6 and length ≥ 4, 5, 6, and how many of the
//!   other side's checkers stand behind that run / 15.
//!
//! Inputs are kept sparse (index, value): most are 0 and the first layer adds only the rows
//! of those that are not.

use crate::engine::game::Position;
use crate::rules::board::{Layout, HEAD, HOME_TOP};
use crate::rules::variants::Variant;
use crate::vocabulary::{CHECKERS, OFF};

/// Inputs for one point.
const PER_POINT: usize = 4;
/// Inputs for one side: its points, then the six counts and the five block inputs.
pub const PER_SIDE: usize = 24 * PER_POINT + 10;
/// Inputs in all.
pub const INPUTS: usize = 2 * PER_SIDE;
/// The pip count of fifteen checkers on the head: the scale of the pip inputs.
const START_PIPS: f32 = 360.0;

/// A position's inputs: (index, value) for each input that is not 0.
#[derive(Clone, Debug, PartialEq)]
pub struct Features {
    items: Vec<(u16, f32)>,
}

impl Default for Features {
    fn default() -> Features {
        Features {
            items: Vec::with_capacity(INPUTS),
        }
    }
}

impl Features {
    /// The inputs of `position` (nardy numbering: `variant` gives where points meet).
    pub fn of(variant: Variant, position: &Position) -> Features {
        let mut features = Features::default();
        features.encode(variant, position);
        features
    }

    /// Encode `position` in place (a search reuses one buffer).
    pub fn encode(&mut self, variant: Variant, position: &Position) {
        self.items.clear();
        self.side(0, variant, &position.mine, &position.theirs);
        self.side(PER_SIDE, variant, &position.theirs, &position.mine);
    }

    pub fn iter(&self) -> impl Iterator<Item = (usize, f32)> + '_ {
        self.items
            .iter()
            .map(|&(index, value)| (usize::from(index), value))
    }

    /// Every input, zeros included (for tests and for callers that want them dense).
    pub fn dense(&self) -> Vec<f32> {
        let mut inputs = vec![0.0; INPUTS];
        for (index, value) in self.iter() {
            inputs[index] = value;
        }
        inputs
    }

    fn push(&mut self, index: usize, value: f32) {
        if value != 0.0 {
            self.items.push((index as u16, value));
        }
    }

    fn side(&mut self, base: usize, variant: Variant, layout: &Layout, other: &Layout) {
        for (point, &count) in layout.iter().enumerate().take(25).skip(1) {
            if count == 0 {
                continue;
            }
            let at = base + (point - 1) * PER_POINT;
            self.push(at, 1.0);
            self.push(at + 1, f32::from(u8::from(count >= 2)));
            self.push(at + 2, f32::from(u8::from(count >= 3)));
            self.push(at + 3, f32::from(count.saturating_sub(3)) / 4.0);
        }
        let checkers = f32::from(CHECKERS);
        let pips: u32 = (1..=24).map(|p| p as u32 * u32::from(layout[p])).sum();
        let home: u8 = layout[1..=HOME_TOP].iter().sum();
        let at = base + 24 * PER_POINT;
        self.push(at, f32::from(layout[OFF]) / checkers);
        self.push(at + 1, pips as f32 / START_PIPS);
        self.push(at + 2, f32::from(home) / checkers);
        self.push(at + 3, f32::from(u8::from(home + layout[OFF] == CHECKERS)));
        self.push(at + 4, f32::from(layout[HEAD]) / checkers);
        let block = Block::longest(variant, layout, other);
        let length = block.length as f32;
        self.push(at + 5, length / 6.0);
        self.push(at + 6, f32::from(u8::from(block.length >= 4)));
        self.push(at + 7, f32::from(u8::from(block.length >= 5)));
        self.push(at + 8, f32::from(u8::from(block.length >= 6)));
        self.push(at + 9, f32::from(block.behind) / checkers);
    }
}

/// A side's run of held points along the other side's path.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Block {
    /// Consecutive points held.
    pub length: usize,
    /// The other side's checkers behind it (on his points above the run).
    pub behind: u8,
}

impl Block {
    /// The longest run `layout` holds on the path of the side with `other`, the one with
    /// more checkers behind it among runs as long.
    pub fn longest(variant: Variant, layout: &Layout, other: &Layout) -> Block {
        let opposite = variant.opposite_table();
        let mut best = Block::default();
        let (mut behind, mut run) = (0, 0);
        // Walk the other side's path from his head down: `behind` counts his checkers on
        // the points passed, all above the run reaching `q` (he has none on its points).
        for q in (1..=24).rev() {
            if layout[opposite[q]] > 0 {
                run += 1;
                let candidate = Block {
                    length: run,
                    behind,
                };
                if (candidate.length, candidate.behind) > (best.length, best.behind) {
                    best = candidate;
                }
            } else {
                run = 0;
            }
            behind += other[q];
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::game::layout_with;

    #[test]
    fn the_start_of_long_nardy_lights_the_heads_and_the_pips() {
        let start = layout_with(&[(24, 15)]);
        let features = Features::of(
            Variant::LongNardy,
            &Position {
                mine: start,
                theirs: start,
            },
        );
        let dense = features.dense();
        let head = 23 * PER_POINT;
        assert_eq!(&dense[head..head + 4], &[1.0, 1.0, 1.0, 3.0]);
        assert_eq!(
            &dense[PER_SIDE + head..PER_SIDE + head + 4],
            &[1.0, 1.0, 1.0, 3.0]
        );
        let counts = 24 * PER_POINT;
        assert_eq!(dense[counts + 1], 1.0);
        assert_eq!(dense[counts + 4], 1.0);
        assert_eq!(features.iter().count(), 2 * (4 + 2 + 2));
    }

    #[test]
    fn the_roller_comes_first() {
        let mine = layout_with(&[(24, 14), (20, 1)]);
        let theirs = layout_with(&[(24, 15)]);
        let dense = Features::of(Variant::LongNardy, &Position { mine, theirs }).dense();
        assert_eq!(dense[19 * PER_POINT], 1.0);
        assert_eq!(dense[PER_SIDE + 19 * PER_POINT], 0.0);
    }

    #[test]
    fn a_block_is_measured_along_the_other_sides_path_with_his_checkers_behind_it() {
        // My own 19..24 are the other side's own 7..12: his 10 checkers on his head are
        // behind that block, his 5 on his 3 ahead of it.
        let mine = layout_with(&[(19, 2), (20, 2), (21, 2), (22, 2), (23, 2), (24, 3)]);
        let theirs = layout_with(&[(24, 10), (3, 5)]);
        let block = Block::longest(Variant::LongNardy, &mine, &theirs);
        assert_eq!(
            block,
            Block {
                length: 6,
                behind: 10
            }
        );
    }

    #[test]
    fn points_across_the_other_sides_seam_are_two_runs() {
        // My own 11..14 are his 23, 24, 1, 2: his path breaks between his 1 and 24.
        let mine = layout_with(&[(11, 1), (12, 1), (13, 1), (14, 1), (24, 11)]);
        let theirs = layout_with(&[(20, 15)]);
        let block = Block::longest(Variant::LongNardy, &mine, &theirs);
        assert_eq!(block.length, 2);
    }

    #[test]
    fn bearing_off_and_home_are_counted() {
        let mine = layout_with(&[(1, 5), (6, 5)]);
        let theirs = layout_with(&[(24, 15)]);
        let dense = Features::of(Variant::Khachapuri, &Position { mine, theirs }).dense();
        let counts = 24 * PER_POINT;
        assert_eq!(dense[counts], 5.0 / 15.0);
        assert_eq!(dense[counts + 2], 10.0 / 15.0);
        assert_eq!(dense[counts + 3], 1.0);
    }
}
