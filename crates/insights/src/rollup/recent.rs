//! A visit's latest attempts, as its sums row keeps them (`recent`,
//! migration 0006), and what became of the comment on each.
//!
//! Attempts are stored in the order they come, with no index by visit: a
//! batch's rows then fill the table's last pages, where a key by visit made
//! it write a page per visit (`docs/benchmarks/insights-floor.md`). What that
//! key answered the writer now answers from this window, which it reads and
//! writes with the visit's sums anyway:
//!
//! - **a repeated attempt**: a number the window holds is stored already;
//! - **a late one**: a page sends its attempts in order, and two requests in
//!   flight may swap, so an attempt more than [`LATE`] below the visit's
//!   highest is left out, like a repeat (below the window the two look alike);
//! - **what became of each comment** ([`Outcome`], as migration 0004 counts
//!   it): for the comment on attempt `n`, whether the visit made attempt
//!   `n + 1` (*followed*) and whether its error was lower (*improved*), and,
//!   above the goal, whether one of attempts `n + 1` to `n + SOON` reached it
//!   (*reached*). A new attempt `m` changes the outcomes of comments `m - SOON`
//!   to `m`, which depend on attempts up to `m + SOON`; since `m` is at least
//!   the highest minus [`LATE`], every attempt those outcomes read is at or
//!   above the highest minus [`KEPT`], and the window keeps exactly those.
//!
//! Packed as `number,id,error,model,lang`, `;` between attempts (a model's
//! name and a language code hold neither: `crate::packed`; no `:`, which
//! the privacy scan would take for part of an IPv6 address), the error as
//! a text that reads back to the same double.

use std::collections::BTreeMap;

use compact_str::CompactString;

use crate::packed::push_double;
use lesson::lessons::Which;

/// Attempts after a comment within which reaching the goal counts.
pub const SOON: i64 = 5;
/// How far below the visit's highest attempt a new one may come.
pub const LATE: i64 = 3;
/// The window: attempts at or above the visit's highest minus this
/// (migration 0006 writes it out: 8).
pub const KEPT: i64 = LATE + SOON;

/// What became of one comment, as counts (each 0 or 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub comments: i64,
    pub followed: i64,
    pub improved: i64,
    pub above: i64,
    pub reached: i64,
}

impl Outcome {
    /// Adds `sign` × `other`.
    pub fn add(&mut self, other: Outcome, sign: i64) {
        self.comments += sign * other.comments;
        self.followed += sign * other.followed;
        self.improved += sign * other.improved;
        self.above += sign * other.above;
        self.reached += sign * other.reached;
    }

    pub fn is_zero(&self) -> bool {
        *self == Outcome::default()
    }

    /// What the comment's own row keeps of it.
    pub fn flags(&self) -> Flags {
        Flags {
            followed: self.followed > 0,
            improved: self.improved > 0,
            reached: self.reached > 0,
        }
    }
}

/// What a comment's row keeps of its [`Outcome`] (a batch holds one for
/// every attempt it stores: three bytes, where the counts take forty).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    pub followed: bool,
    pub improved: bool,
    pub reached: bool,
}

/// One attempt of the window: its row's id, its error, and its comment's
/// model and language.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub id: i64,
    pub error: f64,
    pub model: CompactString,
    pub lang: CompactString,
}

/// Whether a visit may store an attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admit {
    New,
    /// Stored already.
    Repeat,
    /// More than [`LATE`] below the highest.
    Late,
}

/// A visit's latest attempts, by number.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Recent(BTreeMap<i64, Entry>);

impl Recent {
    /// The window as [`Recent::pack`] wrote it (`None` or empty: none).
    pub fn parse(packed: Option<&str>) -> Result<Self, String> {
        let mut recent = BTreeMap::new();
        for one in packed
            .unwrap_or_default()
            .split(';')
            .filter(|s| !s.is_empty())
        {
            let mut fields = one.split(',');
            let (Some(n), Some(id), Some(error), Some(model), Some(lang), None) = (
                fields.next(),
                fields.next(),
                fields.next(),
                fields.next(),
                fields.next(),
                fields.next(),
            ) else {
                return Err(format!("a recent attempt that does not read: {one:?}"));
            };
            let number = |v: &str| {
                v.parse::<i64>()
                    .map_err(|_| format!("not a number: {one:?}"))
            };
            let error = error
                .parse::<f64>()
                .map_err(|_| format!("not an error: {one:?}"))?;
            let entry = Entry {
                id: number(id)?,
                error,
                model: model.into(),
                lang: lang.into(),
            };
            recent.insert(number(n)?, entry);
        }
        Ok(Self(recent))
    }

    /// The packed text (`None` when empty).
    pub fn pack(&self) -> Option<String> {
        if self.0.is_empty() {
            return None;
        }
        let mut packed = String::with_capacity(self.0.len() * 48);
        let mut number = itoa::Buffer::new();
        for (n, e) in &self.0 {
            if !packed.is_empty() {
                packed.push(';');
            }
            packed.push_str(number.format(*n));
            packed.push(',');
            packed.push_str(number.format(e.id));
            packed.push(',');
            push_double(&mut packed, e.error);
            packed.push(',');
            packed.push_str(&e.model);
            packed.push(',');
            packed.push_str(&e.lang);
        }
        Some(packed)
    }

    /// Whether attempt `n` may be stored, the visit's highest so far being `highest`.
    pub fn admits(&self, highest: i64, n: i64) -> Admit {
        if self.0.contains_key(&n) {
            Admit::Repeat
        } else if n < highest - LATE {
            Admit::Late
        } else {
            Admit::New
        }
    }

    pub fn insert(&mut self, n: i64, entry: Entry) {
        self.0.insert(n, entry);
    }

    pub fn get(&self, n: i64) -> Option<&Entry> {
        self.0.get(&n)
    }

    /// Forgets what no new attempt can change any more (below `highest` - [`KEPT`]).
    pub fn prune(&mut self, highest: i64) {
        self.0 = self.0.split_off(&(highest - KEPT));
    }

    /// What became of the comment on attempt `n`, of a visit of `lesson`,
    /// as far as the window tells (nothing: no such attempt).
    pub fn outcome(&self, lesson: Which, n: i64) -> Outcome {
        let Some(this) = self.0.get(&n) else {
            return Outcome::default();
        };
        let next = self.0.get(&(n + 1));
        let above = !lesson.reaches_goal(this.error);
        let reached = above
            && self
                .0
                .range(n + 1..=n + SOON)
                .any(|(_, later)| lesson.reaches_goal(later.error));
        Outcome {
            comments: 1,
            followed: i64::from(next.is_some()),
            improved: i64::from(next.is_some_and(|next| next.error < this.error)),
            above: i64::from(above),
            reached: i64::from(reached),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(errors: &[(i64, f64)]) -> Recent {
        let mut recent = Recent::default();
        for &(n, error) in errors {
            let entry = Entry {
                id: 100 + n,
                error,
                model: "m".into(),
                lang: "en".into(),
            };
            recent.insert(n, entry);
        }
        recent
    }

    fn outcome(followed: i64, improved: i64, above: i64, reached: i64) -> Outcome {
        Outcome {
            comments: 1,
            followed,
            improved,
            above,
            reached,
        }
    }

    #[test]
    fn a_comments_outcome_is_its_next_attempt_and_the_five_after() {
        let w = window(&[(1, 900.0), (2, 800.0), (3, 850.0), (7, 449.0)]);
        let o = |n| w.outcome(Which::One, n);
        assert_eq!(o(1), outcome(1, 1, 1, 0));
        assert_eq!(o(2), outcome(1, 0, 1, 1));
        assert_eq!(o(3), outcome(0, 0, 1, 1));
        assert_eq!(o(7), outcome(0, 0, 0, 0));
        assert_eq!(o(4), Outcome::default(), "no such attempt");
        let two = window(&[(1, 1500.0), (2, 1419.0)]);
        assert_eq!(two.outcome(Which::Two, 1), outcome(1, 1, 1, 1));
    }

    #[test]
    fn a_window_packs_and_reads_back_exactly() {
        let w = window(&[(3, 1.0 / 3.0), (4, 799.09), (5, 1e-7)]);
        let packed = w.pack().expect("three attempts");
        assert_eq!(Recent::parse(Some(&packed)).expect("reads"), w);
        assert_eq!(Recent::default().pack(), None);
        assert_eq!(Recent::parse(None).expect("none"), Recent::default());
        for bad in ["3,1,x,m,en", "3,1,2.0,m", "a,1,2.0,m,en", "3:1:2.0:m:en"] {
            assert!(Recent::parse(Some(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn repeats_and_late_attempts_are_refused_and_the_window_keeps_what_can_change() {
        let mut w = window(&(2..=10).map(|n| (n, 900.0)).collect::<Vec<_>>());
        assert_eq!(w.admits(10, 10), Admit::Repeat);
        assert_eq!(w.admits(10, 11), Admit::New);
        assert_eq!(w.admits(10, 7), Admit::Repeat);
        assert_eq!(w.admits(10, 6), Admit::Repeat);
        assert_eq!(w.admits(10, 1 + 5), Admit::Repeat);
        w.prune(10);
        assert_eq!(w.get(1), None);
        assert!(w.get(2).is_some(), "10 - KEPT is kept");
        let gap = window(&[(9, 900.0), (10, 800.0)]);
        assert_eq!(gap.admits(10, 7), Admit::New, "within LATE: a gap filled");
        assert_eq!(gap.admits(10, 6), Admit::Late);
    }
}
