//! Play texts (the twin of `notation/plays.py`): `parse_play` reads a record row's play as
//! `parse_play` there does for the texts it reads (the common shape `13/8 24/18* bar/22
//! 6/off`, dances, `????`, and tokens such as `24/18*/13`, `6/off(2)` or `13-8`; a text read
//! any other way is left to Python: None), and `format_play` writes the canonical text.

use crate::notation::text::{ascii_space as space, digits_value};
use crate::vocabulary::{self, WrittenMove};

/// The play a roll's cell writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WrittenPlay {
    /// The moves as written (empty for a dance or `Cannot Move`).
    Moves(Vec<WrittenMove>),
    /// `????`: the record does not say what was played.
    Unknown,
}

const BAR: u32 = vocabulary::BAR as u32;
const OFF: u32 = vocabulary::OFF as u32;
/// Longer numbers read as one million, a point no board has (`MAX_POINT_DIGITS`).
const MAX_POINT_DIGITS: usize = 6;
/// A play has at most four moves (a doublet's four dice): a longer one is never legal, and
/// is left to Python, which says why (and a repeat count cannot blow a row up natively).
const MAX_MOVES: usize = 4;

/// The play of `body`, the text after a cell's `DD:` (an ASCII row's).
pub fn parse_play(body: &str) -> Option<WrittenPlay> {
    if let Some(moves) = simple_play(body.as_bytes()) {
        return Some(WrittenPlay::Moves(moves));
    }
    let words: Vec<String> = body
        .split(|c: char| space(c as u8))
        .filter(|word| !word.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    match words.join(" ").as_str() {
        "cannot move" | "-" | "" => return Some(WrittenPlay::Moves(Vec::new())),
        "???" | "????" => return Some(WrittenPlay::Unknown),
        _ => {}
    }
    let mut moves = Vec::new();
    for token in body
        .split([' ', '\t', ','])
        .filter(|token| !token.is_empty())
    {
        moves.extend(token_moves(token.as_bytes())?);
    }
    Some(WrittenPlay::Moves(moves))
}

/// `\s*(?:(?:\d{1,2}|bar)/(?:\d{1,2}|off)\*?(?:\s+|$))+` as a whole: its moves.
fn simple_play(body: &[u8]) -> Option<Vec<WrittenMove>> {
    let mut at = body.iter().take_while(|&&b| space(b)).count();
    let mut moves = Vec::with_capacity(4);
    if at == body.len() {
        return None;
    }
    while at < body.len() {
        let (from, used) = simple_point(&body[at..], "bar", BAR)?;
        at += used;
        if body.get(at) != Some(&b'/') {
            return None;
        }
        let (to, used) = simple_point(&body[at + 1..], "off", OFF)?;
        at += 1 + used;
        let mark = body.get(at) == Some(&b'*');
        at += usize::from(mark);
        let spaces = body[at..].iter().take_while(|&&b| space(b)).count();
        if spaces == 0 && at < body.len() {
            return None;
        }
        at += spaces;
        moves.push(WrittenMove { from, to, mark });
        if moves.len() > MAX_MOVES {
            return None;
        }
    }
    Some(moves)
}

/// One or two digits, or `word` (any case), at the start of `text`.
fn simple_point(text: &[u8], word: &str, value: u32) -> Option<(u32, usize)> {
    if text.len() >= word.len() && text[..word.len()].eq_ignore_ascii_case(word.as_bytes()) {
        return Some((value, word.len()));
    }
    let digits = text.iter().take_while(|b| b.is_ascii_digit()).count();
    (1..=2)
        .contains(&digits)
        .then(|| (digits_value(&text[..digits]), digits))
}

/// One token of the general reader: a chain of points (`24/18*/13`, `13-8`), a leading or
/// trailing `*` marking, and an optional repeat `(n)`; the whole token or nothing.
fn token_moves(token: &[u8]) -> Option<Vec<WrittenMove>> {
    let leading_mark = token.first() == Some(&b'*');
    let mut at = usize::from(leading_mark);
    let mut points: Vec<(u32, bool)> = Vec::new();
    loop {
        let (point, used) = chain_point(&token[at..])?;
        at += used;
        let marks = token[at..].iter().take_while(|&&b| b == b'*').count();
        at += marks;
        points.push((point, marks > 0));
        match token.get(at) {
            None | Some(b'(') => break,
            Some(b'/') => at += 1,
            Some(b'-')
                if token[at - 1].is_ascii_digit()
                    && token.get(at + 1).is_some_and(u8::is_ascii_digit) =>
            {
                at += 1
            }
            Some(_) => return None,
        }
    }
    let count = if at < token.len() {
        repeat_count(&token[at..])?
    } else {
        1
    };
    if points.len() < 2 || (points.len() - 1) * count > MAX_MOVES {
        return None;
    }
    let first_marked = leading_mark || points[0].1;
    let chain: Vec<WrittenMove> = points
        .windows(2)
        .enumerate()
        .map(|(index, pair)| WrittenMove {
            from: pair[0].0,
            to: pair[1].0,
            mark: pair[1].1 || (first_marked && index == 0),
        })
        .collect();
    Some(chain.repeat(count))
}

/// `\d+`, `bar`, `b`, `off` or `o` (any case) at the start of `text`: its value and length.
fn chain_point(text: &[u8]) -> Option<(u32, usize)> {
    let digits = text.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits > 0 {
        let value = if digits <= MAX_POINT_DIGITS {
            digits_value(&text[..digits])
        } else {
            10u32.pow(MAX_POINT_DIGITS as u32)
        };
        return Some((value, digits));
    }
    let letters = text.iter().take_while(|b| b.is_ascii_alphabetic()).count();
    let value = match text[..letters].to_ascii_lowercase().as_slice() {
        b"bar" | b"b" => BAR,
        b"off" | b"o" => OFF,
        _ => return None,
    };
    Some((value, letters))
}

/// `(n)` closing a token, n from 1 to 15 (its first six digits read, as Python does).
fn repeat_count(text: &[u8]) -> Option<usize> {
    let inner = text.strip_prefix(b"(")?.strip_suffix(b")")?;
    if inner.is_empty() || !inner.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let shown = &inner[..inner.len().min(MAX_POINT_DIGITS)];
    let count = digits_value(shown);
    (1..=15).contains(&count).then_some(count as usize)
}

/// The canonical long form of `moves` (NOTATION.md §4): one part per move as given,
/// `bar`/`off` words, `*` for a mark; with `dice` the prefix `52:` (a dance is then `52:`
/// alone).
pub fn format_play(moves: &[WrittenMove], dice: Option<(u8, u8)>) -> String {
    let mut text = String::with_capacity(3 + moves.len() * 7);
    if let Some((first, second)) = dice {
        text.push_str(&first.max(second).to_string());
        text.push_str(&first.min(second).to_string());
        text.push(':');
    }
    for (index, move_) in moves.iter().enumerate() {
        if index > 0 || dice.is_some() {
            text.push(' ');
        }
        point_text(move_.from, &mut text);
        text.push('/');
        point_text(move_.to, &mut text);
        if move_.mark {
            text.push('*');
        }
    }
    text
}

fn point_text(point: u32, out: &mut String) {
    match point {
        BAR => out.push_str("bar"),
        OFF => out.push_str("off"),
        _ => out.push_str(&point.to_string()),
    }
}
