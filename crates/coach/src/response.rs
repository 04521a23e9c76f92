//! What the coach answers: the [`Comment`] (the body of `GET /error` and of
//! `POST /api/comment`), with the [`Tier`] it was written for, the
//! models [`Tried`] and any [`Limited`] that kept the models out, as the
//! answer's JSON carries them; a leaf.

use serde::{Deserialize, Serialize};

use super::outcome::Outcome;
use vocabulary::Lang;

/// How far the visitor is from the goal, by the current error (the original server's tiers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    /// error > 2000: tease playfully.
    Far,
    /// 450 < error ≤ 2000: a constructive nudge.
    Close,
    /// error ≤ 450: celebrate and motivate.
    Goal,
}

impl Tier {
    /// Every tier, in declaration order (`tier as usize` indexes it).
    pub const ALL: [Tier; 3] = [Tier::Far, Tier::Close, Tier::Goal];

    /// Lesson 1's tier of `error`.
    pub fn of(error: f64) -> Self {
        Self::in_lesson(lesson::lessons::Which::One, error)
    }

    /// Above this error a visitor of `lesson` is far: 2,000 in lesson 1,
    /// 5,000 in lesson 2 (its start is 3,431.91).
    pub const fn far_above(lesson: lesson::lessons::Which) -> f64 {
        match lesson {
            lesson::lessons::Which::One => 2000.0,
            lesson::lessons::Which::Two => 5000.0,
        }
    }

    /// The tier of `error` in `lesson`: far above [`Tier::far_above`], the
    /// goal its own.
    pub fn in_lesson(lesson: lesson::lessons::Which, error: f64) -> Self {
        if error > Self::far_above(lesson) {
            Tier::Far
        } else if !lesson.reaches_goal(error) {
            Tier::Close
        } else {
            Tier::Goal
        }
    }
}

/// One model tried for a request, and what happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tried {
    pub model: String,
    /// `ok`, or why it was not used (`timeout`, `rate_limited`, `rejected: too long`, …).
    pub outcome: Outcome,
    pub latency_ms: u64,
    /// The inference provider that took the call, when the upstream named
    /// it (Hugging Face's router: `nscale`, `publicai`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub served_by: Option<String>,
}

impl Tried {
    /// `alias`, which ended as `outcome` after `latency` (no provider named).
    pub fn new(alias: &str, outcome: Outcome, latency: std::time::Duration) -> Self {
        Tried {
            model: alias.to_string(),
            outcome,
            latency_ms: u64::try_from(latency.as_millis()).unwrap_or(u64::MAX),
            served_by: None,
        }
    }
}

/// The coach's answer to one attempt (the body of `GET /error`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Comment {
    pub comment: String,
    /// Alias of the model that wrote it (`offline` for the built-in commentator).
    pub model: String,
    /// Which provider answered: `chat`, `text-generation` or `offline`.
    pub provider: String,
    pub tier: Tier,
    pub lang: Lang,
    pub latency_ms: u64,
    /// True when the offline commentator answered instead of a model.
    pub fallback: bool,
    /// Why no model was asked, when a limit stood in the way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limited: Option<Limited>,
    pub tried: Vec<Tried>,
    /// The id a vote on it names (`POST /api/feedback`): opaque, signed by
    /// the server (`feedback::id`); absent where no signer is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
}

/// A limit that kept a comment from the models (the offline commentator answered).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Limited {
    /// This visitor asked too often (per-client rate limit).
    Client,
    /// Too many model calls under way at once, all visitors together.
    Busy,
    /// The day's model-call budget is spent.
    DailyBudget,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiers_follow_the_seed_thresholds() {
        assert_eq!(Tier::of(134_971.67), Tier::Far);
        assert_eq!(Tier::of(2000.01), Tier::Far);
        assert_eq!(Tier::of(2000.0), Tier::Close);
        assert_eq!(Tier::of(450.01), Tier::Close);
        assert_eq!(Tier::of(450.0), Tier::Goal);
        assert_eq!(Tier::of(447.29), Tier::Goal);
    }
}
