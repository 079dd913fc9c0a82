//! Choosing a play: every legal play's resulting position judged by the network (0-ply),
//! or, at 1-ply, the best few of them judged again by expectimax over the opponent's 21
//! rolls, each answered by his best reply at 0-ply (as gnubg's move filters do).

use crate::engine::error::EngineError;
use crate::engine::features::Features;
use crate::engine::game::{finished, Position, Rules, ROLLS};
use crate::engine::net::{Estimate, Network};
use crate::rules::board::{Dice, Layout};
use crate::vocabulary::OFF;

/// Plays judged again at 1-ply: at most this many of the best at 0-ply...
pub const MAX_CANDIDATES: usize = 8;
/// ...within this share of the variant's most points of the best one.
pub const CANDIDATE_MARGIN: f32 = 0.08;

/// A play's judgement: its index among the plays, its estimate for the roller, the plies
/// it was searched to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judged {
    pub index: usize,
    pub estimate: Estimate,
    pub equity: f32,
    pub plies: u8,
}

/// The network's judgement of positions under one variant's rules.
pub struct Searcher<'a> {
    net: &'a Network,
    rules: Rules,
    features: Features,
}

impl<'a> Searcher<'a> {
    /// A searcher for `rules` with a network of the same variant.
    pub fn new(net: &'a Network, rules: Rules) -> Result<Searcher<'a>, EngineError> {
        if net.variant != rules.variant {
            return Err(EngineError::WrongVariant(net.variant, rules.variant));
        }
        Ok(Searcher {
            net,
            rules,
            features: Features::default(),
        })
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The network's estimate of `position` for the side about to roll.
    pub fn estimate(&mut self, position: &Position) -> Estimate {
        self.features.encode(self.rules.variant, position);
        self.net.evaluate(&self.features)
    }

    /// The roller's estimate after he played to `mine` from `before`: the score itself when
    /// he bore off his last checker, else the network's estimate for the other side, turned.
    pub fn after_play(&mut self, before: &Position, mine: &Layout) -> Estimate {
        if finished(mine) {
            let loser_off = before.theirs[OFF];
            let points = self.rules.points(loser_off);
            return Estimate::of_result(true, points, loser_off == 0, self.rules.scale());
        }
        self.estimate(&before.after(*mine)).flipped()
    }

    /// The roller's estimate after he played to `mine`, one ply deeper: for each of the
    /// other side's 21 rolls his best reply at 0-ply, weighted by the roll's chance.
    pub fn after_play_deep(&mut self, before: &Position, mine: &Layout) -> Estimate {
        if finished(mine) {
            return self.after_play(before, mine);
        }
        let scale = self.rules.scale();
        let reply_from = before.after(*mine);
        let mut replies = Vec::new();
        let mut sum = [0.0; 5];
        for &(high, low, chances) in &ROLLS {
            let dice = Dice::new(high, low).expect("the 21 rolls are dice");
            self.rules.outcomes_into(&reply_from, dice, &mut replies);
            let best = replies
                .iter()
                .map(|reply| self.after_play(&reply_from, reply))
                .max_by(|a, b| a.equity(scale).total_cmp(&b.equity(scale)))
                .expect("a roll has at least its empty play");
            let mine_now = best.flipped();
            for (total, value) in sum.iter_mut().zip(mine_now.0) {
                *total += f32::from(chances) * value;
            }
        }
        Estimate(sum.map(|total| total / 36.0))
    }

    /// Every play (the roller's layout after it) judged at 0-ply, best first (ties in the
    /// plays' order).
    pub fn rank_shallow(&mut self, before: &Position, plays: &[Layout]) -> Vec<Judged> {
        let scale = self.rules.scale();
        let mut judged: Vec<Judged> = plays
            .iter()
            .enumerate()
            .map(|(index, mine)| {
                let estimate = self.after_play(before, mine);
                Judged {
                    index,
                    estimate,
                    equity: estimate.equity(scale),
                    plies: 0,
                }
            })
            .collect();
        judged.sort_by(|a, b| b.equity.total_cmp(&a.equity));
        judged
    }

    /// The plays ranked to `plies` (0 or 1), best first: at 1-ply the best few at 0-ply
    /// (MAX_CANDIDATES within CANDIDATE_MARGIN) come first, judged again; the rest follow
    /// at 0-ply.
    pub fn rank(
        &mut self,
        before: &Position,
        plays: &[Layout],
        plies: u8,
    ) -> Result<Vec<Judged>, EngineError> {
        self.ranked(before, plays, plies, 1)
    }

    /// The best play at `plies` (a single candidate at 0-ply is the choice without a look
    /// deeper: nothing could overtake it).
    pub fn choose(
        &mut self,
        before: &Position,
        plays: &[Layout],
        plies: u8,
    ) -> Result<Judged, EngineError> {
        Ok(self.ranked(before, plays, plies, 2)?[0])
    }

    /// `rank`, searching deeper only when at least `least` plays are candidates.
    fn ranked(
        &mut self,
        before: &Position,
        plays: &[Layout],
        plies: u8,
        least: usize,
    ) -> Result<Vec<Judged>, EngineError> {
        let mut judged = self.rank_shallow(before, plays);
        match plies {
            0 => return Ok(judged),
            1 => {}
            other => return Err(EngineError::Plies(other)),
        }
        let scale = self.rules.scale();
        let Some(top) = judged.first().map(|j| j.equity) else {
            return Ok(judged);
        };
        let deep = judged
            .iter()
            .take(MAX_CANDIDATES)
            .take_while(|j| top - j.equity <= CANDIDATE_MARGIN * scale)
            .count();
        if deep < least {
            return Ok(judged);
        }
        for candidate in &mut judged[..deep] {
            let estimate = self.after_play_deep(before, &plays[candidate.index]);
            *candidate = Judged {
                estimate,
                equity: estimate.equity(scale),
                plies: 1,
                ..*candidate
            };
        }
        judged[..deep].sort_by(|a, b| b.equity.total_cmp(&a.equity));
        Ok(judged)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::game::layout_with;
    use crate::rules::variants::Variant;

    /// A small untrained network of `variant` from `seed`, and the variant's rules.
    fn untrained(variant: Variant, seed: u64) -> (Network, Rules) {
        let net = Network::new(variant, 8, seed).unwrap();
        (net, Rules::default_for(variant).unwrap())
    }

    #[test]
    fn a_play_that_bears_off_the_last_checker_wins_at_any_depth() {
        let (net, rules) = untrained(Variant::LongNardy, 1);
        let mut searcher = Searcher::new(&net, rules).unwrap();
        let before = Position {
            mine: layout_with(&[(1, 1), (2, 1)]),
            theirs: layout_with(&[(24, 15)]),
        };
        let mut plays = Vec::new();
        rules.outcomes_into(&before, Dice::new(2, 1).unwrap(), &mut plays);
        for plies in [0, 1] {
            let best = searcher.choose(&before, &plays, plies).unwrap();
            assert_eq!(best.equity, 2.0, "a mars at {plies} ply");
            assert_eq!(plays[best.index][OFF], 15);
        }
    }

    #[test]
    fn one_ply_keeps_every_play_and_ranks_best_first() {
        let (net, rules) = untrained(Variant::Khachapuri, 2);
        let mut searcher = Searcher::new(&net, rules).unwrap();
        let start = rules.start();
        let mut plays = Vec::new();
        rules.outcomes_into(&start, Dice::new(5, 3).unwrap(), &mut plays);
        let ranked = searcher.rank(&start, &plays, 1).unwrap();
        let mut indices: Vec<usize> = ranked.iter().map(|j| j.index).collect();
        indices.sort_unstable();
        assert_eq!(indices, (0..plays.len()).collect::<Vec<_>>());
        let deep: Vec<&Judged> = ranked.iter().filter(|j| j.plies == 1).collect();
        assert!(!deep.is_empty() && deep.len() <= MAX_CANDIDATES);
        assert!(deep.windows(2).all(|w| w[0].equity >= w[1].equity));
    }

    #[test]
    fn a_lone_candidate_is_chosen_without_a_deeper_look() {
        let (net, rules) = untrained(Variant::LongNardy, 1);
        let mut searcher = Searcher::new(&net, rules).unwrap();
        let start = rules.start();
        let plays = [start.mine];
        let chosen = searcher.choose(&start, &plays, 1).unwrap();
        assert_eq!((chosen.index, chosen.plies), (0, 0));
        assert_eq!(searcher.rank(&start, &plays, 1).unwrap()[0].plies, 1);
    }

    #[test]
    fn the_deep_estimate_averages_the_replies_into_chances() {
        let (net, rules) = untrained(Variant::LongNardy, 3);
        let mut searcher = Searcher::new(&net, rules).unwrap();
        let start = rules.start();
        let mut played = start.mine;
        played[24] -= 1;
        played[19] += 1;
        let deep = searcher.after_play_deep(&start, &played);
        assert!(deep.0.iter().all(|x| (0.0..=1.0).contains(x)));
    }

    #[test]
    fn a_network_plays_only_its_variant_and_depth_stops_at_one() {
        let net = Network::new(Variant::LongNardy, 8, 1).unwrap();
        let khachapuri = Rules::default_for(Variant::Khachapuri).unwrap();
        assert!(matches!(
            Searcher::new(&net, khachapuri),
            Err(EngineError::WrongVariant(
                Variant::LongNardy,
                Variant::Khachapuri
            ))
        ));
        let rules = Rules::default_for(Variant::LongNardy).unwrap();
        let mut searcher = Searcher::new(&net, rules).unwrap();
        let start = rules.start();
        let plays = [start.mine];
        assert_eq!(searcher.rank(&start, &plays, 2), Err(EngineError::Plies(2)));
    }
}
