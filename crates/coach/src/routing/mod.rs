//! Which model answers. The [`Router`] is its parts, each a type of its own:
//! the [`Records`] of what each model's calls taught ([`stats`], learned per
//! language: [`by_lang`], [`learning`]), its [`Breakers`] for outages and
//! for bad answers per language ([`admission`], [`breaker`]), each model's
//! [`Queues`] of calls under way ([`queue`]) and the [`Hedging`] budget
//! ([`hedge`]); its [`strategy`] turns the records into a weighted random
//! order for each request, in the request's language.
//!
//! The router decides what the parts cannot alone: whether the strategy uses
//! breakers at all, which language's record a request uses (its own, or one
//! per model for the simulation's baseline), and the generation that tells a
//! cached report it is stale. Everything a finished call teaches goes
//! through [`Router::record_outcome`], called under the service's one lock,
//! so the record and the breakers change together; a call's way in (its
//! tickets, its place in a queue, a hedge) is [`calls`]; what is saved across
//! restarts is [`snapshot`]. A visitor's vote on a comment is learned
//! through [`Router::record_vote`] ([`votes`]).
//!
//! Reads the registry's names only (`StrategyKind`, each model's [`Account`]);
//! never calls a model and never touches a file: providers and the snapshot
//! file are the service's to use.

use std::{sync::Arc, time::Duration};

use rand::{Rng, RngCore};
use tokio::time::Instant;

use crate::{
    feedback::{Cast, Vote},
    model::Account,
    outcome::Outcome,
    providers::Served,
};
pub use admission::{Breakers, Tickets};
use breaker::{BreakerReport, Ticket};
use by_lang::PerLang;
pub use hedge::Hedging;
pub use queue::Queues;
use stats::ModelStats;
pub use stats::Records;
use strategy::{pick, weigh, Standing, Strategy};
use vocabulary::Lang;

pub mod admission;
pub mod breaker;
pub mod by_lang;
pub mod calls;
pub mod hedge;
pub mod learning;
pub mod queue;
pub mod snapshot;
pub mod stats;
pub mod strategy;
pub mod votes;

#[cfg(test)]
mod account_tests;
#[cfg(test)]
mod lang_tests;
#[cfg(test)]
mod tests;

/// Half-life of the learning strategy's counts (configurable: `half_life_s`).
pub const DEFAULT_HALF_LIFE: Duration = Duration::from_secs(60);

/// One model as `GET /models` shows the router's side of it, copied out
/// under the lock (see [`Router::view`]).
#[derive(Clone, Debug)]
pub struct ModelView {
    pub stats: ModelStats,
    /// All languages together.
    pub success_estimate: f64,
    /// The breaker for outages; its `consecutive_rejections` is the most of
    /// any language's.
    pub breaker: Option<BreakerReport>,
    /// Each language's success estimate and quality breaker.
    pub by_lang: PerLang<LangView>,
    /// Calls under way now.
    pub in_flight: u32,
}

/// One language of a [`ModelView`].
#[derive(Clone, Debug)]
pub struct LangView {
    pub success_estimate: f64,
    pub breaker: Option<BreakerReport>,
}

/// One finished call, as the router learns it.
#[derive(Clone, Copy, Debug)]
pub struct Finished<'a> {
    pub alias: &'a str,
    /// The request's language.
    pub lang: Lang,
    pub latency: Duration,
    pub outcome: &'a Outcome,
    /// The upstream's own estimate of when to try again (`Retry-After`,
    /// `RateLimit`'s `t=`).
    pub wait: Option<Duration>,
    /// What [`Router::try_acquire`] gave the call.
    pub tickets: Tickets,
}

/// Every model's record, breakers and queue, and the strategy that weighs
/// them.
pub struct Router {
    records: Records,
    breakers: Breakers,
    queues: Queues,
    hedging: Hedging,
    strategy: Arc<dyn Strategy>,
    /// Records and quality breakers per language (the default), or one per
    /// model (see [`Router::set_per_language`]).
    per_language: bool,
    /// Bumped whenever a record or a breaker changes (see [`Router::generation`]).
    generation: u64,
}

impl Router {
    pub fn new(strategy: Box<dyn Strategy>) -> Self {
        Self {
            records: Records::default(),
            breakers: Breakers::default(),
            queues: Queues::default(),
            hedging: Hedging::default(),
            strategy: Arc::from(strategy),
            per_language: true,
            generation: 0,
        }
    }

    /// A number that changes whenever a model's record, breaker or queue
    /// does (a call started or finished, a probe claimed or handed back, a
    /// reload or a restore): a report made at the same generation is still
    /// true, but for the passing of time.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    fn changed(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// Something a report shows changed outside the router (a model's
    /// availability check): reports made before are stale.
    pub fn touch(&mut self) {
        self.changed();
    }

    /// Swaps the strategy (on reload); statistics are kept.
    pub fn set_strategy(&mut self, strategy: Box<dyn Strategy>, half_life: Duration) {
        self.changed();
        self.strategy = Arc::from(strategy);
        self.records.half_life = half_life;
    }

    pub fn strategy_name(&self) -> &'static str {
        self.strategy.name()
    }

    /// `false`: one learned record and one quality breaker per model, whatever
    /// the request's language (the router simulation's baseline); all
    /// languages are then kept as English. Set before the first call.
    #[cfg(any(test, feature = "baselines"))]
    pub fn set_per_language(&mut self, per_language: bool) {
        self.changed();
        self.per_language = per_language;
    }

    /// The language whose record a request in `lang` uses.
    fn context(&self, lang: Lang) -> Lang {
        if self.per_language {
            lang
        } else {
            Lang::En
        }
    }

    /// Keeps the records, breakers and queues of `models` (each alias with
    /// its account), starts new ones, forgets the rest. A reload is the fix
    /// for a misconfigured model: its breaker starts closed again.
    pub fn sync<'a>(&mut self, models: impl IntoIterator<Item = (&'a str, Account)>) {
        self.changed();
        let models: Vec<(&str, Account)> = models.into_iter().collect();
        let aliases = || models.iter().map(|(alias, _)| *alias);
        self.records.sync(aliases());
        self.queues.sync(aliases());
        self.breakers.sync(models.iter().cloned());
    }

    /// Learns one finished call: the record and the breakers, in one go (one
    /// lock for the caller; see [`Records::learn`] and [`Breakers::record`]).
    pub fn record_outcome(&mut self, call: Finished<'_>, now: Instant) {
        self.changed();
        let lang = self.context(call.lang);
        let probe = call.tickets.model == Ticket::Probe;
        self.records
            .learn(call.alias, lang, call.latency, call.outcome, probe);
        self.breakers
            .record(call.alias, lang, call.outcome, call.wait, call.tickets, now);
    }

    /// Learns a visitor's `vote` on a comment `alias` wrote in `lang`, in
    /// place of the vote `replaced` on the same comment ([`votes`]).
    pub fn record_vote(
        &mut self,
        alias: &str,
        lang: Lang,
        vote: Vote,
        replaced: Option<Cast>,
        now: Instant,
    ) {
        self.changed();
        let lang = self.context(lang);
        self.records.learn_vote(alias, lang, vote, replaced, now);
    }

    /// Counts what `served` says of one finished call of `alias` whose
    /// outcome was `outcome` (its tokens, its provider).
    pub fn record_served(&mut self, alias: &str, outcome: &Outcome, served: &Served) {
        if served == &Served::default() {
            return;
        }
        self.changed();
        self.records.record_served(alias, outcome, served);
    }

    pub fn stats(&self, alias: &str) -> Option<&ModelStats> {
        self.records.get(alias)
    }

    /// Probability of each of `candidates` (in their order) being tried first
    /// for a request in `lang` (see [`Standing::probabilities`]).
    pub fn probabilities(
        &self,
        candidates: &[&str],
        lang: Lang,
        rng: &mut dyn RngCore,
    ) -> Vec<f64> {
        self.standing(candidates, lang, Instant::now())
            .probabilities(rng)
    }

    /// A copy of what the strategy needs to weigh `candidates` for a request
    /// in `lang`, to sample from after the lock is released.
    pub fn standing(&self, candidates: &[&str], lang: Lang, now: Instant) -> Standing {
        Standing {
            strategy: self.strategy.clone(),
            half_life: self.records.half_life,
            now,
            lang: self.context(lang),
            models: candidates
                .iter()
                .map(|a| {
                    (
                        a.to_string(),
                        self.records.get(a).cloned().unwrap_or_default(),
                    )
                })
                .collect(),
        }
    }

    /// A copy of one model's record, estimates, breakers and queue, for
    /// `GET /models`.
    pub fn view(&self, alias: &str, now: Instant) -> ModelView {
        let stats = self.records.get(alias).cloned().unwrap_or_default();
        let half_life = self.records.half_life;
        let (s, f) = by_lang::total(&stats.by_lang, now, half_life);
        let quality = self
            .breakers
            .quality(alias)
            .filter(|_| self.strategy.uses_breakers());
        let by_lang = stats.by_lang.map(|lang, record| LangView {
            success_estimate: record.decayed.mean(now, half_life),
            breaker: quality.map(|q| q[lang].report(now)),
        });
        let breaker = self.breaker(alias).map(|b| BreakerReport {
            consecutive_rejections: quality
                .into_iter()
                .flat_map(|q| q.iter().map(|(_, b)| b.report(now).consecutive_rejections))
                .max()
                .unwrap_or(0),
            ..b.report(now)
        });
        ModelView {
            success_estimate: learning::posterior_mean(s, f),
            breaker,
            by_lang,
            in_flight: self.in_flight(alias),
            stats,
        }
    }

    /// The order to try `candidates` in for a request in `lang`: the weights
    /// are drawn once for this request, then each next model is picked by
    /// weight from those left.
    pub fn order<'a>(
        &self,
        candidates: &[&'a str],
        lang: Lang,
        rng: &mut dyn RngCore,
    ) -> Vec<&'a str> {
        let mut left = candidates.to_vec();
        let mut weights = self.weights(candidates, lang, rng);
        let mut order = Vec::with_capacity(left.len());
        while let Some(i) = pick(&weights, rng.random::<f64>()) {
            weights.remove(i);
            order.push(left.remove(i));
        }
        order
    }

    /// One weight per candidate, from one draw of the strategy.
    fn weights(&self, candidates: &[&str], lang: Lang, rng: &mut dyn RngCore) -> Vec<f64> {
        let fresh = ModelStats::default();
        let models = candidates
            .iter()
            .map(|a| (*a, self.records.get(a).unwrap_or(&fresh)));
        let lang = self.context(lang);
        weigh(
            &*self.strategy,
            models,
            lang,
            Instant::now(),
            self.records.half_life,
            rng,
        )
    }

    /// A model's decayed success estimate (posterior mean) now, all
    /// languages together.
    pub fn success_estimate(&self, alias: &str) -> Option<f64> {
        let (s, f) = by_lang::total(
            &self.records.get(alias)?.by_lang,
            Instant::now(),
            self.records.half_life,
        );
        Some(learning::posterior_mean(s, f))
    }

    /// A model's decayed success estimate in `lang` now.
    pub fn success_estimate_in(&self, alias: &str, lang: Lang) -> Option<f64> {
        let record = &self.records.get(alias)?.by_lang[self.context(lang)];
        Some(record.decayed.mean(Instant::now(), self.records.half_life))
    }
}
