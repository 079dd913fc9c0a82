//! Training by temporal differences from self-play, as TD-Gammon was trained (Tesauro,
//! 1992-1995): the network plays both sides, each side taking its best play at 0-ply, and
//! after each game every position it met is moved towards its λ-return, the mix of the
//! estimates that followed it and the game's result:
//!
//! G(t) = (1 − λ) · V(t + 1) + λ · G(t + 1), the last G the score itself,
//!
//! each turned to the side then to roll. With the weights held during a game this is the
//! forward view of TD(λ), which makes the same changes as TD(λ)'s eligibility traces
//! applied at the game's end (Sutton and Barto, "Reinforcement Learning", §12.1-12.2).

use crate::engine::error::EngineError;
use crate::engine::features::Features;
use crate::engine::game::{Game, Rules};
use crate::engine::net::{Estimate, Network};
use crate::engine::rng::Rng;
use crate::engine::search::Searcher;
use crate::vocabulary::Side;

/// How the network learns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// The step size of each update.
    pub alpha: f32,
    /// How far back a result reaches (0: only the next estimate; 1: only the result).
    pub lambda: f32,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            alpha: 0.02,
            lambda: 0.7,
        }
    }
}

/// What a run of training games did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub games: u64,
    /// Turns played in them.
    pub turns: u64,
    /// Games given up as stuck (none learnt from).
    pub stuck: u64,
}

/// A network learning from its own games, with its own dice.
pub struct Trainer {
    net: Network,
    rules: Rules,
    settings: Settings,
    rng: Rng,
}

/// One game's positions, each from the side to roll, with the network's estimate then.
struct Episode {
    features: Vec<Features>,
    estimates: Vec<Estimate>,
    result: Estimate,
}

impl Trainer {
    /// Train `net` under its variant's default rules; the dice follow from the network's
    /// seed and the games it has had, so a saved network trains on where it stopped.
    pub fn new(net: Network, settings: Settings) -> Result<Trainer, EngineError> {
        let rules = Rules::default_for(net.variant)?;
        let rng = Rng::new(net.seed ^ net.games.wrapping_mul(0x2545_f491_4f6c_dd1d));
        Ok(Trainer {
            net,
            rules,
            settings,
            rng,
        })
    }

    pub fn network(&self) -> &Network {
        &self.net
    }

    pub fn into_network(self) -> Network {
        self.net
    }

    /// Play and learn from `games` games.
    pub fn train(&mut self, games: u32) -> Report {
        let mut report = Report::default();
        for _ in 0..games {
            report.games += 1;
            match self.play() {
                Ok(episode) => {
                    report.turns += episode.features.len() as u64;
                    self.learn(&episode);
                }
                Err(_) => report.stuck += 1,
            }
            self.net.games += 1;
        }
        report
    }

    /// One self-play game, each side greedy at 0-ply.
    fn play(&mut self) -> Result<Episode, EngineError> {
        let first = if self.rng.below(2) == 0 {
            Side::White
        } else {
            Side::Black
        };
        let mut game = Game::new(self.rules, first);
        let mut searcher = Searcher::new(&self.net, self.rules)?;
        let scale = self.rules.scale();
        let (mut features, mut estimates) = (Vec::new(), Vec::new());
        let mut plays = Vec::new();
        loop {
            let position = game.position;
            let inputs = Features::of(self.rules.variant, &position);
            estimates.push(self.net.evaluate(&inputs));
            features.push(inputs);
            let dice = self.rng.roll();
            self.rules.outcomes_into(&position, dice, &mut plays);
            let best = searcher.choose(&position, &plays, 0)?;
            if let Some(outcome) = game.play(plays[best.index])? {
                let result = Estimate::of_result(true, outcome.points, outcome.mars, scale);
                return Ok(Episode {
                    features,
                    estimates,
                    result,
                });
            }
        }
    }

    /// Move each position's estimate towards its λ-return.
    fn learn(&mut self, episode: &Episode) {
        let Settings { alpha, lambda } = self.settings;
        let mut target = episode.result;
        let last = episode.features.len() - 1;
        for t in (0..=last).rev() {
            if t < last {
                let next = episode.estimates[t + 1].flipped();
                target = next.blend(&target.flipped(), 1.0 - lambda);
            }
            self.net.learn(&episode.features[t], &target, alpha);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::duel::play_game;
    use crate::engine::players::Player;
    use crate::rules::variants::Variant;
    use std::sync::Arc;

    #[test]
    fn training_counts_its_games_and_changes_the_weights() {
        let net = Network::new(Variant::LongNardy, 8, 1).unwrap();
        let mut trainer = Trainer::new(net.clone(), Settings::default()).unwrap();
        let report = trainer.train(3);
        assert_eq!((report.games, report.stuck), (3, 0));
        assert!(report.turns > 3 * 40, "{report:?}");
        assert_eq!(trainer.network().games, 3);
        assert_ne!(trainer.network(), &net);
    }

    #[test]
    fn the_same_seed_trains_the_same_network() {
        let trained = || {
            let net = Network::new(Variant::Khachapuri, 8, 4).unwrap();
            let mut trainer = Trainer::new(net, Settings::default()).unwrap();
            trainer.train(2);
            trainer.into_network()
        };
        assert_eq!(trained(), trained());
    }

    #[test]
    fn eight_hundred_games_beat_the_random_player() {
        let net = Network::new(Variant::Khachapuri, 8, 7).unwrap();
        let settings = Settings {
            alpha: 0.1,
            lambda: 0.7,
        };
        let mut trainer = Trainer::new(net, settings).unwrap();
        trainer.train(800);
        let rules = Rules::default_for(Variant::Khachapuri).unwrap();
        let net = Arc::new(trainer.into_network());
        let mut dice = Rng::new(11);
        let mut wins = 0;
        for game in 0..40 {
            let throws: Vec<(u8, u8)> = (0..1_000).map(|_| dice.dice()).collect();
            let mut engine = Player::Engine {
                net: net.clone(),
                plies: 0,
            };
            let mut random = Player::Random(Rng::new(game));
            let engine_white = game % 2 == 0;
            let (white, black) = if engine_white {
                (&mut engine, &mut random)
            } else {
                (&mut random, &mut engine)
            };
            let played = play_game(&rules, white, black, &throws).unwrap();
            wins += u32::from((played.outcome.winner == Side::White) == engine_white);
        }
        // 30 or more of 40 at even chances: one time in a thousand.
        assert!(wins >= 30, "{wins} of 40");
    }
}
