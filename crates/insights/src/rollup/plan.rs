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
//! the changes to rows stored before and to the teaching cells. The sums are
//! changed in place, each visit's attempts taken together: a copy of every
//! visit's sums and window, a batch's worth of small allocations, cost the
//! writer a quarter of its time in page faults.

use std::collections::{HashMap, HashSet};

use compact_str::CompactString;

use super::{
    recent::{Admit, Entry, Flags, Outcome, Recent, SOON},
    teaching::CellKey,
    two_significant, Deltas, Key, Sums,
};
use crate::{
    event::{within_visit, Attempt, ToolUse, Visit},
    lessons,
    values::Minute,
};

/// One attempt the batch stores (its visit's start, language and room,
/// which its row keeps too, are in the plan's sums: a batch holds one of
/// these for every attempt it stores).
#[derive(Debug)]
pub struct Admitted<'a> {
    pub attempt: &'a Attempt,
    pub id: i64,
    /// As stored: two significant digits.
    pub latency_ms: i64,
    /// What became of its comment, as far as the batch tells.
    pub outcome: Flags,
}

/// What a batch stores, and the rollups' changes that come of it.
#[derive(Debug, Default)]
pub struct Plan<'a> {
    /// The touched visits' sums as the batch leaves them (their tools
    /// aside, which only the store can tell new).
    pub sums: HashMap<CompactString, Sums>,
    /// The visits whose sums the batch changed.
    pub changed: HashSet<CompactString>,
    /// Those of them whose latest minute it moved: only their sums rewrite
    /// the index on it (`rows::write_sums`).
    pub moved: HashSet<CompactString>,
    /// The day cells' changes so far: every touched visit's counts taken
    /// out as they were (`write::apply` puts them back as they are).
    pub deltas: Deltas,
    /// The attempts to store, in the order they came (by id).
    pub attempts: Vec<Admitted<'a>>,
    /// Comments stored before whose outcome changed: their ids, the outcome.
    pub outcomes: Vec<(i64, Flags)>,
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
/// and `tools`, over `sums`, those of the stored visits they name (one not
/// there is not stored: what names it is refused). Fails only on a stored
/// window that does not read.
pub fn plan<'a>(
    sums: HashMap<CompactString, Sums>,
    visits: &[&Visit],
    attempts: &[&'a Attempt],
    tools: Vec<(&'a ToolUse, i64)>,
    first_id: i64,
) -> Result<Plan<'a>, String> {
    let mut plan = Plan {
        sums,
        ..Plan::default()
    };
    // Each visit's counts as they were; a visit this batch stored counted
    // in no cell yet (its row, given with its start, lesson, language and
    // room before the sums were read, was new or had no start).
    let added: HashSet<&str> = visits.iter().map(|v| v.id.as_str()).collect();
    for (id, s) in &plan.sums {
        if !added.contains(id.as_str()) {
            s.count_into(-1, &mut plan.deltas);
        }
    }
    // Each visit's attempts, in the order they came: their places sorted
    // by visit, then place, one allocation for the batch. Each visit is read
    // once into the key (read at every comparison, reading the visits took
    // a twentieth of the writer's time under load).
    let mut order: Vec<(&str, usize)> = (attempts.iter().enumerate())
        .map(|(i, a)| (a.visit.as_str(), i))
        .collect();
    order.sort_unstable();
    plan.attempts.reserve(attempts.len());
    for mine in order.chunk_by(|a, b| a.0 == b.0) {
        add_attempts(&mut plan, attempts, mine, first_id)?;
    }
    plan.attempts.sort_unstable_by_key(|a| a.id);
    let before = tools.len();
    plan.tools = tools
        .into_iter()
        .filter(|(t, _)| (plan.sums.get(t.visit.as_str())).is_some_and(|s| stored_within(s, t.at)))
        .collect();
    plan.refused += (before - plan.tools.len()) as u64;
    Ok(plan)
}

/// Whether the visit is stored and `at` within it.
fn stored_within(s: &Sums, at: Minute) -> bool {
    s.started
        .is_some_and(|started| within_visit(Minute(started), at))
}

/// Adds the attempts `mine` (their visit and places in `attempts`, all of
/// one visit, in order) to the plan: those it admits, with their outcomes
/// and those they change.
fn add_attempts<'a>(
    plan: &mut Plan<'a>,
    attempts: &[&'a Attempt],
    mine: &[(&str, usize)],
    first_id: i64,
) -> Result<(), String> {
    let Some(&(visit, _)) = mine.first() else {
        return Ok(());
    };
    let Some(s) = plan.sums.get_mut(visit) else {
        plan.refused += mine.len() as u64;
        return Ok(());
    };
    let mut recent = Recent::parse(s.recent.as_deref())?;
    // Which it admits, against the highest so far: (number, place), put in
    // the numbers' order below (a visit has a few attempts a batch: a
    // vector, not a tree of them).
    let mut admitted: Vec<(i64, usize)> = Vec::with_capacity(mine.len());
    let mut highest = s.attempts;
    for &(_, i) in mine {
        let a = attempts[i];
        if !stored_within(s, a.at) || s.lesson != Some(lessons::number(a.numbers.lesson())) {
            plan.refused += 1;
            continue;
        }
        let n = i64::from(a.numbers.number());
        if admitted.iter().any(|&(m, _)| m == n) || recent.admits(highest, n) != Admit::New {
            continue;
        }
        highest = highest.max(n);
        admitted.push((n, i));
    }
    if admitted.is_empty() {
        return Ok(());
    }
    admitted.sort_unstable();
    let lesson = lessons::from_stored(s.lesson.unwrap_or(1));
    let mut affected: Vec<i64> = (admitted.iter())
        .flat_map(|&(n, _)| (n - SOON).max(1)..=n)
        .collect();
    affected.sort_unstable();
    affected.dedup();
    let was: Vec<Outcome> = affected
        .iter()
        .map(|&n| recent.outcome(lesson, n))
        .collect();
    let first = plan.attempts.len();
    let minute_was = s.last_min;
    for &(n, i) in &admitted {
        let a = attempts[i];
        let id = first_id.saturating_add(i64::try_from(i).unwrap_or(i64::MAX));
        let numbers = &a.numbers;
        let entry = Entry {
            id,
            error: numbers.error(),
            model: a.model.as_str().into(),
            lang: a.lang.code().into(),
        };
        recent.insert(n, entry);
        if n > s.attempts {
            let weight2 = numbers.weight2().unwrap_or(0.0);
            s.last = Some([numbers.weight(), weight2, numbers.bias(), numbers.error()]);
        }
        s.add_attempt(numbers.lesson(), n, numbers.error(), a.at.0);
        plan.attempts.push(Admitted {
            attempt: a,
            id,
            latency_ms: latency(a),
            outcome: Flags::default(),
        });
    }
    if let Some(key) = s.cell() {
        for (&n, was) in affected.iter().zip(was) {
            let Some(comment) = recent.get(n) else {
                continue;
            };
            let now = recent.outcome(lesson, n);
            if now == was {
                continue;
            }
            add_teaching(&mut plan.teaching, key, comment, now, was);
            match admitted.iter().position(|&(m, _)| m == n) {
                Some(k) => plan.attempts[first + k].outcome = now.flags(),
                None => plan.outcomes.push((comment.id, now.flags())),
            }
        }
    }
    recent.prune(s.attempts);
    s.recent = recent.pack();
    if s.last_min != minute_was {
        plan.moved.insert(CompactString::new(visit));
    }
    plan.changed.insert(CompactString::new(visit));
    Ok(())
}

/// Adds the change from `was` to `now` of a comment's outcome to its cell.
fn add_teaching(
    teaching: &mut HashMap<CellKey, Outcome>,
    key: Key<'_>,
    comment: &Entry,
    now: Outcome,
    was: Outcome,
) {
    let cell = (
        key.day,
        key.lesson,
        CompactString::new(key.lang),
        comment.model.clone(),
        comment.lang.clone(),
    );
    let delta = teaching.entry(cell).or_default();
    delta.add(now, 1);
    delta.add(was, -1);
}
