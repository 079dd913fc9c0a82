//! The rules' questions for the Python engine: a position string read, the legal plays of a
//! turn, the judgement of a written play, a turn's head limits, and a play's canonical text.

use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{PyBytes, PyString, PyTuple};

use crate::bridge::{self, PositionRefusal, ReadPosition};
use crate::error::Error;
use crate::notation::positions::State;
use crate::rules::board::{layout_from_slice, Dice, Layout, Play, Step, CELLS};
use crate::rules::judge::Judge;
use crate::rules::movegen;
use crate::rules::options::{JudgeMode, PlayOptions};
use crate::rules::variants::{BlockCheck, TurnRules, Variant};
use crate::vocabulary::WrittenMove;

type StepTuple = (u8, u8, u8, bool);
type PlayTuple<'py> = (
    Bound<'py, PyTuple>,
    Bound<'py, PyTuple>,
    Bound<'py, PyTuple>,
);
type Judged<'py> = (
    Bound<'py, PyTuple>,
    Bound<'py, PyTuple>,
    Option<PlayTuple<'py>>,
    Bound<'py, PyTuple>,
    Option<(Bound<'py, PyTuple>, Vec<usize>)>,
);

/// `TurnRules.plain` of the Python engine: variant id, head limit, head limit if needed,
/// and (block rule, block timing) or None. The strings are read in place, not copied.
type PlainRules = (
    PyBackedStr,
    Option<u8>,
    Option<u8>,
    Option<(PyBackedStr, PyBackedStr)>,
);

/// The facts of one turn as the Python engine's `TurnRules.plain` holds them.
fn turn_rules(plain: &PlainRules) -> Result<TurnRules, Error> {
    let (variant, head_limit, head_limit_if_needed, block) = plain;
    let block = match block {
        Some((rule, timing)) => Some(BlockCheck {
            rule: rule.parse()?,
            timing: timing.parse()?,
        }),
        None => None,
    };
    Ok(TurnRules {
        variant: Variant::from_id(variant)?,
        head_limit: *head_limit,
        head_limit_if_needed: *head_limit_if_needed,
        block,
    })
}

fn steps_tuple<'py>(py: Python<'py>, steps: &[Step]) -> Bound<'py, PyTuple> {
    PyTuple::new_bound(
        py,
        steps
            .iter()
            .map(|s| (s.from, s.to, s.die, s.hit).to_object(py)),
    )
}

fn layout_tuple<'py>(py: Python<'py>, layout: &Layout) -> Bound<'py, PyTuple> {
    PyTuple::new_bound(py, layout)
}

fn play_tuple<'py>(py: Python<'py>, play: &Play) -> PlayTuple<'py> {
    (
        steps_tuple(py, &play.steps),
        layout_tuple(py, &play.mine),
        layout_tuple(py, &play.theirs),
    )
}

/// A layout argument: a sequence of 26 counts. A tuple (what the Python engine keeps) is
/// read item by item in place, any other sequence through a vector.
fn layout_arg(cells: &Bound<'_, PyAny>) -> PyResult<Layout> {
    let Ok(tuple) = cells.downcast::<PyTuple>() else {
        return Ok(layout_from_slice(&cells.extract::<Vec<u8>>()?)?);
    };
    if tuple.len() != CELLS {
        return Err(Error::InvalidLayout(tuple.len()).into());
    }
    let mut layout = [0; CELLS];
    for (count, item) in layout.iter_mut().zip(tuple.iter_borrowed()) {
        *count = item.extract()?;
    }
    Ok(layout_from_slice(&layout)?)
}

/// One turn's question as the Python engine asks it: the rules, both layouts, the dice.
fn turn(
    rules: &PlainRules,
    mine: &Bound<'_, PyAny>,
    theirs: &Bound<'_, PyAny>,
    dice: (u8, u8),
) -> PyResult<(TurnRules, Layout, Layout, Dice)> {
    Ok((
        turn_rules(rules)?,
        layout_arg(mine)?,
        layout_arg(theirs)?,
        Dice::new(dice.0, dice.1)?,
    ))
}

/// Every legal play, packed one after another into bytes (one Python object, however many
/// plays): the number of steps, four bytes a step (from, to, die, hit), then the mover's 26
/// counts and the opponent's.
#[pyfunction]
fn legal_plays<'py>(
    py: Python<'py>,
    rules: PlainRules,
    mine: &Bound<'py, PyAny>,
    theirs: &Bound<'py, PyAny>,
    dice: (u8, u8),
) -> PyResult<Bound<'py, PyBytes>> {
    let (rules, mine, theirs, dice) = turn(&rules, mine, theirs, dice)?;
    let legal = movegen::legal(&rules, &mine, &theirs, dice);
    PyBytes::new_bound_with(py, legal.packed_len(), |packed| {
        legal.write_packed(packed);
        Ok(())
    })
}

/// Every legal play's canonical text, in the order of `legal_plays` (what a live table
/// lists after each roll: one Python string a play, not a packed play to write out).
#[pyfunction]
fn legal_play_texts(
    rules: PlainRules,
    mine: &Bound<'_, PyAny>,
    theirs: &Bound<'_, PyAny>,
    dice: (u8, u8),
    literal: bool,
) -> PyResult<Vec<String>> {
    let (rules, mine, theirs, dice) = turn(&rules, mine, theirs, dice)?;
    let legal = movegen::legal(&rules, &mine, &theirs, dice);
    Ok(legal
        .iter()
        .map(|(steps, _, _)| bridge::play_text(steps, literal))
        .collect())
}

/// The written play judged: `(mine, theirs, play or None, steps, marks)` when it is legal,
/// None when the Python engine must judge it. `marks` is `(played, owners)`, from which
/// Python words any warning about `*` marks, or None when nothing hits and nothing is
/// marked (there is nothing to warn about).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn judge<'py>(
    py: Python<'py>,
    rules: PlainRules,
    mine: &Bound<'py, PyAny>,
    theirs: &Bound<'py, PyAny>,
    dice: (u8, u8),
    moves: Vec<(u32, u32, bool)>,
    sequence: bool,
    canonical: bool,
) -> PyResult<Option<Judged<'py>>> {
    let (rules, mine, theirs, dice) = turn(&rules, mine, theirs, dice)?;
    let moves: Vec<WrittenMove> = moves
        .into_iter()
        .map(|(from, to, mark)| WrittenMove { from, to, mark })
        .collect();
    let judge = Judge {
        rules: &rules,
        mine: &mine,
        theirs: &theirs,
        dice,
        mode: if sequence {
            JudgeMode::Sequence
        } else {
            JudgeMode::Position
        },
    };
    let Some(accepted) = judge.accept(&moves, canonical) else {
        return Ok(None);
    };
    let marks = accepted.marks_anything(&moves);
    Ok(Some((
        layout_tuple(py, &accepted.mine),
        layout_tuple(py, &accepted.theirs),
        accepted.play.as_ref().map(|play| play_tuple(py, play)),
        steps_tuple(py, &accepted.steps),
        marks.then(|| (steps_tuple(py, &accepted.played), accepted.owners)),
    )))
}

/// The native engine's own head limits for a turn (for differential tests of the
/// variants): `(head_limit, head_limit_if_needed, has_block_rule)`.
#[pyfunction]
#[pyo3(signature = (variant, mine, theirs, dice, head_exception, first_turn_scope, block_rule, block_timing))]
#[allow(clippy::too_many_arguments)]
fn turn_facts(
    variant: &str,
    mine: Vec<u8>,
    theirs: Vec<u8>,
    dice: (u8, u8),
    head_exception: &str,
    first_turn_scope: &str,
    block_rule: &str,
    block_timing: &str,
) -> PyResult<(Option<u8>, Option<u8>, bool)> {
    let (mine, theirs) = (layout_from_slice(&mine)?, layout_from_slice(&theirs)?);
    let options = PlayOptions {
        head_exception: head_exception.parse()?,
        first_turn_scope: first_turn_scope.parse()?,
        block_rule: block_rule.parse()?,
        block_timing: block_timing.parse()?,
    };
    let dice = Dice::new(dice.0, dice.1)?;
    let rules = TurnRules::new(Variant::from_id(variant)?, &mine, &theirs, dice, &options);
    Ok((
        rules.head_limit,
        rules.head_limit_if_needed,
        rules.block.is_some(),
    ))
}

/// The canonical text of a play's `(from, to, die, hit)` steps.
#[pyfunction]
#[pyo3(signature = (steps, literal = false))]
fn play_text(steps: Vec<StepTuple>, literal: bool) -> String {
    let steps: Vec<Step> = steps
        .into_iter()
        .map(|(from, to, die, hit)| Step { from, to, die, hit })
        .collect();
    bridge::play_text(&steps, literal)
}

/// A valid position's fields as the Python engine builds its `Position` from them: variant
/// id, White's and Black's layouts, turn, phase, dice, resign level, cube (value, owner) or
/// None, match length, score, Crawford and post-Crawford.
type PositionFields<'py> = (
    &'static str,
    Bound<'py, PyTuple>,
    Bound<'py, PyTuple>,
    Option<&'static str>,
    &'static str,
    Option<(u8, u8)>,
    u8,
    Option<(u32, Option<&'static str>)>,
    u32,
    (u32, u32),
    bool,
    bool,
);

fn position_fields<'py>(py: Python<'py>, read: &ReadPosition) -> PositionFields<'py> {
    let data = &read.data;
    let (phase, dice, resign) = match data.state {
        State::Roll => ("roll", None, 0),
        State::Move(first, second) => ("move", Some((first, second)), 0),
        State::Doubled => ("doubled", None, 0),
        State::Resign(level) => ("resign", None, level),
        State::End => ("end", None, 0),
    };
    let cube = data
        .cube
        .map(|cube| (cube.value, cube.owner.map(|side| side.letter())));
    (
        read.variant.id(),
        layout_tuple(py, &read.white),
        layout_tuple(py, &read.black),
        data.turn.map(|side| side.letter()),
        phase,
        dice,
        resign,
        cube,
        data.match_length,
        data.score,
        data.crawford,
        data.post_crawford,
    )
}

/// A position string read by the native reader (`referee.bridge.read_position`'s fast
/// path): None when the Python reader must read it (text that is not ASCII); else
/// `("position", fields)`, `("notation", (message, column))` when it cannot be read, or
/// `("invalid", [(code, message, field, column), ...])` listing every problem it has.
#[pyfunction]
fn read_position(py: Python<'_>, text: &Bound<'_, PyString>) -> PyObject {
    // A lone surrogate (JSON's `\ud800`) has no UTF-8 form: Python reads that text.
    let Ok(text) = text.to_str() else {
        return py.None();
    };
    match bridge::read_position(text) {
        Ok(read) => ("position", position_fields(py, &read)).into_py(py),
        Err(PositionRefusal::Declined) => py.None(),
        Err(PositionRefusal::Notation(error)) => {
            ("notation", (error.message, error.column)).into_py(py)
        }
        Err(PositionRefusal::Invalid(problems)) => {
            let listed: Vec<_> = problems
                .into_iter()
                .map(|(problem, column)| (problem.code, problem.message, problem.field, column))
                .collect();
            ("invalid", listed).into_py(py)
        }
    }
}

/// `Options` as the plays fast path needs them: head exception, first-turn scope, block
/// rule and block timing (by their values), and whether plays are judged by sequence.
type PlainOptions = (PyBackedStr, PyBackedStr, PyBackedStr, PyBackedStr, bool);

/// A written play checked from the texts alone (`referee.plays.check_play`'s fast path):
/// `(canonical play, position after)` for a legal play with nothing to warn about, None when
/// the Python engine must answer (`bridge::check_play` says when).
#[pyfunction]
fn check_play(
    position: &Bound<'_, PyString>,
    play: &Bound<'_, PyString>,
    options: PlainOptions,
) -> PyResult<Option<(String, String)>> {
    let (Ok(position), Ok(play)) = (position.to_str(), play.to_str()) else {
        return Ok(None);
    };
    let Ok(read) = bridge::read_position(position) else {
        return Ok(None);
    };
    let (head_exception, first_turn_scope, block_rule, block_timing, sequence) = options;
    let options = PlayOptions {
        head_exception: head_exception.parse()?,
        first_turn_scope: first_turn_scope.parse()?,
        block_rule: block_rule.parse()?,
        block_timing: block_timing.parse()?,
    };
    let mode = if sequence {
        JudgeMode::Sequence
    } else {
        JudgeMode::Position
    };
    Ok(bridge::check_play(&read, play, &options, mode))
}

/// Registers the rules' functions in the module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(read_position, module)?)?;
    module.add_function(wrap_pyfunction!(check_play, module)?)?;
    module.add_function(wrap_pyfunction!(legal_plays, module)?)?;
    module.add_function(wrap_pyfunction!(legal_play_texts, module)?)?;
    module.add_function(wrap_pyfunction!(judge, module)?)?;
    module.add_function(wrap_pyfunction!(turn_facts, module)?)?;
    module.add_function(wrap_pyfunction!(play_text, module)?)?;
    Ok(())
}
