//! Untrusted record text to the native reader, as `/v1/records/check` receives it: any
//! bytes that are UTF-8. Nothing may panic; a record read natively is then checked game by
//! game, from the backgammon start in money play with beavers, and from the long nardy
//! start as a match's Crawford game under the draw rule (canonical cells asked for), and
//! nothing may panic there; a bear-off is scored on a board where its winner is off.

#![no_main]

use libfuzzer_sys::fuzz_target;
use nardy_native::adjudication::game::{check_game, GameStart, MatchRules};
use nardy_native::notation::mat_reader::{read_record, ReadLimits};
use nardy_native::rules::board::{Board, Layout, CELLS, HEAD};
use nardy_native::rules::cube::Cube;
use nardy_native::rules::flow::Ending;
use nardy_native::rules::options::{DrawScoring, JudgeMode, Options, PlayOptions};
use nardy_native::rules::variants::Variant;
use nardy_native::vocabulary::CHECKERS;

const LIMITS: ReadLimits = ReadLimits {
    games: 100,
    actions_per_game: 2_000,
    actions: 20_000,
};

fn backgammon_start() -> Layout {
    let mut layout = [0; CELLS];
    for (point, count) in [(24, 2), (13, 5), (8, 3), (6, 5)] {
        layout[point] = count;
    }
    layout
}

fn nardy_start() -> Layout {
    let mut layout = [0; CELLS];
    layout[HEAD] = CHECKERS;
    layout
}

fn start(layout: Layout, crawford_game: bool) -> GameStart {
    GameStart {
        board: Board {
            white: layout,
            black: layout,
        },
        cube: Some(Cube::centred(1)),
        turn: None,
        from_start: true,
        crawford_game,
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(record) = read_record(text, LIMITS) else {
        return;
    };
    let options = Options {
        play: PlayOptions::default(),
        judge: JudgeMode::Position,
        cube: true,
        crawford: true,
        beavers: true,
        cube_limit: 64,
        draw_rule: false,
        draw_scoring: DrawScoring::AfterExtraTurn,
    };
    let rules = MatchRules {
        variant: Variant::Backgammon,
        options,
        money: true,
        opening_doublets: false,
        hits_marked: record.hits_marked(),
    };
    let nardy = MatchRules {
        variant: Variant::LongNardy,
        options: Options {
            judge: JudgeMode::Sequence,
            beavers: false,
            draw_rule: true,
            draw_scoring: DrawScoring::AtFinish,
            ..options
        },
        money: false,
        opening_doublets: true,
        ..rules
    };
    let checks = [
        (rules, start(backgammon_start(), false), false),
        (nardy, start(nardy_start(), true), true),
    ];
    for game in &record.games {
        for (rules, start, canonical) in &checks {
            let outcome = check_game(game, start, rules, *canonical);
            if let Some(Ending::BoreOff { winner, board }) = outcome.map(|o| o.ending) {
                assert_eq!(board.borne_off(winner), CHECKERS);
            }
        }
    }
});
