//! The record fast path's reader: a JellyFish `.mat` text read into games of actions, the
//! twin of `notation/records/mat_reader.py` for the records that reader reads without a
//! single finding.
//!
//! Anything else declines the whole record (and Python reads it): a line this reader does
//! not fully understand, a board edit, a record past a reading limit,
//! and text where Unicode could make the two readers part (a row that is not ASCII,
//! whitespace or digits outside ASCII, characters that case-fold into ASCII letters).

use crate::notation::plays::parse_play;
use crate::notation::record::{Action, Cell, GameText, RecordText};
use crate::notation::text::{ascii_space, digits_value, py_space};
use crate::vocabulary::Side;

/// Longer lines are skipped by the Python reader with a finding (`MAX_LINE` there).
pub const MAX_LINE: usize = 4096;
/// A cell starting beyond this 1-based column is the right-hand (second) player's.
pub const RIGHT_COLUMN: usize = 30;

/// How much a record may hold (the Python reader's `ReadLimits`): past a limit the record
/// is declined, and Python refuses it with the limit named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadLimits {
    pub games: usize,
    pub actions_per_game: usize,
    pub actions: usize,
}

/// Why the native reader leaves a record to Python.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Declined {
    /// A character where the two readers could read differently (line separators other
    /// than CR and LF, letters that case-fold into ASCII, non-ASCII spaces or digits).
    Unicode,
    /// A row that is not plain ASCII.
    NonAsciiRow,
    /// A line longer than `MAX_LINE` (a finding in Python).
    LongLine,
    /// A board edit: left to the Python reader.
    Edit,
    /// A line before the first game that is neither a tag, a comment nor the match line.
    UnexpectedLine,
    /// A game's first line is not its score line.
    ScoreLine,
    /// Text in a row that no cell explains, or a cell that cannot be read.
    UnreadableCell,
    /// Past a reading limit (which one): Python refuses the record as its reader would.
    Limit(Limit),
    /// No match line and no game.
    NoMatch,
}

/// The reading limits, as `ReadLimits` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Games,
    ActionsPerGame,
    Actions,
}

impl Declined {
    /// A short reason: the snake-case name, `too_many_<limit>` for a limit (the code of
    /// the Python reader's error).
    pub fn reason(self) -> &'static str {
        match self {
            Declined::Unicode => "unicode",
            Declined::NonAsciiRow => "non_ascii_row",
            Declined::LongLine => "long_line",
            Declined::Edit => "edit",
            Declined::UnexpectedLine => "unexpected_line",
            Declined::ScoreLine => "score_line",
            Declined::UnreadableCell => "unreadable_cell",
            Declined::Limit(Limit::Games) => "too_many_games",
            Declined::Limit(Limit::ActionsPerGame) => "too_many_actions_per_game",
            Declined::Limit(Limit::Actions) => "too_many_actions",
            Declined::NoMatch => "no_match",
        }
    }
}

/// Characters that break lines for Python's `splitlines` besides CR and LF, and letters
/// that Python's case-insensitive patterns match to ASCII letters.
const UNICODE_TRAPS: [char; 12] = [
    '\u{0b}', '\u{0c}', '\u{1c}', '\u{1d}', '\u{1e}', '\u{85}', '\u{2028}', '\u{2029}', '\u{17f}',
    '\u{212a}', '\u{130}', '\u{131}',
];

fn unicode_trap(c: char) -> bool {
    UNICODE_TRAPS.contains(&c) || (!c.is_ascii() && (py_space(c) || c.is_numeric()))
}

/// Whether `text` holds a `unicode_trap` (ASCII text is scanned a byte at a time).
fn has_unicode_trap(text: &str) -> bool {
    if text.is_ascii() {
        return text.bytes().any(|b| matches!(b, 0x0b | 0x0c | 0x1c..=0x1e));
    }
    text.chars().any(unicode_trap)
}

/// The lines of `text` as Python's `splitlines` gives them (only CR, LF and CRLF break
/// lines once `unicode_trap` characters are excluded).
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = rest
            .bytes()
            .position(|b| b == b'\r' || b == b'\n')
            .unwrap_or(rest.len());
        let line = &rest[..end];
        let skip = match rest.as_bytes().get(end) {
            Some(b'\r') if rest.as_bytes().get(end + 1) == Some(&b'\n') => 2,
            Some(_) => 1,
            None => 0,
        };
        rest = &rest[end + skip..];
        Some(line)
    })
}

/// Read a whole record, or say why Python must.
pub fn read_record(text: &str, limits: ReadLimits) -> Result<RecordText, Declined> {
    let text = text.trim_start_matches('\u{feff}');
    if has_unicode_trap(text) {
        return Err(Declined::Unicode);
    }
    let mut reader = Reader {
        limits,
        earlier_actions: 0,
        record: RecordText {
            comments: Vec::new(),
            match_length: None,
            games: Vec::new(),
        },
        expecting_score: false,
    };
    for (index, line) in lines(text).enumerate() {
        reader.read_line(index + 1, line)?;
    }
    if reader.record.games.is_empty() && reader.record.match_length.is_none() {
        return Err(Declined::NoMatch);
    }
    Ok(reader.record)
}

struct Reader {
    limits: ReadLimits,
    earlier_actions: usize,
    record: RecordText,
    expecting_score: bool,
}

impl Reader {
    fn read_line(&mut self, number: usize, line: &str) -> Result<(), Declined> {
        let stripped = line.trim_matches(py_space);
        if stripped.is_empty() {
            return Ok(());
        }
        if line.len() > MAX_LINE && line.chars().count() > MAX_LINE {
            return Err(Declined::LongLine);
        }
        if stripped.starts_with([';', '#']) {
            return self.comment(stripped);
        }
        if self.record.games.is_empty() {
            if let Some(length) = match_line(line) {
                self.record.match_length = Some(length);
                return Ok(());
            }
        }
        if let Some(game_number) = game_line(line) {
            return self.start_game(game_number, number);
        }
        let Some(game) = self.record.games.last_mut() else {
            return Err(Declined::UnexpectedLine);
        };
        if self.expecting_score {
            self.expecting_score = false;
            let (players, score) = score_line(line).ok_or(Declined::ScoreLine)?;
            game.players = players;
            game.score = Some(score);
            return Ok(());
        }
        if !line.is_ascii() {
            return Err(Declined::NonAsciiRow);
        }
        row(game, number, line)?;
        let actions = game.cells.len();
        if actions > self.limits.actions_per_game {
            return Err(Declined::Limit(Limit::ActionsPerGame));
        }
        if self.earlier_actions + actions > self.limits.actions {
            return Err(Declined::Limit(Limit::Actions));
        }
        Ok(())
    }

    fn comment(&mut self, stripped: &str) -> Result<(), Declined> {
        let set_pos = stripped.starts_with(';')
            && stripped[1..]
                .trim_start_matches(py_space)
                .get(..8)
                .is_some_and(|word| word.eq_ignore_ascii_case("set pos="));
        let games = self.record.games.len();
        if set_pos && games > 0 {
            return Err(Declined::Edit);
        }
        self.record.comments.push((games, stripped.to_owned()));
        Ok(())
    }

    fn start_game(&mut self, number: u32, line: usize) -> Result<(), Declined> {
        if self.record.games.len() + 1 > self.limits.games {
            return Err(Declined::Limit(Limit::Games));
        }
        if let Some(previous) = self.record.games.last() {
            self.earlier_actions += previous.cells.len();
        }
        self.record.games.push(GameText {
            number,
            line,
            players: (String::new(), String::new()),
            score: None,
            cells: Vec::new(),
        });
        self.expecting_score = true;
        Ok(())
    }
}

/// The bytes of `line` from `at` while `accept` holds: how many.
fn run(line: &[u8], at: usize, accept: impl Fn(u8) -> bool) -> usize {
    line.get(at..)
        .map_or(0, |rest| rest.iter().take_while(|&&b| accept(b)).count())
}

/// Whether `line[at..]` starts with `word`, ignoring ASCII case.
fn word_at(line: &[u8], at: usize, word: &str) -> bool {
    line.get(at..at + word.len())
        .is_some_and(|found| found.eq_ignore_ascii_case(word.as_bytes()))
}

fn is_word(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_' || !byte.is_ascii()
}

/// `^\s*(\d{1,5})\s+point\s+match\b` (case-insensitive): the match length.
fn match_line(line: &str) -> Option<u32> {
    let bytes = line.as_bytes();
    let mut at = run(bytes, 0, ascii_space);
    let digits = run(bytes, at, |b| b.is_ascii_digit());
    if !(1..=5).contains(&digits) {
        return None;
    }
    let length = digits_value(&bytes[at..at + digits]);
    at += digits;
    for word in ["point", "match"] {
        let spaces = run(bytes, at, ascii_space);
        if spaces == 0 || !word_at(bytes, at + spaces, word) {
            return None;
        }
        at += spaces + word.len();
    }
    match bytes.get(at) {
        Some(&next) if is_word(next) => None,
        _ => Some(length),
    }
}

/// `^\s*Game\s+(\d{1,6})\s*$`: the game's number.
fn game_line(line: &str) -> Option<u32> {
    let bytes = line.as_bytes();
    let mut at = run(bytes, 0, ascii_space);
    if !bytes[at..].starts_with(b"Game") {
        return None;
    }
    at += 4;
    let spaces = run(bytes, at, ascii_space);
    let digits = run(bytes, at + spaces, |b| b.is_ascii_digit());
    if spaces == 0 || !(1..=6).contains(&digits) {
        return None;
    }
    at += spaces;
    let number = digits_value(&bytes[at..at + digits]);
    at += digits;
    (at + run(bytes, at, ascii_space) == bytes.len()).then_some(number)
}

/// A cell start (`_CELL_START` of the Python reader) found in a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CellStart {
    start: usize,
    end: usize,
    number: bool,
}

/// The cell start at `at`, if one begins there (its lookbehind included).
fn cell_start_at(line: &[u8], at: usize) -> Option<CellStart> {
    if at > 0 && !ascii_space(line[at - 1]) {
        return None;
    }
    // The first letters of the cells: a digit, doubles, beavers, raccoons, takes, drops,
    // wins, losses, illegal.
    let first = line[at].to_ascii_lowercase();
    if !matches!(
        first,
        b'0'..=b'9' | b'd' | b'b' | b'r' | b't' | b'w' | b'l' | b'i'
    ) {
        return None;
    }
    let found = |end, number| {
        Some(CellStart {
            start: at,
            end,
            number,
        })
    };
    let die = |i: usize| line.get(at + i).is_some_and(|b| (b'1'..=b'6').contains(b));
    if die(0) && die(1) && line.get(at + 2) == Some(&b':') {
        return found(at + 3, false);
    }
    for word in ["doubles", "beavers", "raccoons"] {
        if word_at(line, at, word) {
            let end = at + word.len() + run(line, at + word.len(), ascii_space);
            if line[end..].starts_with(b"=>") {
                return found(end + 2, false);
            }
        }
    }
    for word in ["takes", "drops"] {
        let end = at + word.len();
        if word_at(line, at, word) && !line.get(end).is_some_and(|&b| is_word(b)) {
            return found(end, false);
        }
    }
    for word in ["wins", "losses"] {
        let spaces = run(line, at + word.len(), ascii_space);
        let digit = line
            .get(at + word.len() + spaces)
            .is_some_and(u8::is_ascii_digit);
        if word_at(line, at, word) && spaces > 0 && digit {
            return found(at + word.len() + spaces + 1, false);
        }
    }
    if word_at(line, at, "illegal") {
        let spaces = run(line, at + 7, ascii_space);
        if spaces > 0 && word_at(line, at + 7 + spaces, "play") {
            return found(at + 7 + spaces + 4, false);
        }
    }
    let digits = run(line, at, |b| b.is_ascii_digit());
    if (1..=4).contains(&digits) && line.get(at + digits) == Some(&b')') {
        return found(at + digits + 1, true);
    }
    None
}

/// Every cell start from `from` on, as `finditer` finds them (left to right, not
/// overlapping).
fn cell_starts(line: &[u8], from: usize) -> Vec<CellStart> {
    let mut starts = Vec::new();
    let mut at = from;
    while at < line.len() {
        match cell_start_at(line, at) {
            Some(start) => {
                at = start.end;
                starts.push(start);
            }
            None => at += 1,
        }
    }
    starts
}

/// `name : score    name : score`, split at the first two colons as gnubg does.
fn score_line(line: &str) -> Option<((String, String), (u32, u32))> {
    let lower = line.to_ascii_lowercase();
    if !line.is_ascii() && (lower.contains("takes") || lower.contains("drops")) {
        return None; // where a word ends depends on Unicode: Python reads this one
    }
    if !cell_starts(line.as_bytes(), 0).is_empty() {
        return None;
    }
    let (left, rest) = line.split_once(':')?;
    let (first, used) = score_number(rest)?;
    let (right, rest) = rest[used..].split_once(':')?;
    let (second, used) = score_number(rest.trim_end_matches(py_space))?;
    if used != rest.trim_end_matches(py_space).len() {
        return None;
    }
    Some(((player_name(left), player_name(right)), (first, second)))
}

/// `\s*(\d{1,5})(?:\s|$)` at the start of `text`: the number and the bytes used.
fn score_number(text: &str) -> Option<(u32, usize)> {
    let bytes = text.as_bytes();
    let spaces = run(bytes, 0, ascii_space);
    let digits = run(bytes, spaces, |b| b.is_ascii_digit());
    if !(1..=5).contains(&digits) {
        return None;
    }
    let end = spaces + digits;
    let used = match bytes.get(end) {
        None => end,
        Some(&b) if ascii_space(b) => end + 1,
        Some(_) => return None,
    };
    Some((digits_value(&bytes[spaces..end]), used))
}

/// A player's name, stripped, without GridGammon's `,rating` (`,\s*[\d.]+$`).
fn player_name(text: &str) -> String {
    let name = text.trim_matches(py_space);
    let without_rating = match name.rfind(',') {
        Some(comma) => {
            let after = name[comma + 1..].trim_start_matches(py_space);
            let rating =
                !after.is_empty() && after.bytes().all(|b| b.is_ascii_digit() || b == b'.');
            if rating {
                &name[..comma]
            } else {
                name
            }
        }
        None => name,
    };
    without_rating.trim_matches(py_space).to_owned()
}

/// `^\s*(\d{1,4})\)`: where the row's body starts.
fn body_start(line: &[u8]) -> usize {
    let spaces = run(line, 0, ascii_space);
    let digits = run(line, spaces, |b| b.is_ascii_digit());
    if (1..=4).contains(&digits) && line.get(spaces + digits) == Some(&b')') {
        spaces + digits + 1
    } else {
        0
    }
}

/// The cells of one row, appended to `game`.
fn row(game: &mut GameText, number: usize, line: &str) -> Result<(), Declined> {
    let bytes = line.as_bytes();
    let body = body_start(bytes);
    // `b | 0x20` lowers ASCII letters (and maps only `I` and `i` to `i`): a loop the
    // compiler can run over many bytes at once.
    let illegal =
        (body..bytes.len()).any(|at| (bytes[at] | 0x20) == b'i' && word_at(bytes, at, "illegal"));
    if illegal {
        return Err(Declined::Edit);
    }
    let starts = cell_starts(bytes, body);
    let first = starts.first().map_or(bytes.len(), |start| start.start);
    if !line[body..first].trim_matches(py_space).is_empty() {
        return Err(Declined::UnreadableCell);
    }
    for (index, start) in starts.iter().enumerate() {
        if start.number {
            continue;
        }
        let end = starts.get(index + 1).map_or(bytes.len(), |next| next.start);
        let text = line[start.start..end].trim_matches(py_space);
        let column = start.start + 1;
        let side = if column <= RIGHT_COLUMN {
            Side::White
        } else {
            Side::Black
        };
        game.cells.push(Cell {
            side,
            line: number,
            column,
            action: cell(text).ok_or(Declined::UnreadableCell)?,
        });
    }
    Ok(())
}

/// What a cell's text says (None: the Python reader would not read it).
fn cell(text: &str) -> Option<Action> {
    let bytes = text.as_bytes();
    let die = |i: usize| {
        bytes
            .get(i)
            .filter(|b| (b'1'..=b'6').contains(b))
            .map(|b| b - b'0')
    };
    if let (Some(first), Some(second), Some(b':')) = (die(0), die(1), bytes.get(2)) {
        let play = parse_play(&text[3..])?;
        return Some(Action::Roll {
            dice: (first, second),
            play,
        });
    }
    if text.eq_ignore_ascii_case("takes") {
        return Some(Action::Take);
    }
    if text.eq_ignore_ascii_case("drops") {
        return Some(Action::Drop);
    }
    cube_cell(bytes).or_else(|| result_cell(bytes))
}

/// `(doubles|beavers|raccoons)\s*=>\s*(\d{1,6})\s*$`.
fn cube_cell(text: &[u8]) -> Option<Action> {
    let words = ["doubles", "beavers", "raccoons"];
    let word = words.into_iter().find(|word| word_at(text, 0, word))?;
    let mut at = word.len() + run(text, word.len(), ascii_space);
    if !text[at..].starts_with(b"=>") {
        return None;
    }
    at += 2 + run(text, at + 2, ascii_space);
    let value = whole_number(text, at, 6)?;
    Some(match word {
        "doubles" => Action::Double { value },
        "beavers" => Action::Beaver { value },
        _ => Action::Raccoon { value },
    })
}

/// `\d{1,most}` at `at` followed only by spaces: the number.
fn whole_number(text: &[u8], at: usize, most: usize) -> Option<u64> {
    let digits = run(text, at, |b| b.is_ascii_digit());
    let end = at + digits;
    let rest_blank = end + run(text, end, ascii_space) == text.len();
    if !(1..=most).contains(&digits) || !rest_blank {
        return None;
    }
    Some(u64::from(digits_value(&text[at..end])))
}

/// `(wins|losses)\s+(\d{1,9})\s+points?(\s+and\s+the\s+match)?\s*$`.
fn result_cell(text: &[u8]) -> Option<Action> {
    let win = word_at(text, 0, "wins");
    if !win && !word_at(text, 0, "losses") {
        return None;
    }
    let mut at = if win { 4 } else { 6 };
    let spaces = run(text, at, ascii_space);
    let digits = run(text, at + spaces, |b| b.is_ascii_digit());
    if spaces == 0 || !(1..=9).contains(&digits) {
        return None;
    }
    at += spaces;
    let value = u64::from(digits_value(&text[at..at + digits]));
    at += digits;
    let spaces = run(text, at, ascii_space);
    if spaces == 0 || !word_at(text, at + spaces, "point") {
        return None;
    }
    at += spaces + 5;
    if text.get(at).is_some_and(|b| b.eq_ignore_ascii_case(&b's')) {
        at += 1;
    }
    let mut probe = at;
    let and_the_match = ["and", "the", "match"].into_iter().all(|word| {
        let spaces = run(text, probe, ascii_space);
        let found = spaces > 0 && word_at(text, probe + spaces, word);
        probe += spaces + word.len();
        found
    });
    if and_the_match {
        at = probe;
    }
    let end_blank = at + run(text, at, ascii_space) == text.len();
    if !end_blank {
        return None;
    }
    Some(if win {
        Action::Win {
            value,
            and_the_match,
        }
    } else {
        Action::Loss
    })
}
