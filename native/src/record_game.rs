//! Checking one game of a record natively, the twin of `GameChecker` in
//! `referee/adjudication/game.py` for the games it would pass without a word: every action
//! legal, nothing to warn about. It answers how the game ended and what the cube stood at;
//! Python scores that ending. Every other game is declined, and Python checks (and words)
//! it again.

use crate::board::{Dice, Layout, CHECKERS, OFF};
use crate::judge::{Judge, WrittenMove};
use crate::notation::play_text;
use crate::record::{Action, Cell, GameText, Side};
use crate::record_play::WrittenPlay;
use crate::variants::{JudgeMode, PlayOptions, TurnRules, Variant};

/// The doubling cube: its value and owner (None = centred).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cube {
    pub value: u64,
    pub owner: Option<Side>,
}

/// The rules of a match's games (the Python engine's `Options` and variant switches).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchRules {
    pub variant: Variant,
    pub play: PlayOptions,
    pub judge: JudgeMode,
    /// The `cube` option: the cube is in play where the variant has one.
    pub cube: bool,
    pub crawford: bool,
    pub beavers: bool,
    pub cube_limit: u64,
    pub money: bool,
    pub draw_rule: bool,
    /// `draw_scoring=after_extra_turn`: the loser's extra turn counts for the score.
    pub score_after_extra_turn: bool,
    pub opening_doublets: bool,
    /// The record marks hits somewhere, so a missing mark is worth a warning.
    pub hits_marked: bool,
}

/// How a game starts: both layouts (each in its own numbering), the cube, and whether
/// this is the variant's starting board (where an opening doublet may be illegal).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameStart {
    pub white: Layout,
    pub black: Layout,
    pub cube: Option<Cube>,
    /// Who is to roll (None: whoever rolls first).
    pub turn: Option<Side>,
    pub from_start: bool,
    pub crawford_game: bool,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// `winner` bore off his last checker; `white`/`black` is the board the score is
    /// counted on.
    BoreOff {
        winner: Side,
        white: Layout,
        black: Layout,
    },
    /// Both sides bore off under the draw rule.
    Draw,
    /// The double was dropped: its maker wins.
    Drop { winner: Side },
    /// A `Wins N` line before any other ending: a resignation (or a timeout award).
    Resigned { winner: Side, value: u64 },
}

/// A game that passed: its ending, the cube it was played for then, whether a double was
/// offered (the Jacoby rule), and, when asked for, the canonical text of each cell but the
/// `Wins` lines (as `canonical_actions` and `mat_writer` write them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub ending: Ending,
    pub standing: Option<Cube>,
    pub doubled: bool,
    pub cells: Vec<(Side, String)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Offer {
    standing: Cube,
    value: u64,
    by: Side,
    roller: Side,
    redouble: bool,
}

struct Game<'a> {
    rules: &'a MatchRules,
    crawford_game: bool,
    white: Layout,
    black: Layout,
    turn: Option<Side>,
    cube: Option<Cube>,
    offer: Option<Offer>,
    doubled: bool,
    first_mover: Option<Side>,
    extra_turn_for: Option<Side>,
    finish: Option<(Layout, Layout)>,
    ending: Option<Ending>,
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
    let mut state = Game {
        rules,
        crawford_game: start.crawford_game,
        white: start.white,
        black: start.black,
        turn: start.turn,
        cube: start.cube,
        offer: None,
        doubled: false,
        first_mover: start.turn,
        extra_turn_for: None,
        finish: None,
        ending: None,
        cells: canonical.then(Vec::new),
    };
    let first_roll = game
        .cells
        .iter()
        .position(|cell| matches!(cell.action, Action::Roll { .. }));
    for (index, cell) in game.cells.iter().enumerate() {
        let opening = start.from_start && Some(index) == first_roll;
        state.act(cell, opening)?;
    }
    Some(Outcome {
        ending: state.ending?,
        standing: state.offer.map(|offer| offer.standing).or(state.cube),
        doubled: state.doubled,
        cells: state.cells.unwrap_or_default(),
    })
}

impl Game<'_> {
    fn act(&mut self, cell: &Cell, opening: bool) -> Option<()> {
        if self.ending.is_some() {
            // After the end only the Wins line may follow (it records the claim).
            return matches!(cell.action, Action::Win { .. }).then_some(());
        }
        let side = cell.side;
        match &cell.action {
            Action::Roll { dice, play } => return self.roll(side, *dice, play, opening),
            Action::Double { value } => self.double(side, *value)?,
            Action::Beaver { value } => self.beaver(side, *value, false)?,
            Action::Raccoon { value } => self.beaver(side, *value, true)?,
            Action::Take => {
                let offer = self.answerable(side)?;
                self.settle(offer, side);
            }
            Action::Drop => {
                let offer = self.answerable(side)?;
                self.ending = Some(Ending::Drop { winner: offer.by });
                self.cube = Some(offer.standing);
                self.offer = None;
            }
            Action::Win { value, .. } => {
                self.ending = Some(Ending::Resigned {
                    winner: side,
                    value: *value,
                });
                return Some(());
            }
            Action::Loss => return None,
        }
        self.write(side, || match &cell.action {
            Action::Double { value } => format!(" Doubles => {value}"),
            Action::Beaver { value } => format!(" Beavers => {value}"),
            Action::Raccoon { value } => format!(" Raccoons => {value}"),
            Action::Take => " Takes".to_owned(),
            _ => " Drops".to_owned(),
        });
        Some(())
    }

    /// Keep the canonical text of a cell of `side`, when the canonical record is wanted.
    fn write(&mut self, side: Side, text: impl FnOnce() -> String) {
        if let Some(cells) = &mut self.cells {
            cells.push((side, text()));
        }
    }

    fn roll(
        &mut self,
        side: Side,
        dice: (u8, u8),
        play: &WrittenPlay,
        opening: bool,
    ) -> Option<()> {
        if let Some(offer) = self.offer {
            // A roll implies the take only of a beaver or raccoon, by the original doubler.
            if !(offer.redouble && side == offer.roller) {
                return None;
            }
            self.settle(offer, self.turn.unwrap_or(side));
        }
        if self.turn.is_some_and(|turn| turn != side) {
            return None;
        }
        self.first_mover.get_or_insert(side);
        let WrittenPlay::Moves(moves) = play else {
            return None;
        };
        let dice = Dice::new(dice.0, dice.1).ok()?;
        if opening && dice.is_double() && !self.rules.opening_doublets {
            return None;
        }
        let (mine, theirs) = self.layouts(side);
        let rules = TurnRules::new(self.rules.variant, &mine, &theirs, dice, &self.rules.play);
        let judge = Judge {
            rules: &rules,
            mine: &mine,
            theirs: &theirs,
            dice,
            mode: self.rules.judge,
        };
        let accepted = judge.accept(moves, false)?;
        let marks = moves.iter().any(|m| m.mark) || accepted.played.iter().any(|s| s.hit);
        if marks && self.marks_to_warn(moves, &accepted.played, &accepted.owners) {
            return None;
        }
        let literal = self.rules.judge == JudgeMode::Sequence;
        self.write(side, || {
            let text = format!(
                "{}{}: {}",
                dice.high,
                dice.low,
                play_text(&accepted.steps, literal)
            );
            text.trim_end().to_owned()
        });
        self.after_play(side, accepted.mine, accepted.theirs);
        Some(())
    }

    /// Whether `_mark_warnings` would warn (a `*` that hits nothing always; a hit without
    /// its `*` only where the record marks hits).
    fn marks_to_warn(
        &self,
        moves: &[WrittenMove],
        played: &[crate::board::Step],
        owners: &[usize],
    ) -> bool {
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

    fn layouts(&self, side: Side) -> (Layout, Layout) {
        match side {
            Side::White => (self.white, self.black),
            Side::Black => (self.black, self.white),
        }
    }

    fn set_layouts(&mut self, side: Side, mine: Layout, theirs: Layout) {
        match side {
            Side::White => (self.white, self.black) = (mine, theirs),
            Side::Black => (self.black, self.white) = (mine, theirs),
        }
    }

    /// `GameChecker.after_play`: a finish, a draw or the next turn.
    fn after_play(&mut self, side: Side, mine: Layout, theirs: Layout) {
        self.set_layouts(side, mine, theirs);
        let finished = mine[OFF] == CHECKERS;
        if self.extra_turn_for == Some(side) {
            self.ending = Some(if finished {
                Ending::Draw
            } else {
                let (white, black) = match self.finish {
                    Some(board) if !self.rules.score_after_extra_turn => board,
                    _ => (self.white, self.black),
                };
                Ending::BoreOff {
                    winner: side.other(),
                    white,
                    black,
                }
            });
            return;
        }
        if finished {
            let opponent_done = theirs[OFF] == CHECKERS;
            if self.rules.draw_rule && Some(side) == self.first_mover && !opponent_done {
                self.extra_turn_for = Some(side.other());
                self.finish = Some((self.white, self.black));
            } else {
                self.ending = Some(Ending::BoreOff {
                    winner: side,
                    white: self.white,
                    black: self.black,
                });
                return;
            }
        }
        self.turn = Some(side.other());
    }

    /// `CubeState.double_problem` finds nothing: `side` doubles.
    fn double(&mut self, side: Side, written: u64) -> Option<()> {
        let cube = self.cube.filter(|_| self.rules.cube)?;
        let rules = self.rules;
        if self.crawford_game && rules.crawford && !rules.money {
            return None;
        }
        // Before rolling: on turn with no offer pending (after the end nothing is checked).
        let before_roll = self.turn == Some(side) && self.offer.is_none();
        let lawful = before_roll
            && self.offer.is_none()
            && cube.owner.is_none_or(|owner| owner == side)
            && written == 2 * cube.value
            && 2 * cube.value <= rules.cube_limit;
        if !lawful {
            return None;
        }
        self.doubled = true;
        self.offer(Offer {
            standing: cube,
            value: 2 * cube.value,
            by: side,
            roller: side,
            redouble: false,
        });
        Some(())
    }

    /// `CubeState.beaver_problem` finds nothing: `side` beavers (or raccoons).
    fn beaver(&mut self, side: Side, written: u64, raccoon: bool) -> Option<()> {
        let offer = self.answerable(side)?;
        let rules = self.rules;
        let lawful = (!raccoon || offer.redouble)
            && rules.money
            && rules.beavers
            && written == 2 * offer.value
            && 2 * offer.value <= rules.cube_limit;
        if !lawful {
            return None;
        }
        self.offer(Offer {
            standing: Cube {
                value: offer.value,
                owner: Some(side),
            },
            value: 2 * offer.value,
            by: side,
            roller: offer.roller,
            redouble: true,
        });
        Some(())
    }

    fn offer(&mut self, offer: Offer) {
        self.turn = Some(offer.by.other());
        self.offer = Some(offer);
    }

    /// The pending offer when `side` may answer it.
    fn answerable(&self, side: Side) -> Option<Offer> {
        self.offer.filter(|offer| offer.by != side)
    }

    /// `taker` takes the pending offer; its roller rolls next.
    fn settle(&mut self, offer: Offer, taker: Side) {
        let owner = if offer.redouble { offer.by } else { taker };
        self.cube = Some(Cube {
            value: offer.value,
            owner: Some(owner),
        });
        self.offer = None;
        self.turn = Some(offer.roller);
    }
}
