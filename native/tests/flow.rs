//! The game flow, transition by transition, with expected values worked out by hand from
//! RULES.md §3, §9-11 and §14 (the cases of `tests/rules/test_flow.py` that the native core
//! has: the opening, the cube, the end).

mod common;

use common::layout;
use nardy_native::error::Error;
use nardy_native::rules::board::{Board, Dice, HEAD};
use nardy_native::rules::cube::{Cube, CubeRule};
use nardy_native::rules::flow::{Ending, GameFlow, GameRules};
use nardy_native::rules::options::{DrawScoring, JudgeMode, Options, PlayOptions};
use nardy_native::vocabulary::{Phase, Side};

const W: Side = Side::White;
const B: Side = Side::Black;

fn options() -> Options {
    Options {
        play: PlayOptions::default(),
        judge: JudgeMode::Position,
        cube: true,
        crawford: true,
        beavers: false,
        cube_limit: 64,
        draw_rule: false,
        draw_scoring: DrawScoring::AfterExtraTurn,
    }
}

fn money(options: Options) -> GameRules {
    GameRules {
        options,
        money: true,
        crawford_game: false,
        opening_doublets: false,
    }
}

fn backgammon_board() -> Board {
    let start = layout(&[(24, 2), (13, 5), (8, 3), (6, 5)]);
    Board {
        white: start,
        black: start,
    }
}

fn backgammon(rules: GameRules) -> GameFlow {
    GameFlow::start(rules, backgammon_board(), None, Some(Cube::centred(1)))
}

/// Backgammon after White's opening 3-1, played (the board does not matter to the cube):
/// Black is to roll.
fn black_to_roll(rules: GameRules) -> GameFlow {
    let mut flow = backgammon(rules);
    flow.opened(3, 1).unwrap();
    flow.played(W, backgammon_board());
    flow
}

/// `flow` after `step` (the state before stays as it was: a flow is a `Copy` value).
fn after(mut flow: GameFlow, step: impl FnOnce(&mut GameFlow)) -> GameFlow {
    step(&mut flow);
    flow
}

fn owned(value: u64, owner: Side) -> Option<Cube> {
    Some(Cube {
        value,
        owner: Some(owner),
    })
}

// -- the opening -------------------------------------------------------------------------

#[test]
fn backgammon_opening_dice_are_the_starters_first_roll() {
    let mut flow = backgammon(money(options()));
    flow.opened(3, 5).unwrap(); // Black's 5 beats White's 3
    let position = flow.position;
    assert_eq!(
        (position.turn, position.phase, position.dice),
        (Some(B), Phase::Move, Some(Dice { high: 5, low: 3 }))
    );
    assert_eq!(flow.first_mover, Some(B));
}

#[test]
fn a_nardy_starter_rolls_afresh() {
    let start = layout(&[(HEAD, 15)]);
    let rules = GameRules {
        opening_doublets: true,
        ..money(options())
    };
    let board = Board {
        white: start,
        black: start,
    };
    let mut flow = GameFlow::start(rules, board, None, None);
    flow.opened(6, 2).unwrap();
    let position = flow.position;
    assert_eq!(
        (position.turn, position.phase, position.dice),
        (Some(W), Phase::Roll, None)
    );
    assert_eq!(flow.first_mover, Some(W));
}

#[test]
fn opening_dice_are_one_to_six() {
    let mut flow = backgammon(money(options()));
    assert_eq!(flow.opened(7, 2), Err(Error::InvalidDice(7, 2)));
    assert_eq!(flow, backgammon(money(options())));
}

#[test]
fn the_first_to_play_is_the_first_mover_when_the_start_names_nobody() {
    let flow = after(backgammon(money(options())), |f| {
        f.played(B, backgammon_board())
    });
    assert_eq!(flow.first_mover, Some(B));
    assert_eq!(
        (flow.position.turn, flow.position.phase),
        (Some(W), Phase::Roll)
    );
    // A start that names the roller has its first mover already.
    let named = GameFlow::start(
        money(options()),
        backgammon_board(),
        Some(W),
        Some(Cube::centred(1)),
    );
    assert_eq!(named.first_mover, Some(W));
    // A roll makes its roller the first mover only when nobody has moved yet.
    let dice = Dice::new(4, 2).unwrap();
    assert_eq!(after(named, |f| f.rolled(B, dice)).first_mover, Some(W));
    let rolled = after(backgammon(money(options())), |f| f.rolled(B, dice));
    assert_eq!(rolled.first_mover, Some(B));
    assert_eq!(
        (
            rolled.position.turn,
            rolled.position.phase,
            rolled.position.dice
        ),
        (Some(B), Phase::Move, Some(dice))
    );
}

// -- the cube ----------------------------------------------------------------------------

#[test]
fn double_take_and_the_doubler_rolls_next_owning_nothing() {
    let flow = black_to_roll(money(options()));
    assert_eq!(flow.position.turn, Some(B));
    assert_eq!(flow.double_problem(B, None), None);
    assert_eq!(flow.double_problem(W, None), Some(CubeRule::NotBeforeRoll)); // not his turn
    let offered = after(flow, |f| f.doubled(B));
    assert_eq!(
        (offered.position.turn, offered.position.phase),
        (Some(W), Phase::Doubled)
    );
    assert_eq!(offered.cube.shown(), Some(Cube::centred(2)));
    assert_eq!(offered.stake().standing, Some(Cube::centred(1))); // the stake is still 1
    assert!(offered.stake().doubled);
    assert_eq!(offered.answer_problem(B), Some(CubeRule::NotDoubledSide));
    let taken = after(offered, |f| f.taken(W));
    assert_eq!(
        (taken.position.turn, taken.position.phase, taken.cube.cube),
        (Some(B), Phase::Roll, owned(2, W))
    );
    assert_eq!(taken.double_problem(B, None), Some(CubeRule::NotCubeOwner));
    // Once Black has played, White may redouble to 4, and only to 4.
    let white_to_roll = after(taken, |f| f.played(B, backgammon_board()));
    assert_eq!(white_to_roll.double_problem(W, Some(4)), None);
    assert_eq!(
        white_to_roll.double_problem(W, Some(8)),
        Some(CubeRule::WrongCubeValue)
    );
}

#[test]
fn the_cube_limit_stops_a_redouble() {
    let limited = money(Options {
        cube_limit: 2,
        ..options()
    });
    let mut flow = black_to_roll(limited);
    flow.doubled(B);
    flow.taken(W);
    flow.played(B, backgammon_board());
    assert_eq!(flow.double_problem(W, None), Some(CubeRule::CubeLimit));
}

#[test]
fn a_beaver_is_answered_by_the_doubler_and_its_maker_keeps_the_cube() {
    let rules = money(Options {
        beavers: true,
        ..options()
    });
    let offered = after(black_to_roll(rules), |f| f.doubled(B));
    assert_eq!(offered.beaver_problem(W, Some(4), false), None);
    let beavered = after(offered, |f| f.beavered(W));
    // White owns the 2-cube he accepted and offers 4 (state d shows the value offered).
    assert_eq!(beavered.position.turn, Some(B));
    assert_eq!(beavered.cube.shown(), owned(4, W));
    assert_eq!(beavered.stake().standing, owned(2, W)); // dropped now, 2 is lost
                                                        // Black's roll would take it (the original doubler), White's would not.
    assert_eq!(beavered.implied_take_problem(B), None);
    assert_eq!(
        beavered.implied_take_problem(W),
        Some(CubeRule::AnswerRequired)
    );
    let taken = after(beavered, |f| f.taken(B));
    assert_eq!(
        (taken.cube.cube, taken.position.turn, taken.position.phase),
        (owned(4, W), Some(B), Phase::Roll)
    );
    let dropped = after(beavered, GameFlow::dropped);
    assert_eq!(dropped.ending, Some(Ending::Drop { winner: W }));
    assert_eq!(
        (dropped.position.turn, dropped.position.phase),
        (None, Phase::End)
    );
    assert_eq!(dropped.stake().standing, owned(2, W));
    assert!(dropped.over());
}

#[test]
fn a_raccoon_goes_back_to_the_beavers_maker() {
    let rules = money(Options {
        beavers: true,
        ..options()
    });
    let beavered = after(black_to_roll(rules), |f| {
        f.doubled(B);
        f.beavered(W);
    });
    assert_eq!(beavered.beaver_problem(B, Some(8), true), None);
    let raccooned = after(beavered, |f| f.beavered(B));
    assert_eq!(raccooned.position.turn, Some(W));
    assert_eq!(raccooned.cube.shown(), owned(8, B));
    // Taken by White: Black keeps the 8-cube and, the original doubler, rolls.
    let taken = after(raccooned, |f| f.taken(W));
    assert_eq!(
        (taken.cube.cube, taken.position.turn),
        (owned(8, B), Some(B))
    );
}

#[test]
fn dropping_a_double_gives_the_doubler_the_cube_before_it() {
    let dropped = after(black_to_roll(money(options())), |f| {
        f.doubled(B);
        f.dropped();
    });
    assert_eq!(dropped.ending, Some(Ending::Drop { winner: B }));
    assert_eq!(dropped.stake().standing, Some(Cube::centred(1)));
    // Nothing pending: nothing to drop.
    let flow = black_to_roll(money(options()));
    assert_eq!(after(flow, GameFlow::dropped), flow);
}

#[test]
fn no_doubling_in_the_crawford_game() {
    let rules = GameRules {
        money: false,
        crawford_game: true,
        ..money(options())
    };
    let flow = black_to_roll(rules);
    assert_eq!(flow.double_problem(B, None), Some(CubeRule::CrawfordGame));
    let later = GameRules {
        crawford_game: false,
        ..rules
    };
    assert_eq!(black_to_roll(later).double_problem(B, None), None);
}

// -- the end -----------------------------------------------------------------------------

// Long nardy, each side in its own numbering: one White checker left on 1, the other 14
// off; Black has two checkers left on his own 1 (White's 13) and 13 off.
fn near_the_end() -> Board {
    Board {
        white: layout(&[(1, 1)]),
        black: layout(&[(1, 2)]),
    }
}

fn white_done() -> Board {
    Board {
        white: layout(&[]),
        black: layout(&[(1, 2)]),
    }
}

fn black_one_left() -> Board {
    Board {
        white: layout(&[]),
        black: layout(&[(1, 1)]),
    }
}

fn black_done() -> Board {
    Board {
        white: layout(&[]),
        black: layout(&[]),
    }
}

fn end_game(draw_rule: bool, draw_scoring: DrawScoring, first_mover: Side) -> GameFlow {
    let rules = GameRules {
        opening_doublets: true,
        ..money(Options {
            draw_rule,
            draw_scoring,
            ..options()
        })
    };
    // White to roll, whoever moved first.
    GameFlow {
        first_mover: Some(first_mover),
        ..GameFlow::start(rules, near_the_end(), Some(W), None)
    }
}

/// White, on turn in `end_game`, plays to `board`.
fn white_plays(draw_rule: bool, first_mover: Side, board: Board) -> GameFlow {
    let flow = end_game(draw_rule, DrawScoring::AfterExtraTurn, first_mover);
    after(flow, |f| f.played(W, board))
}

fn bore_off(winner: Side, board: Board) -> Option<Ending> {
    Some(Ending::BoreOff { winner, board })
}

#[test]
fn bearing_off_the_last_checker_ends_the_game() {
    let flow = white_plays(false, W, white_done());
    assert_eq!(flow.ending, bore_off(W, white_done()));
    assert_eq!(
        (flow.position.turn, flow.position.phase),
        (None, Phase::End)
    );
    assert_eq!(flow.position.board, white_done()); // the board as it ended
}

#[test]
fn the_draw_rule_gives_the_second_mover_an_extra_turn_and_a_draw() {
    let finished = white_plays(true, W, white_done());
    assert_eq!(finished.ending, None);
    assert_eq!(finished.extra_turn_for, Some(B));
    assert_eq!(finished.finish_board, Some(white_done()));
    assert_eq!(
        (finished.position.turn, finished.position.phase),
        (Some(B), Phase::Roll)
    );
    let drawn = after(finished, |f| f.played(B, black_done()));
    assert_eq!(drawn.ending, Some(Ending::Draw));
    assert_eq!(
        (drawn.position.phase, drawn.position.board),
        (Phase::End, black_done())
    );
}

#[test]
fn no_extra_turn_for_the_first_mover() {
    // Black moved first, White finishes: White simply wins (RULES.md §10).
    let flow = white_plays(true, B, white_done());
    assert_eq!(flow.ending, bore_off(W, white_done()));
}

#[test]
fn no_extra_turn_for_a_side_already_off() {
    // A board where both sides are off (as an edit can set it): the finisher wins at once.
    let flow = white_plays(true, W, black_done());
    assert_eq!(flow.ending, bore_off(W, black_done()));
}

#[test]
fn a_missed_extra_turn_scores_the_finisher_on_the_board_the_option_names() {
    // Black bore one more off in his extra turn: after_extra_turn counts that board,
    // at_finish the board White finished on.
    for (scoring, scored) in [
        (DrawScoring::AfterExtraTurn, black_one_left()),
        (DrawScoring::AtFinish, white_done()),
    ] {
        let mut flow = end_game(true, scoring, W);
        flow.played(W, white_done());
        flow.played(B, black_one_left());
        assert_eq!(flow.ending, bore_off(W, scored), "{scoring:?}");
        assert_eq!(flow.position.board, black_one_left());
    }
}

#[test]
fn a_resignation_ends_the_game_on_its_board() {
    let mut flow = backgammon(money(options()));
    flow.opened(3, 1).unwrap();
    let resigned = after(flow, |f| f.resigned(B, 2));
    assert_eq!(
        resigned.ending,
        Some(Ending::Resigned {
            winner: B,
            points: 2
        })
    );
    assert_eq!(
        (resigned.position.turn, resigned.position.phase),
        (None, Phase::End)
    );
    assert_eq!(resigned.position.board, flow.position.board);
    assert_eq!(resigned.stake().standing, Some(Cube::centred(1)));
    assert!(!resigned.stake().doubled);
}
