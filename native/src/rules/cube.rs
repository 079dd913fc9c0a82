//! The doubling cube (RULES.md §14.5-14.9), the twin of `referee/rules/cube.py`'s
//! `CubeState`: who may double, take, drop or beaver, and the negotiation as a small state
//! machine of pure transitions. Each `*_problem` method says why a transition is illegal
//! now; the transitions themselves check nothing.

use crate::rules::options::Options;
use crate::vocabulary::Side;

/// The doubling cube: its value and owner (None = centred).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cube {
    pub value: u64,
    pub owner: Option<Side>,
}

impl Cube {
    /// The centred cube at `value`.
    pub fn centred(value: u64) -> Cube {
        Cube { value, owner: None }
    }
}

/// Why a cube action is illegal (the Python engine's `CubeRule`, less `auto_doubles`: the
/// Python engine checks a game's starting cube).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CubeRule {
    NoCube,
    CrawfordGame,
    NotCubeOwner,
    NotBeforeRoll,
    CubeLimit,
    WrongCubeValue,
    NoDoublePending,
    NotDoubledSide,
    BeaverNotAllowed,
    NoBeaverPending,
    AnswerRequired,
}

/// The facts about the game that decide whether a cube action is allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CubeContext {
    pub crawford_game: bool,
    pub money: bool,
    pub options: Options,
}

/// Why the cube may not take `value`: the one check every change of the cube's value goes
/// through.
pub fn value_problem(value: u64, options: &Options) -> Option<CubeRule> {
    (value > options.cube_limit).then_some(CubeRule::CubeLimit)
}

/// Twice `value` (a value past `u64` stays past every cube limit).
fn twice(value: u64) -> u64 {
    value.saturating_mul(2)
}

/// A double, beaver or raccoon waiting for its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Offer {
    /// The cube that stands if the offer is dropped.
    pub standing: Cube,
    pub value: u64,
    pub by: Side,
    /// The original doubler: he rolls once the cube is settled.
    pub roller: Side,
    /// A beaver or raccoon: its maker keeps the cube when it is taken.
    pub redouble: bool,
}

/// What a game is worth, as the facts the Python engine scores it from (`CubeState.stake`):
/// the standing cube, and whether a double was offered during the game (the Jacoby rule,
/// RULES.md 14.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stake {
    pub standing: Option<Cube>,
    pub doubled: bool,
}

/// The cube of one game and the offer pending on it, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CubeState {
    /// The cube as it stands before any pending offer (None: no cube in this game).
    pub cube: Option<Cube>,
    pub offer: Option<Offer>,
    /// A double was offered during the game.
    pub doubled: bool,
}

impl CubeState {
    /// A game's cube, nothing offered yet.
    pub fn new(cube: Option<Cube>) -> CubeState {
        CubeState {
            cube,
            offer: None,
            doubled: false,
        }
    }

    /// The cube the game is played for now: while an offer is pending, the one before it.
    pub fn standing(&self) -> Option<Cube> {
        self.offer.map(|offer| offer.standing).or(self.cube)
    }

    /// What the game is worth now.
    pub fn stake(&self) -> Stake {
        Stake {
            standing: self.standing(),
            doubled: self.doubled,
        }
    }

    /// The cube as a position shows it: the value offered while an offer is pending
    /// (NOTATION.md §1, state d).
    pub fn shown(&self) -> Option<Cube> {
        match self.offer {
            None => self.cube,
            Some(offer) => Some(Cube {
                value: offer.value,
                owner: offer.standing.owner,
            }),
        }
    }

    /// Why `side` may not double now (None if he may); `written` is the value the record
    /// names, if any.
    pub fn double_problem(
        &self,
        context: &CubeContext,
        side: Side,
        before_roll: bool,
        written: Option<u64>,
    ) -> Option<CubeRule> {
        let options = &context.options;
        let Some(cube) = self.cube.filter(|_| options.cube) else {
            return Some(CubeRule::NoCube);
        };
        if context.crawford_game && options.crawford && !context.money {
            return Some(CubeRule::CrawfordGame);
        }
        if !before_roll || self.offer.is_some() {
            return Some(CubeRule::NotBeforeRoll);
        }
        if cube.owner.is_some_and(|owner| owner != side) {
            return Some(CubeRule::NotCubeOwner);
        }
        if written.is_some_and(|value| value != twice(cube.value)) {
            return Some(CubeRule::WrongCubeValue);
        }
        value_problem(twice(cube.value), options)
    }

    /// `side` offers twice the cube's value; he rolls once it is settled.
    pub fn after_double(self, side: Side) -> CubeState {
        let cube = self.cube.unwrap_or(Cube::centred(1));
        let offer = Offer {
            standing: cube,
            value: twice(cube.value),
            by: side,
            roller: side,
            redouble: false,
        };
        CubeState {
            cube: Some(cube),
            offer: Some(offer),
            doubled: true,
        }
    }

    /// Why `side` may not take or drop now (None if he may).
    pub fn answer_problem(&self, side: Side) -> Option<CubeRule> {
        match self.offer {
            None => Some(CubeRule::NoDoublePending),
            Some(offer) if offer.by == side => Some(CubeRule::NotDoubledSide),
            Some(_) => None,
        }
    }

    /// Why `side` may not beaver the pending offer, or with `raccoon` redouble the pending
    /// beaver (None if he may).
    pub fn beaver_problem(
        &self,
        context: &CubeContext,
        side: Side,
        written: Option<u64>,
        raccoon: bool,
    ) -> Option<CubeRule> {
        if let Some(problem) = self.answer_problem(side) {
            return Some(problem);
        }
        let offer = self.offer?;
        if raccoon && !offer.redouble {
            return Some(CubeRule::NoBeaverPending);
        }
        if !(context.money && context.options.beavers) {
            return Some(CubeRule::BeaverNotAllowed);
        }
        if written.is_some_and(|value| value != twice(offer.value)) {
            return Some(CubeRule::WrongCubeValue);
        }
        value_problem(twice(offer.value), &context.options)
    }

    /// `side` takes the pending offer and at once redoubles, keeping the cube (unchanged
    /// when nothing is pending).
    pub fn after_beaver(self, side: Side) -> CubeState {
        let Some(offer) = self.offer else {
            return self;
        };
        let beaver = Offer {
            standing: Cube {
                value: offer.value,
                owner: Some(side),
            },
            value: twice(offer.value),
            by: side,
            roller: offer.roller,
            redouble: true,
        };
        CubeState {
            offer: Some(beaver),
            ..self
        }
    }

    /// The pending offer is taken: a beaver's or raccoon's maker keeps the cube (unchanged
    /// when nothing is pending).
    pub fn after_take(self, taker: Side) -> CubeState {
        let Some(offer) = self.offer else {
            return self;
        };
        let owner = if offer.redouble { offer.by } else { taker };
        CubeState {
            cube: Some(Cube {
                value: offer.value,
                owner: Some(owner),
            }),
            offer: None,
            doubled: self.doubled,
        }
    }

    /// Why `roller` may not roll while an offer is pending (None when nothing is pending).
    /// Writers leave out the take of a beaver or raccoon: the original doubler's roll
    /// implies it.
    pub fn implied_take_problem(&self, roller: Side) -> Option<CubeRule> {
        let offer = self.offer?;
        (!(offer.redouble && roller == offer.roller)).then_some(CubeRule::AnswerRequired)
    }

    /// Who wins when the pending offer is dropped: its maker.
    pub fn drop_winner(&self) -> Option<Side> {
        self.offer.map(|offer| offer.by)
    }
}
