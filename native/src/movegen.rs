//! Legal plays (RULES.md §4-8, §13): distinct resulting positions of maximal plays.
//!
//! A step-for-step twin of `referee/rules/movegen.py`: the same depth-first search in the
//! same order, so that every play is found with the same canonical step sequence and the
//! plays come out in the same order (the order alternatives are shown in).

use std::cmp::Reverse;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::board::{Dice, Layout, Play, Step, BAR, CELLS, CHECKERS, HEAD, HOME_TOP, OFF};
use crate::variants::{BlockRule, BlockTiming, TurnRules};

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

type Key = [u8; 2 * CELLS];

/// A multiply-rotate hash (rustc's Fx) over 8-byte words: the search keys are short byte
/// strings hashed millions of times, and need no defence against chosen collisions.
#[derive(Default)]
struct WordHasher(u64);

const SEED: u64 = 0x517c_c1b7_2722_0a95;

impl WordHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let mut eight = [0; 8];
            eight.copy_from_slice(word);
            self.add(u64::from_le_bytes(eight));
        }
        for &byte in words.remainder() {
            self.add(u64::from(byte));
        }
    }

    fn write_usize(&mut self, value: usize) {
        self.add(value as u64);
    }
}

type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<WordHasher>>;

/// At most four steps, kept without a heap allocation.
#[derive(Clone, Copy)]
struct Steps {
    items: [Step; 4],
    len: usize,
}

impl Steps {
    fn of(steps: &[Step]) -> Steps {
        let mut items = [Step {
            from: 0,
            to: 0,
            die: 0,
            hit: false,
        }; 4];
        items[..steps.len()].copy_from_slice(steps);
        Steps {
            items,
            len: steps.len(),
        }
    }

    fn as_slice(&self) -> &[Step] {
        &self.items[..self.len]
    }
}

/// Search results in the order first found: resulting layouts -> (first steps, dice used).
struct Found {
    index: FastMap<Key, usize>,
    entries: Vec<(Key, Steps, usize)>,
}

/// Room for the plays of most turns without growing (a turn has about 20 leaves).
const EXPECTED_LEAVES: usize = 64;

impl Found {
    fn new() -> Found {
        Found {
            index: FastMap::with_capacity_and_hasher(EXPECTED_LEAVES, Default::default()),
            entries: Vec::with_capacity(EXPECTED_LEAVES),
        }
    }

    /// Keep `steps` for `key` unless the key is known with at least as many dice used.
    fn offer(&mut self, key: Key, steps: &[Step], used: usize) {
        match self.index.get(&key) {
            None => {
                self.index.insert(key, self.entries.len());
                self.entries.push((key, Steps::of(steps), used));
            }
            Some(&at) if self.entries[at].2 < used => {
                self.entries[at].1 = Steps::of(steps);
                self.entries[at].2 = used;
            }
            Some(_) => {}
        }
    }

    fn best(&self) -> usize {
        self.entries.iter().map(|entry| entry.2).max().unwrap_or(0)
    }
}

/// The mutable working state of one turn: both layouts from the mover's side.
struct Turn {
    me: Layout,
    opp: Layout,
    hitting: bool,
    opposite: [usize; 25],
    head_limit: Option<u8>,
    block: Option<BlockRule>,
    block_timing: Option<BlockTiming>,
    record_every_node: bool,
    found: Found,
    seen: FastMap<[u8; CELLS + 2], ()>,
}

impl Turn {
    fn new(rules: &TurnRules, mine: &Layout, theirs: &Layout, head_limit: Option<u8>) -> Turn {
        let timing = rules.block.map(|block| block.timing);
        Turn {
            me: *mine,
            opp: *theirs,
            hitting: rules.variant.hitting(),
            opposite: rules.variant.opposite_table(),
            head_limit,
            block: rules.block.map(|block| block.rule),
            block_timing: timing,
            record_every_node: timing == Some(BlockTiming::EndOfTurn),
            found: Found::new(),
            seen: FastMap::default(),
        }
    }

    fn key(&self) -> Key {
        let mut key = [0; 2 * CELLS];
        key[..CELLS].copy_from_slice(&self.me);
        key[CELLS..].copy_from_slice(&self.opp);
        key
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
            let count = self.opp[self.opposite[point - die]];
            if count > 0 && (!self.hitting || count > 1) {
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
        self.me[target] += 1;
        let mut hit = false;
        if target != OFF && self.hitting {
            let there = self.opposite[target];
            if self.opp[there] > 0 {
                self.opp[there] -= 1;
                self.opp[BAR] += 1;
                hit = true;
            }
        }
        (target, hit)
    }

    fn undo(&mut self, point: usize, target: usize, hit: bool) {
        self.me[point] += 1;
        self.me[target] -= 1;
        if hit {
            self.opp[self.opposite[target]] += 1;
            self.opp[BAR] -= 1;
        }
    }

    // -- the block rule -----------------------------------------------------------------

    /// Whether the checker just landed on `landed` completes a forbidden block.
    fn blocks_illegally(&self, landed: usize) -> bool {
        if self.block.is_none() || landed == OFF || self.me[landed] != 1 {
            return false;
        }
        let (me, opposite) = (&self.me, &self.opposite);
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
        let (me, opposite) = (&self.me, &self.opposite);
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

    /// Whether an opponent checker makes a block whose lowest point is `low` legal.
    fn opponent_passes(&self, low: usize) -> bool {
        let upto = match self.block {
            Some(BlockRule::Home) => HOME_TOP + 1,
            _ => low,
        };
        self.opp[OFF..upto].iter().any(|&count| count > 0)
    }

    // -- the search ---------------------------------------------------------------------

    /// The points (at most `below`) from which `die` may be played now, as a bit set
    /// (bit p for point p; `highest_first` walks it in the search's order).
    fn movable(&self, die: usize, head_used: u8, below: usize) -> u32 {
        let me = &self.me;
        let skip_head = self.head_closed(head_used);
        let bearing = self.home_and_below_empty(HOME_TOP + 1, CELLS);
        let (low, high) = if me[BAR] > 0 { (BAR, BAR) } else { (1, below) };
        let mut allowed = 0;
        for (point, &count) in me.iter().enumerate().take(high + 1).skip(low) {
            if count == 0 || (skip_head && point == HEAD) {
                continue;
            }
            if point > die {
                let count = self.opp[self.opposite[point - die]];
                if count > 0 && (!self.hitting || count > 1) {
                    continue;
                }
            } else if !bearing
                || (point < die && !self.home_and_below_empty(point + 1, HOME_TOP + 1))
            {
                continue;
            }
            allowed |= 1 << point;
        }
        allowed
    }

    fn search(&mut self, dice: &[u8], depth: usize, steps: &mut Vec<Step>, head_used: u8) {
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
            let mut key = [0; CELLS + 2];
            key[..CELLS].copy_from_slice(&self.me);
            key[CELLS] = depth as u8;
            key[CELLS + 1] = head_used;
            if self.seen.insert(key, ()).is_some() {
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
            points = not_found_yet(&steps[0], die, points);
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

fn search(
    rules: &TurnRules,
    mine: &Layout,
    theirs: &Layout,
    dice: Dice,
    limit: Option<u8>,
) -> Found {
    let mut turn = Turn::new(rules, mine, theirs, limit);
    let mut steps = Vec::with_capacity(4);
    if dice.is_double() {
        turn.search(&[dice.high; 4], 0, &mut steps, 0);
    } else {
        turn.search(&[dice.high, dice.low], 0, &mut steps, 0);
        turn.search(&[dice.low, dice.high], 0, &mut steps, 0);
    }
    turn.found
}

/// Every legal play of the side with layout `mine` against `theirs`: one per distinct
/// resulting position, in the Python engine's order; a single empty play when no die can
/// be played.
pub fn legal_plays(rules: &TurnRules, mine: &Layout, theirs: &Layout, dice: Dice) -> Vec<Play> {
    let mut found = search(rules, mine, theirs, dice, rules.head_limit);
    if let Some(limit) = rules.head_limit_if_needed {
        if found.best() < dice.full() {
            found = search(rules, mine, theirs, dice, Some(limit));
        }
    }
    if found.entries.is_empty() {
        // Only under end_of_turn, when even standing still keeps a forbidden block.
        return vec![Play {
            steps: Vec::new(),
            mine: *mine,
            theirs: *theirs,
        }];
    }
    let best = found.best();
    let mut kept: Vec<(Key, Steps)> = found
        .entries
        .into_iter()
        .filter(|entry| entry.2 == best)
        .map(|(key, steps, _)| (key, steps))
        .collect();
    if best == 1
        && !dice.is_double()
        && kept
            .iter()
            .any(|(_, steps)| steps.items[0].die == dice.high)
    {
        kept.retain(|(_, steps)| steps.items[0].die == dice.high);
    }
    kept.into_iter()
        .map(|(key, steps)| {
            let mut mine = [0; CELLS];
            let mut theirs = [0; CELLS];
            mine.copy_from_slice(&key[..CELLS]);
            theirs.copy_from_slice(&key[CELLS..]);
            Play {
                steps: steps.as_slice().to_vec(),
                mine,
                theirs,
            }
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
        theirs: turn.opp,
        game_over: turn.me[OFF] == CHECKERS,
    })
}

/// Steps in the order plays are written (NOTATION.md §4): a checker moving with several
/// dice as consecutive parts, chains sorted by from-point, then to-point, descending, hits
/// credited to the first step landing on a hit point (the Python `display_order`).
pub fn display_order(steps: &[Step]) -> Vec<Step> {
    let mut hit_points: Vec<u8> = steps.iter().filter(|s| s.hit).map(|s| s.to).collect();
    let mut ordered = steps.to_vec();
    ordered.sort_by_key(|s| Reverse((s.from, s.to)));
    let mut chains: Vec<Vec<Step>> = Vec::new();
    for mut step in ordered {
        step.hit = hit_points.contains(&step.to);
        let landed = step.to;
        hit_points.retain(|&point| point != landed);
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
    chains.into_iter().flatten().collect()
}

fn chain_key(chain: &[Step]) -> Vec<(u8, u8, bool)> {
    chain.iter().map(|s| (s.from, s.to, s.hit)).collect()
}
