//! The position string of NOTATION.md §1 (the twin of `notation/positions.py`): read into
//! plain data, every problem any position can have listed apart (validation is separate from
//! parsing, as there). Its errors are Python's to the letter: the same codes, sentences and
//! columns. A text that is not ASCII is declined (Python reads it: Unicode spaces, digits
//! and case rules could part the two readers).

use crate::notation::text::{ascii_space, digits_value};
use crate::vocabulary::{PositionProblem, Side, CHECKERS};

/// The names of the nine fields, as errors name them.
pub const FIELD_NAMES: [&str; 9] = [
    "variant", "points", "bar", "off", "turn", "state", "cube", "match", "rules",
];

/// Variant field spellings (lower case) and the canonical id each names.
const VARIANT_NAMES: [(&str, &str); 9] = [
    ("backgammon", "backgammon"),
    ("bg", "backgammon"),
    ("short-nardy", "backgammon"),
    ("long-nardy", "long-nardy"),
    ("ln", "long-nardy"),
    ("long", "long-nardy"),
    ("khachapuri", "khachapuri"),
    ("kh", "khachapuri"),
    ("khachapuri-nardy", "khachapuri"),
];

/// What each field must be, as its error says (`"one of ..."` lists the names sorted).
const EXPECTED_VARIANT: &str = "one of backgammon, bg, kh, khachapuri, khachapuri-nardy, ln, \
                                long, long-nardy, short-nardy";
const EXPECTED_CELL_COUNT: &str = "24 comma-separated cells";
const EXPECTED_CELL: &str = "cells like 5w or 2b (1 to 15 checkers) or empty";
const EXPECTED_PAIR: &str = "w<n>b<n>";
const EXPECTED_TURN: &str = "w, b or -";
const EXPECTED_STATE: &str = "-, two dice like 52, d, r1, r2, r3 or end";
const EXPECTED_CUBE: &str = "-, or a value and owner like 1c, 2w, 4b";
const EXPECTED_MATCH: &str = "<length>:<white score>-<black score> like 7:4-2";
const EXPECTED_FLAGS: &str = "- or the letters c (Crawford) and p (post-Crawford)";

/// Characters of a client's text that an error repeats (`notation.errors.ECHO_LIMIT`).
const ECHO_LIMIT: usize = 200;

/// The state field: what the side on turn must do now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Roll,
    /// The dice to play, the larger first.
    Move(u8, u8),
    Doubled,
    /// A resignation offered at this level (1 to 3).
    Resign(u8),
    End,
}

/// The cube field: its value and its owner (None: centred).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CubeField {
    pub value: u32,
    pub owner: Option<Side>,
}

/// The centred cube of 1, the default and the Crawford game's.
const CENTRED: CubeField = CubeField {
    value: 1,
    owner: None,
};

/// A position string read as plain data (no rules applied): `cells` holds points 1..24 in
/// White's numbering, +n White checkers, -n Black.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionData {
    /// The canonical variant id.
    pub variant: &'static str,
    pub cells: [i8; 24],
    pub bar: (u8, u8),
    pub off: (u8, u8),
    pub turn: Option<Side>,
    pub state: State,
    /// None for `-` (no cube in this game).
    pub cube: Option<CubeField>,
    pub match_length: u32,
    pub score: (u32, u32),
    pub crawford: bool,
    pub post_crawford: bool,
}

/// Text that cannot be read: the error Python raises (`NotationError`), its code, sentence
/// and 1-based column when one field is at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError {
    pub code: &'static str,
    pub message: String,
    pub column: Option<usize>,
}

/// Why a position string was not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unread {
    /// Not ASCII: left to the Python reader.
    Declined,
    Error(NotationError),
}

/// The position `text` writes; the first field at fault is the error, as Python finds it
/// (variant, turn, state, match, then points, bar, off, cube and rules).
pub fn parse_position(text: &str) -> Result<PositionData, Unread> {
    if !text.is_ascii() {
        return Err(Unread::Declined);
    }
    let fields: Vec<&str> = words(text).map(|(_, word)| word).collect();
    if !(6..=9).contains(&fields.len()) {
        return Err(Unread::Error(NotationError {
            code: "invalid_position_string",
            message: format!(
                "a position string has 6 to 9 space-separated fields, not {}",
                fields.len()
            ),
            column: None,
        }));
    }
    let reader = Fields { text, fields };
    let variant = reader.variant()?;
    let turn = reader.turn()?;
    let state = reader.state()?;
    let (match_length, score) = reader.score()?;
    let cells = reader.cells()?;
    let bar = reader.pair(2)?;
    let off = reader.pair(3)?;
    let default_cube = (variant == "backgammon").then_some(CENTRED);
    let cube = reader.cube(default_cube)?;
    let (crawford, post_crawford) = reader.flags()?;
    Ok(PositionData {
        variant,
        cells,
        bar,
        off,
        turn,
        state,
        cube,
        match_length,
        score,
        crawford,
        post_crawford,
    })
}

/// The words of an ASCII text as Python's `str.split()` finds them, each with its offset.
fn words(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let bytes = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < bytes.len() && ascii_space(bytes[at]) {
            at += 1;
        }
        let start = at;
        while at < bytes.len() && !ascii_space(bytes[at]) {
            at += 1;
        }
        (at > start).then(|| (start, &text[start..at]))
    })
}

/// The 1-based column where the named field starts, if the text has it
/// (`notation.positions.field_column`).
pub fn field_column(text: &str, field: &str) -> Option<usize> {
    let index = FIELD_NAMES.iter().position(|name| *name == field)?;
    words(text).nth(index).map(|(start, _)| start + 1)
}

/// The fields of one position string, read one at a time.
struct Fields<'a> {
    text: &'a str,
    fields: Vec<&'a str>,
}

impl Fields<'_> {
    fn error(&self, index: usize, expected: &str) -> Unread {
        let value = self.fields[index];
        let column = if index == 0 {
            1
        } else {
            self.text.find(value).map_or(0, |at| at + 1)
        };
        Unread::Error(NotationError {
            code: "invalid_position_string",
            message: format!(
                "field {} ({}) must be {expected}, not {}",
                index + 1,
                FIELD_NAMES[index],
                echoed(value)
            ),
            column: Some(column),
        })
    }

    fn lower(&self, index: usize) -> String {
        self.fields[index].to_ascii_lowercase()
    }

    fn variant(&self) -> Result<&'static str, Unread> {
        let name = self.lower(0);
        VARIANT_NAMES
            .iter()
            .find(|(spelling, _)| *spelling == name)
            .map(|&(_, id)| id)
            .ok_or_else(|| self.error(0, EXPECTED_VARIANT))
    }

    fn cells(&self) -> Result<[i8; 24], Unread> {
        let lower = self.lower(1);
        let parts: Vec<&str> = lower.split(',').collect();
        if parts.len() != 24 {
            return Err(self.error(1, EXPECTED_CELL_COUNT));
        }
        let mut cells = [0; 24];
        for (cell, part) in cells.iter_mut().zip(parts) {
            *cell = cell_value(part.as_bytes()).ok_or_else(|| self.error(1, EXPECTED_CELL))?;
        }
        Ok(cells)
    }

    fn pair(&self, index: usize) -> Result<(u8, u8), Unread> {
        let lower = self.lower(index);
        let pair = lower
            .strip_prefix('w')
            .and_then(|rest| rest.split_once('b'))
            .and_then(|(white, black)| Some((small_number(white)?, small_number(black)?)));
        pair.ok_or_else(|| self.error(index, EXPECTED_PAIR))
    }

    fn turn(&self) -> Result<Option<Side>, Unread> {
        match self.lower(4).as_str() {
            "w" => Ok(Some(Side::White)),
            "b" => Ok(Some(Side::Black)),
            "-" => Ok(None),
            _ => Err(self.error(4, EXPECTED_TURN)),
        }
    }

    fn state(&self) -> Result<State, Unread> {
        let state = match self.lower(5).as_bytes() {
            b"-" => Some(State::Roll),
            b"d" => Some(State::Doubled),
            b"end" => Some(State::End),
            [b'r', level @ b'1'..=b'3'] => Some(State::Resign(level - b'0')),
            [first @ b'1'..=b'6', second @ b'1'..=b'6'] => {
                let (first, second) = (first - b'0', second - b'0');
                Some(State::Move(first.max(second), first.min(second)))
            }
            _ => None,
        };
        state.ok_or_else(|| self.error(5, EXPECTED_STATE))
    }

    fn cube(&self, default: Option<CubeField>) -> Result<Option<CubeField>, Unread> {
        if self.fields.len() < 7 {
            return Ok(default);
        }
        let lower = self.lower(6);
        if lower == "-" {
            return Ok(None);
        }
        let (digits, owner) = lower.split_at(lower.len() - 1);
        let owner = match owner {
            "c" => Some(None),
            "w" => Some(Some(Side::White)),
            "b" => Some(Some(Side::Black)),
            _ => None,
        };
        match (number(digits, 5), owner) {
            (Some(value), Some(owner)) => Ok(Some(CubeField { value, owner })),
            _ => Err(self.error(6, EXPECTED_CUBE)),
        }
    }

    /// The match field: its length and the score (0 and 0-0 when the field is absent).
    fn score(&self) -> Result<(u32, (u32, u32)), Unread> {
        if self.fields.len() < 8 {
            return Ok((0, (0, 0)));
        }
        let field = self.fields[7];
        let read = field.split_once(':').and_then(|(length, score)| {
            let (white, black) = score.split_once('-')?;
            Some((number(length, 5)?, (number(white, 5)?, number(black, 5)?)))
        });
        read.ok_or_else(|| self.error(7, EXPECTED_MATCH))
    }

    /// The rules field: (Crawford game, post-Crawford).
    fn flags(&self) -> Result<(bool, bool), Unread> {
        if self.fields.len() < 9 || self.fields[8] == "-" {
            return Ok((false, false));
        }
        let lower = self.lower(8);
        let (crawford, post) = (lower.matches('c').count(), lower.matches('p').count());
        if crawford + post != lower.len() || crawford > 1 || post > 1 {
            return Err(self.error(8, EXPECTED_FLAGS));
        }
        Ok((crawford == 1, post == 1))
    }
}

/// `\d{1,digits}`: its value.
fn number(text: &str, digits: usize) -> Option<u32> {
    let bytes = text.as_bytes();
    ((1..=digits).contains(&bytes.len()) && bytes.iter().all(u8::is_ascii_digit))
        .then(|| digits_value(bytes))
}

/// `\d{1,2}` as a count.
fn small_number(text: &str) -> Option<u8> {
    number(text, 2).map(|value| value as u8)
}

/// One cell of the points field (lower case): empty, or 1 to 15 checkers of a side.
fn cell_value(part: &[u8]) -> Option<i8> {
    let Some((&side, digits)) = part.split_last() else {
        return Some(0);
    };
    let count = small_number(std::str::from_utf8(digits).ok()?)?;
    if !(1..=CHECKERS).contains(&count) {
        return None;
    }
    match side {
        b'w' => Some(count as i8),
        b'b' => Some(-(count as i8)),
        _ => None,
    }
}

/// An ASCII text quoted as Python's `repr` quotes it.
fn python_repr(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut shown = String::with_capacity(text.len() + 2);
    shown.push(quote);
    for character in text.chars() {
        match character {
            '\\' => shown.push_str("\\\\"),
            '\t' => shown.push_str("\\t"),
            '\n' => shown.push_str("\\n"),
            '\r' => shown.push_str("\\r"),
            _ if character == quote => {
                shown.push('\\');
                shown.push(quote);
            }
            ' '..='~' => shown.push(character),
            _ => shown.push_str(&format!("\\x{:02x}", u32::from(character))),
        }
    }
    shown.push(quote);
    shown
}

/// An ASCII text as an error repeats it (`notation.errors.echoed`): its `repr`, cut after
/// `ECHO_LIMIT` characters with an ellipsis and the text's length.
fn echoed(text: &str) -> String {
    let shown = python_repr(&text[..text.len().min(ECHO_LIMIT)]);
    if text.len() <= ECHO_LIMIT && shown.len() <= ECHO_LIMIT + 2 {
        return shown;
    }
    let quote = &shown[..1];
    let body = &shown[1..shown.len() - 1];
    let cut = &body[..body.len().min(ECHO_LIMIT)];
    format!(
        "{quote}{cut}\u{2026}{quote} ({} characters)",
        thousands(text.len())
    )
}

/// `n` with commas between thousands (Python's `{:,}`).
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// The canonical position string (`format_position`): all nine fields, lower case, the
/// larger die first.
pub fn format_position(position: &PositionData) -> String {
    let mut text = String::with_capacity(96);
    text.push_str(position.variant);
    for (index, &count) in position.cells.iter().enumerate() {
        text.push(if index == 0 { ' ' } else { ',' });
        if count != 0 {
            text.push_str(&count.unsigned_abs().to_string());
            text.push(if count > 0 { 'w' } else { 'b' });
        }
    }
    let (bar, off) = (position.bar, position.off);
    let turn = position.turn.map_or("-", Side::letter);
    let cube = match position.cube {
        None => "-".to_owned(),
        Some(cube) => format!("{}{}", cube.value, cube.owner.map_or("c", Side::letter)),
    };
    let (length, (white, black)) = (position.match_length, position.score);
    let flags = match (position.crawford, position.post_crawford) {
        (false, false) => "-",
        (true, false) => "c",
        (false, true) => "p",
        (true, true) => "cp",
    };
    let state = state_text(position.state);
    text.push_str(&format!(
        " w{}b{} w{}b{} {turn} {state} {cube} {length}:{white}-{black} {flags}",
        bar.0, bar.1, off.0, off.1
    ));
    text
}

/// Every way the position is impossible whatever its variant (`validate_position`): empty
/// when it is valid; what one variant forbids, the variant says.
pub fn validate_position(position: &PositionData) -> Vec<PositionProblem> {
    let mut problems = Vec::new();
    let mut problem = |code: &'static str, message: String, field: Option<&'static str>| {
        problems.push(PositionProblem {
            code,
            message,
            field,
        })
    };
    let white: u32 = position
        .cells
        .iter()
        .filter(|&&count| count > 0)
        .map(|&count| count as u32)
        .sum();
    let black: u32 = position
        .cells
        .iter()
        .filter(|&&count| count < 0)
        .map(|&count| u32::from(count.unsigned_abs()))
        .sum();
    let sides = [
        ("White", white, position.bar.0, position.off.0),
        ("Black", black, position.bar.1, position.off.1),
    ];
    for (name, on_board, bar, off) in sides {
        let total = on_board + u32::from(bar) + u32::from(off);
        if total != u32::from(CHECKERS) {
            let message = format!(
                "{name} has {total} checkers (board {on_board}, bar {bar}, off {off}); \
                 every side has {CHECKERS}"
            );
            problem("checker_count", message, None);
        }
    }
    let doubled = position.state == State::Doubled;
    if doubled && position.cube.is_none() {
        let message = "state d (a double offered) needs a cube".to_owned();
        problem("double_without_cube", message, None);
    }
    if let Some(cube) = position.cube {
        if doubled && cube.value < 2 {
            let message = "with state d the cube field holds the value offered, at least 2";
            problem("cube_value", message.to_owned(), None);
        }
        if cube.value & cube.value.wrapping_sub(1) != 0 {
            let message = format!("cube value {} is not a power of two", cube.value);
            problem("cube_value", message, Some("cube"));
        }
        if cube.value == 0 {
            let message = "cube value 0 is not a power of two".to_owned();
            problem("cube_value", message, Some("cube"));
        }
        if cube.value == 1 && cube.owner.is_some() {
            let message = "a cube of 1 has no owner: it is centred, 1c".to_owned();
            problem("cube_owner", message, Some("cube"));
        }
    }
    let moving = !matches!(position.state, State::Roll | State::End);
    if position.turn.is_none() && moving {
        let message = format!(
            "state {} needs w or b in the turn field",
            state_text(position.state)
        );
        problem("turn_state", message, None);
    }
    if position.turn.is_some() && position.state == State::End {
        let message = "state end needs - in the turn field".to_owned();
        problem("turn_state", message, None);
    }
    match_problems(position, &mut problem);
    problems
}

/// The state field as the canonical string writes it.
fn state_text(state: State) -> String {
    match state {
        State::Roll => "-".to_owned(),
        State::Move(first, second) => format!("{first}{second}"),
        State::Doubled => "d".to_owned(),
        State::Resign(level) => format!("r{level}"),
        State::End => "end".to_owned(),
    }
}

/// The score and the Crawford flags against the match length.
fn match_problems(
    position: &PositionData,
    problem: &mut impl FnMut(&'static str, String, Option<&'static str>),
) {
    let (length, (white, black)) = (position.match_length, position.score);
    if length > 0 && (white >= length || black >= length) {
        let message = format!("scores {white}-{black} must be below the match length {length}");
        problem("score", message, None);
    }
    if length == 0 && (white > 0 || black > 0) {
        let message = "a money session (length 0) keeps the score 0-0".to_owned();
        problem("score", message, None);
    }
    let at_crawford = length > 0 && ((white + 1 == length) != (black + 1 == length));
    let mut flag = |message: &str| problem("crawford_flag", message.to_owned(), None);
    if position.crawford {
        if !at_crawford {
            flag("c needs exactly one player at match length - 1");
        } else if position.cube != Some(CENTRED) {
            flag("in the Crawford game the cube stays 1c");
        }
        if position.state == State::Doubled {
            flag("nobody may double in the Crawford game");
        }
    }
    if position.post_crawford && !(length > 0 && (white + 1 == length || black + 1 == length)) {
        flag("p (post-Crawford) needs a player at match length - 1");
    }
    if position.crawford && position.post_crawford {
        flag("a game is not both the Crawford game and post-Crawford");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPENING: &str =
        "backgammon 2b,,,,,5w,,3w,,,,5b,5w,,,,3b,,5b,,,,,2w w0b0 w0b0 w 31 1c 0:0-0 -";

    fn error(text: &str) -> NotationError {
        match parse_position(text) {
            Err(Unread::Error(error)) => error,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn reads_every_field() {
        let data = parse_position(OPENING).unwrap();
        assert_eq!(data.variant, "backgammon");
        assert_eq!((data.cells[0], data.cells[5], data.cells[23]), (-2, 5, 2));
        assert_eq!(data.state, State::Move(3, 1));
        assert_eq!(data.cube, Some(CENTRED));
        assert!(validate_position(&data).is_empty());
        assert_eq!(format_position(&data), OPENING);
    }

    #[test]
    fn the_first_field_at_fault_is_the_error_with_its_column() {
        let bad_state = OPENING.replace(" 31 ", " 71 ");
        let found = error(&bad_state);
        assert_eq!(found.column, bad_state.find(" 71 ").map(|at| at + 2));
        assert!(found.message.starts_with("field 6 (state) must be"));
        assert!(error("backgammon a b").message.ends_with("not 3"));
    }

    #[test]
    fn errors_repeat_the_field_as_python_quotes_it() {
        assert_eq!(python_repr("it's"), "\"it's\"");
        assert_eq!(python_repr("a'\"\\\u{1}"), "'a\\'\"\\\\\\x01'");
        let long = "x".repeat(1234);
        assert_eq!(
            echoed(&long),
            format!("'{}\u{2026}' (1,234 characters)", "x".repeat(200))
        );
    }

    #[test]
    fn declines_what_is_not_ascii() {
        assert_eq!(parse_position("backgammon \u{a0}"), Err(Unread::Declined));
    }

    #[test]
    fn lists_every_problem() {
        let text = "ln 15w,,,,,,,,,,,,15b,,,,,,,,,,, w1b0 w0b0 - 31 - 3:2-5 cp";
        let data = parse_position(text).unwrap();
        let codes: Vec<&str> = validate_position(&data).iter().map(|p| p.code).collect();
        let expected = ["checker_count", "turn_state", "score", "crawford_flag"];
        assert_eq!(codes[..4], expected);
        assert_eq!(
            field_column(text, "bar"),
            Some(text.find("w1b0").unwrap() + 1)
        );
    }
}
