//! Unit tests of the record fast path: the reader, the play texts and the game checker, on
//! records written by hand (expected values worked out from FORMATS.md and RULES.md).

mod common;

use common::layout;
use nardy_native::adjudication::game::{check_game, GameStart, MatchRules};
use nardy_native::notation::mat_reader::{read_record, Declined, Limit, ReadLimits};
use nardy_native::notation::plays::{parse_play, WrittenPlay};
use nardy_native::notation::record::{Action, GameText, RecordText};
use nardy_native::rules::board::{Board, Layout};
use nardy_native::rules::cube::Cube;
use nardy_native::rules::flow::Ending;
use nardy_native::rules::options::{DrawScoring, JudgeMode, Options, PlayOptions};
use nardy_native::rules::variants::Variant;
use nardy_native::vocabulary::{Side, WrittenMove};

const LIMITS: ReadLimits = ReadLimits {
    games: 10,
    actions_per_game: 100,
    actions: 1000,
};

const MATCH: [&str; 15] = [
    "; [Variation \"Backgammon\"]",
    "",
    " 3 point match",
    "",
    " Game 1",
    " Alice,1500.5 : 0               Bob : 0",
    "  1) 31: 8/5 6/5                 42: 8/4 6/4",
    "  2)  Doubles => 2                Drops",
    "      Wins 1 point",
    "",
    "; a comment",
    " Game 2",
    " Alice : 1                      Bob : 0",
    "  1) 64: 24/18 13/9              31: 8/5 6/5",
    "                                  Wins 2 points and the match",
];

/// The record with CRLF line ends, as Windows writers leave them.
fn match_text() -> String {
    MATCH.join("\r\n") + "\r\n"
}

fn read(text: &str) -> RecordText {
    read_record(text, LIMITS).expect("read natively")
}

fn moves(list: &[(u32, u32, bool)]) -> WrittenPlay {
    WrittenPlay::Moves(
        list.iter()
            .map(|&(from, to, mark)| WrittenMove { from, to, mark })
            .collect(),
    )
}

#[test]
fn a_record_is_read_into_games_of_cells() {
    let record = read(&match_text());
    assert_eq!(record.match_length, Some(3));
    assert_eq!(
        record.comments,
        vec![
            (0, "; [Variation \"Backgammon\"]".to_owned()),
            (1, "; a comment".to_owned())
        ]
    );
    let [first, second] = record.games.as_slice() else {
        panic!("two games");
    };
    assert_eq!(
        (first.number, first.line, first.score),
        (1, 5, Some((0, 0)))
    );
    assert_eq!(first.players, ("Alice".to_owned(), "Bob".to_owned()));
    let kinds: Vec<(Side, usize, &Action)> = first
        .cells
        .iter()
        .map(|cell| (cell.side, cell.column, &cell.action))
        .collect();
    let roll = |dice, play| Action::Roll { dice, play };
    assert_eq!(
        kinds,
        vec![
            (
                Side::White,
                6,
                &roll((3, 1), moves(&[(8, 5, false), (6, 5, false)]))
            ),
            (
                Side::Black,
                34,
                &roll((4, 2), moves(&[(8, 4, false), (6, 4, false)]))
            ),
            (Side::White, 7, &Action::Double { value: 2 }),
            (Side::Black, 35, &Action::Drop),
            (
                Side::White,
                7,
                &Action::Win {
                    value: 1,
                    and_the_match: false
                }
            ),
        ]
    );
    assert_eq!(
        second
            .cells
            .last()
            .map(|cell| (cell.side, cell.line, &cell.action)),
        Some((
            Side::Black,
            15,
            &Action::Win {
                value: 2,
                and_the_match: true
            }
        ))
    );
}

#[test]
fn what_the_python_reader_might_read_differently_is_declined() {
    let declined = |from: &str, to: &str| read_record(&match_text().replace(from, to), LIMITS);
    assert_eq!(declined("Bob : 0", "Bob : \u{661}"), Err(Declined::Unicode));
    assert_eq!(declined("Drops", "\u{212a}"), Err(Declined::Unicode));
    assert_eq!(declined("\r\n; a", "\u{2028}; a"), Err(Declined::Unicode));
    assert_eq!(declined("8/4 6/4", "8/4 6/4 é"), Err(Declined::NonAsciiRow));
    assert_eq!(
        declined("Drops", "Drops  52: Illegal play"),
        Err(Declined::Edit)
    );
    assert_eq!(declined("; a comment", "; Set Pos=x"), Err(Declined::Edit));
    assert_eq!(
        declined(" 3 point", "x\r\n 3 point"),
        Err(Declined::UnexpectedLine)
    );
    assert_eq!(declined(" Bob : 0", " Bob 0"), Err(Declined::ScoreLine));
    assert_eq!(
        declined("Drops", "Drops now"),
        Err(Declined::UnreadableCell)
    );
    assert_eq!(
        declined("  1) 31", "  1) x 31"),
        Err(Declined::UnreadableCell)
    );
    let long = format!("8/4 6/4{}", " ".repeat(5000));
    assert_eq!(declined("8/4 6/4", &long), Err(Declined::LongLine));
    assert_eq!(read_record("; only\n", LIMITS), Err(Declined::NoMatch));
    let tight = ReadLimits {
        actions_per_game: 4,
        ..LIMITS
    };
    assert_eq!(
        read_record(&match_text(), tight),
        Err(Declined::Limit(Limit::ActionsPerGame))
    );
    let few_games = ReadLimits { games: 1, ..LIMITS };
    assert_eq!(
        read_record(&match_text(), few_games),
        Err(Declined::Limit(Limit::Games))
    );
    let few_actions = ReadLimits {
        actions: 6,
        ..LIMITS
    };
    assert_eq!(
        read_record(&match_text(), few_actions),
        Err(Declined::Limit(Limit::Actions))
    );
}

#[test]
fn a_set_pos_line_before_the_first_game_is_a_comment() {
    let record = read(&match_text().replace("; [Variation", "; Set Pos=x\r\n; [Variation"));
    assert_eq!(record.comments[0], (0, "; Set Pos=x".to_owned()));
}

#[test]
fn play_texts_are_read_as_notation_reads_them() {
    assert_eq!(
        parse_play(" 13/8 24/18* bar/22 6/off"),
        Some(moves(&[
            (13, 8, false),
            (24, 18, true),
            (25, 22, false),
            (6, 0, false)
        ]))
    );
    assert_eq!(parse_play(" Cannot Move"), Some(moves(&[])));
    assert_eq!(parse_play(""), Some(moves(&[])));
    assert_eq!(parse_play(" ????"), Some(WrittenPlay::Unknown));
    assert_eq!(
        parse_play(" 24/18*/13"),
        Some(moves(&[(24, 18, true), (18, 13, false)]))
    );
    assert_eq!(
        parse_play(" *24/18/13"),
        Some(moves(&[(24, 18, true), (18, 13, false)]))
    );
    assert_eq!(
        parse_play(" 6/Off(2) b/20"),
        Some(moves(&[(6, 0, false), (6, 0, false), (25, 20, false)]))
    );
    assert_eq!(
        parse_play(" 13-8,6-5"),
        Some(moves(&[(13, 8, false), (6, 5, false)]))
    );
    assert_eq!(parse_play(" 13/8**"), Some(moves(&[(13, 8, true)])));
    assert_eq!(
        parse_play(" 9999999/3"),
        Some(moves(&[(1_000_000, 3, false)]))
    );
    for unread in [
        " 13/8(16)",
        " 13/8(2)6/5",
        " 13 / 8",
        " 13/8x",
        " bars/22",
        " 8*-5",
    ] {
        assert_eq!(parse_play(unread), None, "{unread}");
    }
}

fn backgammon_start() -> Layout {
    layout(&[(24, 2), (13, 5), (8, 3), (6, 5)])
}

fn rules(money: bool, beavers: bool, hits_marked: bool) -> MatchRules {
    let options = Options {
        play: PlayOptions::default(),
        judge: JudgeMode::Position,
        cube: true,
        crawford: true,
        beavers,
        cube_limit: 64,
        draw_rule: false,
        draw_scoring: DrawScoring::AfterExtraTurn,
    };
    MatchRules {
        variant: Variant::Backgammon,
        options,
        money,
        opening_doublets: false,
        hits_marked,
    }
}

fn start(white: Layout, black: Layout) -> GameStart {
    GameStart {
        board: Board { white, black },
        cube: Some(Cube {
            value: 1,
            owner: None,
        }),
        turn: None,
        from_start: white == backgammon_start() && black == backgammon_start(),
        crawford_game: false,
    }
}

fn game_of(rows: &str) -> GameText {
    let text = format!(" 0 point match\n Game 1\n a : 0                          b : 0\n{rows}");
    read(&text).games.remove(0)
}

#[test]
fn a_clean_game_ends_as_written() {
    let game = game_of(
        "  1) 13: 6/5 8/5                 42: 8/4 6/4\n  2)  Doubles => 2                Drops\n      Wins 1 point\n",
    );
    let outcome = check_game(
        &game,
        &start(backgammon_start(), backgammon_start()),
        &rules(true, false, false),
        true,
    );
    let outcome = outcome.expect("passes");
    assert_eq!(
        outcome.ending,
        Ending::Drop {
            winner: Side::White
        }
    );
    assert_eq!(outcome.stake.standing, Some(Cube::centred(1)));
    assert!(outcome.stake.doubled);
    // The canonical cells: larger die first, moves in display order, cube actions as
    // `mat_writer` lays them out.
    let cells: Vec<(Side, &str)> = outcome
        .cells
        .iter()
        .map(|(side, text)| (*side, text.as_str()))
        .collect();
    assert_eq!(
        cells,
        vec![
            (Side::White, "31: 8/5 6/5"),
            (Side::Black, "42: 8/4 6/4"),
            (Side::White, " Doubles => 2"),
            (Side::Black, " Drops"),
        ]
    );
}

#[test]
fn a_game_with_something_to_say_is_declined() {
    let bg = || start(backgammon_start(), backgammon_start());
    let check = |rows: &str, rules: MatchRules| check_game(&game_of(rows), &bg(), &rules, false);
    let money = rules(true, false, false);
    // 6-4 played as 6-5: illegal.
    assert!(check("  1) 64: 24/18 13/8\n      Wins 1 point\n", money).is_none());
    // An opening doublet from the start (RULES.md 14.2).
    assert!(check("  1) 33: 8/5 8/5 6/3 6/3\n      Wins 1 point\n", money).is_none());
    // The game ends without a result.
    assert!(check("  1) 31: 8/5 6/5\n", money).is_none());
    // A double by the player not on turn, and a take with no double.
    assert!(check("  1) 31: 8/5 6/5                  Doubles => 2\n", money).is_none());
    assert!(check("  1) 31: 8/5 6/5                  Takes\n", money).is_none());
    // A double to the wrong value.
    assert!(check(
        "  1) 31: 8/5 6/5                 42: 8/4 6/4\n  2)  Doubles => 4\n",
        money
    )
    .is_none());
    // A beaver needs money play with beavers on.
    let beaver = "  1) 31: 8/5 6/5                 42: 8/4 6/4\n  2)  Doubles => 2                Beavers => 4\n  3) 64: 24/18 13/9\n                                  Wins 4 points\n";
    assert!(check(beaver, money).is_none());
    let outcome = check(beaver, rules(true, true, false)).expect("a lawful beaver");
    assert_eq!(
        outcome.stake.standing,
        Some(Cube {
            value: 4,
            owner: Some(Side::Black)
        })
    );
    // A mark that hits nothing, always; a hit without its mark where hits are marked.
    let hit = "  1) 31: 8/5 6/5                 64: 24/14\n  2) 32: 13/10 13/11              Wins 1 point\n";
    assert!(check(hit, money).is_some());
    assert!(check(&hit.replace("13/10", "13/10*"), money).is_none());
    let black = layout(&[(24, 2), (13, 5), (8, 3), (6, 4), (11, 1)]);
    let open = start(backgammon_start(), black);
    let quiet = game_of("  1) 31: 24/21 24/23                Wins 1 point\n");
    assert!(check_game(&quiet, &open, &money, false).is_some());
    let hitting = game_of("  1) 64: 24/14                     Wins 1 point\n");
    assert!(check_game(&hitting, &open, &money, false).is_some());
    assert!(check_game(&hitting, &open, &rules(true, false, true), false).is_none());
}
