//! Untrusted input to the native core: any position of any variant under any options, any
//! dice and any written play (points out of range, backwards, marks, too many moves).
//! Nothing may panic, and what comes back must keep every checker on the board.

#![no_main]

use libfuzzer_sys::fuzz_target;
use nardy_native::rules::board::{Dice, Layout, Play, CELLS};
use nardy_native::rules::judge::Judge;
use nardy_native::rules::movegen::legal_plays;
use nardy_native::rules::options::{
    BlockRule, BlockTiming, FirstTurnScope, HeadException, JudgeMode, PlayOptions,
};
use nardy_native::rules::variants::{TurnRules, Variant};
use nardy_native::vocabulary::{WrittenMove, BAR, CHECKERS, OFF};

/// The fuzzer's bytes, read one at a time (zeros once they run out).
struct Input<'a>(std::slice::Iter<'a, u8>);

impl Input<'_> {
    fn byte(&mut self) -> u8 {
        self.0.next().copied().unwrap_or(0)
    }

    fn pick<T: Copy>(&mut self, choices: &[T]) -> T {
        choices[usize::from(self.byte()) % choices.len()]
    }
}

/// Fifteen checkers a side, each on a point the other side does not hold (else borne off);
/// the bar only in backgammon.
fn layouts(input: &mut Input, variant: Variant) -> (Layout, Layout) {
    let mut sides = [[0u8; CELLS]; 2];
    for side in 0..2 {
        for _ in 0..CHECKERS {
            let mut point = usize::from(input.byte()) % CELLS;
            let other = &sides[1 - side];
            let held = (1..=24).contains(&point) && other[variant.opposite(point)] > 0;
            if held || (point == BAR && !variant.hitting()) {
                point = OFF;
            }
            sides[side][point] += 1;
        }
    }
    (sides[0], sides[1])
}

fn checkers(layout: &Layout) -> u32 {
    layout.iter().map(|&count| u32::from(count)).sum()
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input(data.iter());
    let variant = input.pick(&[Variant::Backgammon, Variant::LongNardy, Variant::Khachapuri]);
    let options = PlayOptions {
        head_exception: input.pick(&[
            HeadException::Unconditional,
            HeadException::OnlyIfNeeded,
            HeadException::OpponentHeadOnly,
            HeadException::None,
        ]),
        first_turn_scope: input.pick(&[FirstTurnScope::EachPlayer, FirstTurnScope::GameFirstTurn]),
        block_rule: input.pick(&[BlockRule::Ahead, BlockRule::Home]),
        block_timing: input.pick(&[BlockTiming::PerMove, BlockTiming::EndOfTurn]),
    };
    let (mine, theirs) = layouts(&mut input, variant);
    let Ok(dice) = Dice::new(1 + input.byte() % 6, 1 + input.byte() % 6) else {
        return;
    };
    let rules = TurnRules::new(variant, &mine, &theirs, dice, &options);
    let legal = legal_plays(&rules, &mine, &theirs, dice);
    assert!(!legal.is_empty());
    let used = legal[0].steps.len();
    let whole = |play: &Play| checkers(&play.mine) == 15 && checkers(&play.theirs) == 15;
    assert!(legal
        .iter()
        .all(|play| play.steps.len() == used && whole(play)));
    let moves: Vec<WrittenMove> = (0..input.byte() % 6)
        .map(|_| WrittenMove {
            from: u32::from(input.byte()) % 40,
            to: u32::from(input.byte()) % 40,
            mark: input.byte() % 4 == 0,
        })
        .collect();
    let mode = input.pick(&[JudgeMode::Position, JudgeMode::Sequence]);
    let judge = Judge {
        rules: &rules,
        mine: &mine,
        theirs: &theirs,
        dice,
        mode,
    };
    for canonical in [false, true] {
        if let Some(accepted) = judge.accept(&moves, canonical) {
            assert!(checkers(&accepted.mine) == 15 && checkers(&accepted.theirs) == 15);
            if let Some(play) = &accepted.play {
                assert!(legal.contains(play));
            }
        }
    }
});
