//! Unit tests of enumeration, judging and play text on positions worked out by hand.

mod common;

use common::layout;
use nardy_native::bridge::play_text;
use nardy_native::rules::board::{Dice, Layout, Play, Step, HEAD};
use nardy_native::rules::judge::Judge;
use nardy_native::rules::movegen::{apply_steps, display_order, legal, legal_plays, Reason};
use nardy_native::rules::options::{BlockRule, BlockTiming, JudgeMode, PlayOptions};
use nardy_native::rules::variants::{TurnRules, Variant};
use nardy_native::vocabulary::{WrittenMove, BAR, CHECKERS, OFF};

fn default_rules(variant: Variant, mine: &Layout, theirs: &Layout, dice: Dice) -> TurnRules {
    TurnRules::new(variant, mine, theirs, dice, &PlayOptions::default())
}

fn plays(variant: Variant, mine: &Layout, theirs: &Layout, a: u8, b: u8) -> Vec<Play> {
    plays_with(variant, mine, theirs, a, b, &PlayOptions::default())
}

fn plays_with(
    variant: Variant,
    mine: &Layout,
    theirs: &Layout,
    a: u8,
    b: u8,
    options: &PlayOptions,
) -> Vec<Play> {
    let dice = Dice::new(a, b).unwrap();
    legal_plays(
        &TurnRules::new(variant, mine, theirs, dice, options),
        mine,
        theirs,
        dice,
    )
}

fn texts(plays: &[Play]) -> Vec<String> {
    plays
        .iter()
        .map(|play| play_text(&play.steps, false))
        .collect()
}

fn step(from: u8, to: u8, die: u8, hit: bool) -> Step {
    Step { from, to, die, hit }
}

fn written(moves: &[(u32, u32, bool)]) -> Vec<WrittenMove> {
    moves
        .iter()
        .map(|&(from, to, mark)| WrittenMove { from, to, mark })
        .collect()
}

const NARDY_START: &[(usize, u8)] = &[(HEAD, 15)];

#[test]
fn a_checker_on_the_bar_facing_a_closed_board_cannot_move() {
    let mine = layout(&[(BAR, 1), (6, 14)]);
    let theirs = layout(&[(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 2)]);
    let found = plays(Variant::Backgammon, &mine, &theirs, 6, 5);
    assert_eq!(found.len(), 1);
    assert!(found[0].steps.is_empty());
    assert_eq!((found[0].mine, found[0].theirs), (mine, theirs));
}

#[test]
fn a_six_bears_off_the_last_checker_from_the_three_point_once() {
    let mine = layout(&[(3, 1)]);
    let theirs = layout(&[(24, 1)]);
    let found = plays(Variant::Backgammon, &mine, &theirs, 6, 1);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].steps, vec![step(3, 0, 6, false)]);
    assert_eq!(found[0].mine[OFF], CHECKERS);
}

#[test]
fn when_only_one_die_can_be_played_it_must_be_the_larger() {
    // Own 13 is the opponent's 12, held by two: 24/18/13 and 24/19/13 are both blocked.
    let mine = layout(&[(24, 1)]);
    let theirs = layout(&[(12, 2)]);
    let found = plays(Variant::Backgammon, &mine, &theirs, 6, 5);
    assert_eq!(texts(&found), vec!["24/18"]);
}

#[test]
fn a_blot_is_hit_and_sent_to_the_bar() {
    // Own 20 is the opponent's 5, a blot; 6-4 from own 24 can hit it with the 4.
    let mine = layout(&[(24, 1)]);
    let theirs = layout(&[(5, 1), (1, 2)]);
    let found = plays(Variant::Backgammon, &mine, &theirs, 6, 4);
    let hits: Vec<&Play> = found.iter().filter(|p| p.theirs[BAR] == 1).collect();
    assert_eq!(hits.len(), 1);
    assert_eq!(play_text(&hits[0].steps, false), "24/20* 20/14");
}

#[test]
fn packed_plays_carry_steps_and_both_layouts_after_each_play() {
    // The same blot as above: 24/18/14 and 24/20*/14 end on the same point, but only the
    // second sends the opponent's checker on his 5 to the bar.
    let mine = layout(&[(24, 1)]);
    let theirs = layout(&[(5, 1), (1, 2)]);
    let dice = Dice::new(6, 4).unwrap();
    let rules = default_rules(Variant::Backgammon, &mine, &theirs, dice);
    let found = legal(&rules, &mine, &theirs, dice);
    let mut packed = vec![0; found.packed_len()];
    found.write_packed(&mut packed);
    let mut expected = Vec::new();
    let after = layout(&[(14, 1)]);
    for (steps, theirs_after) in [
        ([24, 18, 6, 0, 18, 14, 4, 0], layout(&[(5, 1), (1, 2)])),
        ([24, 20, 4, 1, 20, 14, 6, 0], layout(&[(BAR, 1), (1, 2)])),
    ] {
        expected.push(2);
        expected.extend(steps);
        expected.extend(after);
        expected.extend(theirs_after);
    }
    assert_eq!(packed, expected);
}

#[test]
fn long_nardy_takes_one_checker_off_the_head_on_a_normal_roll() {
    let start = layout(NARDY_START);
    let found = plays(Variant::LongNardy, &start, &start, 5, 3);
    assert_eq!(found.len(), 1);
    assert_eq!(
        found[0].steps,
        vec![step(24, 19, 5, false), step(19, 16, 3, false)]
    );
    assert_eq!(found[0].mine[HEAD], 14);
}

#[test]
fn long_nardy_first_six_six_plays_two_head_checkers_and_stops_at_the_opponent_head() {
    let start = layout(NARDY_START);
    let found = plays(Variant::LongNardy, &start, &start, 6, 6);
    assert_eq!(texts(&found), vec!["24/18 24/18"]);
}

#[test]
fn khachapuri_has_no_head_limit() {
    let start = layout(&[(HEAD, 4), (6, 11)]);
    let mut found = texts(&plays(Variant::Khachapuri, &start, &start, 2, 1));
    found.sort();
    // Two head checkers, one checker 24/21, or the home checkers on 6 moving inside it:
    // six distinct results (24/23/21 and 24/22/21 reach one board, kept once).
    let mut expected = vec![
        "24/23 24/22",
        "24/22 22/21",
        "24/22 6/5",
        "24/23 6/4",
        "6/5 6/4",
        "6/4 4/3",
    ];
    expected.sort();
    assert_eq!(found, expected);
}

/// Own 18..14 taken; a checker landing on 19 completes a block of six in front of the
/// opponent, whose every checker stands behind it (on his own 24, which is our 12).
fn five_in_a_row() -> (Layout, Layout) {
    let mine = layout(&[
        (HEAD, 9),
        (20, 1),
        (18, 1),
        (17, 1),
        (16, 1),
        (15, 1),
        (14, 1),
    ]);
    let theirs = layout(&[(HEAD, 15)]);
    (mine, theirs)
}

fn has_block(play: &Play) -> bool {
    (14..=19).all(|point| play.mine[point] > 0)
}

#[test]
fn the_block_rule_forbids_a_sixth_point_with_no_opponent_checker_ahead() {
    let (mine, theirs) = five_in_a_row();
    let found = plays(Variant::LongNardy, &mine, &theirs, 6, 5);
    assert!(!found.is_empty() && !found.iter().any(has_block));
    let dice = Dice::new(6, 5).unwrap();
    let rules = default_rules(Variant::LongNardy, &mine, &theirs, dice);
    let failure = apply_steps(&rules, &mine, &theirs, &[(24, 5)], None).unwrap_err();
    assert_eq!((failure.index, failure.reason), (0, Reason::BlockRule));
}

#[test]
fn under_the_home_rule_an_opponent_checker_anywhere_in_his_home_allows_the_block() {
    let (mine, _) = five_in_a_row();
    let theirs = layout(&[(HEAD, 14), (3, 1)]);
    let options = PlayOptions {
        block_rule: BlockRule::Home,
        ..PlayOptions::default()
    };
    let found = plays_with(Variant::LongNardy, &mine, &theirs, 6, 5, &options);
    assert!(found.iter().any(has_block));
}

#[test]
fn end_of_turn_timing_lets_a_block_be_broken_again_in_the_same_turn() {
    let (mine, theirs) = five_in_a_row();
    let options = PlayOptions {
        block_timing: BlockTiming::EndOfTurn,
        ..PlayOptions::default()
    };
    let dice = Dice::new(5, 1).unwrap();
    let rules = TurnRules::new(Variant::LongNardy, &mine, &theirs, dice, &options);
    // 24/19 makes six in a row, 19/18 breaks it (19 empties): legal at the end of the turn.
    assert!(apply_steps(&rules, &mine, &theirs, &[(24, 5), (19, 1)], None).is_ok());
    let per_move = default_rules(Variant::LongNardy, &mine, &theirs, dice);
    assert!(apply_steps(&per_move, &mine, &theirs, &[(24, 5), (19, 1)], None).is_err());
}

#[test]
fn display_order_chains_one_checker_and_credits_the_hit_to_the_first_landing() {
    let steps = [
        step(13, 8, 5, false),
        step(24, 21, 3, false),
        step(21, 16, 5, true),
    ];
    assert_eq!(
        display_order(&steps),
        vec![
            step(24, 21, 3, false),
            step(21, 16, 5, true),
            step(13, 8, 5, false)
        ]
    );
    assert_eq!(play_text(&steps, false), "24/21 21/16* 13/8");
    assert_eq!(play_text(&steps, true), "13/8 24/21 21/16*");
    assert_eq!(
        play_text(&[step(25, 22, 3, true), step(3, 0, 6, false)], false),
        "bar/22* 3/off"
    );
}

fn judge_in<'a>(
    rules: &'a TurnRules,
    mine: &'a Layout,
    theirs: &'a Layout,
    dice: Dice,
) -> Judge<'a> {
    Judge {
        rules,
        mine,
        theirs,
        dice,
        mode: JudgeMode::Position,
    }
}

#[test]
fn a_legal_play_written_as_one_move_per_checker_is_accepted() {
    let start = layout(NARDY_START);
    let dice = Dice::new(5, 3).unwrap();
    let rules = default_rules(Variant::LongNardy, &start, &start, dice);
    let judge = judge_in(&rules, &start, &start, dice);
    let accepted = judge.accept(&written(&[(24, 16, false)]), true).unwrap();
    assert_eq!(accepted.mine[16], 1);
    assert_eq!(
        accepted.steps,
        vec![step(24, 19, 5, false), step(19, 16, 3, false)]
    );
    assert!(accepted.play.is_some());
}

#[test]
fn plays_breaking_a_rule_are_left_to_python_and_hits_are_reported_for_its_warnings() {
    let start = layout(NARDY_START);
    let dice = Dice::new(5, 3).unwrap();
    let nardy = default_rules(Variant::LongNardy, &start, &start, dice);
    let judge = judge_in(&nardy, &start, &start, dice);
    assert_eq!(
        judge.accept(&written(&[(24, 19, false), (24, 21, false)]), false),
        None
    );
    assert_eq!(judge.accept(&written(&[(24, 16, true)]), false), None);
    assert_eq!(judge.accept(&written(&[(16, 24, false)]), false), None);
    // Backgammon: a hit not marked is legal; Python warns from the matched single moves.
    let mine = layout(&[(24, 1)]);
    let theirs = layout(&[(5, 1), (1, 2)]);
    let dice = Dice::new(6, 4).unwrap();
    let bg = default_rules(Variant::Backgammon, &mine, &theirs, dice);
    let judge = judge_in(&bg, &mine, &theirs, dice);
    let unmarked = judge
        .accept(&written(&[(24, 20, false), (20, 14, false)]), false)
        .unwrap();
    assert_eq!(unmarked.played[0], step(24, 20, 4, true));
    assert_eq!(unmarked.owners, vec![0, 1]);
    let marked = judge
        .accept(&written(&[(24, 20, true), (20, 14, false)]), false)
        .unwrap();
    assert_eq!(marked.theirs[BAR], 1);
    assert_eq!(marked.play, None);
}

#[test]
fn a_dance_is_accepted_only_when_nothing_can_be_played() {
    let mine = layout(&[(BAR, 1), (6, 14)]);
    let theirs = layout(&[(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 2)]);
    let dice = Dice::new(6, 5).unwrap();
    let bg = default_rules(Variant::Backgammon, &mine, &theirs, dice);
    assert!(judge_in(&bg, &mine, &theirs, dice)
        .accept(&[], false)
        .is_some());
    let start = layout(NARDY_START);
    let nardy = default_rules(Variant::LongNardy, &start, &start, dice);
    assert_eq!(
        judge_in(&nardy, &start, &start, dice).accept(&[], false),
        None
    );
}

#[test]
fn by_position_the_written_moves_count_in_any_order_by_sequence_only_as_written() {
    let mine = layout(&[(24, 1)]);
    let theirs = layout(&[(1, 2)]);
    let dice = Dice::new(6, 5).unwrap();
    let bg = default_rules(Variant::Backgammon, &mine, &theirs, dice);
    let reversed = written(&[(18, 13, false), (24, 18, false)]);
    let mut judge = judge_in(&bg, &mine, &theirs, dice);
    let accepted = judge.accept(&reversed, false).unwrap();
    assert_eq!(accepted.mine[13], 1);
    assert_eq!(accepted.owners, vec![1, 0]);
    judge.mode = JudgeMode::Sequence;
    assert_eq!(judge.accept(&reversed, false), None);
}
