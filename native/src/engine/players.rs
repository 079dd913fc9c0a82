//! The players the engine is measured with and against: the network at 0 or 1 ply, a
//! random player, and a hand-written heuristic that judges a play by pips, blocks and head
//! use (what a beginner is taught).

use std::sync::Arc;

use crate::engine::error::EngineError;
use crate::engine::features::Block;
use crate::engine::game::{Position, Rules};
use crate::engine::net::Network;
use crate::engine::rng::Rng;
use crate::engine::search::Searcher;
use crate::rules::board::{Layout, HEAD, HOME_TOP};
use crate::vocabulary::OFF;

/// Someone who picks one of the legal plays.
#[derive(Clone, Debug)]
pub enum Player {
    /// Any legal play, each as likely.
    Random(Rng),
    /// The best play by `heuristic_score`.
    Heuristic,
    /// The network's best play at 0 or 1 ply.
    Engine { net: Arc<Network>, plies: u8 },
}

impl Player {
    /// The index of the chosen play among `plays` (the roller's layouts after each; there
    /// is always at least one).
    pub fn choose(
        &mut self,
        rules: &Rules,
        before: &Position,
        plays: &[Layout],
    ) -> Result<usize, EngineError> {
        match self {
            Player::Random(rng) => Ok(rng.below(plays.len())),
            Player::Heuristic => Ok(best_by(plays, |mine| heuristic_score(rules, before, mine))),
            Player::Engine { net, plies } => {
                let mut searcher = Searcher::new(net, *rules)?;
                Ok(searcher.choose(before, plays, *plies)?.index)
            }
        }
    }
}

/// The index of the highest score (the first of equals).
fn best_by(plays: &[Layout], mut score: impl FnMut(&Layout) -> f32) -> usize {
    let mut best = (0, f32::NEG_INFINITY);
    for (index, mine) in plays.iter().enumerate() {
        let value = score(mine);
        if value > best.1 {
            best = (index, value);
        }
    }
    best.0
}

/// A beginner's judgement of the roller's layout `mine` after his play from `before`:
/// - pips: every pip still to go costs 1, every checker borne off is worth 15 more;
/// - blocks: the longest run held along the opponent's path is worth 4 a point (16 a
///   point from the fourth on) while he has checkers behind it, and each held point in
///   front of his rearmost checker 2;
/// - head use: each checker left on the head costs 3, as do checkers stacked above three
///   on one point (1 each);
/// - home: each checker at home is worth 1 (bearing off comes sooner).
pub fn heuristic_score(rules: &Rules, before: &Position, mine: &Layout) -> f32 {
    let theirs = &before.theirs;
    let opposite = rules.variant.opposite_table();
    let pips: u32 = (1..=24).map(|p| p as u32 * u32::from(mine[p])).sum();
    let mut score = -(pips as f32) + 15.0 * f32::from(mine[OFF]);
    let block = Block::longest(rules.variant, mine, theirs);
    if block.behind > 0 {
        let long = block.length.saturating_sub(3) as f32;
        score += 4.0 * block.length as f32 + 12.0 * long;
    }
    let rearmost = (1..=24).rev().find(|&q| theirs[q] > 0).unwrap_or(0);
    let held_in_front = (1..rearmost).filter(|&q| mine[opposite[q]] > 0).count();
    score += 2.0 * held_in_front as f32;
    let stacked: u8 = (1..HEAD).map(|p| mine[p].saturating_sub(3)).sum();
    score -= 3.0 * f32::from(mine[HEAD]) + f32::from(stacked);
    let home: u8 = mine[1..=HOME_TOP].iter().sum();
    score + f32::from(home)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::{Dice, CELLS};
    use crate::rules::variants::Variant;

    #[test]
    fn the_heuristic_takes_a_checker_from_the_head_and_builds_points() {
        let rules = Rules::default_for(Variant::LongNardy).unwrap();
        let mut before = rules.start();
        before.mine[HEAD] = 13;
        before.mine[18] = 1;
        before.mine[17] = 1;
        let mut plays = Vec::new();
        rules.outcomes_into(&before, Dice::new(2, 1).unwrap(), &mut plays);
        let chosen = Player::Heuristic.choose(&rules, &before, &plays).unwrap();
        // 24/22 22/21 or 24/23 23/21 leaves the head: either way one checker fewer on it.
        assert_eq!(plays[chosen][HEAD], 12);
    }

    #[test]
    fn the_random_player_picks_every_play_in_time() {
        let rules = Rules::default_for(Variant::Khachapuri).unwrap();
        let start = rules.start();
        let mut plays = Vec::new();
        rules.outcomes_into(&start, Dice::new(4, 2).unwrap(), &mut plays);
        let mut player = Player::Random(Rng::new(5));
        let mut seen = vec![false; plays.len()];
        for _ in 0..200 * plays.len() {
            seen[player.choose(&rules, &start, &plays).unwrap()] = true;
        }
        assert!(seen.iter().all(|&s| s), "{} plays", plays.len());
    }

    #[test]
    fn bearing_off_beats_moving_inside_the_home() {
        let rules = Rules::default_for(Variant::LongNardy).unwrap();
        let mut mine = [0; CELLS];
        mine[6] = 2;
        mine[OFF] = 13;
        let before = Position {
            mine,
            theirs: rules.start().theirs,
        };
        let mut plays = Vec::new();
        rules.outcomes_into(&before, Dice::new(6, 1).unwrap(), &mut plays);
        let chosen = Player::Heuristic.choose(&rules, &before, &plays).unwrap();
        assert_eq!(plays[chosen][OFF], 14);
    }
}
