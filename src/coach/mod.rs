//! The coach: a short comment on every attempt, written by one of several small
//! language models and, when none can answer, by the built-in offline commentator.
//!
//! Types here compile for both the server and the browser (the page receives a
//! [`Comment`]); everything that calls models is server-only (`ssr`).
//!
//! One request, in order: [`input`] parses and validates the numbers (text from the
//! request never reaches a prompt) → [`prompt`] builds the prompt for the tier →
//! `router` picks a model, weighted by how well each has done, and fails over →
//! `providers` call it → [`reply`] checks the answer (and, with [`directions`],
//! that it does not contradict the facts of [`crate::advice`]) → `service` assembles the
//! [`Comment`], falling back to `providers::offline`.

use serde::{Deserialize, Serialize};

pub mod directions;
pub mod facts;
pub mod input;
pub mod prompt;
pub mod reply;

#[cfg(feature = "ssr")]
pub mod breaker;
#[cfg(feature = "ssr")]
pub mod budget;
#[cfg(all(test, feature = "ssr"))]
mod fake;
#[cfg(feature = "ssr")]
pub mod hedge;
#[cfg(feature = "ssr")]
pub mod learning;
#[cfg(feature = "ssr")]
pub mod providers;
#[cfg(feature = "ssr")]
pub mod registry;
#[cfg(feature = "ssr")]
pub mod router;
#[cfg(feature = "ssr")]
pub mod service;
#[cfg(feature = "ssr")]
pub mod snapshot;

pub mod api;

/// How far the visitor is from the goal, by the current error (the seed's tiers).
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

    pub fn of(error: f64) -> Self {
        if error > 2000.0 {
            Tier::Far
        } else if error > crate::neuron::GOAL {
            Tier::Close
        } else {
            Tier::Goal
        }
    }
}

/// The languages the coach speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    #[default]
    En,
    Pt,
    Zh,
}

impl Lang {
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Pt, Lang::Zh];

    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Pt => "pt",
            Lang::Zh => "zh",
        }
    }

    /// `en`, `pt`, `zh`, also with a region (`pt-BR`, `zh-CN`), any case.
    pub fn parse(tag: &str) -> Option<Self> {
        let primary = tag.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        Lang::ALL.into_iter().find(|l| l.code() == primary)
    }

    /// The best supported language of an `Accept-Language` header, by its q-values.
    pub fn from_accept_language(header: &str) -> Option<Self> {
        let mut best: Option<(f32, Lang)> = None;
        for part in header.split(',') {
            let mut pieces = part.split(';');
            let Some(lang) = pieces.next().and_then(Lang::parse) else {
                continue;
            };
            let q = pieces
                .find_map(|p| p.trim().strip_prefix("q="))
                .and_then(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            if q > 0.0 && best.is_none_or(|(bq, _)| q > bq) {
                best = Some((q, lang));
            }
        }
        best.map(|(_, l)| l)
    }
}

/// One model tried for a request, and what happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tried {
    pub model: String,
    /// `ok`, or why it was not used (`timeout`, `rate_limited`, `rejected: too long`, …).
    pub outcome: String,
    pub latency_ms: u64,
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

    #[test]
    fn languages_from_tags_and_accept_language() {
        assert_eq!(Lang::parse("pt-BR"), Some(Lang::Pt));
        assert_eq!(Lang::parse("ZH_cn"), Some(Lang::Zh));
        assert_eq!(Lang::parse("fr"), None);
        assert_eq!(
            Lang::from_accept_language("fr-FR,fr;q=0.9,pt;q=0.8,en;q=0.7"),
            Some(Lang::Pt)
        );
        assert_eq!(
            Lang::from_accept_language("en;q=0.5, zh-CN"),
            Some(Lang::Zh)
        );
        assert_eq!(Lang::from_accept_language("de, fr"), None);
        assert_eq!(Lang::from_accept_language("pt;q=0"), None);
    }
}
