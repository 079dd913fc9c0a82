//! Between the rules and the notation, the one place (the twin of `referee/bridge.py`'s
//! `read_position`, `play_moves` and `play_text`): a position string as a variant's
//! layouts, and a play's steps as written moves and as canonical text.

use crate::notation::plays::{format_play, parse_play, WrittenPlay};
use crate::notation::positions::{
    field_column, format_position, parse_position, validate_position, NotationError, PositionData,
    State, Unread,
};
use crate::rules::board::{Board, Dice, Layout, Step, CELLS};
use crate::rules::judge::Judge;
use crate::rules::movegen::display_order;
use crate::rules::options::{JudgeMode, PlayOptions};
use crate::rules::variants::{TurnRules, Variant};
use crate::vocabulary::{PositionProblem, Side, WrittenMove, BAR, CHECKERS, OFF};

/// A valid position string read: its variant, its data and each side's layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadPosition {
    pub variant: Variant,
    pub data: PositionData,
    pub white: Layout,
    pub black: Layout,
}

/// Why a position string was not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionRefusal {
    /// Left to the Python reader (text that is not ASCII).
    Declined,
    /// It cannot be read.
    Notation(NotationError),
    /// It reads as an impossible position: every problem, with the 1-based column of its
    /// field (None when the text has no such field).
    Invalid(Vec<(PositionProblem, Option<usize>)>),
}

/// The position a position string describes, or every problem it has: those of any
/// position, then those its variant forbids.
pub fn read_position(text: &str) -> Result<ReadPosition, PositionRefusal> {
    let data = parse_position(text).map_err(|unread| match unread {
        Unread::Declined => PositionRefusal::Declined,
        Unread::Error(error) => PositionRefusal::Notation(error),
    })?;
    let variant = Variant::from_id(data.variant).expect("the reader answers variant ids");
    let (white, black) = layouts(variant, &data);
    let mut problems = validate_position(&data);
    problems.extend(variant.position_problems(&white, &black, data.cube.is_some()));
    if !problems.is_empty() {
        let located = problems
            .into_iter()
            .map(|problem| {
                let column = problem.field.and_then(|field| field_column(text, field));
                (problem, column)
            })
            .collect();
        return Err(PositionRefusal::Invalid(located));
    }
    Ok(ReadPosition {
        variant,
        data,
        white,
        black,
    })
}

/// Each side's layout in its own numbering, from cells in White's.
fn layouts(variant: Variant, data: &PositionData) -> (Layout, Layout) {
    let opposite = variant.opposite_table();
    let (mut white, mut black) = ([0; CELLS], [0; CELLS]);
    for (point, &count) in (1..).zip(&data.cells) {
        if count > 0 {
            white[point] = count.unsigned_abs();
        } else if count < 0 {
            black[opposite[point]] = count.unsigned_abs();
        }
    }
    (white[BAR], black[BAR]) = data.bar;
    (white[OFF], black[OFF]) = data.off;
    (white, black)
}

/// Points 1..24 in White's numbering, +n White checkers and -n Black (`cells_of`).
fn cells_of(variant: Variant, white: &Layout, black: &Layout) -> [i8; 24] {
    let opposite = variant.opposite_table();
    let mut cells = [0; 24];
    for (point, cell) in (1..).zip(cells.iter_mut()) {
        *cell = white[point] as i8 - black[opposite[point]] as i8;
    }
    cells
}

/// The canonical string of the position `read` moves on to (`Position.moved_on` written by
/// `write_position`): the board `after`, `turn` to act in `state`, the rest as it was.
pub fn moved_on_text(
    read: &ReadPosition,
    after: &Board,
    turn: Option<Side>,
    state: State,
) -> String {
    let (white, black) = (&after.white, &after.black);
    format_position(&PositionData {
        cells: cells_of(read.variant, white, black),
        bar: (white[BAR], black[BAR]),
        off: (white[OFF], black[OFF]),
        turn,
        state,
        ..read.data.clone()
    })
}

/// A written play checked in a position as `PlaysService.check` checks it, when the answer
/// is the plain one: `(the canonical play, the position after it)` for a legal play of a
/// game that goes on, with nothing to warn about. None for everything Python words or reads
/// itself: a position to which no play belongs (no dice, a finished game), a play text with
/// a dice prefix or not ASCII or not read here, an illegal play, a warning, a bear-off that
/// ends the game.
pub fn check_play(
    read: &ReadPosition,
    play: &str,
    options: &PlayOptions,
    mode: JudgeMode,
) -> Option<(String, String)> {
    let (State::Move(first, second), Some(side)) = (read.data.state, read.data.turn) else {
        return None;
    };
    let board = Board {
        white: read.white,
        black: read.black,
    };
    let finished =
        |board: &Board| [Side::White, Side::Black].map(|s| board.borne_off(s) == CHECKERS);
    if finished(&board).contains(&true) || !play.is_ascii() || play.contains(':') {
        return None;
    }
    let WrittenPlay::Moves(moves) = parse_play(play)? else {
        return None;
    };
    let dice = Dice::new(first, second).ok()?;
    let (mine, theirs) = board.sides(side);
    let rules = TurnRules::new(read.variant, &mine, &theirs, dice, options);
    let judge = Judge {
        rules: &rules,
        mine: &mine,
        theirs: &theirs,
        dice,
        mode,
    };
    let accepted = judge.accept(&moves, true)?;
    let legal = accepted.play.as_ref()?;
    let after = Board::from_sides(side, accepted.mine, accepted.theirs);
    if accepted.warns(&moves) || finished(&after).contains(&true) {
        return None;
    }
    let text = play_text(&legal.steps, mode == JudgeMode::Sequence);
    Some((
        text,
        moved_on_text(read, &after, Some(side.other()), State::Roll),
    ))
}

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
