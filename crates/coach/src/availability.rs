//! Which models are really served, found by asking rather than by visitors'
//! failed comments: what one check of a model found ([`Availability`], and
//! the languages its model card names), read from the answers' wire shapes
//! here, and kept per model in the [`Catalog`] until the next check.
//!
//! A check asks `GET {base_url}/models/{model}`. Hugging Face's router lists
//! the model's providers there, each `live` or `error`, with its price in
//! USD per million tokens (`reference/hf-protocol-2026.md`, "The paths"); an
//! OpenAI-compatible server (vLLM, Ollama, LiteLLM) answers the same path
//! for a model it serves and 404 otherwise. On a 404 the list, `GET
//! {base_url}/models`, decides whether the id is served (llama.cpp's server
//! has only the list). Where neither answers, nothing is known and the model
//! stays callable: a check never takes a model away on a guess.
//!
//! A model whose registry entry has no `languages` key is asked only in the
//! languages its Hub model card declares (`cardData.language` of `GET
//! {hub}/api/models/{id}`), when the card says.
//!
//! The HTTP calls are the provider's (`providers::http::check`); the
//! schedule is the service's (`service::checks`).

use std::time::Duration;

use foldhash::HashMap;

use serde::Serialize;
use serde_json::Value;
use tokio::time::Instant;

use super::{model::ModelSpec, upstream::ProviderName};
use vocabulary::Lang;

mod read;
pub use read::{card_languages, model_info, model_list};

/// How often a model is checked again.
pub const RECHECK: Duration = Duration::from_secs(3600);

/// One provider of a model, as Hugging Face's router lists it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProviderStatus {
    pub provider: ProviderName,
    /// `status` was `live` (else `error`, or anything else).
    pub live: bool,
    /// USD per million tokens, when listed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pricing: Option<Pricing>,
}

/// A provider's price, in USD per million tokens.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Pricing {
    pub input: f64,
    pub output: f64,
}

/// What a check found.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum Availability {
    /// Not asked yet (or the model is never asked: no key, not a chat model).
    Unchecked,
    /// Served: the router's live providers (empty for a server that only
    /// says it has the model).
    Live { providers: Vec<ProviderStatus> },
    /// Not served, and why: not called until a check finds it served.
    NotServed {
        why: String,
        providers: Vec<ProviderStatus>,
    },
    /// Neither path answered (and why): the model stays callable.
    Unknown { why: String },
}

impl Availability {
    /// The `state` name `/models` and `/metrics` show.
    pub fn state(&self) -> &'static str {
        match self {
            Availability::Unchecked => "unchecked",
            Availability::Live { .. } => "live",
            Availability::NotServed { .. } => "not_served",
            Availability::Unknown { .. } => "unknown",
        }
    }

    pub fn is_served(&self) -> bool {
        !matches!(self, Availability::NotServed { .. })
    }

    /// The providers listed, live or not.
    pub fn providers(&self) -> &[ProviderStatus] {
        match self {
            Availability::Live { providers } | Availability::NotServed { providers, .. } => {
                providers
            }
            _ => &[],
        }
    }
}

/// One finished check: the availability, and the languages the model card
/// declares (`None`: not asked, or the card does not say).
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    pub availability: Availability,
    pub card: Option<Vec<Lang>>,
}

impl Check {
    /// A check that could not be made.
    pub fn unknown(why: impl Into<String>) -> Self {
        Self {
            availability: Availability::Unknown { why: why.into() },
            card: None,
        }
    }
}

/// False only when `check`, a model's latest, found it not served.
fn served_in(check: Option<&Check>) -> bool {
    check.is_none_or(|c| c.availability.is_served())
}

/// The languages `spec` is asked in, given its latest check: the
/// registry's, else its card's, else every one.
fn languages_in<'a>(
    spec: &'a ModelSpec,
    check: impl FnOnce() -> Option<&'a Check>,
) -> (&'a [Lang], LanguagesFrom) {
    if spec.languages_given {
        return (&spec.languages, LanguagesFrom::Registry);
    }
    match check().and_then(|c| c.card.as_deref()) {
        Some(card) => (card, LanguagesFrom::Card),
        None => (&spec.languages, LanguagesFrom::Default),
    }
}

/// What is checked of a model: a new model id or URL is a new model.
#[derive(Clone, Debug)]
struct Identity {
    model: String,
    base_url: String,
}

impl Identity {
    fn of(spec: &ModelSpec) -> Self {
        Self {
            model: spec.model.clone(),
            base_url: spec.base_url.clone(),
        }
    }

    /// Whether `spec` is still this model (compared in place: every
    /// request asks it of every model).
    fn is(&self, spec: &ModelSpec) -> bool {
        self.model == spec.model && self.base_url == spec.base_url
    }
}

struct Entry {
    identity: Identity,
    check: Check,
    checked: Instant,
    next: Instant,
}

/// The latest check of every model, by alias.
#[derive(Default)]
pub struct Catalog {
    entries: HashMap<String, Entry>,
}

/// Where a model's languages come from, as `/models` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LanguagesFrom {
    /// The registry's `languages` key.
    Registry,
    /// The Hub model card (`cardData.language`).
    Card,
    /// Neither said: every language.
    Default,
}

/// A model's check as `GET /models` shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckView {
    #[serde(flatten)]
    pub availability: Availability,
    /// Seconds since the check, and until the next.
    pub checked_s_ago: Option<f64>,
    pub next_check_in_s: Option<f64>,
}

impl Catalog {
    /// Whether `spec`'s latest check is older than [`RECHECK`], or there is
    /// none for it as it is now.
    pub fn is_due(&self, spec: &ModelSpec, now: Instant) -> bool {
        self.entries
            .get(&spec.alias)
            .is_none_or(|e| !e.identity.is(spec) || now >= e.next)
    }

    /// When `spec`'s next check is due (`None`: never checked as it is now).
    pub fn next_check(&self, spec: &ModelSpec) -> Option<Instant> {
        self.entries
            .get(&spec.alias)
            .filter(|e| e.identity.is(spec))
            .map(|e| e.next)
    }

    /// Keeps what a check of `spec` found, until [`RECHECK`] from `now`.
    pub fn record(&mut self, spec: &ModelSpec, check: Check, now: Instant) {
        let entry = Entry {
            identity: Identity::of(spec),
            check,
            checked: now,
            next: now + RECHECK,
        };
        self.entries.insert(spec.alias.clone(), entry);
    }

    /// Every model is due (a reload: each one is asked again at once).
    pub fn all_due(&mut self, now: Instant) {
        for entry in self.entries.values_mut() {
            entry.next = now;
        }
    }

    /// Forgets the models `keep` does not name.
    pub fn retain(&mut self, keep: impl Fn(&str) -> bool) {
        self.entries.retain(|alias, _| keep(alias));
    }

    /// The latest check of `spec` as it is now (a check of an older id or
    /// URL is nobody's).
    fn current(&self, spec: &ModelSpec) -> Option<&Check> {
        self.entries
            .get(&spec.alias)
            .filter(|e| e.identity.is(spec))
            .map(|e| &e.check)
    }

    /// False only when the latest check found the model not served.
    pub fn is_served(&self, spec: &ModelSpec) -> bool {
        served_in(self.current(spec))
    }

    /// The languages `spec` is asked in: the registry's `languages`, else
    /// its card's, else every one.
    pub fn languages<'a>(&'a self, spec: &'a ModelSpec) -> (&'a [Lang], LanguagesFrom) {
        languages_in(spec, || self.current(spec))
    }

    pub fn speaks(&self, spec: &ModelSpec, lang: Lang) -> bool {
        self.languages(spec).0.contains(&lang)
    }

    /// Whether `spec` is asked in `lang` now: it speaks it and is not
    /// found unserved ([`Catalog::speaks`] and [`Catalog::is_served`],
    /// the latest check looked up once).
    pub fn asks(&self, spec: &ModelSpec, lang: Lang) -> bool {
        let check = self.current(spec);
        languages_in(spec, || check).0.contains(&lang) && served_in(check)
    }

    /// The provider's price, as the latest check listed it.
    pub fn pricing(&self, spec: &ModelSpec, provider: &ProviderName) -> Option<Pricing> {
        self.current(spec)?
            .availability
            .providers()
            .iter()
            .find(|p| &p.provider == provider)?
            .pricing
    }

    pub fn view(&self, spec: &ModelSpec, now: Instant) -> CheckView {
        let entry = self
            .entries
            .get(&spec.alias)
            .filter(|e| e.identity.is(spec));
        CheckView {
            availability: entry.map_or(Availability::Unchecked, |e| e.check.availability.clone()),
            checked_s_ago: entry.map(|e| now.saturating_duration_since(e.checked).as_secs_f64()),
            next_check_in_s: entry.map(|e| e.next.saturating_duration_since(now).as_secs_f64()),
        }
    }
}

/// `value` as a list of strings: one string, or an array of them.
fn strings(value: &Value) -> Vec<&str> {
    match value {
        Value::String(s) => vec![s.as_str()],
        Value::Array(items) => items.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests;
