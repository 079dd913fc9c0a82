//! The doubling cube's state machine, problem by problem and transition by transition, with
//! expected values worked out by hand from RULES.md §14.5-14.9 (the cases of
//! `referee/rules/cube.py`).

use nardy_native::rules::cube::{Cube, CubeContext, CubeRule, CubeState, Offer, Stake};
use nardy_native::rules::options::{DrawScoring, JudgeMode, Options, PlayOptions};
use nardy_native::vocabulary::Side;

const W: Side = Side::White;
const B: Side = Side::Black;

fn options(cube_limit: u64, beavers: bool) -> Options {
    Options {
        play: PlayOptions::default(),
        judge: JudgeMode::Position,
        cube: true,
        crawford: true,
        beavers,
        cube_limit,
        draw_rule: false,
        draw_scoring: DrawScoring::AfterExtraTurn,
    }
}

fn money(beavers: bool) -> CubeContext {
    CubeContext {
        crawford_game: false,
        money: true,
        options: options(64, beavers),
    }
}

fn centred() -> CubeState {
    CubeState::new(Some(Cube::centred(1)))
}

fn owned(value: u64, owner: Side) -> Cube {
    Cube {
        value,
        owner: Some(owner),
    }
}

#[test]
fn only_a_game_with_the_cube_in_play_can_double() {
    let context = money(false);
    let none = CubeState::new(None);
    assert_eq!(
        none.double_problem(&context, W, true, None),
        Some(CubeRule::NoCube)
    );
    let off = CubeContext {
        options: Options {
            cube: false,
            ..context.options
        },
        ..context
    };
    assert_eq!(
        centred().double_problem(&off, W, true, None),
        Some(CubeRule::NoCube)
    );
    assert_eq!(centred().double_problem(&context, W, true, None), None);
}

#[test]
fn the_crawford_game_forbids_doubling_in_a_match_only() {
    let crawford = CubeContext {
        crawford_game: true,
        money: false,
        options: options(64, false),
    };
    assert_eq!(
        centred().double_problem(&crawford, W, true, None),
        Some(CubeRule::CrawfordGame)
    );
    let rule_off = CubeContext {
        options: Options {
            crawford: false,
            ..crawford.options
        },
        ..crawford
    };
    assert_eq!(centred().double_problem(&rule_off, W, true, None), None);
    let in_money = CubeContext {
        money: true,
        ..crawford
    };
    assert_eq!(centred().double_problem(&in_money, W, true, None), None);
}

#[test]
fn a_double_is_offered_before_rolling_by_the_owner_at_twice_the_value() {
    let context = money(false);
    let state = centred();
    assert_eq!(
        state.double_problem(&context, W, false, None),
        Some(CubeRule::NotBeforeRoll)
    );
    assert_eq!(
        state.double_problem(&context, W, true, Some(4)),
        Some(CubeRule::WrongCubeValue)
    );
    assert_eq!(state.double_problem(&context, W, true, Some(2)), None);
    let black_owns = CubeState::new(Some(owned(2, B)));
    assert_eq!(
        black_owns.double_problem(&context, W, true, None),
        Some(CubeRule::NotCubeOwner)
    );
    assert_eq!(black_owns.double_problem(&context, B, true, Some(4)), None);
    // An offer pending: nobody doubles again before it is answered.
    let offered = state.after_double(W);
    assert_eq!(
        offered.double_problem(&context, B, true, None),
        Some(CubeRule::NotBeforeRoll)
    );
}

#[test]
fn the_cube_limit_holds_even_past_the_largest_number() {
    let limited = CubeContext {
        options: options(4, false),
        ..money(false)
    };
    assert_eq!(
        CubeState::new(Some(owned(2, W))).double_problem(&limited, W, true, None),
        None
    );
    assert_eq!(
        CubeState::new(Some(owned(4, W))).double_problem(&limited, W, true, None),
        Some(CubeRule::CubeLimit)
    );
    // 2^63 doubled does not fit in 64 bits: it is past every limit, never wrapped to 0.
    let huge = CubeContext {
        options: options(1 << 63, false),
        ..money(false)
    };
    assert_eq!(
        CubeState::new(Some(Cube::centred(1 << 63))).double_problem(&huge, W, true, None),
        Some(CubeRule::CubeLimit)
    );
}

#[test]
fn a_double_leaves_the_old_cube_standing_and_shows_the_value_offered() {
    let offered = centred().after_double(W);
    assert_eq!(
        offered.offer,
        Some(Offer {
            standing: Cube::centred(1),
            value: 2,
            by: W,
            roller: W,
            redouble: false,
        })
    );
    assert_eq!(offered.standing(), Some(Cube::centred(1)));
    assert_eq!(offered.shown(), Some(Cube::centred(2)));
    assert_eq!(
        offered.stake(),
        Stake {
            standing: Some(Cube::centred(1)),
            doubled: true
        }
    );
    assert_eq!(offered.drop_winner(), Some(W));
    // Taken: the taker owns the doubled cube; the Jacoby fact stays.
    let taken = offered.after_take(B);
    assert_eq!(
        (taken.cube, taken.offer, taken.doubled),
        (Some(owned(2, B)), None, true)
    );
    assert_eq!(taken.shown(), Some(owned(2, B)));
}

#[test]
fn only_the_doubled_side_answers_a_pending_double() {
    assert_eq!(centred().answer_problem(B), Some(CubeRule::NoDoublePending));
    let offered = centred().after_double(W);
    assert_eq!(offered.answer_problem(W), Some(CubeRule::NotDoubledSide));
    assert_eq!(offered.answer_problem(B), None);
}

#[test]
fn beavers_need_money_play_with_beavers_on_and_a_raccoon_needs_a_beaver() {
    let offered = centred().after_double(W);
    let context = money(true);
    assert_eq!(offered.beaver_problem(&context, B, Some(4), false), None);
    assert_eq!(
        offered.beaver_problem(&context, W, Some(4), false),
        Some(CubeRule::NotDoubledSide)
    );
    assert_eq!(
        offered.beaver_problem(&money(false), B, Some(4), false),
        Some(CubeRule::BeaverNotAllowed)
    );
    let in_a_match = CubeContext {
        money: false,
        ..context
    };
    assert_eq!(
        offered.beaver_problem(&in_a_match, B, Some(4), false),
        Some(CubeRule::BeaverNotAllowed)
    );
    assert_eq!(
        offered.beaver_problem(&context, B, Some(8), false),
        Some(CubeRule::WrongCubeValue)
    );
    assert_eq!(
        offered.beaver_problem(&context, B, None, true),
        Some(CubeRule::NoBeaverPending)
    );
    let limited = CubeContext {
        options: options(2, true),
        ..context
    };
    assert_eq!(
        offered.beaver_problem(&limited, B, None, false),
        Some(CubeRule::CubeLimit)
    );
}

#[test]
fn a_beaver_accepts_the_double_and_redoubles_keeping_the_cube() {
    let beavered = centred().after_double(W).after_beaver(B);
    // Black owns the 2-cube he accepted and offers 4; White, the doubler, still rolls.
    assert_eq!(
        beavered.offer,
        Some(Offer {
            standing: owned(2, B),
            value: 4,
            by: B,
            roller: W,
            redouble: true,
        })
    );
    assert_eq!(beavered.shown(), Some(owned(4, B)));
    assert_eq!(beavered.standing(), Some(owned(2, B)));
    assert_eq!(beavered.cube, Some(Cube::centred(1)));
    assert_eq!(beavered.drop_winner(), Some(B));
    // Taken by White: the beaver's maker keeps the cube at 4.
    assert_eq!(beavered.after_take(W).cube, Some(owned(4, B)));
    // A raccoon: White takes the 4 and offers 8, keeping the cube.
    let context = money(true);
    assert_eq!(beavered.beaver_problem(&context, W, Some(8), true), None);
    let raccooned = beavered.after_beaver(W);
    assert_eq!(raccooned.shown(), Some(owned(8, W)));
    assert_eq!(raccooned.standing(), Some(owned(4, W)));
    assert_eq!(raccooned.after_take(B).cube, Some(owned(8, W)));
}

#[test]
fn only_the_original_doublers_roll_takes_a_pending_beaver() {
    let offered = centred().after_double(W);
    assert_eq!(
        offered.implied_take_problem(W),
        Some(CubeRule::AnswerRequired)
    );
    let beavered = offered.after_beaver(B);
    assert_eq!(beavered.implied_take_problem(W), None);
    assert_eq!(
        beavered.implied_take_problem(B),
        Some(CubeRule::AnswerRequired)
    );
    assert_eq!(centred().implied_take_problem(W), None);
}

#[test]
fn transitions_without_an_offer_change_nothing() {
    let state = CubeState::new(Some(owned(2, W)));
    assert_eq!(state.after_take(B), state);
    assert_eq!(state.after_beaver(B), state);
    assert_eq!(state.drop_winner(), None);
}
