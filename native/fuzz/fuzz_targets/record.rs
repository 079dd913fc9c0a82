//! Untrusted record text to the native reader, as `/v1/records/check` receives it: any
//! bytes that are UTF-8. Nothing may panic; a record read natively is then checked game by
//! game from the backgammon start under the default options, and nothing may panic there.

#![no_main]

use libfuzzer_sys::fuzz_target;
use nardy_native::adjudication::game::{check_game, GameStart, MatchRules};
use nardy_native::notation::mat_reader::{read_record, ReadLimits};
use nardy_native::rules::board::{Board, Layout, CELLS};
use nardy_native::rules::cube::Cube;
use nardy_native::rules::options::{DrawScoring, JudgeMode, Options, PlayOptions};
use nardy_native::rules::variants::Variant;

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
    let start = GameStart {
        board: Board {
            white: backgammon_start(),
            black: backgammon_start(),
        },
        cube: Some(Cube::centred(1)),
        turn: None,
        from_start: true,
        crawford_game: false,
    };
    for game in &record.games {
        let _ = check_game(game, &start, &rules, false);
    }
});
