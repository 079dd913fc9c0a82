//! A small seeded random source (SplitMix64): the self-play dice, the first weights and the
//! random player, reproducible from one number without a dependency.

use crate::rules::board::Dice;

/// SplitMix64 (Steele, Lea and Flood, 2014): one 64-bit state, every seed usable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    state: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (`bound` ≥ 1): the high half of a 64-bit product, whose bias
    /// is below 2⁻³² for the small bounds used here.
    pub fn below(&mut self, bound: usize) -> usize {
        ((u128::from(self.next_u64()) * bound as u128) >> 64) as usize
    }

    /// A number in `[-1, 1)`.
    pub fn symmetric(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }

    pub fn die(&mut self) -> u8 {
        self.below(6) as u8 + 1
    }

    pub fn dice(&mut self) -> (u8, u8) {
        (self.die(), self.die())
    }

    /// A roll of two dice (never fails: both are 1 to 6).
    pub fn roll(&mut self) -> Dice {
        let (first, second) = self.dice();
        Dice::new(first, second).expect("dice are 1 to 6")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_numbers_and_another_seed_others() {
        let (mut a, mut b, mut c) = (Rng::new(7), Rng::new(7), Rng::new(8));
        let first: Vec<u64> = (0..5).map(|_| a.next_u64()).collect();
        assert_eq!(first, (0..5).map(|_| b.next_u64()).collect::<Vec<_>>());
        assert_ne!(first, (0..5).map(|_| c.next_u64()).collect::<Vec<_>>());
    }

    #[test]
    fn dice_cover_one_to_six_about_evenly() {
        let mut rng = Rng::new(1);
        let mut seen = [0u32; 7];
        for _ in 0..60_000 {
            seen[usize::from(rng.die())] += 1;
        }
        assert_eq!(seen[0], 0);
        for count in &seen[1..] {
            assert!((9_000..11_000).contains(count), "{seen:?}");
        }
    }

    #[test]
    fn symmetric_numbers_stay_in_minus_one_to_one() {
        let mut rng = Rng::new(3);
        let numbers: Vec<f32> = (0..10_000).map(|_| rng.symmetric()).collect();
        assert!(numbers.iter().all(|x| (-1.0..1.0).contains(x)));
        assert!(numbers.iter().any(|&x| x < -0.9) && numbers.iter().any(|&x| x > 0.9));
    }
}
