//! The options of RULES.md §12.1 that the native core reads (the twin of
//! `referee/rules/options.py`): those that change which plays are legal, how a written play
//! is judged, and those of the game flow (the cube, the draw rule). Each closed set is an
//! enum read from its Python name.

use crate::error::Error;

/// Who may take a second checker from the head on a first-turn 6-6, 4-4 or 3-3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeadException {
    Unconditional,
    OnlyIfNeeded,
    OpponentHeadOnly,
    None,
}

/// Whose first turn gets the head exception.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FirstTurnScope {
    EachPlayer,
    GameFirstTurn,
}

/// When a six-point block is allowed (RULES.md §7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockRule {
    Ahead,
    Home,
}

/// When the block rule is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockTiming {
    PerMove,
    EndOfTurn,
}

/// How a written play is judged (RULES.md A6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JudgeMode {
    Position,
    Sequence,
}

macro_rules! parse_enum {
    ($kind:ident, $option:literal, $($text:literal => $value:ident),+) => {
        impl std::str::FromStr for $kind {
            type Err = Error;

            fn from_str(text: &str) -> Result<$kind, Error> {
                match text {
                    $($text => Ok($kind::$value),)+
                    other => Err(Error::InvalidOption($option, other.to_owned())),
                }
            }
        }
    };
}

parse_enum!(HeadException, "head_exception",
    "unconditional" => Unconditional, "only_if_needed" => OnlyIfNeeded,
    "opponent_head_only" => OpponentHeadOnly, "none" => None);
parse_enum!(FirstTurnScope, "first_turn_scope",
    "each_player" => EachPlayer, "game_first_turn" => GameFirstTurn);
parse_enum!(BlockRule, "block_rule", "ahead" => Ahead, "home" => Home);
parse_enum!(BlockTiming, "block_timing", "per_move" => PerMove, "end_of_turn" => EndOfTurn);
parse_enum!(JudgeMode, "judge", "position" => Position, "sequence" => Sequence);

/// The options that change which plays are legal, with RULES.md's defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlayOptions {
    pub head_exception: HeadException,
    pub first_turn_scope: FirstTurnScope,
    pub block_rule: BlockRule,
    pub block_timing: BlockTiming,
}

impl Default for PlayOptions {
    fn default() -> PlayOptions {
        PlayOptions {
            head_exception: HeadException::Unconditional,
            first_turn_scope: FirstTurnScope::EachPlayer,
            block_rule: BlockRule::Ahead,
            block_timing: BlockTiming::PerMove,
        }
    }
}

/// How a game is scored when the second mover misses the draw rule's extra turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawScoring {
    /// On the board after the extra turn.
    AfterExtraTurn,
    /// On the board when the first mover finished.
    AtFinish,
}

/// The options of one match's games that the native core reads (the Python engine's
/// `Options`, less what the Python side alone decides: automatic doubles, the Jacoby rule,
/// koks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    pub play: PlayOptions,
    pub judge: JudgeMode,
    /// The `cube` option: the cube is in play where the variant has one.
    pub cube: bool,
    pub crawford: bool,
    pub beavers: bool,
    pub cube_limit: u64,
    pub draw_rule: bool,
    pub draw_scoring: DrawScoring,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_read_from_their_python_names() {
        assert_eq!("end_of_turn".parse(), Ok(BlockTiming::EndOfTurn));
        assert_eq!("only_if_needed".parse(), Ok(HeadException::OnlyIfNeeded));
        assert_eq!("sequence".parse(), Ok(JudgeMode::Sequence));
        assert_eq!(
            "sideways".parse::<BlockRule>(),
            Err(Error::InvalidOption("block_rule", "sideways".to_owned()))
        );
    }
}
