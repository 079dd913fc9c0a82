//! Checking one game of a record natively, the twin of `GameChecker` in
//! `referee/adjudication/game.py` for the games it would pass without a word: every action
//! legal, nothing to warn about. The game itself (position, cube, turns, the end) is the
//! rules' `GameFlow`; this checker keeps only what it says about a record: which cells it
//! declines, the opening doublet of a game from the start, the `*` marks, the canonical
//! cells. It answers how the game ended and what it was played for; Python scores that
//! ending. Every other game is declined, and Python checks (and words) it again.

use crate::bridge::play_moves;
use crate::notation::plays::{format_play, WrittenPlay};
use crate::notation::record::{Action, Cell, GameText};
use crate::rules::board::{Board, Dice, Step};
use crate::rules::cube::{Cube, Stake};
use crate::rules::flow::{Ending, GameFlow, GameRules};
use crate::rules::judge::Judge;
use crate::rules::options::{JudgeMode, Options};
use crate::rules::variants::{TurnRules, Variant};
use crate::vocabulary::{Side, WrittenMove};

/// The rules of a match's games (the Python engine's `Options` and variant switches) and
/// what the record says about them all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchRules {
    pub variant: Variant,
    pub options: Options,
    pub money: bool,
    /// The variant's switch (`Variant.opening_doublets`), as the Python engine gives it.
    pub opening_doublets: bool,
    /// The record marks hits somewhere, so a missing mark is worth a warning.
    pub hits_marked: bool,
}

/// How a game starts: the board (each side in its own numbering), the cube, who rolls
/// first, whether this is the variant's starting board (where an opening doublet may be
/// illegal) and whether it is the Crawford game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameStart {
    pub board: Board,
    pub cube: Option<Cube>,
    /// Who is to roll (None: whoever rolls first).
    pub turn: Option<Side>,
    pub from_start: bool,
    pub crawford_game: bool,
}

/// A game that passed: its ending, what it was played for then, and, when asked for, the
/// canonical text of each cell but the `Wins` lines (as `canonical_actions` and
/// `mat_writer` write them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub ending: Ending,
    pub stake: Stake,
    pub cells: Vec<(Side, String)>,
}

struct Checker<'a> {
    rules: &'a MatchRules,
    flow: GameFlow,
    cells: Option<Vec<(Side, String)>>,
}

/// The outcome of `game` from `start` (with its canonical cells when `canonical`), or None
/// when Python must check it.
pub fn check_game(
    game: &GameText,
    start: &GameStart,
    rules: &MatchRules,
    canonical: bool,
) -> Option<Outcome> {
    let game_rules = GameRules {
        options: rules.options,
        money: rules.money,
        crawford_game: start.crawford_game,
        opening_doublets: rules.opening_doublets,
    };
    let mut checker = Checker {
        rules,
        flow: GameFlow::start(game_rules, start.board, start.turn, start.cube),
        cells: canonical.then(Vec::new),
    };
    let first_roll = game
        .cells
        .iter()
        .position(|cell| matches!(cell.action, Action::Roll { .. }));
    for (index, cell) in game.cells.iter().enumerate() {
        let opening = start.from_start && Some(index) == first_roll;
        checker.act(cell, opening)?;
    }
    Some(Outcome {
        ending: checker.flow.ending?,
        stake: checker.flow.stake(),
        cells: checker.cells.unwrap_or_default(),
    })
}

impl Checker<'_> {
    /// Check and apply one cell; None when the game is Python's to check.
    fn act(&mut self, cell: &Cell, opening: bool) -> Option<()> {
        if self.flow.over() {
            // After the end only the Wins line may follow (it records the claim).
            return matches!(cell.action, Action::Win { .. }).then_some(());
        }
        let side = cell.side;
        let flow = &mut self.flow;
        match &cell.action {
            Action::Roll { dice, play } => return self.roll(side, *dice, play, opening),
            Action::Double { value } => {
                lawful(flow.double_problem(side, Some(*value)))?;
                flow.doubled(side);
            }
            Action::Beaver { value } => {
                lawful(flow.beaver_problem(side, Some(*value), false))?;
                flow.beavered(side);
            }
            Action::Raccoon { value } => {
                lawful(flow.beaver_problem(side, Some(*value), true))?;
                flow.beavered(side);
            }
            Action::Take => {
                lawful(flow.answer_problem(side))?;
                flow.taken(side);
            }
            Action::Drop => {
                lawful(flow.answer_problem(side))?;
                flow.dropped();
            }
            // A Wins line before any other ending: the game is given up.
            Action::Win { value, .. } => flow.resigned(side, *value),
            Action::Loss => return None,
        }
        self.write(side, || cube_text(&cell.action));
        Some(())
    }

    /// Keep the canonical text of a cell of `side` (if it has one here), when the
    /// canonical record is wanted.
    fn write(&mut self, side: Side, text: impl FnOnce() -> Option<String>) {
        if let Some(cells) = &mut self.cells {
            cells.extend(text().map(|text| (side, text)));
        }
    }

    /// A roll and its play: a pending beaver taken by the roll, the turn, then the play
    /// judged and played.
    fn roll(
        &mut self,
        side: Side,
        dice: (u8, u8),
        play: &WrittenPlay,
        opening: bool,
    ) -> Option<()> {
        if self.flow.cube.offer.is_some() {
            lawful(self.flow.implied_take_problem(side))?;
            let taker = self.flow.position.turn.unwrap_or(side);
            self.flow.taken(taker);
        }
        if self.flow.position.turn.is_some_and(|turn| turn != side) {
            return None;
        }
        let WrittenPlay::Moves(moves) = play else {
            return None;
        };
        let dice = Dice::new(dice.0, dice.1).ok()?;
        if opening && dice.is_double() && !self.rules.opening_doublets {
            return None;
        }
        let (mine, theirs) = self.flow.position.board.sides(side);
        let turn = TurnRules::new(
            self.rules.variant,
            &mine,
            &theirs,
            dice,
            &self.rules.options.play,
        );
        let judge = Judge {
            rules: &turn,
            mine: &mine,
            theirs: &theirs,
            dice,
            mode: self.rules.options.judge,
        };
        let accepted = judge.accept(moves, false)?;
        if accepted.marks_anything(moves)
            && self.marks_to_warn(moves, &accepted.played, &accepted.owners)
        {
            return None;
        }
        let literal = self.rules.options.judge == JudgeMode::Sequence;
        self.write(side, || {
            let moves = play_moves(&accepted.steps, literal);
            Some(format_play(&moves, Some((dice.high, dice.low))))
        });
        let board = Board::from_sides(side, accepted.mine, accepted.theirs);
        self.flow.played(side, board);
        Some(())
    }

    /// Whether `_mark_warnings` would warn (a `*` that hits nothing always; a hit without
    /// its `*` only where the record marks hits).
    fn marks_to_warn(&self, moves: &[WrittenMove], played: &[Step], owners: &[usize]) -> bool {
        let mut last_hit: Vec<Option<bool>> = vec![None; moves.len()];
        for (step, &owner) in played.iter().zip(owners) {
            last_hit[owner] = Some(step.hit);
        }
        let mut groups: Vec<(WrittenMove, bool)> = Vec::new();
        for (move_, hit) in moves.iter().zip(&last_hit) {
            let Some(hit) = hit else { continue };
            match groups.iter_mut().find(|(m, _)| m == move_) {
                Some((_, group)) => *group = *group || *hit,
                None => groups.push((*move_, *hit)),
            }
        }
        let unmarked = self.rules.hits_marked;
        let group_warns = groups
            .iter()
            .any(|(m, hit)| if *hit { !m.mark && unmarked } else { m.mark });
        let hidden = played
            .windows(2)
            .zip(owners.windows(2))
            .any(|(steps, pair)| steps[0].hit && pair[0] == pair[1]);
        group_warns || (hidden && unmarked)
    }
}

/// The canonical text of a cube cell as `mat_writer` lays it out (None for the others: the
/// Python side writes the `Wins` lines).
fn cube_text(action: &Action) -> Option<String> {
    Some(match action {
        Action::Double { value } => format!(" Doubles => {value}"),
        Action::Beaver { value } => format!(" Beavers => {value}"),
        Action::Raccoon { value } => format!(" Raccoons => {value}"),
        Action::Take => " Takes".to_owned(),
        Action::Drop => " Drops".to_owned(),
        _ => return None,
    })
}

/// `Some(())` when the rules find no problem: a problem leaves the game to Python, which
/// words it.
fn lawful<T>(problem: Option<T>) -> Option<()> {
    problem.is_none().then_some(())
}
