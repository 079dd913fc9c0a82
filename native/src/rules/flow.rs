//! The game flow (RULES.md §3, §9-11, §14), the twin of `referee/rules/flow.py`'s
//! `GameFlow`: one game's state and every transition to the next state or to the game's
//! ending.
//!
//! Each transition moves the flow on in place (the Python twin returns a new frozen object;
//! a `GameFlow` is a plain `Copy` value, so a caller keeps the state before by copying it);
//! a finished game carries its `ending` and a position in phase `End`. Whether an action is
//! allowed is asked first (the `*_problem` methods); the transitions themselves check
//! nothing. The native core does not score: an `Ending` says how the game ended (with the
//! board a bear-off is scored on) and `stake` what it was played for, and the Python engine
//! scores that. Not mirrored, as the native core never meets them: the opening tie's
//! automatic doubles, board edits and timeouts (Python checks those games).

use crate::error::Error;
use crate::rules::board::{Board, Dice};
use crate::rules::cube::{Cube, CubeContext, CubeRule, CubeState, Stake};
use crate::rules::options::{DrawScoring, Options};
use crate::vocabulary::{Phase, Side, CHECKERS};

/// What one game is played under, fixed for the whole game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRules {
    pub options: Options,
    /// Money play (a match length of 0).
    pub money: bool,
    /// This game is the match's Crawford game.
    pub crawford_game: bool,
    /// The variant allows a doublet as the first roll (then the starter rolls afresh after
    /// the opening throw, RULES.md 3.1; otherwise the opening dice are his first roll, 14.2).
    pub opening_doublets: bool,
}

/// Where a game stands: the board, who is to act and what he must do, the dice to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub board: Board,
    /// None before the first roll of a game whose start names nobody, and once it is over.
    pub turn: Option<Side>,
    pub phase: Phase,
    pub dice: Option<Dice>,
}

impl Position {
    /// The play is over: `board`, with `turn` to act in `phase` (no dice yet).
    fn moved_on(&mut self, board: Board, turn: Option<Side>, phase: Phase) {
        *self = Position {
            board,
            turn,
            phase,
            dice: None,
        };
    }
}

/// How a game ended (the Python engine scores it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// `winner` bore off his last checker; `board` is the board the score is counted on.
    BoreOff { winner: Side, board: Board },
    /// Both sides bore off under the draw rule.
    Draw,
    /// The pending offer was dropped: its maker wins.
    Drop { winner: Side },
    /// The game was given up (a record's `Wins N` line) for `points`.
    Resigned { winner: Side, points: u64 },
}

/// A game in progress: the position, the cube's negotiation, who moved first, the draw
/// rule's extra turn and, once it is over, the ending.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameFlow {
    pub rules: GameRules,
    pub position: Position,
    pub cube: CubeState,
    pub first_mover: Option<Side>,
    /// Under the draw rule: the side whose extra turn follows the first mover's finish.
    pub extra_turn_for: Option<Side>,
    /// The board when the first mover finished (scored under `draw_scoring=at_finish`).
    pub finish_board: Option<Board>,
    pub ending: Option<Ending>,
}

impl GameFlow {
    /// A game from `board` with `cube`, to roll (`turn` set when the start says who rolls).
    pub fn start(
        rules: GameRules,
        board: Board,
        turn: Option<Side>,
        cube: Option<Cube>,
    ) -> GameFlow {
        GameFlow {
            rules,
            position: Position {
                board,
                turn,
                phase: Phase::Roll,
                dice: None,
            },
            cube: CubeState::new(cube),
            first_mover: turn,
            extra_turn_for: None,
            finish_board: None,
            ending: None,
        }
    }

    // -- what the game stands at --------------------------------------------------------

    pub fn over(&self) -> bool {
        self.ending.is_some()
    }

    /// What the game is worth now: while an offer is pending, the cube before it.
    pub fn stake(&self) -> Stake {
        self.cube.stake()
    }

    pub fn cube_context(&self) -> CubeContext {
        CubeContext {
            crawford_game: self.rules.crawford_game,
            money: self.rules.money,
            options: self.rules.options,
        }
    }

    // -- may this be done now? ----------------------------------------------------------

    /// Why `side` may not double now (`written`: the value a record names).
    pub fn double_problem(&self, side: Side, written: Option<u64>) -> Option<CubeRule> {
        let position = &self.position;
        let before_roll = position.turn == Some(side) && position.phase == Phase::Roll;
        self.cube
            .double_problem(&self.cube_context(), side, before_roll, written)
    }

    /// Why `side` may not beaver (or, with `raccoon`, redouble a beaver) now.
    pub fn beaver_problem(
        &self,
        side: Side,
        written: Option<u64>,
        raccoon: bool,
    ) -> Option<CubeRule> {
        self.cube
            .beaver_problem(&self.cube_context(), side, written, raccoon)
    }

    /// Why `side` may not take or drop now.
    pub fn answer_problem(&self, side: Side) -> Option<CubeRule> {
        self.cube.answer_problem(side)
    }

    /// Why `roller` may not roll while an offer is pending (a beaver's take is implied by
    /// the original doubler's roll).
    pub fn implied_take_problem(&self, roller: Side) -> Option<CubeRule> {
        self.cube.implied_take_problem(roller)
    }

    // -- the opening (RULES.md 3.1, 14.2) -----------------------------------------------

    /// The opening throw (`white` ≠ `black`): the higher die moves first. Where the variant
    /// forbids an opening doublet the two dice are his first roll (RULES.md 14.2);
    /// otherwise he rolls afresh (3.1).
    pub fn opened(&mut self, white: u8, black: u8) -> Result<(), Error> {
        let dice = Dice::new(white, black)?;
        let starter = if white > black {
            Side::White
        } else {
            Side::Black
        };
        self.position.turn = Some(starter);
        self.first_mover = Some(starter);
        if !self.rules.opening_doublets {
            self.rolled(starter, dice);
        }
        Ok(())
    }

    // -- turns --------------------------------------------------------------------------

    /// `side` rolled `dice` and must play them.
    pub fn rolled(&mut self, side: Side, dice: Dice) {
        self.position.turn = Some(side);
        self.position.phase = Phase::Move;
        self.position.dice = Some(dice);
        self.first_mover = self.first_mover.or(Some(side));
    }

    /// `side` played to `board`: the next turn, the draw rule's extra turn, or the end (a
    /// bear-off or, after the extra turn, a draw; RULES.md §9-11).
    pub fn played(&mut self, side: Side, board: Board) {
        let first_mover = self.first_mover.unwrap_or(side);
        let finished = board.borne_off(side) == CHECKERS;
        if self.extra_turn_for == Some(side) {
            if finished {
                return self.ended_on(Ending::Draw, board);
            }
            let scored = match self.finish_board {
                Some(finish) if self.rules.options.draw_scoring == DrawScoring::AtFinish => finish,
                _ => board,
            };
            let winner = side.other();
            let ending = Ending::BoreOff {
                winner,
                board: scored,
            };
            return self.ended_on(ending, board);
        }
        if finished {
            let opponent_done = board.borne_off(side.other()) == CHECKERS;
            if !(self.rules.options.draw_rule && side == first_mover && !opponent_done) {
                return self.ended_on(
                    Ending::BoreOff {
                        winner: side,
                        board,
                    },
                    board,
                );
            }
            self.extra_turn_for = Some(side.other());
            self.finish_board = Some(board);
        }
        self.position
            .moved_on(board, Some(side.other()), Phase::Roll);
        self.first_mover = Some(first_mover);
    }

    // -- the cube (RULES.md 14.5-14.6) --------------------------------------------------

    /// `side` offers a double; the other side must answer.
    pub fn doubled(&mut self, side: Side) {
        self.offered(self.cube.after_double(side), side.other());
    }

    /// `side` beavers (or raccoons) the pending offer; its maker must answer (nothing
    /// changes when nothing is pending).
    pub fn beavered(&mut self, side: Side) {
        if let Some(offer) = self.cube.offer {
            self.offered(self.cube.after_beaver(side), offer.by);
        }
    }

    /// A new offer stands; `answering` is to answer it.
    fn offered(&mut self, cube: CubeState, answering: Side) {
        self.cube = cube;
        self.position.turn = Some(answering);
        self.position.phase = Phase::Doubled;
    }

    /// The pending offer is taken: the original doubler rolls next.
    pub fn taken(&mut self, taker: Side) {
        if let Some(offer) = self.cube.offer {
            self.position.turn = Some(offer.roller);
        }
        self.position.phase = Phase::Roll;
        self.cube = self.cube.after_take(taker);
    }

    /// The pending offer is dropped: its maker wins the cube before it (nothing changes
    /// when nothing is pending).
    pub fn dropped(&mut self) {
        if let Some(winner) = self.cube.drop_winner() {
            self.ended(Ending::Drop { winner });
        }
    }

    // -- other ends ---------------------------------------------------------------------

    /// The game is given up for `points` (a `Wins N` line).
    pub fn resigned(&mut self, winner: Side, points: u64) {
        self.ended(Ending::Resigned { winner, points });
    }

    /// The game is over with `ending`, on the board as it stands.
    pub fn ended(&mut self, ending: Ending) {
        let board = self.position.board;
        self.ended_on(ending, board);
    }

    fn ended_on(&mut self, ending: Ending, board: Board) {
        self.position.moved_on(board, None, Phase::End);
        self.ending = Some(ending);
    }
}
