//! The canonical text of a play (NOTATION.md §4): the twin of `referee.plays.play_text`.

use crate::board::{Step, BAR, OFF};
use crate::movegen::display_order;

fn point_text(point: u8, out: &mut String) {
    match usize::from(point) {
        BAR => out.push_str("bar"),
        OFF => out.push_str("off"),
        _ => out.push_str(&point.to_string()),
    }
}

/// `13/8 24/18*`: one part per die, in display order, or as played with `literal`
/// (plays judged by sequence).
pub fn play_text(steps: &[Step], literal: bool) -> String {
    let ordered = if literal {
        steps.to_vec()
    } else {
        display_order(steps)
    };
    let mut text = String::with_capacity(ordered.len() * 7);
    for (index, step) in ordered.iter().enumerate() {
        if index > 0 {
            text.push(' ');
        }
        point_text(step.from, &mut text);
        text.push('/');
        point_text(step.to, &mut text);
        if step.hit {
            text.push('*');
        }
    }
    text
}
