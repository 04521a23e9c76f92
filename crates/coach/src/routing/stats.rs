//! Every model's record ([`Records`]: a [`ModelStats`] per model, and the
//! half-life their learned counts fade with) and how a finished call updates
//! it: the original server's counters, the learned (decayed) counts of the
//! request's language ([`super::by_lang`]), the latency estimates and the
//! outcome counts that `/models` and `/metrics` show.
//! Touches no breaker: the router tells the breakers
//! ([`super::admission::Breakers::record`]).

use std::{collections::BTreeMap, time::Duration};

// foldhash: looked up for every candidate of every comment; the keys are
// the registry's aliases, which no visitor chooses.
use foldhash::{HashMap, HashMapExt};

use serde::Serialize;
use tokio::time::Instant;

use super::{
    by_lang::{LangRecord, PerLang},
    hedge::LatencyWindow,
    learning::{PeakEwma, LATENCY_TAU},
    DEFAULT_HALF_LIFE,
};
use crate::{outcome::Outcome, providers::ProviderName};
use vocabulary::Lang;

mod served;
pub use served::{ProviderRecord, Tokens, MAX_PROVIDERS};

const FAST: Duration = Duration::from_millis(900);
const SLOW: Duration = Duration::from_millis(2500);

/// One model's record, as the original server kept it (plus latency and the last error).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModelStats {
    pub total: u64,
    pub errors: f64,
    /// This model's part of all calls.
    pub share: f64,
    pub errop: f64,
    pub pok: f64,
    pub successes: u64,
    pub latency_ms_total: u64,
    /// Calls by outcome: `ok`, `rejected`, `timeout`, `rate_limited`, …
    pub outcomes: BTreeMap<String, u64>,
    /// Tokens its answers billed (their `usage`; `/models` shows them
    /// beside the stats).
    #[serde(skip)]
    pub tokens: Tokens,
    /// Per inference provider the upstream named: outcomes and tokens.
    #[serde(skip)]
    pub providers: BTreeMap<ProviderName, ProviderRecord>,
    /// The provider named by the latest call that named one.
    #[serde(skip)]
    pub last_provider: Option<ProviderName>,
    /// Shown once, beside the stats, on `GET /models`.
    #[serde(skip)]
    pub last_error: Option<Outcome>,
    /// Per language: time-decayed successes and failures (the learning
    /// strategy's memory) and the counts `/models` shows.
    #[serde(skip)]
    pub by_lang: PerLang<LangRecord>,
    /// Peak-EWMA of response times.
    #[serde(skip)]
    pub latency: PeakEwma,
    /// The latest answers' response times (p50/p95; p95 triggers hedges).
    #[serde(skip)]
    pub window: LatencyWindow,
}

impl Default for ModelStats {
    fn default() -> Self {
        Self {
            total: 0,
            errors: 0.0,
            share: 0.0,
            errop: 0.0,
            pok: 1.0,
            successes: 0,
            latency_ms_total: 0,
            outcomes: BTreeMap::new(),
            tokens: Tokens::default(),
            providers: BTreeMap::new(),
            last_provider: None,
            last_error: None,
            by_lang: PerLang::default(),
            latency: PeakEwma::default(),
            window: LatencyWindow::default(),
        }
    }
}

impl ModelStats {
    pub fn mean_latency_ms(&self) -> Option<f64> {
        (self.total > 0).then(|| self.latency_ms_total as f64 / self.total as f64)
    }

    pub(super) fn refresh(&mut self) {
        self.errop = if self.total == 0 {
            0.0
        } else {
            (self.errors / self.total as f64).clamp(0.0, 1.0)
        };
        self.pok = 1.0 - self.errop;
    }
}

/// Counts one more (counts restored from a file may already be huge).
fn bump(count: &mut u64) {
    *count = count.saturating_add(1);
}

/// Every model's record, and the half-life the learned counts fade with.
pub struct Records {
    pub(super) models: HashMap<String, ModelStats>,
    pub(super) half_life: Duration,
}

impl Default for Records {
    fn default() -> Self {
        Self {
            models: HashMap::new(),
            half_life: DEFAULT_HALF_LIFE,
        }
    }
}

impl Records {
    /// `alias`'s record.
    pub fn get(&self, alias: &str) -> Option<&ModelStats> {
        self.models.get(alias)
    }

    /// Keeps the records of `aliases`, starts new ones, forgets the rest.
    pub fn sync<'a>(&mut self, aliases: impl IntoIterator<Item = &'a str>) {
        let mut kept = HashMap::new();
        for alias in aliases {
            let record = self.models.remove(alias).unwrap_or_default();
            kept.insert(alias.to_string(), record);
        }
        self.models = kept;
        self.refresh_shares();
    }

    /// What one finished call for a request in `lang` teaches the record.
    /// `probe`: the call was the model breaker's half-open probe.
    pub fn learn(
        &mut self,
        alias: &str,
        lang: Lang,
        latency: Duration,
        outcome: &Outcome,
        probe: bool,
    ) {
        if *outcome == Outcome::QueueTimeout {
            return self.learn_queued(alias, lang, latency);
        }
        let learned = Learned::of(outcome, lang, latency, probe);
        match learned.kind {
            Kind::Success => self.learn_success(alias, learned),
            Kind::Rejected | Kind::Failure => self.learn_failure(alias, learned, outcome),
        }
    }

    fn learn_success(&mut self, alias: &str, learned: Learned) {
        let (lang, latency) = (learned.lang, learned.latency);
        self.record(alias, learned, |s| {
            s.successes = s.successes.saturating_add(1);
            bump(&mut s.by_lang[lang].successes);
            s.window.observe(latency);
            bump(s.outcomes.entry(Outcome::Ok.kind().into()).or_default());
            if latency < FAST {
                s.errors = (s.errors - 0.1).max(0.0);
            } else if latency > SLOW {
                s.errors += 0.2;
            }
        });
    }

    /// For the learning strategy a rejection is a whole failure: the visitor
    /// got nothing from it (the breaker, told separately, still sees that the
    /// model is up).
    fn learn_failure(&mut self, alias: &str, learned: Learned, outcome: &Outcome) {
        let (lang, latency) = (learned.lang, learned.latency);
        let rejected = learned.kind == Kind::Rejected;
        self.record(alias, learned, |s| {
            s.errors += 1.0;
            // A rejected answer is still an answer: its time counts for p95.
            if rejected {
                s.window.observe(latency);
                bump(&mut s.by_lang[lang].rejections);
            }
            bump(s.outcomes.entry(outcome.kind().into()).or_default());
            s.last_error = Some(outcome.clone());
        });
    }

    /// A call that ran out of time behind our own other calls to the model
    /// (`Outcome::QueueTimeout`): counted as a call, learned as nothing (the
    /// model was busy, not down, and says nothing of its pace).
    fn learn_queued(&mut self, alias: &str, lang: Lang, latency: Duration) {
        let Some(s) = self.models.get_mut(alias) else {
            return;
        };
        bump(&mut s.total);
        bump(&mut s.by_lang[lang].calls);
        s.latency_ms_total = s.latency_ms_total.saturating_add(millis(latency));
        bump(
            s.outcomes
                .entry(Outcome::QueueTimeout.kind().into())
                .or_default(),
        );
        s.refresh();
        self.refresh_shares();
    }

    fn record(&mut self, alias: &str, learned: Learned, update: impl FnOnce(&mut ModelStats)) {
        let half_life = self.half_life;
        let Some(s) = self.models.get_mut(alias) else {
            return;
        };
        let now = Instant::now();
        let Learned {
            lang,
            latency,
            timed,
            probe,
            kind,
        } = learned;
        // A half-open probe's result (`probe`: the call held the model
        // breaker's probe ticket) is news about a model that was down. A
        // failure says only "still down", which the breaker already knows:
        // it is not piled onto the learned record. An answer means it is
        // back: every language's record starts afresh from the optimistic
        // prior (keeping only its rejected answers, which told of the
        // answers, not the outage), and the latency estimate from this call,
        // so it gets its share back quickly.
        if probe && kind != Kind::Failure {
            for record in s.by_lang.values_mut() {
                record.decayed = record.decayed.after_outage(now, half_life);
            }
            s.latency = PeakEwma::default();
        }
        let decayed = &mut s.by_lang[lang].decayed;
        match kind {
            Kind::Success => decayed.add(now, half_life, 1.0, 0.0),
            Kind::Rejected => decayed.reject(now, half_life),
            Kind::Failure if !probe => decayed.add(now, half_life, 0.0, 1.0),
            Kind::Failure => {}
        }
        if timed {
            s.latency.observe(now, LATENCY_TAU, latency);
        }
        bump(&mut s.total);
        bump(&mut s.by_lang[lang].calls);
        s.latency_ms_total = s.latency_ms_total.saturating_add(millis(latency));
        update(s);
        s.refresh();
        self.refresh_shares();
    }

    pub(super) fn refresh_shares(&mut self) {
        let all = self
            .models
            .values()
            .fold(0u64, |sum, s| sum.saturating_add(s.total));
        for s in self.models.values_mut() {
            s.share = if all == 0 {
                0.0
            } else {
                s.total as f64 / all as f64
            };
        }
    }
}

/// What kind of observation a call is for the learned record.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Success,
    Rejected,
    Failure,
}

/// One finished call, as [`Records::record`] learns it.
struct Learned {
    lang: Lang,
    latency: Duration,
    /// Whether its time says how slow the model is.
    timed: bool,
    probe: bool,
    kind: Kind,
}

impl Learned {
    /// A finished call as the learned record sees it: an answer, a rejected
    /// answer or a failure. Only an answer or a timeout says how slow the
    /// model is: a refused connection in 1 ms must not make a dead model
    /// look fast.
    fn of(outcome: &Outcome, lang: Lang, latency: Duration, probe: bool) -> Self {
        let kind = match outcome {
            Outcome::Ok => Kind::Success,
            Outcome::Rejected(_) => Kind::Rejected,
            _ => Kind::Failure,
        };
        Self {
            lang,
            latency,
            timed: kind != Kind::Failure || *outcome == Outcome::Timeout,
            probe,
            kind,
        }
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}
