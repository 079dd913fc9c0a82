//! The three variants, and what the move generator needs to know about the rules of one
//! turn (`TurnRules`) under the options that change which plays are legal.

use crate::error::Error;
use crate::rules::board::{Dice, Layout, HEAD};
use crate::rules::options::{BlockRule, BlockTiming, FirstTurnScope, HeadException, PlayOptions};
use crate::vocabulary::{PositionProblem, BAR, CHECKERS};

/// A game variant (RULES.md §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    Backgammon,
    LongNardy,
    Khachapuri,
}

impl Variant {
    /// The variant with the id `id` (the ids of the Python engine).
    pub fn from_id(id: &str) -> Result<Variant, Error> {
        match id {
            "backgammon" => Ok(Variant::Backgammon),
            "long-nardy" => Ok(Variant::LongNardy),
            "khachapuri" => Ok(Variant::Khachapuri),
            other => Err(Error::UnknownVariant(other.to_owned())),
        }
    }

    /// The variant's id (the Python engine's).
    pub fn id(self) -> &'static str {
        match self {
            Variant::Backgammon => "backgammon",
            Variant::LongNardy => "long-nardy",
            Variant::Khachapuri => "khachapuri",
        }
    }

    /// Whether a single opposing checker can be hit (only backgammon).
    pub fn hitting(self) -> bool {
        self == Variant::Backgammon
    }

    /// Whether games have the doubling cube (only backgammon).
    pub fn has_cube(self) -> bool {
        self == Variant::Backgammon
    }

    /// What this variant's positions can never have (`Variant.position_problems`): a bar
    /// without hitting, a cube field without the cube.
    pub fn position_problems(
        self,
        white: &Layout,
        black: &Layout,
        has_cube_field: bool,
    ) -> Vec<PositionProblem> {
        let mut problems = Vec::new();
        if !self.hitting() && (white[BAR] > 0 || black[BAR] > 0) {
            problems.push(PositionProblem {
                code: "bar_in_nardy",
                message: format!("{} has no bar: the bar field must be w0b0", self.id()),
                field: Some("bar"),
            });
        }
        if !self.has_cube() && has_cube_field {
            problems.push(PositionProblem {
                code: "cube_in_nardy",
                message: format!("{} has no cube: the cube field must be -", self.id()),
                field: Some("cube"),
            });
        }
        problems
    }

    /// The same physical point (1..24) in the other side's own numbering; 0 stays 0.
    pub const fn opposite(self, point: usize) -> usize {
        match (self, point) {
            (_, 0) => 0,
            (Variant::Backgammon, _) => 25 - point,
            (_, 1..=12) => point + 12,
            _ => point - 12,
        }
    }

    /// `opposite` for 0..24 as a table (the search looks it up for every step).
    pub fn opposite_table(self) -> &'static [usize; 25] {
        const MIRRORED: [usize; 25] = opposites(Variant::Backgammon);
        const SHIFTED: [usize; 25] = opposites(Variant::LongNardy);
        match self {
            Variant::Backgammon => &MIRRORED,
            Variant::LongNardy | Variant::Khachapuri => &SHIFTED,
        }
    }
}

/// `variant.opposite` of 0..24, worked out at compile time.
const fn opposites(variant: Variant) -> [usize; 25] {
    let mut table = [0; 25];
    let mut point = 0;
    while point < 25 {
        table[point] = variant.opposite(point);
        point += 1;
    }
    table
}

/// The six-point block rule as it applies to one turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlockCheck {
    pub rule: BlockRule,
    pub timing: BlockTiming,
}

/// Everything the move generator needs to know about the rules of one turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TurnRules {
    pub variant: Variant,
    /// How many checkers may leave the head this turn; None = no limit.
    pub head_limit: Option<u8>,
    /// A larger head limit that applies only when `head_limit` cannot play the whole roll.
    pub head_limit_if_needed: Option<u8>,
    pub block: Option<BlockCheck>,
}

impl TurnRules {
    /// The rules in force for the side with layout `mine` playing `dice` against `theirs`.
    pub fn new(
        variant: Variant,
        mine: &Layout,
        theirs: &Layout,
        dice: Dice,
        options: &PlayOptions,
    ) -> TurnRules {
        let mut head_limit = head_limit(variant, mine, theirs, dice, options);
        let mut if_needed = None;
        if head_limit == Some(2) && options.head_exception == HeadException::OnlyIfNeeded {
            head_limit = Some(1);
            if_needed = Some(2);
        }
        let block = (variant != Variant::Backgammon).then_some(BlockCheck {
            rule: options.block_rule,
            timing: options.block_timing,
        });
        TurnRules {
            variant,
            head_limit,
            head_limit_if_needed: if_needed,
            block,
        }
    }
}

fn head_limit(
    variant: Variant,
    mine: &Layout,
    theirs: &Layout,
    dice: Dice,
    options: &PlayOptions,
) -> Option<u8> {
    if variant != Variant::LongNardy {
        return None;
    }
    if !head_exception_applies(mine, theirs, dice, options) {
        return Some(1);
    }
    if options.head_exception == HeadException::OpponentHeadOnly {
        let stopped = stopped_by_opponent_head(variant, theirs, usize::from(dice.high));
        return Some(if stopped { 2 } else { 1 });
    }
    Some(2)
}

/// A first-turn 6-6, 4-4 or 3-3 with the exception enabled (RULES.md §6.2).
fn head_exception_applies(
    mine: &Layout,
    theirs: &Layout,
    dice: Dice,
    options: &PlayOptions,
) -> bool {
    if options.head_exception == HeadException::None {
        return false;
    }
    if !dice.is_double() || ![3, 4, 6].contains(&dice.high) || mine[HEAD] != CHECKERS {
        return false;
    }
    match options.first_turn_scope {
        FirstTurnScope::GameFirstTurn => theirs[HEAD] == CHECKERS,
        FirstTurnScope::EachPlayer => true,
    }
}

/// Whether one head checker's path is first stopped at the opponent's head.
fn stopped_by_opponent_head(variant: Variant, theirs: &Layout, die: usize) -> bool {
    let mut point = HEAD - die;
    while point > 0 {
        let there = variant.opposite(point);
        if theirs[there] > 0 {
            return there == HEAD;
        }
        if point <= die {
            break;
        }
        point -= die;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn long_nardy(
        mine: &Layout,
        theirs: &Layout,
        a: u8,
        b: u8,
        options: &PlayOptions,
    ) -> TurnRules {
        TurnRules::new(
            Variant::LongNardy,
            mine,
            theirs,
            Dice::new(a, b).unwrap(),
            options,
        )
    }

    fn head_only() -> Layout {
        let mut layout = [0; 26];
        layout[HEAD] = CHECKERS;
        layout
    }

    #[test]
    fn opposite_points_are_mirrored_in_backgammon_and_shifted_by_twelve_in_nardy() {
        assert_eq!(Variant::Backgammon.opposite(1), 24);
        assert_eq!(Variant::Backgammon.opposite(13), 12);
        assert_eq!(Variant::LongNardy.opposite(1), 13);
        assert_eq!(Variant::Khachapuri.opposite(24), 12);
        assert_eq!(Variant::LongNardy.opposite(0), 0);
    }

    #[test]
    fn variants_are_read_from_their_python_ids() {
        assert_eq!(Variant::from_id("long-nardy"), Ok(Variant::LongNardy));
        assert_eq!(
            Variant::from_id("chess"),
            Err(Error::UnknownVariant("chess".to_owned()))
        );
    }

    #[test]
    fn long_nardy_allows_two_head_checkers_only_on_a_first_six_four_or_three_double() {
        let start = head_only();
        let options = PlayOptions::default();
        let rules = |a, b| long_nardy(&start, &start, a, b, &options);
        assert_eq!(rules(6, 6).head_limit, Some(2));
        assert_eq!(rules(4, 4).head_limit, Some(2));
        assert_eq!(rules(5, 5).head_limit, Some(1));
        assert_eq!(rules(6, 3).head_limit, Some(1));
        let mut moved = start;
        moved[HEAD] -= 1;
        moved[18] += 1;
        let later = long_nardy(&moved, &start, 6, 6, &options);
        assert_eq!(later.head_limit, Some(1));
    }

    #[test]
    fn only_if_needed_keeps_the_second_head_checker_in_reserve() {
        let start = head_only();
        let options = PlayOptions {
            head_exception: HeadException::OnlyIfNeeded,
            ..PlayOptions::default()
        };
        let rules = long_nardy(&start, &start, 6, 6, &options);
        assert_eq!(
            (rules.head_limit, rules.head_limit_if_needed),
            (Some(1), Some(2))
        );
    }

    #[test]
    fn game_first_turn_scope_needs_the_opponent_still_on_his_head() {
        let start = head_only();
        let mut moved = start;
        moved[HEAD] -= 1;
        moved[20] += 1;
        let options = PlayOptions {
            first_turn_scope: FirstTurnScope::GameFirstTurn,
            ..PlayOptions::default()
        };
        let rules = long_nardy(&start, &moved, 6, 6, &options);
        assert_eq!(rules.head_limit, Some(1));
    }

    #[test]
    fn opponent_head_only_needs_the_six_stopped_on_the_opponent_head() {
        let start = head_only();
        let options = PlayOptions {
            head_exception: HeadException::OpponentHeadOnly,
            ..PlayOptions::default()
        };
        // 6-6 from own 24: 18, then 12 = the opponent's 24, his head: stopped there.
        let six = long_nardy(&start, &start, 6, 6, &options);
        assert_eq!(six.head_limit, Some(2));
        // 3-3: 21, 18, 15, 12 -> also the opponent's head, first occupied point on the way.
        let three = long_nardy(&start, &start, 3, 3, &options);
        assert_eq!(three.head_limit, Some(2));
    }

    #[test]
    fn backgammon_has_no_head_limit_and_no_block_rule() {
        let rules = TurnRules::new(
            Variant::Backgammon,
            &head_only(),
            &head_only(),
            Dice::new(6, 6).unwrap(),
            &PlayOptions::default(),
        );
        assert_eq!((rules.head_limit, rules.block), (None, None));
    }
}
