//! Judging a written play (RULES.md A6, NOTATION.md §4): the twin of `PlayJudge.judge` in
//! `referee/rules/judge.py` for the plays it accepts without a word to say.
//!
//! The native judge answers only when the play is legal, with the single moves it was
//! matched to (so that Python words any warning about `*` marks); every other play is
//! declined, and the Python engine, the one place that words rule problems, judges it again.

use std::collections::HashSet;

use crate::rules::board::{Dice, Layout, Play, Step};
use crate::rules::movegen::{apply_steps, head_limit_in_force, legal_plays};
use crate::rules::options::JudgeMode;
use crate::rules::variants::TurnRules;
use crate::vocabulary::{WrittenMove, BAR, OFF};

/// A legal play: the layouts after it, the canonical legal play when the judge enumerated,
/// the single moves played (as written, or the legal play's own), and the decomposition of
/// the written moves that matched (`played` with, per step, the written move it belongs to).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accepted {
    pub mine: Layout,
    pub theirs: Layout,
    pub play: Option<Play>,
    pub steps: Vec<Step>,
    pub played: Vec<Step>,
    pub owners: Vec<usize>,
}

impl Accepted {
    /// Whether the play written as `moves` could be worth a warning about `*` marks:
    /// something is marked or something hits.
    pub fn marks_anything(&self, moves: &[WrittenMove]) -> bool {
        moves.iter().any(|m| m.mark) || self.played.iter().any(|s| s.hit)
    }

    /// Whether Python words a warning about the `*` marks of `moves` (`_mark_warnings`
    /// answers anything): a written move whose mark says other than its last step (identical
    /// moves marked as one, right when any of them hits), or a move that hits on the way.
    pub fn warns(&self, moves: &[WrittenMove]) -> bool {
        if !self.marks_anything(moves) {
            return false;
        }
        let mut groups: Vec<(WrittenMove, bool)> = Vec::new();
        for (index, written) in moves.iter().enumerate() {
            let last = self.owners.iter().rposition(|&owner| owner == index);
            let Some(last) = last else { continue };
            let hit = self.played[last].hit;
            match groups.iter_mut().find(|(group, _)| group == written) {
                Some((_, hits)) => *hits |= hit,
                None => groups.push((*written, hit)),
            }
        }
        groups.iter().any(|(written, hit)| *hit != written.mark)
            || (1..self.played.len())
                .any(|at| self.played[at - 1].hit && self.owners[at - 1] == self.owners[at])
    }
}

/// Steps as `(from, die)` plus, per step, the index of the written move it belongs to.
type Candidate = (Vec<(u8, u8)>, Vec<usize>);

/// One position to judge plays in: the mover's `mine` against `theirs` with `dice`.
pub struct Judge<'a> {
    pub rules: &'a TurnRules,
    pub mine: &'a Layout,
    pub theirs: &'a Layout,
    pub dice: Dice,
    pub mode: JudgeMode,
}

struct Match {
    play: usize,
    played: Vec<Step>,
    owners: Vec<usize>,
    hidden_hit: bool,
    as_written: bool,
}

impl Judge<'_> {
    /// The play `moves` if it is legal; None when Python must judge (and word) it.
    pub fn accept(&self, moves: &[WrittenMove], canonical: bool) -> Option<Accepted> {
        if !self.well_formed(moves) {
            return None;
        }
        if moves.is_empty() {
            let mut legal = legal_plays(self.rules, self.mine, self.theirs, self.dice);
            if legal.len() != 1 || !legal[0].steps.is_empty() {
                return None;
            }
            let play = legal.pop()?;
            return Some(Accepted {
                mine: play.mine,
                theirs: play.theirs,
                play: Some(play),
                steps: Vec::new(),
                played: Vec::new(),
                owners: Vec::new(),
            });
        }
        let candidates = candidates(moves, self.dice);
        if candidates.is_empty() {
            return None;
        }
        if candidates.len() == 1 && !canonical && self.rules.head_limit_if_needed.is_none() {
            let (steps, owners) = &candidates[0];
            if let Ok(applied) = apply_steps(
                self.rules,
                self.mine,
                self.theirs,
                steps,
                self.rules.head_limit,
            ) {
                if steps.len() == self.dice.full() || applied.game_over {
                    return Some(Accepted {
                        mine: applied.mine,
                        theirs: applied.theirs,
                        play: None,
                        played: applied.steps.clone(),
                        steps: applied.steps,
                        owners: owners.clone(),
                    });
                }
            }
        }
        self.by_enumeration(&candidates)
    }

    /// Points, direction, bar and hit marks that no board can make right.
    fn well_formed(&self, moves: &[WrittenMove]) -> bool {
        let hitting = self.rules.variant.hitting();
        moves.iter().all(|m| {
            (1..=BAR as u32).contains(&m.from)
                && m.to < BAR as u32
                && m.to < m.from
                && (hitting || (m.from != BAR as u32 && !m.mark))
        })
    }

    fn by_enumeration(&self, candidates: &[Candidate]) -> Option<Accepted> {
        let legal = legal_plays(self.rules, self.mine, self.theirs, self.dice);
        let limit = head_limit_in_force(self.rules, self.mine, &legal).or(self.rules.head_limit);
        let mut matches = Vec::new();
        for (steps, owners) in candidates {
            let literal_ok = apply_steps(self.rules, self.mine, self.theirs, steps, limit).is_ok();
            if self.mode == JudgeMode::Sequence && !literal_ok {
                continue;
            }
            for (order, (ordered, ordered_owners)) in self.orders(steps, owners).enumerate() {
                let Some((mine, theirs, played)) = self.physical(&ordered) else {
                    continue;
                };
                let Some(play) = legal
                    .iter()
                    .position(|p| p.mine == mine && p.theirs == theirs)
                else {
                    continue;
                };
                let literal = literal_ok && order == 0;
                matches.push(Match {
                    play,
                    hidden_hit: hits_on_the_way(&played, &ordered_owners),
                    as_written: literal && played.len() == legal[play].steps.len(),
                    played,
                    owners: ordered_owners,
                });
                break;
            }
        }
        if matches.iter().any(|m| !m.hidden_hit) {
            matches.retain(|m| !m.hidden_hit);
        }
        // As written first, then in candidate order (larger die first).
        matches.sort_by_key(|m| !m.as_written);
        if matches.iter().any(|m| m.play != matches[0].play) {
            return None; // ambiguous: Python names it
        }
        let chosen = matches.into_iter().next()?;
        let play = legal.into_iter().nth(chosen.play)?;
        let steps = if chosen.as_written {
            chosen.played.clone()
        } else {
            play.steps.clone()
        };
        Some(Accepted {
            mine: play.mine,
            theirs: play.theirs,
            play: Some(play),
            steps,
            played: chosen.played,
            owners: chosen.owners,
        })
    }

    /// The steps as written, then, when judging by position (RULES.md A6), the written moves
    /// in every other order (`18/13 24/18` is the play `24/18 18/13`), in the Python
    /// engine's order (lexicographic permutations of the written moves).
    fn orders<'c>(
        &self,
        steps: &'c [(u8, u8)],
        owners: &'c [usize],
    ) -> impl Iterator<Item = Candidate> + 'c {
        let count = owners.iter().max().map_or(0, |&last| last + 1);
        let mut order: Vec<usize> = (0..count).collect();
        let mut first = true;
        let by_position = self.mode == JudgeMode::Position;
        std::iter::from_fn(move || {
            if !first && (!by_position || !next_permutation(&mut order)) {
                return None;
            }
            first = false;
            let mut candidate: Candidate = (Vec::with_capacity(steps.len()), Vec::new());
            for &owner in &order {
                for (step, _) in steps.iter().zip(owners).filter(|(_, &o)| o == owner) {
                    candidate.0.push(*step);
                    candidate.1.push(owner);
                }
            }
            Some(candidate)
        })
    }

    /// The layouts the steps reach when only checkers' existence is enforced; a single
    /// opposing checker on a landing point is hit where the variant hits.
    fn physical(&self, steps: &[(u8, u8)]) -> Option<(Layout, Layout, Vec<Step>)> {
        let (mut mine, mut theirs) = (*self.mine, *self.theirs);
        let hitting = self.rules.variant.hitting();
        let mut played = Vec::with_capacity(steps.len());
        for &(point, die) in steps {
            let from = usize::from(point);
            if mine[from] == 0 {
                return None;
            }
            let target = from.saturating_sub(usize::from(die));
            mine[from] -= 1;
            mine[target] += 1;
            let there = self.rules.variant.opposite(target);
            let hit = target != OFF && hitting && theirs[there] == 1;
            if hit {
                theirs[there] = 0;
                theirs[BAR] += 1;
            }
            played.push(Step {
                from: point,
                to: target as u8,
                die,
                hit,
            });
        }
        Some((mine, theirs, played))
    }
}

/// The next permutation in lexicographic order (false after the last).
fn next_permutation(items: &mut [usize]) -> bool {
    let Some(pivot) = (1..items.len()).rev().find(|&i| items[i - 1] < items[i]) else {
        return false;
    };
    let swap = (pivot..items.len())
        .rev()
        .find(|&i| items[i] > items[pivot - 1]);
    if let Some(swap) = swap {
        items.swap(pivot - 1, swap);
    }
    items[pivot..].reverse();
    true
}

/// Every way to make the written moves with the dice, each die used at most once, in the
/// Python engine's order.
fn candidates(moves: &[WrittenMove], dice: Dice) -> Vec<Candidate> {
    let pool: Vec<u8> = if dice.is_double() {
        vec![dice.high; 4]
    } else {
        vec![dice.high, dice.low]
    };
    if moves.len() > pool.len() {
        return Vec::new();
    }
    let mut distances: Vec<u32> = moves.iter().map(|m| m.from - m.to).collect();
    let mut sorted_pool: Vec<u32> = pool.iter().map(|&d| u32::from(d)).collect();
    let exact = moves.iter().all(|m| m.to != 0);
    let by_move: Vec<(u8, u8)> = moves
        .iter()
        .zip(&distances)
        .map(|(m, &d)| (m.from as u8, d as u8))
        .collect();
    distances.sort_unstable();
    sorted_pool.sort_unstable();
    if exact && distances == sorted_pool {
        return vec![(by_move, (0..moves.len()).collect())];
    }
    let mut found = Vec::new();
    let mut seen = HashSet::new();
    combine(
        moves,
        0,
        &pool,
        &mut (Vec::new(), Vec::new()),
        &mut |candidate| {
            if seen.insert(candidate.clone()) {
                found.push(candidate.clone());
            }
        },
    );
    found
}

fn combine(
    moves: &[WrittenMove],
    index: usize,
    pool: &[u8],
    prefix: &mut Candidate,
    emit: &mut dyn FnMut(&Candidate),
) {
    let Some(written) = moves.get(index) else {
        emit(prefix);
        return;
    };
    for (dice, rest) in die_sequences(written, pool) {
        let mark = prefix.0.len();
        let mut point = written.from;
        for die in dice {
            prefix.0.push((point as u8, die));
            prefix.1.push(index);
            point = point.saturating_sub(u32::from(die));
        }
        combine(moves, index + 1, &rest, prefix, emit);
        prefix.0.truncate(mark);
        prefix.1.truncate(mark);
    }
}

/// Ordered dice from `pool` that carry one checker from `written.from` to its target:
/// exactly, or past the edge when bearing off.
fn die_sequences(written: &WrittenMove, pool: &[u8]) -> Vec<(Vec<u8>, Vec<u8>)> {
    fn extend(
        written: &WrittenMove,
        chosen: &mut Vec<u8>,
        rest: &[u8],
        total: u32,
        out: &mut Vec<(Vec<u8>, Vec<u8>)>,
    ) {
        let distance = written.from - written.to;
        if !chosen.is_empty() && (total == distance || (written.to == 0 && total > distance)) {
            out.push((chosen.clone(), rest.to_vec()));
            return;
        }
        if total >= distance {
            return;
        }
        let mut values: Vec<u8> = rest.to_vec();
        values.sort_unstable_by(|a, b| b.cmp(a));
        values.dedup();
        for value in values {
            let mut remaining = rest.to_vec();
            if let Some(at) = remaining.iter().position(|&d| d == value) {
                remaining.remove(at);
            }
            chosen.push(value);
            extend(written, chosen, &remaining, total + u32::from(value), out);
            chosen.pop();
        }
    }
    let mut out = Vec::new();
    extend(written, &mut Vec::new(), pool, 0, &mut out);
    out
}

/// Whether a move spanning several dice hit on a point it does not show.
fn hits_on_the_way(played: &[Step], owners: &[usize]) -> bool {
    played
        .iter()
        .zip(owners.windows(2))
        .any(|(step, pair)| step.hit && pair[0] == pair[1])
}
