//! What a batch stores and how it changes the rollups, worked out in memory
//! from the sums of the visits it touches, before a row is written.
//!
//! An attempt or a tool is stored only with its visit: one whose visit is
//! not stored (by this batch or an earlier one), or began more than a day
//! before it (`event::within_visit`), or an attempt of another lesson than
//! its visit's, is refused and counted. Without that rule anyone could write
//! rows for made-up visits without end; the reports never showed such rows
//! anyway. A repeated attempt (in the batch or stored before) is left out,
//! uncounted, and so is one that comes late ([`super::recent`]): below the
//! visit's window, the two cannot be told apart, and a page that sends an
//! attempt again (a retried request) is far more common than one whose
//! attempt comes a few others late.
//!
//! Each attempt kept gets its row's id (ids are given out in blocks, one a
//! batch: `store::insert::reserve_ids`), joins its visit's window and sums,
//! and the comments around it get their outcomes: those of its own row, and
//! the changes to rows stored before and to the teaching cells.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use compact_str::CompactString;

use super::{
    recent::{Admit, Entry, Outcome, Recent, SOON},
    teaching::CellKey,
    two_significant, Key, Sums,
};
use crate::{
    event::{within_visit, Attempt, ToolUse, Visit},
    lessons,
    values::Minute,
};

/// One attempt the batch stores.
#[derive(Debug)]
pub struct Admitted<'a> {
    pub attempt: &'a Attempt,
    pub id: i64,
    /// As stored: two significant digits.
    pub latency_ms: i64,
    /// What became of its comment, as far as the batch tells.
    pub outcome: Outcome,
}

/// What a batch stores, and the rollups' changes that come of it.
#[derive(Debug, Default)]
pub struct Plan<'a> {
    /// The touched visits' sums as read, and as the batch leaves them
    /// (their tools aside, which only the store can tell new).
    pub old: HashMap<CompactString, Sums>,
    pub new: HashMap<CompactString, Sums>,
    /// The attempts to store, in the order they came.
    pub attempts: Vec<Admitted<'a>>,
    /// Comments stored before whose outcome changed: their ids, the outcome.
    pub outcomes: Vec<(i64, Outcome)>,
    /// The tools of stored visits, each with its uses in the batch.
    pub tools: Vec<(&'a ToolUse, i64)>,
    /// What to add to the teaching cells.
    pub teaching: HashMap<CellKey, Outcome>,
    /// Attempts and tools refused (see the module's docs).
    pub refused: u64,
}

/// An attempt's latency as stored: two significant digits.
pub fn latency(a: &Attempt) -> i64 {
    i64::try_from(two_significant(a.numbers.latency_ms())).unwrap_or(i64::MAX)
}

/// The plan for a batch: its `visits` (those it added), `attempts` (each
/// once, in the order they came; the `i`-th gets id `first_id + i` if kept)
/// and `tools`, over `old`, the sums of the stored visits they name (one
/// not there is not stored: what names it is refused).
pub fn plan<'a>(
    old: HashMap<CompactString, Sums>,
    visits: &[&Visit],
    attempts: &[&'a Attempt],
    tools: Vec<(&'a ToolUse, i64)>,
    first_id: i64,
) -> Plan<'a> {
    let mut new = old.clone();
    for v in visits {
        let s = new.entry(CompactString::new(v.id.as_str())).or_default();
        s.started = Some(v.started.0);
        s.lesson = Some(lessons::number(v.lesson));
        s.lang = Some(CompactString::new(v.lang.code()));
        s.room = v.room.as_ref().map(|r| CompactString::new(r.as_str()));
    }
    let mut plan = Plan {
        old,
        ..Plan::default()
    };
    // Per visit: its window before the batch, and the numbers it added.
    let mut before: HashMap<&str, Recent> = HashMap::new();
    let mut fresh: BTreeMap<&str, BTreeMap<i64, usize>> = BTreeMap::new();
    for (i, a) in attempts.iter().enumerate() {
        let Some(s) = new.get_mut(a.visit.as_str()) else {
            plan.refused += 1;
            continue;
        };
        let lesson = a.numbers.lesson();
        if !stored_within(s, a.at) || s.lesson != Some(lessons::number(lesson)) {
            plan.refused += 1;
            continue;
        }
        let n = i64::from(a.numbers.number());
        if s.recent.admits(s.attempts, n) != Admit::New {
            continue;
        }
        let id = first_id.saturating_add(i64::try_from(i).unwrap_or(i64::MAX));
        before
            .entry(a.visit.as_str())
            .or_insert_with(|| s.recent.clone());
        let entry = Entry {
            id,
            error: a.numbers.error(),
            model: a.model.as_str().into(),
            lang: a.lang.code().into(),
        };
        s.recent.insert(n, entry);
        if n > s.attempts {
            let weight2 = a.numbers.weight2().unwrap_or(0.0);
            let (weight, bias, error) = (a.numbers.weight(), a.numbers.bias(), a.numbers.error());
            s.last = Some([weight, weight2, bias, error]);
        }
        s.add_attempt(lesson, n, a.numbers.error(), a.at.0);
        fresh
            .entry(a.visit.as_str())
            .or_default()
            .insert(n, plan.attempts.len());
        plan.attempts.push(Admitted {
            attempt: a,
            id,
            latency_ms: latency(a),
            outcome: Outcome::default(),
        });
    }
    for (visit, added) in &fresh {
        let (Some(s), Some(before)) = (new.get_mut(*visit), before.get(visit)) else {
            continue;
        };
        if let Some(key) = s.cell() {
            outcomes(&mut plan, key, before, &s.recent, added);
        }
        s.recent.prune(s.attempts);
    }
    let before = tools.len();
    plan.tools = tools
        .into_iter()
        .filter(|(t, _)| {
            new.get(t.visit.as_str())
                .is_some_and(|s| stored_within(s, t.at))
        })
        .collect();
    plan.refused += (before - plan.tools.len()) as u64;
    plan.new = new;
    plan
}

/// Whether the visit is stored and `at` within it.
fn stored_within(s: &Sums, at: Minute) -> bool {
    s.started
        .is_some_and(|started| within_visit(Minute(started), at))
}

/// The outcomes the attempts `added` (number → place in `plan.attempts`)
/// give or change, of a visit whose cells are `key`'s, its window
/// `before` and `after` them.
fn outcomes(
    plan: &mut Plan<'_>,
    key: Key<'_>,
    before: &Recent,
    after: &Recent,
    added: &BTreeMap<i64, usize>,
) {
    let lesson = lessons::from_stored(key.lesson);
    let affected: BTreeSet<i64> = added.keys().flat_map(|&n| (n - SOON).max(1)..=n).collect();
    for n in affected {
        let Some(comment) = after.get(n) else {
            continue;
        };
        let (now, was) = (after.outcome(lesson, n), before.outcome(lesson, n));
        if now == was {
            continue;
        }
        let cell = (
            key.day,
            key.lesson,
            CompactString::new(key.lang),
            comment.model.clone(),
            comment.lang.clone(),
        );
        let delta = plan.teaching.entry(cell).or_default();
        delta.add(now, 1);
        delta.add(was, -1);
        match added.get(&n) {
            Some(&i) => plan.attempts[i].outcome = now,
            None => plan.outcomes.push((comment.id, now)),
        }
    }
}
