//! The learned record per language: a model is judged in each language on its
//! own answers there (Thompson sampling with the request's language as the
//! context), so a model that writes good English and broken Chinese is
//! neither punished in English for its Chinese nor rewarded in Chinese for
//! its English.
//!
//! [`PerLang`] holds one value per [`Lang`] (the router keeps a
//! [`LangRecord`] and a quality breaker per model and language); the
//! circuit breaker for outages, the latency estimates and the original server's counters
//! stay per model: an outage, or a slow server, is not language-specific.
//! A leaf of the router.

use std::ops::{Index, IndexMut};

use tokio::time::Instant;

use serde::{Deserialize, Serialize};

use super::learning::DecayedCounts;
use crate::feedback::Vote;
use vocabulary::Lang;

/// One value per language, indexed by [`Lang`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PerLang<T>([T; Lang::ALL.len()]);

impl<T> PerLang<T> {
    /// The value of each language, made by `f`.
    pub fn from_fn(f: impl FnMut(Lang) -> T) -> Self {
        Self(Lang::ALL.map(f))
    }

    /// Each language with its value, in the order of [`Lang::ALL`].
    pub fn iter(&self) -> impl Iterator<Item = (Lang, &T)> {
        Lang::ALL.into_iter().zip(self.0.iter())
    }

    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.0.iter_mut()
    }

    /// Each language's value mapped by `f`.
    pub fn map<U>(&self, mut f: impl FnMut(Lang, &T) -> U) -> PerLang<U> {
        PerLang::from_fn(|lang| f(lang, &self[lang]))
    }
}

impl<T> Index<Lang> for PerLang<T> {
    type Output = T;

    fn index(&self, lang: Lang) -> &T {
        &self.0[lang.index()]
    }
}

impl<T> IndexMut<Lang> for PerLang<T> {
    fn index_mut(&mut self, lang: Lang) -> &mut T {
        &mut self.0[lang.index()]
    }
}

/// What a model showed in one language.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LangRecord {
    /// Time-decayed good answers against failed calls and rejected answers:
    /// the Thompson draw's memory for this language.
    pub decayed: DecayedCounts,
    /// Calls made for requests in this language.
    pub calls: u64,
    /// Good answers.
    pub successes: u64,
    /// Answers the reply checks rejected.
    pub rejections: u64,
    /// Visitors' votes in effect on its comments ([`super::votes`]).
    pub votes: VoteTally,
}

/// The visitors' votes in effect on one model's comments in one language
/// (`super::votes`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VoteTally {
    pub up: u64,
    pub down: u64,
}

impl VoteTally {
    fn of(&mut self, vote: Vote) -> &mut u64 {
        match vote {
            Vote::Up => &mut self.up,
            Vote::Down => &mut self.down,
        }
    }

    /// One more `vote`.
    pub fn count(&mut self, vote: Vote) {
        let n = self.of(vote);
        *n = n.saturating_add(1);
    }

    /// One `vote` fewer (it was replaced).
    pub fn take_back(&mut self, vote: Vote) {
        let n = self.of(vote);
        *n = n.saturating_sub(1);
    }
}

/// The decayed `(successes, failures)` of all languages together (decay is
/// linear, so the sum of the decayed counts is the decayed sum).
pub fn total(
    records: &PerLang<LangRecord>,
    now: Instant,
    half_life: std::time::Duration,
) -> (f64, f64) {
    records.iter().fold((0.0, 0.0), |(s, f), (_, r)| {
        let (rs, rf) = r.decayed.at(now, half_life);
        (s + rs, f + rf)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_language_has_its_own_value() {
        let mut v = PerLang::from_fn(|l| l.code().len());
        v[Lang::Pt] = 7;
        assert_eq!(
            v.iter().map(|(l, n)| (l.code(), *n)).collect::<Vec<_>>(),
            vec![("en", 2), ("pt", 7), ("zh", 2)]
        );
        assert_eq!(v.map(|l, n| (l, n + 1))[Lang::Zh], (Lang::Zh, 3));
    }
}
