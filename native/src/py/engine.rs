//! The nardy engine for Python: a network (load, save, evaluate, choose and rank plays), its
//! training, and games between players with given throws (benchmarks, tests).

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::bridge;
use crate::engine::duel::play_game;
use crate::engine::error::EngineError;
use crate::engine::game::{Position, Rules};
use crate::engine::net::{variant_id, Network};
use crate::engine::players::Player;
use crate::engine::rng::Rng;
use crate::engine::search::{Judged, Searcher};
use crate::engine::train::{Settings, Trainer};
use crate::rules::board::{layout_from_slice, Dice, Layout};
use crate::rules::options::PlayOptions;
use crate::rules::variants::Variant;

impl From<EngineError> for PyErr {
    fn from(error: EngineError) -> PyErr {
        PyValueError::new_err(error.to_string())
    }
}

/// The play options as `(head_exception, first_turn_scope, block_rule, block_timing)`, or
/// None for RULES.md's defaults.
type PlainOptions = Option<(String, String, String, String)>;

/// A game's end: the winner ('w' or 'b'), the points, whether by mars, the throws used
/// and the turns played.
type GameEnd = (&'static str, u8, bool, usize, u32);

/// A ranked play: its canonical text, equity (points for the roller), the five outputs,
/// the plies searched.
type RankedPlay = (String, f32, [f32; 5], u8);

fn play_options(options: PlainOptions) -> PyResult<PlayOptions> {
    let Some((head_exception, first_turn_scope, block_rule, block_timing)) = options else {
        return Ok(PlayOptions::default());
    };
    Ok(PlayOptions {
        head_exception: head_exception.parse()?,
        first_turn_scope: first_turn_scope.parse()?,
        block_rule: block_rule.parse()?,
        block_timing: block_timing.parse()?,
    })
}

fn position(mine: &[u8], theirs: &[u8]) -> PyResult<Position> {
    Ok(Position {
        mine: layout_from_slice(mine)?,
        theirs: layout_from_slice(theirs)?,
    })
}

/// A trained (or new) network for one nardy variant.
#[pyclass(frozen, module = "nardy_native", name = "EngineNetwork")]
struct PyNetwork {
    net: Arc<Network>,
}

#[pymethods]
impl PyNetwork {
    /// A new network with small random weights.
    #[staticmethod]
    fn new(variant: &str, hidden: usize, seed: u64) -> PyResult<PyNetwork> {
        let net = Network::new(Variant::from_id(variant)?, hidden, seed)?;
        Ok(PyNetwork { net: Arc::new(net) })
    }

    /// A network from the bytes of its weights file.
    #[staticmethod]
    fn load(data: &[u8]) -> PyResult<PyNetwork> {
        Ok(PyNetwork {
            net: Arc::new(Network::from_bytes(data)?),
        })
    }

    /// The weights file's bytes.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new_bound(py, &self.net.to_bytes())
    }

    #[getter]
    fn variant(&self) -> &'static str {
        variant_id(self.net.variant)
    }

    #[getter]
    fn hidden(&self) -> usize {
        self.net.hidden
    }

    #[getter]
    fn games(&self) -> u64 {
        self.net.games
    }

    #[getter]
    fn seed(&self) -> u64 {
        self.net.seed
    }

    /// The five outputs for the side about to roll with layout `mine` against `theirs`:
    /// win, win by mars, lose by mars, points won and lost (shares of the most).
    fn evaluate(&self, mine: Vec<u8>, theirs: Vec<u8>) -> PyResult<[f32; 5]> {
        let rules = Rules::default_for(self.net.variant)?;
        let mut searcher = Searcher::new(&self.net, rules)?;
        Ok(searcher.estimate(&position(&mine, &theirs)?).0)
    }

    /// Every legal play of the roll ranked to `plies` (0 or 1), best first: its canonical
    /// text, equity in points for the roller, outputs and plies searched.
    #[pyo3(signature = (mine, theirs, dice, plies = 0, options = None))]
    fn rank(
        &self,
        py: Python<'_>,
        mine: Vec<u8>,
        theirs: Vec<u8>,
        dice: (u8, u8),
        plies: u8,
        options: PlainOptions,
    ) -> PyResult<Vec<RankedPlay>> {
        self.judged(py, (mine, theirs, dice, plies, options), true)
    }

    /// The best play at `plies` (0 or 1), as `rank` gives each play (the search stops at
    /// 0-ply when only one play is a candidate).
    #[pyo3(signature = (mine, theirs, dice, plies = 0, options = None))]
    fn choose(
        &self,
        py: Python<'_>,
        mine: Vec<u8>,
        theirs: Vec<u8>,
        dice: (u8, u8),
        plies: u8,
        options: PlainOptions,
    ) -> PyResult<RankedPlay> {
        let mut best = self.judged(py, (mine, theirs, dice, plies, options), false)?;
        Ok(best.remove(0))
    }
}

/// A question about one roll: both layouts, the dice, the plies, the options.
type Roll = (Vec<u8>, Vec<u8>, (u8, u8), u8, PlainOptions);

impl PyNetwork {
    /// Every play ranked (`all`), or the best one alone.
    fn judged(&self, py: Python<'_>, roll: Roll, all: bool) -> PyResult<Vec<RankedPlay>> {
        let (mine, theirs, dice, plies, options) = roll;
        let rules = Rules::new(self.net.variant, play_options(options)?)?;
        let before = position(&mine, &theirs)?;
        let dice = Dice::new(dice.0, dice.1)?;
        let net = &self.net;
        py.allow_threads(|| {
            let legal = rules.legal(&before, dice);
            let plays: Vec<(&[_], Layout)> = legal.iter().map(|(s, m, _)| (s, m)).collect();
            let layouts: Vec<Layout> = plays.iter().map(|&(_, m)| m).collect();
            let mut searcher = Searcher::new(net, rules)?;
            let ranked = if all {
                searcher.rank(&before, &layouts, plies)?
            } else {
                vec![searcher.choose(&before, &layouts, plies)?]
            };
            Ok(ranked
                .iter()
                .map(|j: &Judged| {
                    let text = bridge::play_text(plays[j.index].0, false);
                    (text, j.equity, j.estimate.0, j.plies)
                })
                .collect())
        })
    }
}

/// Training a network by TD(λ) from self-play.
#[pyclass(module = "nardy_native", name = "EngineTrainer")]
struct PyTrainer {
    trainer: Trainer,
}

#[pymethods]
impl PyTrainer {
    #[new]
    #[pyo3(signature = (network, alpha = 0.1, lambda_ = 0.7))]
    fn new(network: &PyNetwork, alpha: f32, lambda_: f32) -> PyResult<PyTrainer> {
        let settings = Settings {
            alpha,
            lambda: lambda_,
        };
        let net = Network::clone(&network.net);
        Ok(PyTrainer {
            trainer: Trainer::new(net, settings)?,
        })
    }

    /// Play and learn from `games` games: `(games, turns, stuck)`.
    fn train(&mut self, py: Python<'_>, games: u32) -> (u64, u64, u64) {
        let trainer = &mut self.trainer;
        let report = py.allow_threads(|| trainer.train(games));
        (report.games, report.turns, report.stuck)
    }

    /// The network as it stands now.
    fn network(&self) -> PyNetwork {
        PyNetwork {
            net: Arc::new(self.trainer.network().clone()),
        }
    }
}

/// A player for `engine_game`: the network, a random player or the heuristic one.
#[pyclass(frozen, module = "nardy_native", name = "EnginePlayer")]
struct PyPlayer {
    player: Player,
}

#[pymethods]
impl PyPlayer {
    #[staticmethod]
    fn random(seed: u64) -> PyPlayer {
        PyPlayer {
            player: Player::Random(Rng::new(seed)),
        }
    }

    #[staticmethod]
    fn heuristic() -> PyPlayer {
        PyPlayer {
            player: Player::Heuristic,
        }
    }

    #[staticmethod]
    #[pyo3(signature = (network, plies = 0))]
    fn network(network: &PyNetwork, plies: u8) -> PyResult<PyPlayer> {
        if plies > 1 {
            return Err(EngineError::Plies(plies).into());
        }
        Ok(PyPlayer {
            player: Player::Engine {
                net: network.net.clone(),
                plies,
            },
        })
    }
}

/// One game of `variant` under its default options between `white` and `black` with
/// `throws` (the opening first, LIVE.md §5): `(winner, points, mars, throws used, turns)`,
/// or None when the game needs more throws than given.
#[pyfunction]
fn engine_game(
    py: Python<'_>,
    variant: &str,
    white: &PyPlayer,
    black: &PyPlayer,
    throws: Vec<(u8, u8)>,
) -> PyResult<Option<GameEnd>> {
    let rules = Rules::default_for(Variant::from_id(variant)?)?;
    let (mut white, mut black) = (white.player.clone(), black.player.clone());
    match py.allow_threads(|| play_game(&rules, &mut white, &mut black, &throws)) {
        Ok(played) => Ok(Some((
            played.outcome.winner.letter(),
            played.outcome.points,
            played.outcome.mars,
            played.throws,
            played.turns,
        ))),
        Err(EngineError::DiceRanOut(_)) => Ok(None),
        Err(error) => Err(error.into()),
    }
}

/// Registers the engine's classes and functions in the module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<PyNetwork>()?;
    module.add_class::<PyTrainer>()?;
    module.add_class::<PyPlayer>()?;
    module.add_function(wrap_pyfunction!(engine_game, module)?)?;
    Ok(())
}
