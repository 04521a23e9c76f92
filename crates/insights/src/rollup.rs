//! The rollups `/insights` reads instead of every attempt (migrations 0002
//! and 0005): per visit its [`Sums`], and per UTC day (of the visit's start),
//! lesson and language the counts each report adds up ([`Cell`]). Over a million visits
//! the reports' joins of every attempt took seconds on SQLite; summing a
//! month of days takes milliseconds (`benches/insights_report.rs`).
//!
//! They are kept in step with the stored rows in the same transaction:
//! [`Store::write`](super::Store) stores a batch's events, then
//! [`write::apply`] folds the rows it actually added (a repeated visit or
//! attempt adds nothing) into the sums of their visits and moves each visit's
//! counts from the cells of its old sums to those of its new ones. Every fold
//! is a minimum, a maximum or a bit set, so the order events arrive in does
//! not matter; an attempt or a tool whose visit is not stored is refused
//! ([`plan`]). A purge recomputes what it cuts into
//! ([`purge`]).
//!
//! The reports use the cells when the filter names no room and cuts no day
//! in two (`report::daily`): the same numbers as from the rows, which the
//! tests check on both backends. Latencies are stored to two significant
//! digits ([`two_significant`]) so that a day's latencies are few enough to
//! count.

pub(super) mod plan;
pub(super) mod purge;
pub mod recent;
mod rows;
pub(super) mod teaching;
pub(super) mod write;

use std::collections::BTreeMap;

use compact_str::CompactString;

use super::{codes::Tool, lessons, values::Minute};
use lesson::lessons::Which;

/// `ms` to two significant digits, rounded down: 1,234 → 1,200; below 100 as it is.
pub fn two_significant(ms: u64) -> u64 {
    let mut unit = 1;
    while ms / unit >= 100 {
        unit *= 10;
    }
    ms / unit * unit
}

/// A tool's bit in [`Sums::tools`]: 2 to the power of its place in
/// [`Tool::ALL`] (append new tools at the end; migration 0002 has the first seven).
pub fn bit(tool: Tool) -> i64 {
    let place = Tool::ALL.iter().position(|&t| t == tool).unwrap_or(0);
    1 << place
}

/// The day a minute falls in, as the cells key it (rounded down).
pub fn day_of(minute: i64) -> i64 {
    Minute(minute).day()
}

/// A visit's row of `insights_visit_sums`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sums {
    /// The visit's start, lesson, language and room (`None` until it is stored).
    pub started: Option<i64>,
    pub lesson: Option<i64>,
    pub lang: Option<CompactString>,
    pub room: Option<CompactString>,
    /// Its highest attempt number (0: none).
    pub attempts: i64,
    /// Its lowest error.
    pub best: Option<f64>,
    /// Its first attempt at the goal, and that attempt's minute.
    pub goal_at: Option<i64>,
    pub goal_min: Option<i64>,
    /// Its latest attempt's minute.
    pub last_min: Option<i64>,
    /// Its tools, one [`bit`] each.
    pub tools: i64,
    /// Its highest attempt's point (weight, weight2, bias, error).
    pub last: Option<[f64; 4]>,
    /// Its latest attempts as [`recent::Recent::pack`] writes them (`None`: none):
    /// parsed only while a batch adds to them, one visit at a time (a
    /// parsed window takes several times the memory, and a batch may touch
    /// thousands of visits).
    pub recent: Option<String>,
}

impl Sums {
    /// Folds in one attempt of `lesson` (number, error, minute).
    pub fn add_attempt(&mut self, lesson: Which, number: i64, error: f64, at: i64) {
        self.attempts = self.attempts.max(number);
        if self.best.is_none_or(|best| error < best) {
            self.best = Some(error);
        }
        if lesson.reaches_goal(error) && self.goal_at.is_none_or(|first| number < first) {
            self.goal_at = Some(number);
            self.goal_min = Some(at);
        }
        self.last_min = Some(self.last_min.map_or(at, |last| last.max(at)));
    }

    /// The day, lesson and language whose cells count this visit (once it
    /// is stored).
    pub fn cell(&self) -> Option<Key<'_>> {
        Some(Key {
            day: day_of(self.started?),
            lesson: self.lesson?,
            lang: self.lang.as_deref()?,
        })
    }

    /// Adds `sign` × this visit's counts to `deltas` (its comments aside).
    pub fn count_into(&self, sign: i64, deltas: &mut Deltas) {
        let Some(Key { day, lesson, lang }) = self.cell() else {
            return;
        };
        let at_or_below = |rung: f64| i64::from(self.best.is_some_and(|best| best <= rung));
        let reached = i64::from(self.goal_at.is_some());
        let visits = Cell::Visits {
            day,
            lesson,
            lang: CompactString::new(lang),
        };
        let rungs = lessons::rungs(lessons::from_stored(lesson));
        let counts = [
            1,
            i64::from(self.best.is_some()),
            at_or_below(rungs[0]),
            at_or_below(rungs[1]),
            at_or_below(rungs[2]),
            reached,
        ];
        add(deltas, visits, counts.map(|n| sign * n));
        let goal_at = self.goal_at.unwrap_or(0);
        let one = |cell| (cell, [sign, 0, 0, 0, 0, 0]);
        let (cell, n) = one(Cell::GoalAt {
            day,
            lesson,
            lang: CompactString::new(lang),
            goal_at,
        });
        add(deltas, cell, n);
        if let (Some(_), Some(at), Some(started)) = (self.goal_at, self.goal_min, self.started) {
            let (cell, n) = one(Cell::Minutes {
                day,
                lesson,
                lang: CompactString::new(lang),
                minutes: at - started,
            });
            add(deltas, cell, n);
        }
        for &tool in Tool::ALL {
            if self.tools & bit(tool) != 0 {
                let (cell, n) = one(Cell::Tool {
                    day,
                    lesson,
                    lang: CompactString::new(lang),
                    tool: tool.code(),
                    goal_at,
                });
                add(deltas, cell, n);
            }
        }
    }
}

/// One comment, as the day cells count it.
#[derive(Clone, Debug)]
pub struct Comment {
    pub model: CompactString,
    pub lang: CompactString,
    pub outcome: CompactString,
    /// `""` when none.
    pub reason: CompactString,
    pub latency_ms: i64,
}

impl Comment {
    /// A comment by `model` in `lang`, its outcome and reason (none: `None`)
    /// and its latency.
    pub fn new(
        model: &str,
        lang: &str,
        outcome: &str,
        reason: Option<&str>,
        latency_ms: i64,
    ) -> Self {
        Self {
            model: CompactString::new(model),
            lang: CompactString::new(lang),
            outcome: CompactString::new(outcome),
            reason: reason.map(CompactString::new).unwrap_or_default(),
            latency_ms,
        }
    }

    /// Counts `n` comments like this one, of visits whose cells are `key`'s.
    pub fn count_into(&self, Key { day, lesson, lang }: Key<'_>, n: i64, deltas: &mut Deltas) {
        let count = [n, 0, 0, 0, 0, 0];
        let comments = Cell::Comments {
            day,
            lesson,
            lang: CompactString::new(lang),
            model: self.model.clone(),
            comment_lang: self.lang.clone(),
            outcome: self.outcome.clone(),
            reason: self.reason.clone(),
        };
        add(deltas, comments, count);
        let latency = Cell::Latency {
            day,
            lesson,
            lang: CompactString::new(lang),
            model: self.model.clone(),
            comment_lang: self.lang.clone(),
            latency_ms: self.latency_ms,
        };
        add(deltas, latency, count);
    }
}

/// What every day table is keyed by first: the day of the visit's start,
/// its lesson's number and its language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key<'a> {
    pub day: i64,
    pub lesson: i64,
    pub lang: &'a str,
}

/// A row of one of the day tables (its key).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cell {
    /// `insights_day_visits`: visits, attempted, at or below each rung, reached.
    Visits {
        day: i64,
        lesson: i64,
        lang: CompactString,
    },
    /// `insights_day_goal_at` (0: not reached).
    GoalAt {
        day: i64,
        lesson: i64,
        lang: CompactString,
        goal_at: i64,
    },
    /// `insights_day_goal_minutes`.
    Minutes {
        day: i64,
        lesson: i64,
        lang: CompactString,
        minutes: i64,
    },
    /// `insights_day_tools`.
    Tool {
        day: i64,
        lesson: i64,
        lang: CompactString,
        tool: &'static str,
        goal_at: i64,
    },
    /// `insights_day_comments`.
    Comments {
        day: i64,
        lesson: i64,
        lang: CompactString,
        model: CompactString,
        comment_lang: CompactString,
        outcome: CompactString,
        reason: CompactString,
    },
    /// `insights_day_latency`.
    Latency {
        day: i64,
        lesson: i64,
        lang: CompactString,
        model: CompactString,
        comment_lang: CompactString,
        latency_ms: i64,
    },
}

/// Changes to the day tables: per cell, what to add to its count(s) (only
/// [`Cell::Visits`] has six; the others use the first). Sorted, so that
/// transactions lock cells in one order.
pub type Deltas = BTreeMap<Cell, [i64; 6]>;

fn add(deltas: &mut Deltas, cell: Cell, n: [i64; 6]) {
    let sum = deltas.entry(cell).or_default();
    for (s, n) in sum.iter_mut().zip(n) {
        *s += n;
    }
}

#[cfg(test)]
mod tests;
