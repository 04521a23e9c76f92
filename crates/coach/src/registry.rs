//! The model registry: a TOML file listing the models the router may call.
//!
//! ```toml
//! deadline_ms = 8000              # whole request, every model tried included
//! strategy = "thompson"           # or "seed", the baseline (see coach::routing::strategy)
//! half_life_s = 60                # memory of the thompson strategy
//! hedge = false                   # ask a second model when the first is past its p95
//! hedge_ratio = 0.1               # at most this many extra calls per request
//!
//! [[models]]
//! alias = "llama"                 # short name: `GET /error?model=llama`
//! model = "meta-llama/Llama-3.1-8B-Instruct"
//! api = "chat"                    # or "text-generation"
//! # base_url, max_new_tokens (70), temperature (0.5), timeout_ms (5000),
//! # enabled (true), template (text-generation only: a Jinja chat template),
//! # token_env (the environment variable holding this provider's key),
//! # max_concurrency (calls at once to this model, 1–256; none by default),
//! # languages (the visitors' languages it answers; left out: those its
//! #   Hub model card declares, or all three when the card does not say)
//! ```
//!
//! On Hugging Face's router a model id may end in a routing policy
//! (`:fastest`, the router's default; `:cheapest`; `:preferred`, the order
//! in the account's settings) or a provider (`:nscale`, `:publicai`): two
//! aliases may pin one model to two providers. A `text-generation` model
//! needs its own `base_url` (TGI, llama.cpp): the router serves chat only.
//!
//! `languages` leaves a model out of the languages it writes badly: those
//! visitors get the other models or the offline commentator, and a caller
//! who forces it (`model=`) in another language gets `other_language` in
//! `tried`.
//!
//! `max_concurrency` is for a server that queues: llama.cpp's answers one
//! request at a time unless started with more slots, so give it a small
//! number (1 for no queue at all; 2–4 lets a few visitors wait their turn).
//! A model with it is skipped, at once, when it has that many calls under
//! way or when the calls ahead would not leave time to finish; without it
//! (hosted APIs, which serve calls side by side) only the global limit of
//! calls at once applies.
//!
//! Every problem stops start-up with a message naming the model and the key,
//! a `token_env` key shorter than 8 characters included (it would be blanked
//! out of every answer; see [`crate::secret::MIN_KEY_CHARS`]).
//! Which secret each model's requests carry is [`crate::model`]'s rule.
//! This module only reads and checks the file: it names a strategy
//! ([`StrategyKind`]) and leaves building it to the router.

use std::{collections::HashSet, path::Path, time::Duration};

use serde::Deserialize;

use super::model::{
    Api, ModelSpec, Template, DEFAULT_MAX_NEW_TOKENS, DEFAULT_TEMPERATURE, DEFAULT_TIMEOUT_MS,
};
use crate::secret::{Secret, MIN_KEY_CHARS};
use vocabulary::Lang;

/// The routing strategy a registry names (`coach::routing::strategy` builds it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StrategyKind {
    /// The original server's `pok` rule, the baseline.
    Seed,
    /// Decayed Thompson sampling × peak-EWMA latency.
    #[default]
    Thompson,
}

/// How a model is called, as the file spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum ApiName {
    Chat,
    TextGeneration,
}

/// The whole file, validated.
#[derive(Clone, Debug, PartialEq)]
pub struct Registry {
    pub deadline: Duration,
    pub strategy: StrategyKind,
    /// Half-life of the learning strategy's memory.
    pub half_life: Duration,
    /// Hedged requests (see `coach::routing::hedge`): on, and at most this many extra
    /// calls per request.
    pub hedge: bool,
    pub hedge_ratio: f64,
    pub models: Vec<ModelSpec>,
}

#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    #[error("cannot read the model registry {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("model registry: {0}")]
    Syntax(String),
    #[error("model registry: model {alias:?}: {key}: {message}")]
    Invalid {
        alias: String,
        key: &'static str,
        message: String,
    },
    #[error("model registry: {key}: {message}")]
    Top { key: &'static str, message: String },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRegistry {
    #[serde(default = "default_deadline_ms")]
    deadline_ms: u64,
    #[serde(default)]
    strategy: StrategyKind,
    #[serde(default = "default_half_life_s")]
    half_life_s: u64,
    #[serde(default = "default_hedge")]
    hedge: bool,
    #[serde(default = "default_hedge_ratio")]
    hedge_ratio: f64,
    #[serde(default)]
    models: Vec<RawModel>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawModel {
    alias: String,
    model: String,
    api: ApiName,
    base_url: Option<String>,
    #[serde(default = "default_max_new_tokens")]
    max_new_tokens: u32,
    #[serde(default = "default_temperature")]
    temperature: f32,
    #[serde(default = "default_timeout_ms")]
    timeout_ms: u64,
    #[serde(default = "default_enabled")]
    enabled: bool,
    template: Option<String>,
    token_env: Option<String>,
    max_concurrency: Option<u32>,
    languages: Option<Vec<String>>,
}

/// Highest `max_concurrency` accepted.
const MAX_CONCURRENCY: u32 = 256;
/// The shortest and longest model timeout (`timeout_ms`) accepted.
pub const TIMEOUT_MS: std::ops::RangeInclusive<u64> = 100..=60_000;

fn default_deadline_ms() -> u64 {
    8_000
}
fn default_half_life_s() -> u64 {
    60
}
/// Off: the router benchmark found it not worth its extra calls
/// (docs/benchmarks/router.md).
fn default_hedge() -> bool {
    false
}
fn default_hedge_ratio() -> f64 {
    0.1
}
fn default_max_new_tokens() -> u32 {
    DEFAULT_MAX_NEW_TOKENS
}
fn default_temperature() -> f32 {
    DEFAULT_TEMPERATURE
}
fn default_timeout_ms() -> u64 {
    DEFAULT_TIMEOUT_MS
}
fn default_enabled() -> bool {
    true
}

impl Registry {
    /// Reads and validates the file, reads each `token_env` variable, and logs
    /// what an operator should know about the models' keys.
    pub fn load(path: &Path) -> Result<Self, RegistryError> {
        let text = std::fs::read_to_string(path).map_err(|source| RegistryError::Read {
            path: path.display().to_string(),
            source,
        })?;
        let registry = Self::parse(&text)?;
        for notice in registry.models.iter().filter_map(ModelSpec::key_notice) {
            tracing::warn!("{notice}");
        }
        Ok(registry)
    }

    /// [`Registry::parse_with_env`] with the process environment.
    pub fn parse(text: &str) -> Result<Self, RegistryError> {
        Self::parse_with_env(text, |name| std::env::var(name).ok())
    }

    /// Validates `text`; `env` gives the value of each `token_env` variable.
    pub fn parse_with_env(
        text: &str,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Self, RegistryError> {
        let raw: RawRegistry =
            toml::from_str(text).map_err(|e| RegistryError::Syntax(e.to_string()))?;
        if !(500..=120_000).contains(&raw.deadline_ms) {
            return Err(RegistryError::Top {
                key: "deadline_ms",
                message: "must be from 500 to 120000".into(),
            });
        }
        if !(10..=86_400).contains(&raw.half_life_s) {
            return Err(RegistryError::Top {
                key: "half_life_s",
                message: "must be from 10 to 86400".into(),
            });
        }
        if !(0.0..=1.0).contains(&raw.hedge_ratio) {
            return Err(RegistryError::Top {
                key: "hedge_ratio",
                message: "must be from 0 to 1 (extra calls per request)".into(),
            });
        }
        let mut seen = HashSet::new();
        let models = raw
            .models
            .into_iter()
            .map(|m| {
                let mut spec = validate(m)?;
                spec.key = spec
                    .token_env
                    .as_deref()
                    .and_then(&env)
                    .as_deref()
                    .and_then(Secret::new);
                if let (Some(key), Some(name)) = (&spec.key, &spec.token_env) {
                    if key.too_short_for_a_key() {
                        return Err(invalid(
                            &spec.alias,
                            "token_env",
                            format!(
                                "{name} holds a key shorter than {MIN_KEY_CHARS} characters; every answer is searched for the key and it would be blanked out of ordinary words: set the real key, or leave token_env out for a server that needs none"
                            ),
                        ));
                    }
                }
                if !seen.insert(spec.alias.clone()) {
                    return Err(invalid(&spec.alias, "alias", "is used by another model"));
                }
                Ok(spec)
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            deadline: Duration::from_millis(raw.deadline_ms),
            strategy: raw.strategy,
            half_life: Duration::from_secs(raw.half_life_s),
            hedge: raw.hedge,
            hedge_ratio: raw.hedge_ratio,
            models,
        })
    }

    /// The hedge budget's ratio when hedging is on.
    pub fn hedging(&self) -> Option<f64> {
        self.hedge.then_some(self.hedge_ratio)
    }

    pub fn get(&self, alias: &str) -> Option<&ModelSpec> {
        self.models.iter().find(|m| m.alias == alias)
    }
}

fn invalid(alias: &str, key: &'static str, message: impl Into<String>) -> RegistryError {
    RegistryError::Invalid {
        alias: alias.to_string(),
        key,
        message: message.into(),
    }
}

fn validate(m: RawModel) -> Result<ModelSpec, RegistryError> {
    let alias = m.alias.trim().to_string();
    let alias_ok = !alias.is_empty()
        && alias.len() <= 40
        && alias
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.');
    if !alias_ok || alias == "offline" {
        return Err(invalid(
            &alias,
            "alias",
            "must be 1–40 letters, digits, - _ . (and not \"offline\")",
        ));
    }
    if m.model.trim().is_empty() {
        return Err(invalid(
            &alias,
            "model",
            "must name the model (e.g. Qwen/Qwen2.5-7B-Instruct)",
        ));
    }
    if let Some(name) = &m.token_env {
        fields::token_env(&alias, name)?;
    }
    if !(1..=512).contains(&m.max_new_tokens) {
        return Err(invalid(&alias, "max_new_tokens", "must be from 1 to 512"));
    }
    if !(0.0..=2.0).contains(&m.temperature) {
        return Err(invalid(&alias, "temperature", "must be from 0 to 2"));
    }
    if !TIMEOUT_MS.contains(&m.timeout_ms) {
        let (least, most) = (TIMEOUT_MS.start(), TIMEOUT_MS.end());
        let must = format!("must be from {least} to {most}");
        return Err(invalid(&alias, "timeout_ms", must));
    }
    if m.max_concurrency
        .is_some_and(|n| !(1..=MAX_CONCURRENCY).contains(&n))
    {
        return Err(invalid(
            &alias,
            "max_concurrency",
            "must be from 1 to 256 (leave it out for no limit)",
        ));
    }
    let api = match (m.api, m.template) {
        (ApiName::TextGeneration, None) => {
            return Err(invalid(
                &alias,
                "template",
                "a text-generation model needs its chat template",
            ))
        }
        (ApiName::TextGeneration, Some(source)) => Api::TextGeneration {
            template: Template::compile(&source)
                .map_err(|e| invalid(&alias, "template", e.to_string()))?,
        },
        (ApiName::Chat, Some(_)) => {
            return Err(invalid(
                &alias,
                "template",
                "only text-generation models take a template",
            ))
        }
        (ApiName::Chat, None) => Api::Chat,
    };
    let languages_given = m.languages.is_some();
    let languages = match m.languages {
        None => Lang::ALL.to_vec(),
        Some(codes) => fields::languages(&alias, &codes)?,
    };
    let model = m.model.trim().to_string();
    fields::model_suffix(&alias, &model, &api, m.base_url.as_deref())?;
    let mut spec = ModelSpec::new(alias.clone(), model, api, m.base_url)
        .map_err(|message| invalid(&alias, "base_url", message))?;
    spec.max_new_tokens = m.max_new_tokens;
    spec.temperature = m.temperature;
    spec.timeout = Duration::from_millis(m.timeout_ms);
    spec.max_concurrency = m.max_concurrency;
    spec.languages = languages;
    spec.languages_given = languages_given;
    spec.enabled = m.enabled;
    spec.token_env = m.token_env;
    Ok(spec)
}

mod fields;

#[cfg(test)]
mod tests;
