//! The simulated world: each model's true behaviour over time in every
//! scenario, and a provider that answers as that truth says, with luck drawn
//! from a stable hash so every strategy meets the same luck.

use std::{collections::VecDeque, sync::Mutex, time::Duration};

use async_trait::async_trait;
use coach::{
    model::ModelSpec,
    prompt::Prompt,
    providers::{Provider, ProviderError},
};
use vocabulary::Lang;

use tokio::time::Instant;

use super::MODELS;

/// One model's true behaviour at a moment.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Truth {
    pub(crate) latency_ms: f64,
    /// Probability of an HTTP-level failure.
    pub(crate) p_error: f64,
    /// Probability of an answer that fails the reply checks.
    pub(crate) p_bad: f64,
    pub(crate) error: Failure,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Failure {
    Upstream,
    Refused,
    RateLimited,
}

pub(crate) fn steady(alias: &str) -> Truth {
    let (latency_ms, p_error, p_bad) = match alias {
        "a" => (300.0, 0.02, 0.02),
        "b" => (600.0, 0.02, 0.05),
        "c" => (1200.0, 0.05, 0.05),
        _ => (2000.0, 0.10, 0.10),
    };
    Truth {
        latency_ms,
        p_error,
        p_bad,
        error: Failure::Upstream,
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Scenario {
    Steady,
    Down,
    Slow,
    Bad,
    RateLimited,
    AllDown,
    Rejected,
    /// Run apart (see `languages`): not in [`Scenario::ALL`].
    Languages,
    /// Run apart (see `voting`): not in [`Scenario::ALL`].
    Unhelpful,
}

impl Scenario {
    pub(crate) const ALL: [Scenario; 7] = [
        Scenario::Steady,
        Scenario::Down,
        Scenario::Slow,
        Scenario::Bad,
        Scenario::RateLimited,
        Scenario::AllDown,
        Scenario::Rejected,
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Scenario::Steady => "1 steady",
            Scenario::Down => "2 a down 1000–2000 s",
            Scenario::Slow => "3 a slow (5 s) 1000–2000 s",
            Scenario::Bad => "4 b bad answers 50 %",
            Scenario::RateLimited => "5 a rate-limited > 0.5 req/s",
            Scenario::AllDown => "6 all down 1000–2000 s, back one by one",
            Scenario::Rejected => "7 a always rejected (rambles)",
            Scenario::Languages => "8 a good only in en, b only in zh",
            Scenario::Unhelpful => "9 a fluent but unhelpful (passes every rule)",
        }
    }

    /// The language of request `i`: English and Chinese in turn in
    /// scenario 8, English otherwise.
    pub(crate) fn lang(self, i: usize) -> Lang {
        if self == Scenario::Languages && i % 2 == 1 {
            Lang::Zh
        } else {
            Lang::En
        }
    }

    /// Whether `alias` writes `lang` (scenario 8: `a` English only, `b`
    /// Chinese only; everyone everything elsewhere).
    pub(crate) fn writes(self, alias: &str, lang: Lang) -> bool {
        match (self, alias) {
            (Scenario::Languages, "a") => lang == Lang::En,
            (Scenario::Languages, "b") => lang == Lang::Zh,
            _ => true,
        }
    }

    /// How likely a comment of `alias` is to help its reader (scenario 9:
    /// `a`, the fastest, passes every check but seldom helps; every comment
    /// helps elsewhere). The reply checks cannot see it; a reader can.
    pub(crate) fn helps(self, alias: &str) -> f64 {
        match (self, alias) {
            (Scenario::Unhelpful, "a") => 0.1,
            (Scenario::Unhelpful, _) => 0.8,
            _ => 1.0,
        }
    }

    /// The model whose every answer is rejected (its share of first picks is
    /// followed over time).
    pub(crate) fn always_rejected(self) -> Option<&'static str> {
        (self == Scenario::Rejected).then_some("a")
    }

    /// The model that recovers, and when (for the recovery-time column).
    pub(crate) fn recovery(self) -> Option<(&'static str, f64)> {
        match self {
            Scenario::Down | Scenario::Slow | Scenario::AllDown => Some(("a", 2000.0)),
            _ => None,
        }
    }

    /// How many models can answer at all at simulated second `t`.
    pub(crate) fn healthy_count(self, t: f64) -> usize {
        MODELS
            .iter()
            .filter(|m| {
                let truth = self.truth(m, t);
                truth.p_error < 1.0 && truth.p_bad < 1.0 && truth.latency_ms < 5000.0
            })
            .count()
    }

    /// The truth about `alias` at simulated second `t`.
    pub(crate) fn truth(self, alias: &str, t: f64) -> Truth {
        let mut truth = steady(alias);
        let outage = (1000.0..2000.0).contains(&t);
        match self {
            Scenario::Steady | Scenario::RateLimited => {}
            Scenario::Down if alias == "a" && outage => {
                truth = Truth {
                    latency_ms: 5.0,
                    p_error: 1.0,
                    p_bad: 0.0,
                    error: Failure::Refused,
                };
            }
            Scenario::Slow if alias == "a" && outage => truth.latency_ms = 5000.0,
            Scenario::Bad if alias == "b" => truth.p_bad = 0.5,
            Scenario::Rejected if alias == "a" => truth.p_bad = 1.0,
            Scenario::AllDown => {
                let back =
                    2000.0 + 300.0 * MODELS.iter().position(|m| *m == alias).unwrap_or(0) as f64;
                if (1000.0..back).contains(&t) {
                    truth = Truth {
                        latency_ms: 5.0,
                        p_error: 1.0,
                        p_bad: 0.0,
                        error: Failure::Refused,
                    };
                }
            }
            _ => {}
        }
        truth
    }
}

/// The simulated upstream: latency and outcome drawn from the scenario's truth.
pub(crate) struct SimProvider {
    pub(crate) scenario: Scenario,
    /// Which run of the scenario (the luck of the draws).
    pub(crate) seed: u64,
    pub(crate) start: Instant,
    /// Calls to "a" in the last 10 s (scenario 5: more than 5 get a 429).
    pub(crate) recent_a: Mutex<VecDeque<Instant>>,
}

#[async_trait]
impl Provider for SimProvider {
    async fn complete(
        &self,
        spec: &ModelSpec,
        prompt: &Prompt,
        timeout: Duration,
    ) -> Result<String, ProviderError> {
        let now = Instant::now();
        let t = now.duration_since(self.start).as_secs_f64();
        let mut truth = self.scenario.truth(&spec.alias, t);
        if self.scenario == Scenario::RateLimited && spec.alias == "a" {
            let mut recent = self.recent_a.lock().unwrap();
            while recent
                .front()
                .is_some_and(|at| now.duration_since(*at) > Duration::from_secs(10))
            {
                recent.pop_front();
            }
            recent.push_back(now);
            if recent.len() > 5 {
                truth = Truth {
                    latency_ms: 20.0,
                    p_error: 1.0,
                    p_bad: 0.0,
                    error: Failure::RateLimited,
                };
            }
        }
        // The request's own numbers are in the user turn: key by (run, request, model).
        let key = stable_key(self.seed, &[&prompt.user, &spec.alias]);
        let jitter = 0.7 + 0.6 * draw(key, 0);
        let latency = Duration::from_secs_f64(truth.latency_ms * jitter / 1000.0);
        let (error_draw, bad_draw) = (draw(key, 1), draw(key, 2));
        if latency > timeout {
            tokio::time::sleep(timeout).await;
            return Err(ProviderError::Timeout);
        }
        tokio::time::sleep(latency).await;
        if error_draw < truth.p_error {
            return Err(match truth.error {
                Failure::Upstream => ProviderError::Upstream(502),
                Failure::Refused => ProviderError::Connect,
                Failure::RateLimited => ProviderError::RateLimited {
                    retry_after: Some(Duration::from_secs(5)),
                },
            });
        }
        if !self.scenario.writes(&spec.alias, prompt.lang) {
            // An answer in the wrong language: rejected.
            return Ok(String::new());
        }
        Ok(if bad_draw >= truth.p_bad {
            // A good answer is written in the request's language (the reply
            // check rejects English sent to a Chinese visitor).
            match prompt.lang {
                Lang::Zh => "好一步！|fim|".into(),
                _ => "Nice move! |fim|".into(),
            }
        } else if truth.p_bad >= 1.0 {
            // The model that always rambles: 400 characters, no end marker,
            // and no sentence end for the reply check to cut back to.
            "Let me think about the weight and the bias step by step, ".repeat(7)
        } else {
            String::new()
        })
    }
}

/// SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014): the `(k + 1)`-th output of the generator whose
/// state starts at `state`. A fixed function: the same on every platform and
/// release.
pub(crate) fn splitmix64(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A stable key for `seed` and the texts in `parts`: each 8-byte chunk, then
/// each part's length, is mixed in with SplitMix64.
pub(crate) fn stable_key(seed: u64, parts: &[&str]) -> u64 {
    let mut key = splitmix64(seed);
    for part in parts {
        for chunk in part.as_bytes().chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            key = splitmix64(key ^ u64::from_le_bytes(word));
        }
        key = splitmix64(key ^ part.len() as u64);
    }
    key
}

/// The `k`-th number in [0, 1) of the SplitMix64 stream keyed by `key`.
pub(crate) fn draw(key: u64, k: u64) -> f64 {
    let bits = splitmix64(key.wrapping_add(k.wrapping_mul(0x9e37_79b9_7f4a_7c15)));
    // The top 53 bits, as f64 has 53 bits of precision.
    (bits >> 11) as f64 / (1u64 << 53) as f64
}
