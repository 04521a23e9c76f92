//! `GET /models` and `/metrics`: every model's record, breakers, queue and
//! chance of being asked first, overall and per language (`by_lang`), made
//! outside the router's lock and cached for a second.
//! Reads the router; changes nothing.

use std::{
    collections::BTreeMap,
    sync::{Arc, PoisonError},
    time::Duration,
};

use serde::Serialize;
use tokio::time::Instant;

use super::{millis, Coach};
use crate::{
    availability::{Catalog, CheckView, LanguagesFrom, Pricing},
    model::ModelSpec,
    outcome::Outcome,
    providers::ProviderName,
    routing::{
        breaker::BreakerReport,
        by_lang::{PerLang, VoteTally},
        learning::LATENCY_TAU,
        stats::{ModelStats, Tokens},
        ModelView,
    },
};
use vocabulary::Lang;

/// A model as `GET /models` shows it (no secrets: the token is never here).
#[derive(Clone, Debug, Serialize)]
pub struct ModelReport {
    pub alias: String,
    pub model: String,
    pub api: &'static str,
    pub enabled: bool,
    /// False when the model needs a key (`HF_TOKEN` for a Hugging Face host,
    /// or the variable its `token_env` names) and none is set.
    pub usable: bool,
    pub stats: ModelStats,
    /// Chance of being asked first by the next request, its language drawn
    /// in the proportions of the calls so far (equal before any): the
    /// `by_lang` probabilities weighted.
    pub probability: f64,
    pub mean_latency_ms: Option<f64>,
    pub last_error: Option<Outcome>,
    /// Decayed success estimate (posterior mean of the learning strategy),
    /// all languages together.
    pub success_estimate: Option<f64>,
    /// Peak-EWMA of response times, in ms.
    pub latency_ewma_ms: Option<f64>,
    /// Median and 95th percentile of the latest answers' times, in ms.
    pub p50_ms: Option<u64>,
    pub p95_ms: Option<u64>,
    /// The circuit breaker for outages: state and seconds until an open one
    /// may close (`consecutive_rejections`: the most of any language's).
    pub breaker: Option<BreakerReport>,
    /// The record in each language (`en`, `pt`, `zh`).
    pub by_lang: BTreeMap<&'static str, LangReport>,
    /// Calls under way now, and the most allowed (`None`: no limit of its own).
    pub in_flight: u32,
    pub max_concurrency: Option<u32>,
    /// The visitors' languages it answers, and where that comes from: the
    /// registry's `languages`, its model card, or neither (all).
    pub languages: Vec<Lang>,
    pub languages_from: LanguagesFrom,
    /// Whether it is served, as its latest check found (`state`: `live`,
    /// `not_served` with `why`, `unknown`, `unchecked`), its providers'
    /// status and prices, and when it is checked again.
    pub availability: CheckView,
    /// The inference provider of the latest call that named one.
    pub last_provider: Option<ProviderName>,
    /// Per provider: outcomes, tokens, price and what they cost.
    pub providers: BTreeMap<ProviderName, ProviderReport>,
    /// Tokens its answers billed, on average per answer, and their cost in
    /// USD where the provider's price is known.
    pub tokens: Tokens,
    pub tokens_per_answer: Option<TokensPerAnswer>,
    pub cost_usd: Option<f64>,
    /// The original server's names, kept for its callers: `erros` is `stats.errors` and
    /// `parcela` the selection share (`probability`), as the original server's
    /// `UpdateProbs` set it.
    pub erros: f64,
    pub parcela: f64,
}

/// One model in one language, as `GET /models` shows it under `by_lang`.
#[derive(Clone, Debug, Serialize)]
pub struct LangReport {
    /// Decayed success estimate in this language.
    pub success_estimate: f64,
    /// Calls for requests in this language, good answers, rejected answers.
    pub calls: u64,
    pub successes: u64,
    pub rejections: u64,
    /// Visitors' votes in effect on its comments in this language (those
    /// that train it: not on comments of a forced model).
    pub votes: VoteTally,
    /// Chance of being asked first by a request in this language now.
    pub probability: f64,
    /// The quality breaker in this language (rejected answers in a row).
    pub breaker: Option<BreakerReport>,
}

/// One inference provider of a model, as `GET /models` shows it.
#[derive(Clone, Debug, Serialize)]
pub struct ProviderReport {
    pub outcomes: BTreeMap<String, u64>,
    pub tokens: Tokens,
    /// USD per million tokens, as the latest check listed it.
    pub pricing: Option<Pricing>,
    /// What its tokens cost at that price.
    pub cost_usd: Option<f64>,
}

/// Mean tokens of an answer that said.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct TokensPerAnswer {
    pub prompt: f64,
    pub completion: f64,
}

/// How long a `GET /models` (and `/metrics`) report is reused: these routes
/// are public, and a loop of requests must cost at most one report a second.
pub const REPORT_TTL: Duration = Duration::from_secs(1);

/// A report, when it was made, and the router's generation it saw.
pub(super) struct CachedReport {
    made: Instant,
    generation: u64,
    report: Arc<Vec<ModelReport>>,
}

impl Coach {
    /// The report for the public routes (`GET /models`, `/metrics`): reused
    /// for up to [`REPORT_TTL`] while nothing was learned since (the router's
    /// generation is unchanged), so a loop of requests costs at most one
    /// report per second or per finished call, and a caller never sees a
    /// report older than its own last request. Callers arriving while one is
    /// being made wait for it rather than make their own.
    pub fn cached_report(&self) -> Arc<Vec<ModelReport>> {
        let mut cache = self
            .report_cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let generation = self.router().generation();
        if let Some(cached) = cache.as_ref() {
            if cached.generation == generation && cached.made.elapsed() < REPORT_TTL {
                return cached.report.clone();
            }
        }
        let (generation, report) = self.report_at();
        let report = Arc::new(report);
        *cache = Some(CachedReport {
            made: Instant::now(),
            generation,
            report: report.clone(),
        });
        report
    }

    /// Every model's statistics and current selection probability, made now.
    /// The router's lock is held only to copy what the report needs; the
    /// probabilities (1000 draws per model for a sampling strategy) are drawn
    /// after it is released, so reports never hold up routing.
    pub fn report(&self) -> Vec<ModelReport> {
        self.report_at().1
    }

    /// The report, with the router's generation it was copied at.
    fn report_at(&self) -> (u64, Vec<ModelReport>) {
        let registry;
        let (generation, standings, views, checks) = {
            let routing = self.router();
            // Read under the router's lock: a reload syncs both under it.
            registry = self.registry();
            let now = Instant::now();
            // Probability of being asked first now, in each language: a
            // model whose breakers keep it out has none.
            let standings = PerLang::from_fn(|lang| {
                let candidates = self.candidates(&registry, lang);
                let admissible = routing.admissible(&candidates, lang, now);
                let standing = routing.standing(&admissible, lang, now);
                (admissible, standing)
            });
            let views: Vec<ModelView> = registry
                .models
                .iter()
                .map(|m| routing.view(&m.alias, now))
                .collect();
            let catalog = self.catalog();
            let checks: Vec<Checked> = registry
                .models
                .iter()
                .zip(&views)
                .map(|(m, view)| Checked::of(&catalog, m, &view.stats, now))
                .collect();
            (routing.generation(), standings, views, checks)
        };
        // A fresh generator: the seeded one belongs to routing.
        let drawn = standings.map(|_, (admissible, standing)| {
            (admissible.clone(), standing.probabilities(&mut rand::rng()))
        });
        let weights = language_weights(&views);
        let report = registry
            .models
            .iter()
            .zip(views)
            .zip(checks)
            .map(|((m, view), checked)| {
                let chance = |lang: Lang| {
                    let (admissible, p) = &drawn[lang];
                    admissible
                        .iter()
                        .position(|c| **c == m.alias)
                        .map_or(0.0, |i| p[i])
                };
                let probability = weighted_chance(&weights, chance);
                let by_lang = view
                    .by_lang
                    .iter()
                    .map(|(lang, v)| {
                        let record = &view.stats.by_lang[lang];
                        let report = LangReport {
                            success_estimate: v.success_estimate,
                            calls: record.calls,
                            successes: record.successes,
                            rejections: record.rejections,
                            votes: record.votes,
                            probability: chance(lang),
                            breaker: v.breaker.clone(),
                        };
                        (lang.code(), report)
                    })
                    .collect();
                let stats = view.stats;
                ModelReport {
                    alias: m.alias.clone(),
                    model: m.model.clone(),
                    api: m.api.name(),
                    enabled: m.enabled,
                    usable: self.provider.usable(m),
                    mean_latency_ms: stats.mean_latency_ms(),
                    last_error: stats.last_error.clone(),
                    success_estimate: Some(view.success_estimate),
                    latency_ewma_ms: stats.latency.get(Instant::now(), LATENCY_TAU),
                    p50_ms: stats.window.quantile(0.5).map(millis),
                    p95_ms: stats.window.quantile(0.95).map(millis),
                    breaker: view.breaker,
                    by_lang,
                    in_flight: view.in_flight,
                    max_concurrency: m.max_concurrency,
                    languages: checked.languages,
                    languages_from: checked.languages_from,
                    availability: checked.view,
                    last_provider: stats.last_provider.clone(),
                    cost_usd: costs(&checked.providers),
                    providers: checked.providers,
                    tokens: stats.tokens,
                    tokens_per_answer: stats
                        .tokens
                        .per_answer()
                        .map(|(prompt, completion)| TokensPerAnswer { prompt, completion }),
                    erros: stats.errors,
                    parcela: probability,
                    stats,
                    probability,
                }
            })
            .collect();
        (generation, report)
    }
}

/// What the availability checks say of one model, copied out for its report.
struct Checked {
    languages: Vec<Lang>,
    languages_from: LanguagesFrom,
    view: CheckView,
    providers: BTreeMap<ProviderName, ProviderReport>,
}

impl Checked {
    fn of(catalog: &Catalog, m: &ModelSpec, stats: &ModelStats, now: Instant) -> Self {
        let (languages, languages_from) = catalog.languages(m);
        let providers = stats
            .providers
            .iter()
            .map(|(name, record)| {
                let pricing = catalog.pricing(m, name);
                let cost_usd = pricing.map(|p| {
                    (record.tokens.prompt as f64 * p.input
                        + record.tokens.completion as f64 * p.output)
                        / 1e6
                });
                let report = ProviderReport {
                    outcomes: record.outcomes.clone(),
                    tokens: record.tokens,
                    pricing,
                    cost_usd,
                };
                (name.clone(), report)
            })
            .collect();
        Self {
            languages: languages.to_vec(),
            languages_from,
            view: catalog.view(m, now),
            providers,
        }
    }
}

/// What a model's tokens cost, summed over the providers whose price is
/// known (`None`: none is).
fn costs(providers: &BTreeMap<ProviderName, ProviderReport>) -> Option<f64> {
    providers
        .values()
        .filter_map(|p| p.cost_usd)
        .fold(None, |sum, cost| Some(sum.unwrap_or(0.0) + cost))
}

/// Each language's weight in a model's overall probability: its calls so
/// far, or 1 each before any.
fn language_weights(views: &[ModelView]) -> PerLang<f64> {
    let calls = PerLang::from_fn(|lang| {
        views
            .iter()
            .map(|v| v.stats.by_lang[lang].calls as f64)
            .sum::<f64>()
    });
    if calls.iter().any(|(_, n)| *n > 0.0) {
        calls
    } else {
        PerLang::from_fn(|_| 1.0)
    }
}

/// The mean of each language's chance, weighted by `weights`. Summed before
/// it is divided, so a model chosen for every language has exactly 1 (shares
/// summed one by one can come to 0.9999999999999999).
fn weighted_chance(weights: &PerLang<f64>, chance: impl Fn(Lang) -> f64) -> f64 {
    let total: f64 = weights.iter().map(|(_, w)| w).sum();
    let sum: f64 = Lang::ALL.iter().map(|&l| weights[l] * chance(l)).sum();
    sum / total
}
