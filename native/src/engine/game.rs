//! The engine's view of a nardy game: the rules of one variant under its play options, a
//! position from the side about to roll, the 21 rolls, and a game played turn by turn to
//! its score (RULES.md §9 oin and mars, §11 khachapuri's difference).

use crate::engine::error::EngineError;
use crate::rules::board::{Dice, Layout, CELLS, HEAD, HOME_TOP};
use crate::rules::movegen::{self, LegalPlays};
use crate::rules::options::PlayOptions;
use crate::rules::variants::{TurnRules, Variant};
use crate::vocabulary::{Side, CHECKERS, OFF};

/// Turns after which a game is taken as stuck (no game between sensible players comes
/// near: a long nardy game takes about 100).
pub const MAX_TURNS: u32 = 2_000;

/// The 21 distinct rolls, larger die first, each with its chance out of 36.
pub const ROLLS: [(u8, u8, u8); 21] = rolls();

const fn rolls() -> [(u8, u8, u8); 21] {
    let mut rolls = [(0, 0, 0); 21];
    let (mut high, mut at) = (1, 0);
    while high <= 6 {
        let mut low = 1;
        while low <= high {
            rolls[at] = (high, low, if high == low { 1 } else { 2 });
            at += 1;
            low += 1;
        }
        high += 1;
    }
    rolls
}

/// One variant under its play options: what the engine plays by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub variant: Variant,
    pub options: PlayOptions,
}

impl Rules {
    /// The rules of a nardy variant (NotNardy for backgammon).
    pub fn new(variant: Variant, options: PlayOptions) -> Result<Rules, EngineError> {
        if variant == Variant::Backgammon {
            return Err(EngineError::NotNardy(variant));
        }
        Ok(Rules { variant, options })
    }

    /// The variant under RULES.md's default options.
    pub fn default_for(variant: Variant) -> Result<Rules, EngineError> {
        Rules::new(variant, PlayOptions::default())
    }

    /// The start: long nardy 15 on the head, khachapuri 4 on the head and 11 on own 6.
    pub fn start(&self) -> Position {
        let mut layout = [0; CELLS];
        if self.variant == Variant::Khachapuri {
            layout[HEAD] = 4;
            layout[HOME_TOP] = 11;
        } else {
            layout[HEAD] = CHECKERS;
        }
        Position {
            mine: layout,
            theirs: layout,
        }
    }

    /// The legal plays of the side to roll in `position` with `dice`.
    pub fn legal(&self, position: &Position, dice: Dice) -> LegalPlays {
        let Position { mine, theirs } = position;
        let rules = TurnRules::new(self.variant, mine, theirs, dice, &self.options);
        movegen::legal(&rules, mine, theirs, dice)
    }

    /// The roller's layout after each legal play, in the move generator's order, into `out`
    /// (the nardy games hit nothing, so the other side's layout stays as it was).
    pub fn outcomes_into(&self, position: &Position, dice: Dice, out: &mut Vec<Layout>) {
        out.clear();
        out.extend(self.legal(position, dice).iter().map(|(_, mine, _)| mine));
    }

    /// The most one game can score: a mars, 2 points in long nardy, 30 in khachapuri.
    pub fn scale(&self) -> f32 {
        f32::from(self.points(0))
    }

    /// What the winner scores when the loser has borne off `loser_off` checkers.
    pub fn points(&self, loser_off: u8) -> u8 {
        match (self.variant, loser_off) {
            (Variant::Khachapuri, 0) => 2 * CHECKERS,
            (Variant::Khachapuri, off) => CHECKERS - off,
            (_, 0) => 2,
            _ => 1,
        }
    }
}

/// A position seen from the side about to roll: its layout (`mine`) and the other side's,
/// each in its own numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub mine: Layout,
    pub theirs: Layout,
}

impl Position {
    /// The position the other side rolls in after the roller played to `mine`.
    pub fn after(&self, mine: Layout) -> Position {
        Position {
            mine: self.theirs,
            theirs: mine,
        }
    }
}

/// A layout with the given (own point, count) pairs and the rest of the 15 borne off.
pub fn layout_with(points: &[(usize, u8)]) -> Layout {
    let mut layout = [0; CELLS];
    for &(point, count) in points {
        layout[point] += count;
    }
    layout[OFF] = CHECKERS - layout.iter().sum::<u8>();
    layout
}

/// Whether a layout has borne off every checker.
pub fn finished(layout: &Layout) -> bool {
    layout[OFF] == CHECKERS
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub winner: Side,
    pub points: u8,
    /// The loser bore off nothing.
    pub mars: bool,
}

/// A game from the start: the position from the roller's side, who rolls, turns played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    pub rules: Rules,
    pub position: Position,
    pub to_roll: Side,
    pub turns: u32,
}

impl Game {
    /// A new game in which `first` rolls first.
    pub fn new(rules: Rules, first: Side) -> Game {
        Game {
            rules,
            position: rules.start(),
            to_roll: first,
            turns: 0,
        }
    }

    /// The roller played to `mine` (one of his legal layouts): the game's outcome when he
    /// bore off his last checker, else None and the other side rolls next.
    pub fn play(&mut self, mine: Layout) -> Result<Option<Outcome>, EngineError> {
        self.turns += 1;
        if finished(&mine) {
            let loser_off = self.position.theirs[OFF];
            return Ok(Some(Outcome {
                winner: self.to_roll,
                points: self.rules.points(loser_off),
                mars: loser_off == 0,
            }));
        }
        if self.turns >= MAX_TURNS {
            return Err(EngineError::TooLong(self.turns));
        }
        self.position = self.position.after(mine);
        self.to_roll = self.to_roll.other();
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn long_nardy() -> Rules {
        Rules::default_for(Variant::LongNardy).unwrap()
    }

    #[test]
    fn the_21_rolls_make_36_chances() {
        let chances: u32 = ROLLS.iter().map(|&(_, _, n)| u32::from(n)).sum();
        assert_eq!(chances, 36);
        assert!(ROLLS
            .iter()
            .all(|&(high, low, _)| (1..=6).contains(&low) && low <= high));
        assert_eq!(ROLLS.iter().filter(|&&(_, _, n)| n == 1).count(), 6);
    }

    #[test]
    fn backgammon_is_refused() {
        assert_eq!(
            Rules::default_for(Variant::Backgammon),
            Err(EngineError::NotNardy(Variant::Backgammon))
        );
    }

    #[test]
    fn the_starts_are_those_of_rules_md() {
        let start = long_nardy().start();
        assert_eq!(start.mine[HEAD], 15);
        let khachapuri = Rules::default_for(Variant::Khachapuri).unwrap().start();
        assert_eq!((khachapuri.mine[HEAD], khachapuri.mine[6]), (4, 11));
        assert_eq!(khachapuri.mine, khachapuri.theirs);
    }

    #[test]
    fn scores_are_oin_mars_and_khachapuri_differences() {
        let kh = Rules::default_for(Variant::Khachapuri).unwrap();
        assert_eq!((kh.points(0), kh.points(1), kh.points(14)), (30, 14, 1));
        assert_eq!((long_nardy().points(0), long_nardy().points(9)), (2, 1));
        assert_eq!((long_nardy().scale(), kh.scale()), (2.0, 30.0));
    }

    #[test]
    fn a_first_six_six_takes_two_checkers_from_the_head() {
        let rules = long_nardy();
        let mut plays = Vec::new();
        rules.outcomes_into(&rules.start(), Dice::new(6, 6).unwrap(), &mut plays);
        assert_eq!(plays.len(), 1);
        assert_eq!((plays[0][HEAD], plays[0][18]), (13, 2));
    }

    #[test]
    fn a_game_alternates_and_ends_with_the_last_checker_off() {
        let mut game = Game::new(long_nardy(), Side::Black);
        let mut moved = game.position.mine;
        moved[HEAD] -= 1;
        moved[20] += 1;
        assert_eq!(game.play(moved), Ok(None));
        assert_eq!(game.to_roll, Side::White);
        assert_eq!(game.position.theirs, moved);
        let mut done = [0; CELLS];
        done[OFF] = 15;
        let outcome = game.play(done).unwrap().unwrap();
        assert_eq!(
            outcome,
            Outcome {
                winner: Side::White,
                points: 2,
                mars: true
            }
        );
    }
}
