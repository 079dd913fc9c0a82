//! Between the rules and the notation, the one place (the twin of `referee/bridge.py`'s
//! `play_moves` and `play_text`): a play's steps as written moves and as canonical text.

use crate::notation::plays::format_play;
use crate::rules::board::Step;
use crate::rules::movegen::display_order;
use crate::vocabulary::WrittenMove;

/// A play's steps as written moves: in display order, or, with `literal` (plays judged by
/// sequence), in the order they were played; each marked where it hits.
pub fn play_moves(steps: &[Step], literal: bool) -> Vec<WrittenMove> {
    let written = |step: &Step| WrittenMove {
        from: u32::from(step.from),
        to: u32::from(step.to),
        mark: step.hit,
    };
    if literal {
        steps.iter().map(written).collect()
    } else {
        display_order(steps).iter().map(written).collect()
    }
}

/// `13/8 24/18*`: the canonical text of a play's steps (no dice prefix).
pub fn play_text(steps: &[Step], literal: bool) -> String {
    format_play(&play_moves(steps, literal), None)
}
