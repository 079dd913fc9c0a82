//! Legal plays (RULES.md §4-8, §13): distinct resulting positions of maximal plays.
//!
//! A step-for-step twin of `referee/rules/movegen.py`: the same depth-first search in the
//! same order, so that every play is found with the same canonical step sequence and the
//! plays come out in the same order (the order alternatives are shown in).

use std::cmp::Reverse;

use crate::rules::board::{Dice, Layout, Play, Step, CELLS, HEAD, HOME_TOP};
use crate::rules::options::{BlockRule, BlockTiming};
use crate::rules::variants::TurnRules;
use crate::vocabulary::{BAR, CHECKERS, OFF};

/// Why a literal step may not be played: the Python engine's `Reason` codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    NoChecker,
    MustEnterFromBar,
    HeadRule,
    BlockedPoint,
    BearOffNotAllowed,
    BearOffHigherChecker,
    BlockRule,
    WrongDie,
}

/// A literal step sequence that every rule allowed, with hits filled in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    pub steps: Vec<Step>,
    pub mine: Layout,
    pub theirs: Layout,
    pub game_over: bool,
}

/// The first step of a literal sequence that breaks a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepFailure {
    pub index: usize,
    pub step: Step,
    pub reason: Reason,
}

/// A board reached in a turn, exactly: the mover's 26 counts at four bits a cell (a count is
/// at most 15) and, above them, one bit per point (1..24) where a blot was hit. The
/// opponent's checkers move only when hit, and a point is hit at most once a turn, so equal
/// keys are equal boards and unequal keys unequal boards.
type Key = u128;

/// Where the hit bits start in a key.
const HIT_SHIFT: u32 = 4 * CELLS as u32;

/// The key of one checker on `cell`.
fn unit(cell: usize) -> Key {
    1 << (4 * cell)
}

/// Bits `low..=high` of a point set.
const fn span(low: usize, high: usize) -> u32 {
    (u32::MAX >> (31 - high)) & (u32::MAX << low)
}

/// The points above the home and the bar: a checker there forbids bearing off.
const OUTSIDE_HOME: u32 = span(HOME_TOP + 1, BAR);

/// At most four steps, kept without a heap allocation.
#[derive(Clone, Copy)]
struct Steps {
    items: [Step; 4],
    len: u8,
}

impl Steps {
    const EMPTY: Steps = Steps {
        items: [Step {
            from: 0,
            to: 0,
            die: 0,
            hit: false,
        }; 4],
        len: 0,
    };

    fn push(&mut self, step: Step) {
        self.items[usize::from(self.len)] = step;
        self.len += 1;
    }

    fn pop(&mut self) {
        self.len -= 1;
    }

    fn last(&self) -> Option<&Step> {
        self.as_slice().last()
    }

    fn as_slice(&self) -> &[Step] {
        &self.items[..usize::from(self.len)]
    }
}

/// Keys in the order first added, each with a value: open addressing with linear probing
/// over a vector of entries, so the search allocates only when a turn has many boards.
struct Table<V> {
    /// 0 = empty, otherwise one more than the index of the entry.
    slots: Vec<u32>,
    entries: Vec<(Key, V)>,
}

/// Slots of a table at first: kept at most half full, room for the boards of 98 % of the
/// corpus turns without growing (a median of 10 boards, 156 at the 99th percentile).
const FIRST_SLOTS: usize = 256;

impl<V> Table<V> {
    fn new() -> Table<V> {
        Table {
            slots: Vec::new(),
            entries: Vec::new(),
        }
    }

    /// The value of `key`, after adding it with `value` if it is new (and whether it was).
    fn get_or_insert(&mut self, key: Key, value: V) -> (&mut V, bool) {
        if 2 * self.entries.len() >= self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut slot = spread(key) & mask;
        loop {
            let index = match self.slots[slot] {
                0 => break,
                taken => taken as usize - 1,
            };
            if self.entries[index].0 == key {
                return (&mut self.entries[index].1, false);
            }
            slot = (slot + 1) & mask;
        }
        self.entries.push((key, value));
        self.slots[slot] = self.entries.len() as u32;
        let (_, value) = self.entries.last_mut().expect("just pushed");
        (value, true)
    }

    fn grow(&mut self) {
        let size = (2 * self.slots.len()).max(FIRST_SLOTS);
        self.slots.clear();
        self.slots.resize(size, 0);
        self.entries.reserve(size / 2 - self.entries.len());
        let mask = size - 1;
        for (index, &(key, _)) in self.entries.iter().enumerate() {
            let mut slot = spread(key) & mask;
            while self.slots[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            self.slots[slot] = index as u32 + 1;
        }
    }
}

/// A key's slot before masking: a multiply-rotate mix (rustc's Fx constant) of both halves,
/// its high bits taken (the search's keys need no defence against chosen collisions).
fn spread(key: Key) -> usize {
    const SEED: u64 = 0x517c_c1b7_2722_0a95;
    let (low, high) = (key as u64, (key >> 64) as u64);
    let mixed = (low.wrapping_mul(SEED).rotate_left(26) ^ high).wrapping_mul(SEED);
    (mixed >> 32) as usize
}

/// Search results in the order first found: resulting board -> (first steps, dice used).
struct Found {
    table: Table<(Steps, u8)>,
    best: u8,
}

impl Found {
    fn new() -> Found {
        Found {
            table: Table::new(),
            best: 0,
        }
    }

    /// Keep `steps` for `key` unless the key is known with at least as many dice used.
    fn offer(&mut self, key: Key, steps: &Steps, used: usize) {
        let used = used as u8;
        self.best = self.best.max(used);
        let (entry, new) = self.table.get_or_insert(key, (*steps, used));
        if !new && entry.1 < used {
            *entry = (*steps, used);
        }
    }
}

/// The mutable working state of one turn, from the mover's side.
struct Turn {
    me: Layout,
    /// The opponent's layout at the start of the turn (only `hits` change it).
    theirs: Layout,
    /// `me` as the cells of a key.
    cells: Key,
    /// Bit p: the mover has a checker on point p (1..24) or the bar (25).
    occupied: u32,
    /// Bit p: the opponent holds the mover's point p (two checkers, or one without hitting).
    blocked: u32,
    /// Bit p: a single opposing checker on the mover's point p that landing there hits.
    blots: u32,
    /// Bit p: the blot on point p was hit this turn.
    hits: u32,
    hitting: bool,
    opposite: &'static [usize; 25],
    head_limit: Option<u8>,
    block: Option<BlockRule>,
    block_timing: Option<BlockTiming>,
    record_every_node: bool,
    found: Found,
    seen: Table<()>,
}

impl Turn {
    fn new(rules: &TurnRules, mine: &Layout, theirs: &Layout, head_limit: Option<u8>) -> Turn {
        let timing = rules.block.map(|block| block.timing);
        let hitting = rules.variant.hitting();
        let opposite = rules.variant.opposite_table();
        let (mut occupied, mut blocked, mut blots) = (0, 0, 0);
        for (cell, &count) in mine.iter().enumerate().skip(1) {
            occupied |= u32::from(count > 0) << cell;
        }
        // One opposing checker blocks a point unless it can be hit; two always do.
        let blocking = if hitting { 2 } else { 1 };
        for (point, &there) in opposite.iter().enumerate().skip(1) {
            let count = theirs[there];
            blocked |= u32::from(count >= blocking) << point;
            blots |= u32::from(hitting && count == 1) << point;
        }
        Turn {
            me: *mine,
            theirs: *theirs,
            cells: cells_of(mine),
            occupied,
            blocked,
            blots,
            hits: 0,
            hitting,
            opposite,
            head_limit,
            block: rules.block.map(|block| block.rule),
            block_timing: timing,
            record_every_node: timing == Some(BlockTiming::EndOfTurn),
            found: Found::new(),
            seen: Table::new(),
        }
    }

    fn key(&self) -> Key {
        self.cells | (Key::from(self.hits >> 1) << HIT_SHIFT)
    }

    fn head_closed(&self, head_used: u8) -> bool {
        self.head_limit.is_some_and(|limit| head_used >= limit)
    }

    fn home_and_below_empty(&self, from: usize, to: usize) -> bool {
        self.me[from..to].iter().all(|&count| count == 0)
    }

    // -- one step -----------------------------------------------------------------------

    /// Why the mover may not play `die` from `point` now (None if he may).
    fn problem(&self, point: usize, die: usize, head_used: u8) -> Option<Reason> {
        let me = &self.me;
        if me[point] == 0 {
            return Some(Reason::NoChecker);
        }
        if point != BAR && me[BAR] > 0 {
            return Some(Reason::MustEnterFromBar);
        }
        if point == HEAD && self.head_closed(head_used) {
            return Some(Reason::HeadRule);
        }
        if point > die {
            if self.blocked & (1 << (point - die)) != 0 {
                return Some(Reason::BlockedPoint);
            }
            return None;
        }
        if !self.home_and_below_empty(HOME_TOP + 1, CELLS) {
            return Some(Reason::BearOffNotAllowed);
        }
        if point < die && !self.home_and_below_empty(point + 1, HOME_TOP + 1) {
            return Some(Reason::BearOffHigherChecker);
        }
        None
    }

    /// Move one checker (the step must be allowed); its target and whether it hit.
    fn play(&mut self, point: usize, die: usize) -> (usize, bool) {
        let target = point.saturating_sub(die);
        self.me[point] -= 1;
        if self.me[point] == 0 {
            self.occupied &= !(1 << point);
        }
        self.me[target] += 1;
        if target != OFF {
            self.occupied |= 1 << target;
        }
        self.cells = self.cells + unit(target) - unit(point);
        let hit = (self.blots & !self.hits) & (1 << target) != 0;
        if hit {
            self.hits |= 1 << target;
        }
        (target, hit)
    }

    fn undo(&mut self, point: usize, target: usize, hit: bool) {
        self.me[target] -= 1;
        if self.me[target] == 0 {
            self.occupied &= !(1 << target);
        }
        self.me[point] += 1;
        self.occupied |= 1 << point;
        self.cells = self.cells + unit(point) - unit(target);
        if hit {
            self.hits &= !(1 << target);
        }
    }

    /// The opponent's layout after this turn's hits.
    fn theirs_now(&self) -> Layout {
        layout_of(theirs_after(
            cells_of(&self.theirs),
            self.opposite,
            self.hits,
        ))
    }

    // -- the block rule -----------------------------------------------------------------

    /// Whether the checker just landed on `landed` completes a forbidden block.
    fn blocks_illegally(&self, landed: usize) -> bool {
        if self.block.is_none() || landed == OFF || self.me[landed] != 1 {
            return false;
        }
        let (me, opposite) = (&self.me, self.opposite);
        let mut high = opposite[landed];
        let mut low = high;
        while high < 24 && me[opposite[high + 1]] > 0 {
            high += 1;
        }
        while low > 1 && me[opposite[low - 1]] > 0 {
            low -= 1;
        }
        high - low >= 5 && !self.opponent_passes(low)
    }

    /// Whether any six-point block on the board is forbidden (end-of-turn check).
    fn has_illegal_block(&self) -> bool {
        if self.block.is_none() {
            return false;
        }
        let (me, opposite) = (&self.me, self.opposite);
        let mut run = 0;
        for q in (1..=24).rev() {
            if me[opposite[q]] > 0 {
                run += 1;
                let at_low_end = q == 1 || me[opposite[q - 1]] == 0;
                if run >= 6 && at_low_end && !self.opponent_passes(q) {
                    return true;
                }
            } else {
                run = 0;
            }
        }
        false
    }

    /// Whether an opponent checker makes a block whose lowest point is `low` legal (the
    /// block rule is nardy's, where nothing is hit: the opponent's layout stays the start's).
    fn opponent_passes(&self, low: usize) -> bool {
        let upto = match self.block {
            Some(BlockRule::Home) => HOME_TOP + 1,
            _ => low,
        };
        self.theirs[OFF..upto].iter().any(|&count| count > 0)
    }

    // -- the search ---------------------------------------------------------------------

    /// The points (at most `below`) from which `die` may be played now, as a bit set
    /// (bit p for point p; `highest_first` walks it in the search's order): `problem`
    /// for every point at once.
    fn movable(&self, die: usize, head_used: u8, below: usize) -> u32 {
        let occupied = self.occupied;
        if occupied & (1 << BAR) != 0 {
            let open = self.blocked & (1 << (BAR - die)) == 0;
            return if open { 1 << BAR } else { 0 };
        }
        let mut from = occupied & span(1, below);
        if self.head_closed(head_used) {
            from &= !(1 << HEAD);
        }
        let mut allowed = from & !(self.blocked << die) & !span(0, die);
        if occupied & OUTSIDE_HOME == 0 && occupied != 0 {
            // Bearing off: exactly from the die's point, or from the highest point below it.
            let highest = 31 - occupied.leading_zeros() as usize;
            let exact_or_highest = (1 << die) | if highest < die { 1 << highest } else { 0 };
            allowed |= from & exact_or_highest;
        }
        allowed
    }

    fn search(&mut self, dice: &[u8], depth: usize, steps: &mut Steps, head_used: u8) {
        let total = dice.len();
        if self.me[OFF] == CHECKERS {
            self.found.offer(self.key(), steps, total);
            return;
        }
        let every_node = self.record_every_node;
        if every_node && !self.has_illegal_block() {
            self.found.offer(self.key(), steps, depth);
        }
        if depth == total {
            if !every_node {
                self.found.offer(self.key(), steps, depth);
            }
            return;
        }
        let doubles = dice[0] == dice[1];
        if depth > 0 && doubles && !self.hitting {
            // Nothing is hit without hitting, so the hit bits are free to hold the rest of
            // what decides the subtree: the depth and the head checkers used.
            let state = Key::from(depth as u8) | Key::from(head_used) << 4;
            if !self
                .seen
                .get_or_insert(self.cells | state << HIT_SHIFT, ())
                .1
            {
                return;
            }
        }
        let die = usize::from(dice[depth]);
        let below = match steps.last() {
            Some(last) if doubles && self.hitting => usize::from(last.from),
            _ => 24,
        };
        let mut points = self.movable(die, head_used, below);
        if depth == 1 && dice[0] < dice[1] && self.block.is_none() {
            points = not_found_yet(&steps.items[0], die, points);
        }
        let last = depth == total - 1 && !every_node;
        let mut moved = false;
        for point in highest_first(points) {
            let (target, hit) = self.play(point, die);
            if !every_node && self.block.is_some() && self.blocks_illegally(target) {
                self.undo(point, target, hit);
                continue;
            }
            moved = true;
            steps.push(Step {
                from: point as u8,
                to: target as u8,
                die: die as u8,
                hit,
            });
            if last {
                // A leaf: record it here rather than one more call deep.
                self.found.offer(self.key(), steps, total);
            } else {
                self.search(dice, depth + 1, steps, head_used + u8::from(point == HEAD));
            }
            steps.pop();
            self.undo(point, target, hit);
        }
        if !moved && !every_node {
            self.found.offer(self.key(), steps, depth);
        }
    }
}
/// In the smaller-die-first order, only the second steps the larger-die-first order has not
/// found already: continuing the first checker, or bearing off (see the Python engine).
fn not_found_yet(first: &Step, die: usize, points: u32) -> u32 {
    if usize::from(first.from) == BAR || usize::from(first.to) == OFF {
        return points;
    }
    points & (((1 << (die + 1)) - 1) | (1 << first.to))
}

/// The points of a bit set, highest first.
fn highest_first(mut points: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if points == 0 {
            return None;
        }
        let point = 31 - points.leading_zeros() as usize;
        points &= !(1 << point);
        Some(point)
    })
}

/// The cells of the opponent's layout `theirs` after the blots on the mover's points `hits`
/// went to the bar.
fn theirs_after(theirs: Key, opposite: &[usize; 25], hits: u32) -> Key {
    highest_first(hits).fold(theirs, |after, point| {
        after + unit(BAR) - unit(opposite[point])
    })
}

fn search(
    rules: &TurnRules,
    mine: &Layout,
    theirs: &Layout,
    dice: Dice,
    limit: Option<u8>,
) -> Turn {
    let mut turn = Turn::new(rules, mine, theirs, limit);
    let mut steps = Steps::EMPTY;
    if dice.is_double() {
        turn.search(&[dice.high; 4], 0, &mut steps, 0);
    } else {
        turn.search(&[dice.high, dice.low], 0, &mut steps, 0);
        turn.search(&[dice.low, dice.high], 0, &mut steps, 0);
    }
    turn
}

/// The legal plays of one turn as the search keeps them: each play's steps and the key of
/// its board, from which both layouts are written out.
pub struct LegalPlays {
    plays: Vec<(Key, Steps)>,
    /// The opponent's layout at the start of the turn, as the cells of a key.
    theirs: Key,
    opposite: &'static [usize; 25],
}

impl LegalPlays {
    /// How many plays (at least one).
    pub fn len(&self) -> usize {
        self.plays.len()
    }

    /// Never: a turn without a playable die has its one empty play.
    pub fn is_empty(&self) -> bool {
        self.plays.is_empty()
    }

    /// Each play's steps and the cells of the mover's and the opponent's layouts after it.
    fn boards(&self) -> impl Iterator<Item = (&[Step], Key, Key)> + '_ {
        self.plays.iter().map(|(key, steps)| {
            let hits = ((key >> HIT_SHIFT) as u32) << 1;
            let theirs = theirs_after(self.theirs, self.opposite, hits);
            (steps.as_slice(), *key, theirs)
        })
    }

    /// Each play's steps, the mover's layout after it and the opponent's, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&[Step], Layout, Layout)> + '_ {
        self.boards()
            .map(|(steps, mine, theirs)| (steps, layout_of(mine), layout_of(theirs)))
    }

    /// The size of `write_packed`'s bytes.
    pub fn packed_len(&self) -> usize {
        let steps: usize = self.plays.iter().map(|(_, s)| usize::from(s.len)).sum();
        self.plays.len() * (1 + 2 * CELLS) + 4 * steps
    }

    /// Every play, one after another into `out` (`packed_len` bytes; for callers across a
    /// language boundary): the number of steps, four bytes a step (from, to, die, hit),
    /// then the mover's 26 counts and the opponent's.
    pub fn write_packed(&self, out: &mut [u8]) {
        let mut at = 0;
        for (steps, mine, theirs) in self.boards() {
            out[at] = steps.len() as u8;
            at += 1;
            for step in steps {
                out[at..at + 4].copy_from_slice(&[
                    step.from,
                    step.to,
                    step.die,
                    u8::from(step.hit),
                ]);
                at += 4;
            }
            put_layout(mine, &mut out[at..at + CELLS]);
            put_layout(theirs, &mut out[at + CELLS..at + 2 * CELLS]);
            at += 2 * CELLS;
        }
    }
}

/// A layout as the cells of a key.
fn cells_of(layout: &Layout) -> Key {
    layout
        .iter()
        .rev()
        .fold(0, |cells, &count| cells << 4 | Key::from(count))
}

/// The layout whose cells are those of `key`.
fn layout_of(key: Key) -> Layout {
    let mut layout = [0; CELLS];
    put_layout(key, &mut layout);
    layout
}

/// Write the 26 cells of `key` as bytes into `out` (26 bytes): eight at a time, each run
/// of eight four-bit counts spread to eight bytes by three shift-and-mask steps.
fn put_layout(key: Key, out: &mut [u8]) {
    for (run, bytes) in out.chunks_mut(8).enumerate() {
        let mut spread = u64::from((key >> (32 * run)) as u32);
        spread = (spread | spread << 16) & 0x0000_ffff_0000_ffff;
        spread = (spread | spread << 8) & 0x00ff_00ff_00ff_00ff;
        spread = (spread | spread << 4) & 0x0f0f_0f0f_0f0f_0f0f;
        bytes.copy_from_slice(&spread.to_le_bytes()[..bytes.len()]);
    }
}

/// Every legal play of the side with layout `mine` against `theirs`: one per distinct
/// resulting position, in the Python engine's order; a single empty play when no die can
/// be played.
pub fn legal(rules: &TurnRules, mine: &Layout, theirs: &Layout, dice: Dice) -> LegalPlays {
    let mut turn = search(rules, mine, theirs, dice, rules.head_limit);
    if let Some(limit) = rules.head_limit_if_needed {
        if usize::from(turn.found.best) < dice.full() {
            turn = search(rules, mine, theirs, dice, Some(limit));
        }
    }
    let best = turn.found.best;
    let mut plays: Vec<(Key, Steps)> = turn
        .found
        .table
        .entries
        .into_iter()
        .filter(|&(_, (_, used))| used == best)
        .map(|(key, (steps, _))| (key, steps))
        .collect();
    if plays.is_empty() {
        // Only under end_of_turn, when even standing still keeps a forbidden block.
        plays.push((turn.cells, Steps::EMPTY));
    }
    if best == 1
        && !dice.is_double()
        && plays
            .iter()
            .any(|(_, steps)| steps.items[0].die == dice.high)
    {
        plays.retain(|(_, steps)| steps.items[0].die == dice.high);
    }
    LegalPlays {
        plays,
        theirs: cells_of(theirs),
        opposite: turn.opposite,
    }
}

/// `legal` as owned plays.
pub fn legal_plays(rules: &TurnRules, mine: &Layout, theirs: &Layout, dice: Dice) -> Vec<Play> {
    legal(rules, mine, theirs, dice)
        .iter()
        .map(|(steps, mine, theirs)| Play {
            steps: steps.to_vec(),
            mine,
            theirs,
        })
        .collect()
}

/// The head limit the legal plays were built with: `only_if_needed` raises it to two when
/// one head checker cannot play the whole roll.
pub fn head_limit_in_force(rules: &TurnRules, mine: &Layout, legal: &[Play]) -> Option<u8> {
    rules.head_limit_if_needed?;
    let start = mine[HEAD];
    let taken = legal
        .iter()
        .map(|play| start - play.mine[HEAD])
        .max()
        .unwrap_or(0);
    Some(rules.head_limit.unwrap_or(0).max(taken))
}

/// Play `(from_point, die)` steps literally, in order, checking every rule per step.
pub fn apply_steps(
    rules: &TurnRules,
    mine: &Layout,
    theirs: &Layout,
    steps: &[(u8, u8)],
    head_limit: Option<u8>,
) -> Result<Applied, StepFailure> {
    let mut turn = Turn::new(rules, mine, theirs, head_limit);
    let mut played = Vec::with_capacity(steps.len());
    let mut head_used = 0;
    for (index, &(point, die)) in steps.iter().enumerate() {
        let (from, by) = (usize::from(point), usize::from(die));
        let reason = turn.problem(from, by, head_used);
        let (target, hit) = match reason {
            Some(_) => (from.saturating_sub(by), false),
            None => turn.play(from, by),
        };
        let step = Step {
            from: point,
            to: target as u8,
            die,
            hit,
        };
        let reason = reason.or_else(|| {
            let per_move = turn.block_timing == Some(BlockTiming::PerMove);
            (per_move && turn.blocks_illegally(target)).then_some(Reason::BlockRule)
        });
        if let Some(reason) = reason {
            return Err(StepFailure {
                index,
                step,
                reason,
            });
        }
        played.push(step);
        head_used += u8::from(from == HEAD);
        if turn.me[OFF] == CHECKERS && index + 1 < steps.len() {
            let (point, die) = steps[index + 1];
            let step = Step {
                from: point,
                to: point.saturating_sub(die),
                die,
                hit: false,
            };
            return Err(StepFailure {
                index: index + 1,
                step,
                reason: Reason::WrongDie,
            });
        }
    }
    if turn.block_timing == Some(BlockTiming::EndOfTurn) && turn.has_illegal_block() {
        if let Some(&step) = played.last() {
            return Err(StepFailure {
                index: steps.len() - 1,
                step,
                reason: Reason::BlockRule,
            });
        }
    }
    Ok(Applied {
        steps: played,
        mine: turn.me,
        theirs: turn.theirs_now(),
        game_over: turn.me[OFF] == CHECKERS,
    })
}

/// Steps in the order plays are written (NOTATION.md §4): a checker moving with several
/// dice as consecutive parts, chains sorted by from-point, then to-point, descending, each
/// hit credited to the first step in the written order landing on its point (the Python
/// `display_order`).
pub fn display_order(steps: &[Step]) -> Vec<Step> {
    let mut ordered = steps.to_vec();
    ordered.sort_by_key(|s| Reverse((s.from, s.to)));
    let mut chains: Vec<Vec<Step>> = Vec::new();
    for step in ordered {
        let link = chains.iter_mut().rev().find(|chain| {
            chain
                .last()
                .is_some_and(|l| l.to == step.from && step.from != OFF as u8)
        });
        match link {
            Some(chain) => chain.push(step),
            None => chains.push(vec![step]),
        }
    }
    chains.sort_by_key(|chain| Reverse(chain_key(chain)));
    let mut hit_points: Vec<u8> = steps.iter().filter(|s| s.hit).map(|s| s.to).collect();
    let mut written: Vec<Step> = chains.into_iter().flatten().collect();
    for step in &mut written {
        step.hit = hit_points.contains(&step.to);
        let landed = step.to;
        hit_points.retain(|&point| point != landed);
    }
    written
}

fn chain_key(chain: &[Step]) -> Vec<(u8, u8)> {
    chain.iter().map(|s| (s.from, s.to)).collect()
}
