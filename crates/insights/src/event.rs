//! What the insights record: a [`Visit`], an [`Attempt`], a [`ToolUse`]
//! and a [`Vote`] on a comment, together an [`Event`], each made only of checked values
//! ([`super::values`], [`super::codes`]). Shared by the server and the
//! browser (no database code here).
//!
//! Every value is parsed at the edge, once: a constructor either returns the
//! type or a [`FieldError`] that names the field (`visit`, `room`, `error`, …),
//! which the endpoint turns into a 4xx naming it. Nothing here can hold an IP
//! address, a user agent, a cookie or free text: identifiers and codes have a
//! fixed alphabet and length, numbers are finite, times are whole minutes.

use super::{
    codes::{Device, Layout, Tier, Tool, Verdict},
    values::{CommentKey, FieldError, Minute, ModelName, Reason, RoomCode, VisitId},
};
use lesson::lessons::Which;
use vocabulary::Lang;

/// What became of an attempt's comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttemptOutcome {
    /// A model's comment was shown.
    Served,
    /// A model's comment was refused (the reply checks, or a limit), and why.
    Rejected(Reason),
    /// The offline commentator spoke.
    Offline,
}

impl AttemptOutcome {
    /// The stored code: `served`, `rejected` or `offline`.
    pub fn code(&self) -> &'static str {
        match self {
            AttemptOutcome::Served => "served",
            AttemptOutcome::Rejected(_) => "rejected",
            AttemptOutcome::Offline => "offline",
        }
    }

    pub fn reason(&self) -> Option<&Reason> {
        match self {
            AttemptOutcome::Rejected(why) => Some(why),
            _ => None,
        }
    }
}

/// One page load.
#[derive(Clone, Debug, PartialEq)]
pub struct Visit {
    pub id: VisitId,
    /// The lesson of the page (`/` is 1, `/two` is 2): its attempts' lesson.
    pub lesson: Which,
    pub lang: Lang,
    pub layout: Layout,
    pub device: Device,
    pub room: Option<RoomCode>,
    /// When it began (the server's minute on arrival).
    pub started: Minute,
}

/// One attempt: the point the visitor asked a comment on, and the comment's fate.
#[derive(Clone, Debug, PartialEq)]
pub struct Attempt {
    pub visit: VisitId,
    /// Its number, point and latency, checked.
    pub numbers: AttemptNumbers,
    /// The comment's language (a visitor may switch mid-visit).
    pub lang: Lang,
    pub model: ModelName,
    pub outcome: AttemptOutcome,
    pub at: Minute,
}

/// An attempt's numbers, checked by [`AttemptNumbers::new`] (lesson 1: a
/// weight and the bias) or [`AttemptNumbers::two`] (lesson 2: `w1` as the
/// weight, `w2` as the second weight, `b` as the bias).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttemptNumbers {
    number: u32,
    error: f64,
    weight: f64,
    weight2: Option<f64>,
    bias: f64,
    latency_ms: u64,
}

impl AttemptNumbers {
    /// Attempts a visit may number (far beyond what a person makes).
    pub const MAX_NUMBER: u32 = 100_000;
    /// The attempts of a visit that are recorded: 1 to this (about ten times
    /// what a learner makes); later ones are answered, not stored.
    pub const MAX_RECORDED: u32 = 500;
    /// The longest latency kept (a comment waits seconds, never ten minutes).
    pub const MAX_LATENCY_MS: u64 = 600_000;
    /// Bounds on error, weight and bias: the page's own values are far inside.
    const MAX_ABS: f64 = 1e12;

    /// `number` is 1 for a visit's first attempt (the comment request's
    /// earlier errors + 1); `error`, `weight` and `bias` the point asked about.
    pub fn new(
        number: u32,
        error: f64,
        weight: f64,
        bias: f64,
        latency_ms: u64,
    ) -> Result<Self, FieldError> {
        if !(1..=Self::MAX_NUMBER).contains(&number) {
            return Err(FieldError::new("attempt", "must be 1 to 100000"));
        }
        if !(error.is_finite() && (0.0..=Self::MAX_ABS).contains(&error)) {
            return Err(FieldError::new("error", "must be a finite number ≥ 0"));
        }
        for (field, v) in [("weight", weight), ("bias", bias)] {
            if !(v.is_finite() && v.abs() <= Self::MAX_ABS) {
                return Err(FieldError::new(field, "must be a finite number"));
            }
        }
        if latency_ms > Self::MAX_LATENCY_MS {
            return Err(FieldError::new("latency_ms", "must be 0 to 600000"));
        }
        Ok(Self {
            number,
            error,
            weight,
            weight2: None,
            bias,
            latency_ms,
        })
    }

    /// A lesson 2 attempt at `[w1, w2, b]` (each checked as `weight`, `w2`
    /// and `bias`; the rest as [`AttemptNumbers::new`]).
    pub fn two(
        number: u32,
        error: f64,
        [w1, w2, b]: [f64; 3],
        latency_ms: u64,
    ) -> Result<Self, FieldError> {
        if !(w2.is_finite() && w2.abs() <= Self::MAX_ABS) {
            return Err(FieldError::new("w2", "must be a finite number"));
        }
        Ok(Self {
            weight2: Some(w2),
            ..Self::new(number, error, w1, b, latency_ms)?
        })
    }

    /// The lesson the numbers are a point of.
    pub fn lesson(&self) -> Which {
        if self.weight2.is_some() {
            Which::Two
        } else {
            Which::One
        }
    }

    pub fn number(&self) -> u32 {
        self.number
    }
    pub fn error(&self) -> f64 {
        self.error
    }
    pub fn weight(&self) -> f64 {
        self.weight
    }
    /// Lesson 2's second weight (`w2`); `None` in lesson 1.
    pub fn weight2(&self) -> Option<f64> {
        self.weight2
    }
    pub fn bias(&self) -> f64 {
        self.bias
    }
    pub fn latency_ms(&self) -> u64 {
        self.latency_ms
    }
}

/// A tool a visit used, at a minute (the store keeps the first minute and a count).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolUse {
    pub visit: VisitId,
    pub tool: Tool,
    pub at: Minute,
}

/// A visitor's vote on a comment: what the comment's id names, the vote,
/// and the minutes; nothing of the visit or the person. One row per comment:
/// a second vote on it replaces the first.
#[derive(Clone, Debug, PartialEq)]
pub struct Vote {
    pub comment: CommentKey,
    /// The lesson the comment was about.
    pub lesson: Which,
    /// The comment's writer: a model's alias, or `offline`.
    pub model: ModelName,
    /// The comment's language.
    pub lang: Lang,
    pub tier: Tier,
    pub verdict: Verdict,
    /// When the comment was written, and when the vote was cast.
    pub issued: Minute,
    pub at: Minute,
}

/// How long after its visit began an attempt or a tool is stored (24 hours,
/// and the hour a room's start is rounded down by, `super::rooms`), in
/// minutes; and how far before it (two replicas' clocks may differ a little).
/// Outside them, or with no stored visit, the store refuses it.
pub const AFTER_START_MIN: i64 = 25 * 60;
pub const BEFORE_START_MIN: i64 = 5;

/// Whether an event at minute `at` belongs with a visit begun at `started`
/// ([`AFTER_START_MIN`], [`BEFORE_START_MIN`]).
pub fn within_visit(started: Minute, at: Minute) -> bool {
    (-BEFORE_START_MIN..=AFTER_START_MIN).contains(&(at.0 - started.0))
}

/// Anything the writer stores.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    Visit(Visit),
    Attempt(Attempt),
    Tool(ToolUse),
    Vote(Vote),
}

#[cfg(test)]
mod tests;
