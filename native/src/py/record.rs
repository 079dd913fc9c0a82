//! The record fast path for Python: `read_record` reads a `.mat` text once, and the
//! record's `check_game` checks one game from the start Python gives it. Plain values in,
//! plain values out; Python builds the verdict (and scores each ending) from them.

use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::adjudication::game::{check_game, GameStart, MatchRules};
use crate::notation::mat_reader::{self, Declined, ReadLimits};
use crate::notation::record::{Action, RecordText};
use crate::rules::board::{layout_from_slice, Board, Layout};
use crate::rules::cube::Cube;
use crate::rules::flow::Ending;
use crate::rules::options::{DrawScoring, Options, PlayOptions};
use crate::rules::variants::Variant;
use crate::vocabulary::Side;

/// A record the native reader read: its comments, match length and games.
#[pyclass(frozen, module = "nardy_native")]
struct Record {
    text: RecordText,
}

/// The rules of a record's games, built once per record.
#[pyclass(frozen, module = "nardy_native", name = "MatchRules")]
struct PyMatchRules {
    rules: MatchRules,
}

/// One game as Python's match loop needs it: number, line, players, score, the number of
/// actions, and its `Wins` cells as `(side, line, column, points, and_the_match)`.
type GameFacts = (
    u32,
    usize,
    (String, String),
    Option<(u32, u32)>,
    usize,
    Vec<(&'static str, usize, usize, u64, bool)>,
);

type CubeFacts = Option<(u64, Option<&'static str>)>;

/// How a game ended: `(kind, winner, points written, white, black, standing cube,
/// doubled, cells)`; `white`/`black` are the board scored for `bore_off`; `cells` the
/// canonical `(side, text)` of each cell but the `Wins` lines (when asked for).
type OutcomeFacts = (
    &'static str,
    Option<&'static str>,
    Option<u64>,
    Option<Layout>,
    Option<Layout>,
    CubeFacts,
    bool,
    Vec<(&'static str, String)>,
);

fn side(letter: &str) -> PyResult<Side> {
    match letter {
        "w" => Ok(Side::White),
        "b" => Ok(Side::Black),
        other => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "a side is 'w' or 'b', not {other:?}"
        ))),
    }
}

fn cube_facts(cube: Option<Cube>) -> CubeFacts {
    cube.map(|cube| (cube.value, cube.owner.map(Side::letter)))
}

#[pymethods]
impl PyMatchRules {
    #[new]
    #[pyo3(signature = (variant, head_exception, first_turn_scope, block_rule, block_timing,
        judge, cube, crawford, beavers, cube_limit, money, draw_rule, score_after_extra_turn,
        opening_doublets, hits_marked))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        variant: &str,
        head_exception: &str,
        first_turn_scope: &str,
        block_rule: &str,
        block_timing: &str,
        judge: &str,
        cube: bool,
        crawford: bool,
        beavers: bool,
        cube_limit: u64,
        money: bool,
        draw_rule: bool,
        score_after_extra_turn: bool,
        opening_doublets: bool,
        hits_marked: bool,
    ) -> PyResult<PyMatchRules> {
        let play = PlayOptions {
            head_exception: head_exception.parse()?,
            first_turn_scope: first_turn_scope.parse()?,
            block_rule: block_rule.parse()?,
            block_timing: block_timing.parse()?,
        };
        let draw_scoring = if score_after_extra_turn {
            DrawScoring::AfterExtraTurn
        } else {
            DrawScoring::AtFinish
        };
        let options = Options {
            play,
            judge: judge.parse()?,
            cube,
            crawford,
            beavers,
            cube_limit,
            draw_rule,
            draw_scoring,
        };
        Ok(PyMatchRules {
            rules: MatchRules {
                variant: Variant::from_id(variant)?,
                options,
                money,
                opening_doublets,
                hits_marked,
            },
        })
    }
}

#[pymethods]
impl Record {
    /// The `;` and `#` lines as `(games before, stripped line)`, in order (the tags and
    /// start positions are read from them).
    #[getter]
    fn comments(&self) -> Vec<(usize, String)> {
        self.text.comments.clone()
    }

    #[getter]
    fn match_length(&self) -> Option<u32> {
        self.text.match_length
    }

    /// Whether any play marks a hit with `*`.
    #[getter]
    fn hits_marked(&self) -> bool {
        self.text.hits_marked()
    }

    fn games(&self) -> Vec<GameFacts> {
        self.text
            .games
            .iter()
            .map(|game| {
                let wins = game
                    .cells
                    .iter()
                    .filter_map(|cell| match cell.action {
                        Action::Win {
                            value,
                            and_the_match,
                        } => Some((
                            cell.side.letter(),
                            cell.line,
                            cell.column,
                            value,
                            and_the_match,
                        )),
                        _ => None,
                    })
                    .collect();
                (
                    game.number,
                    game.line,
                    game.players.clone(),
                    game.score,
                    game.cells.len(),
                    wins,
                )
            })
            .collect()
    }

    /// Game `index` (0-based) checked from `white`/`black` with `cube` (`(value, owner)`,
    /// None without a cube) and `turn` (None: whoever rolls first): how it ended (with its
    /// canonical cells when `canonical`), or None when Python must check it.
    #[pyo3(signature = (index, rules, white, black, cube, turn, from_start, crawford_game, canonical))]
    #[allow(clippy::too_many_arguments)]
    fn check_game(
        &self,
        index: usize,
        rules: &PyMatchRules,
        white: Vec<u8>,
        black: Vec<u8>,
        cube: Option<(u64, Option<String>)>,
        turn: Option<&str>,
        from_start: bool,
        crawford_game: bool,
        canonical: bool,
    ) -> PyResult<Option<OutcomeFacts>> {
        let game = self.text.games.get(index).ok_or_else(|| {
            pyo3::exceptions::PyIndexError::new_err(format!("no game at index {index}"))
        })?;
        let cube = match cube {
            Some((value, owner)) => Some(Cube {
                value,
                owner: owner.as_deref().map(side).transpose()?,
            }),
            None => None,
        };
        let start = GameStart {
            board: Board {
                white: layout_from_slice(&white)?,
                black: layout_from_slice(&black)?,
            },
            cube,
            turn: turn.map(side).transpose()?,
            from_start,
            crawford_game,
        };
        let Some(outcome) = check_game(game, &start, &rules.rules, canonical) else {
            return Ok(None);
        };
        let standing = cube_facts(outcome.stake.standing);
        let doubled = outcome.stake.doubled;
        let cells = outcome
            .cells
            .into_iter()
            .map(|(side, text)| (side.letter(), text))
            .collect();
        let (kind, winner, points, white, black) = match outcome.ending {
            Ending::BoreOff { winner, board } => (
                "bore_off",
                Some(winner),
                None,
                Some(board.white),
                Some(board.black),
            ),
            Ending::Draw => ("draw", None, None, None, None),
            Ending::Drop { winner } => ("drop", Some(winner), None, None, None),
            Ending::Resigned { winner, points } => {
                ("resigned", Some(winner), Some(points), None, None)
            }
        };
        let winner = winner.map(Side::letter);
        Ok(Some((
            kind, winner, points, white, black, standing, doubled, cells,
        )))
    }
}

/// The record `text` read natively, or why Python must read it (`Declined::reason`).
#[pyfunction]
fn read_record(
    py: Python<'_>,
    text: &Bound<'_, PyString>,
    games: usize,
    actions_per_game: usize,
    actions: usize,
) -> PyResult<PyObject> {
    let limits = ReadLimits {
        games,
        actions_per_game,
        actions,
    };
    // A lone surrogate (JSON's `\ud800`) has no UTF-8 form: Python reads that text.
    let Ok(text) = text.to_str() else {
        return Ok(Declined::Unicode.reason().into_py(py));
    };
    Ok(match mat_reader::read_record(text, limits) {
        Ok(text) => Py::new(py, Record { text })?.into_py(py),
        Err(declined) => declined.reason().into_py(py),
    })
}

/// Registers the record fast path in the module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Record>()?;
    module.add_class::<PyMatchRules>()?;
    module.add_function(wrap_pyfunction!(read_record, module)?)?;
    Ok(())
}
