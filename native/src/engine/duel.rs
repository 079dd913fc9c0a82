//! One game between two players with given throws, as a live table plays it (LIVE.md §5):
//! the first throw is the opening (White's die, Black's die; equal dice are thrown again),
//! the higher die moves first, and his first roll is the next throw. Two games with the
//! same throws and the players' seats swapped are a mirrored pair (EVENTS.md §7).

use crate::engine::error::EngineError;
use crate::engine::game::{Game, Outcome, Rules};
use crate::engine::players::Player;
use crate::rules::board::Dice;
use crate::vocabulary::Side;

/// A finished game and how many throws it used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    pub outcome: Outcome,
    pub throws: usize,
    pub turns: u32,
}

/// Play one game to its end with `throws` (dice 1 to 6); DiceRanOut when it needs more.
pub fn play_game(
    rules: &Rules,
    white: &mut Player,
    black: &mut Player,
    throws: &[(u8, u8)],
) -> Result<Played, EngineError> {
    let mut next = throws.iter().enumerate();
    let mut throw = || {
        let (used, &(a, b)) = next.next().ok_or(EngineError::DiceRanOut(throws.len()))?;
        let dice = Dice::new(a, b).map_err(|_| EngineError::BadThrow(a, b))?;
        Ok::<_, EngineError>((used + 1, a, b, dice))
    };
    let first = loop {
        let (_, white_die, black_die, _) = throw()?;
        if white_die != black_die {
            break if white_die > black_die {
                Side::White
            } else {
                Side::Black
            };
        }
    };
    let mut game = Game::new(*rules, first);
    let mut plays = Vec::new();
    loop {
        let (used, _, _, dice) = throw()?;
        rules.outcomes_into(&game.position, dice, &mut plays);
        let player = match game.to_roll {
            Side::White => &mut *white,
            Side::Black => &mut *black,
        };
        let index = player.choose(rules, &game.position, &plays)?;
        if let Some(outcome) = game.play(plays[index])? {
            return Ok(Played {
                outcome,
                throws: used,
                turns: game.turns,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::Rng;
    use crate::rules::variants::Variant;

    fn throws(seed: u64, count: usize) -> Vec<(u8, u8)> {
        let mut rng = Rng::new(seed);
        (0..count).map(|_| rng.dice()).collect()
    }

    #[test]
    fn the_opening_die_decides_who_starts_and_ties_are_thrown_again() {
        let rules = Rules::default_for(Variant::LongNardy).unwrap();
        let mut dice = vec![(3, 3), (2, 5)];
        dice.extend(throws(1, 600));
        let played = play_game(
            &rules,
            &mut Player::Heuristic,
            &mut Player::Heuristic,
            &dice,
        )
        .unwrap();
        // Black opened (5 against 2): with turns alternating from Black, the winner's side
        // and the parity of the turns agree.
        let black_won = played.outcome.winner == Side::Black;
        assert_eq!(black_won, played.turns % 2 == 1);
        assert_eq!(played.throws, 2 + played.turns as usize);
    }

    #[test]
    fn the_same_throws_and_players_give_the_same_game() {
        let rules = Rules::default_for(Variant::Khachapuri).unwrap();
        let dice = throws(2, 800);
        let game = || {
            play_game(
                &rules,
                &mut Player::Random(Rng::new(9)),
                &mut Player::Heuristic,
                &dice,
            )
            .unwrap()
        };
        assert_eq!(game(), game());
    }

    #[test]
    fn too_few_throws_are_said_so() {
        let rules = Rules::default_for(Variant::LongNardy).unwrap();
        let result = play_game(
            &rules,
            &mut Player::Heuristic,
            &mut Player::Heuristic,
            &throws(3, 10),
        );
        assert_eq!(result, Err(EngineError::DiceRanOut(10)));
    }
}
