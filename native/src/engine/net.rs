//! The evaluation: a network with one hidden layer of sigmoid units and five sigmoid
//! outputs, each a chance or a share of the most a game can score, for the side about to
//! roll (TD-Gammon's shape, with outputs for the nardy scores):
//!
//! 0 win, 1 win by mars, 2 lose by mars (chances), 3 the points won and 4 the points lost,
//! each divided by the variant's most (a mars: 2 in long nardy, 30 in khachapuri).
//!
//! The expected score (the equity, in points) is the most × (output 3 − output 4): oin and
//! mars in long nardy, khachapuri's difference of checkers. Weights are saved as a short
//! text header and little-endian 32-bit floats (`to_bytes`, `from_bytes`).

use crate::engine::error::EngineError;
use crate::engine::features::{Features, INPUTS};
use crate::engine::rng::Rng;
use crate::rules::variants::Variant;

/// Outputs of the network.
pub const OUTPUTS: usize = 5;
/// The most hidden units a network may have (the evaluation keeps them on the stack).
pub const MAX_HIDDEN: usize = 256;
/// The first line of a weights file.
const MAGIC: &str = "nardy-net 1";

/// What the network says of a position, for the side about to roll.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate(pub [f32; OUTPUTS]);

impl Estimate {
    /// The outputs a finished game would have for the side about to roll when it (if
    /// `won`) or the other side scored `points` out of at most `scale`.
    pub fn of_result(won: bool, points: u8, mars: bool, scale: f32) -> Estimate {
        let share = f32::from(points) / scale;
        let mars = f32::from(u8::from(mars));
        let won_estimate = Estimate([1.0, mars, 0.0, share, 0.0]);
        if won {
            won_estimate
        } else {
            won_estimate.flipped()
        }
    }

    pub fn win(&self) -> f32 {
        self.0[0]
    }

    pub fn win_mars(&self) -> f32 {
        self.0[1]
    }

    pub fn lose_mars(&self) -> f32 {
        self.0[2]
    }

    /// The expected score in points for the side about to roll.
    pub fn equity(&self, scale: f32) -> f32 {
        scale * (self.0[3] - self.0[4])
    }

    /// The same estimate for the other side.
    pub fn flipped(&self) -> Estimate {
        let [win, win_mars, lose_mars, won, lost] = self.0;
        Estimate([1.0 - win, lose_mars, win_mars, lost, won])
    }

    /// `self` × `weight` + `other` × (1 − `weight`), output by output.
    pub fn blend(&self, other: &Estimate, weight: f32) -> Estimate {
        let mut mixed = self.0;
        for (mine, theirs) in mixed.iter_mut().zip(other.0) {
            *mine = *mine * weight + theirs * (1.0 - weight);
        }
        Estimate(mixed)
    }
}

/// The network of one variant, with where its weights came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    pub variant: Variant,
    pub hidden: usize,
    /// Input-major: row `i` holds input `i`'s weight to each hidden unit.
    first: Vec<f32>,
    first_bias: Vec<f32>,
    /// Output-major: row `k` holds each hidden unit's weight to output `k`.
    second: Vec<f32>,
    second_bias: [f32; OUTPUTS],
    /// Self-play games it was trained on.
    pub games: u64,
    /// The seed of its first weights and of its training games.
    pub seed: u64,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The id a variant has in the Python engine and in a weights file.
pub fn variant_id(variant: Variant) -> &'static str {
    match variant {
        Variant::Backgammon => "backgammon",
        Variant::LongNardy => "long-nardy",
        Variant::Khachapuri => "khachapuri",
    }
}

impl Network {
    /// A new network with small random weights from `seed`.
    pub fn new(variant: Variant, hidden: usize, seed: u64) -> Result<Network, EngineError> {
        if variant == Variant::Backgammon {
            return Err(EngineError::NotNardy(variant));
        }
        if hidden == 0 || hidden > MAX_HIDDEN {
            return Err(EngineError::BadWeights(format!(
                "{hidden} hidden units (1 to {MAX_HIDDEN})"
            )));
        }
        let mut rng = Rng::new(seed);
        let mut small = |n: usize| (0..n).map(|_| 0.1 * rng.symmetric()).collect::<Vec<_>>();
        Ok(Network {
            variant,
            hidden,
            first: small(INPUTS * hidden),
            first_bias: small(hidden),
            second: small(OUTPUTS * hidden),
            second_bias: [0.0; OUTPUTS],
            games: 0,
            seed,
        })
    }

    /// The hidden units' values for `features` into `out` (`hidden` long).
    fn hidden_into(&self, features: &Features, out: &mut [f32]) {
        out.copy_from_slice(&self.first_bias);
        for (input, value) in features.iter() {
            let row = &self.first[input * self.hidden..(input + 1) * self.hidden];
            for (unit, weight) in out.iter_mut().zip(row) {
                *unit += weight * value;
            }
        }
        for unit in out.iter_mut() {
            *unit = sigmoid(*unit);
        }
    }

    fn outputs(&self, hidden: &[f32]) -> Estimate {
        let mut outputs = [0.0; OUTPUTS];
        for (k, output) in outputs.iter_mut().enumerate() {
            let row = &self.second[k * self.hidden..(k + 1) * self.hidden];
            let sum: f32 = row.iter().zip(hidden).map(|(w, h)| w * h).sum();
            *output = sigmoid(self.second_bias[k] + sum);
        }
        Estimate(outputs)
    }

    /// The network's estimate of a position with inputs `features`.
    pub fn evaluate(&self, features: &Features) -> Estimate {
        let mut hidden = [0.0; MAX_HIDDEN];
        let hidden = &mut hidden[..self.hidden];
        self.hidden_into(features, hidden);
        self.outputs(hidden)
    }

    /// One step of gradient descent towards `target` (the error of each output taken at
    /// its logit, as the cross-entropy of a chance has it), by `alpha`.
    pub fn learn(&mut self, features: &Features, target: &Estimate, alpha: f32) {
        let mut hidden = [0.0; MAX_HIDDEN];
        let hidden = &mut hidden[..self.hidden];
        self.hidden_into(features, hidden);
        let outputs = self.outputs(hidden);
        let mut back = [0.0; MAX_HIDDEN];
        let back = &mut back[..self.hidden];
        for k in 0..OUTPUTS {
            let error = target.0[k] - outputs.0[k];
            let row = &mut self.second[k * self.hidden..(k + 1) * self.hidden];
            for ((weight, unit), back) in row.iter_mut().zip(hidden.iter()).zip(back.iter_mut()) {
                *back += error * *weight;
                *weight += alpha * error * unit;
            }
            self.second_bias[k] += alpha * error;
        }
        for (back, unit) in back.iter_mut().zip(hidden.iter()) {
            *back *= unit * (1.0 - unit);
        }
        for (bias, back) in self.first_bias.iter_mut().zip(back.iter()) {
            *bias += alpha * back;
        }
        for (input, value) in features.iter() {
            let row = &mut self.first[input * self.hidden..(input + 1) * self.hidden];
            for (weight, back) in row.iter_mut().zip(back.iter()) {
                *weight += alpha * back * value;
            }
        }
    }

    /// The weights file: the header's `key value` lines, a blank line, then every weight.
    pub fn to_bytes(&self) -> Vec<u8> {
        let header = format!(
            "{MAGIC}\nvariant {}\ninputs {INPUTS}\nhidden {}\noutputs {OUTPUTS}\ngames {}\nseed {}\n\n",
            variant_id(self.variant),
            self.hidden,
            self.games,
            self.seed
        );
        let mut bytes = header.into_bytes();
        let weights = self
            .first
            .iter()
            .chain(&self.first_bias)
            .chain(&self.second)
            .chain(&self.second_bias);
        for weight in weights {
            bytes.extend_from_slice(&weight.to_le_bytes());
        }
        bytes
    }

    /// A network from its weights file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, EngineError> {
        let bad = |why: &str| EngineError::BadWeights(why.to_owned());
        let end = bytes
            .windows(2)
            .position(|pair| pair == b"\n\n")
            .ok_or_else(|| bad("no header"))?;
        let header = std::str::from_utf8(&bytes[..end]).map_err(|_| bad("header not text"))?;
        let mut lines = header.lines();
        if lines.next() != Some(MAGIC) {
            return Err(bad("not a nardy-net 1 file"));
        }
        let fields: Vec<(&str, &str)> = lines.filter_map(|l| l.split_once(' ')).collect();
        let field = |key: &str| {
            fields
                .iter()
                .find(|(name, _)| *name == key)
                .map(|(_, value)| *value)
                .ok_or_else(|| bad(&format!("no {key} line")))
        };
        let number = |key: &str| -> Result<u64, EngineError> {
            field(key)?
                .parse()
                .map_err(|_| bad(&format!("{key} is not a number")))
        };
        let variant = Variant::from_id(field("variant")?).map_err(|e| bad(&e.to_string()))?;
        if number("inputs")? != INPUTS as u64 || number("outputs")? != OUTPUTS as u64 {
            return Err(bad("made for other inputs or outputs"));
        }
        let hidden = number("hidden")? as usize;
        let mut network = Network::new(variant, hidden, number("seed")?)?;
        network.games = number("games")?;
        let data = &bytes[end + 2..];
        let expected = 4 * (INPUTS * hidden + hidden + OUTPUTS * hidden + OUTPUTS);
        if data.len() != expected {
            return Err(bad(&format!(
                "{} bytes of weights, not {expected}",
                data.len()
            )));
        }
        let mut weights = data
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        let mut fill = |into: &mut [f32]| {
            into.iter_mut()
                .for_each(|w| *w = weights.next().unwrap_or(0.0))
        };
        fill(&mut network.first);
        fill(&mut network.first_bias);
        fill(&mut network.second);
        fill(&mut network.second_bias);
        Ok(network)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::game::Rules;

    fn start_features() -> Features {
        let rules = Rules::default_for(Variant::LongNardy).unwrap();
        Features::of(rules.variant, &rules.start())
    }

    #[test]
    fn outputs_are_chances_between_zero_and_one() {
        let net = Network::new(Variant::LongNardy, 16, 1).unwrap();
        let estimate = net.evaluate(&start_features());
        assert!(estimate.0.iter().all(|x| (0.0..=1.0).contains(x)));
    }

    #[test]
    fn flipping_swaps_the_sides_and_twice_gives_back_the_estimate() {
        let estimate = Estimate([0.75, 0.25, 0.125, 0.5, 0.25]);
        assert_eq!(estimate.flipped(), Estimate([0.25, 0.125, 0.25, 0.25, 0.5]));
        assert_eq!(estimate.flipped().flipped(), estimate);
        assert_eq!(estimate.equity(2.0), 0.5);
        assert_eq!(estimate.flipped().equity(2.0), -0.5);
    }

    #[test]
    fn a_finished_game_is_its_score() {
        let mars = Estimate::of_result(true, 30, true, 30.0);
        assert_eq!(mars.equity(30.0), 30.0);
        let lost = Estimate::of_result(false, 1, false, 2.0);
        assert_eq!((lost.win(), lost.equity(2.0)), (0.0, -1.0));
    }

    #[test]
    fn learning_moves_the_estimate_towards_the_target() {
        let mut net = Network::new(Variant::LongNardy, 16, 2).unwrap();
        let features = start_features();
        let target = Estimate([1.0, 1.0, 0.0, 1.0, 0.0]);
        let before = net.evaluate(&features);
        for _ in 0..20 {
            net.learn(&features, &target, 0.1);
        }
        let after = net.evaluate(&features);
        for k in 0..OUTPUTS {
            let (was, is) = (
                (target.0[k] - before.0[k]).abs(),
                (target.0[k] - after.0[k]).abs(),
            );
            assert!(is < was, "output {k}: {was} -> {is}");
        }
    }

    #[test]
    fn weights_come_back_from_their_bytes() {
        let mut net = Network::new(Variant::Khachapuri, 8, 3).unwrap();
        net.games = 1234;
        let back = Network::from_bytes(&net.to_bytes()).unwrap();
        assert_eq!(back, net);
        assert!(net
            .to_bytes()
            .starts_with(b"nardy-net 1\nvariant khachapuri\n"));
    }

    #[test]
    fn damaged_weights_are_refused_with_the_reason() {
        let bytes = Network::new(Variant::LongNardy, 8, 3).unwrap().to_bytes();
        let short = Network::from_bytes(&bytes[..bytes.len() - 1]);
        assert!(
            matches!(short, Err(EngineError::BadWeights(why)) if why.contains("bytes of weights"))
        );
        assert!(matches!(
            Network::from_bytes(b"hello\n\n"),
            Err(EngineError::BadWeights(_))
        ));
        assert_eq!(
            Network::new(Variant::Backgammon, 8, 1),
            Err(EngineError::NotNardy(Variant::Backgammon))
        );
    }
}
