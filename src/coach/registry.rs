//! The model registry: a TOML file listing the models the router may call.
//!
//! ```toml
//! deadline_ms = 8000              # whole request, every model tried included
//! strategy = "thompson"           # or "seed", the baseline (see coach::learning)
//! half_life_s = 60                # memory of the thompson strategy
//! hedge = false                   # ask a second model when the first is past its p95
//! hedge_ratio = 0.1               # at most this many extra calls per request
//!
//! [[models]]
//! alias = "llama"                 # short name: `GET /error?model=llama`
//! model = "meta-llama/Llama-3.1-8B-Instruct"
//! api = "chat"                    # or "text-generation"
//! # base_url, max_new_tokens (70), temperature (0.5), timeout_ms (5000),
//! # enabled (true), template (text-generation only: a Jinja chat template)
//! ```
//!
//! Every problem stops start-up with a message naming the model and the key.

use std::{collections::HashSet, path::Path, time::Duration};

use serde::Deserialize;

/// The Hugging Face router's OpenAI-compatible base URL.
pub const HF_CHAT_BASE: &str = "https://router.huggingface.co/v1";
/// The Hugging Face router's classic text-generation endpoint.
pub const HF_TEXT_GENERATION_URL: &str =
    "https://router.huggingface.co/hf-inference/models/{model}";

/// How a model is called.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ApiKind {
    /// OpenAI-compatible `POST {base_url}/chat/completions`.
    Chat,
    /// `POST {base_url}` (with `{model}` replaced) and `{inputs, parameters}`.
    TextGeneration,
}

impl ApiKind {
    pub fn name(self) -> &'static str {
        match self {
            ApiKind::Chat => "chat",
            ApiKind::TextGeneration => "text-generation",
        }
    }
}

/// One model, validated.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelSpec {
    pub alias: String,
    pub model: String,
    pub api: ApiKind,
    /// Chat: the API root; text-generation: the endpoint (`{model}` replaced).
    pub base_url: String,
    pub max_new_tokens: u32,
    pub temperature: f32,
    pub timeout: Duration,
    pub enabled: bool,
    /// Jinja chat template (text-generation only).
    pub template: Option<String>,
}

impl ModelSpec {
    /// The URL a request goes to.
    pub fn endpoint(&self) -> String {
        match self.api {
            ApiKind::Chat => format!("{}/chat/completions", self.base_url.trim_end_matches('/')),
            ApiKind::TextGeneration => self.base_url.replace("{model}", &self.model),
        }
    }

    /// True when the endpoint is on this machine (no token needed).
    pub fn is_local(&self) -> bool {
        let rest = self.base_url.split_once("://").map_or("", |(_, r)| r);
        let host = rest.split(['/', '?']).next().unwrap_or_default();
        let host = host.rsplit_once(':').map_or(host, |(h, port)| {
            if port.bytes().all(|b| b.is_ascii_digit()) {
                h
            } else {
                host
            }
        });
        matches!(host, "localhost" | "[::1]") || host.starts_with("127.")
    }
}

/// The whole file, validated.
#[derive(Clone, Debug, PartialEq)]
pub struct Registry {
    pub deadline: Duration,
    /// `seed` (the seed's pok rule) or `thompson` (decayed Thompson sampling ×
    /// peak-EWMA latency).
    pub strategy: String,
    /// Half-life of the learning strategy's memory.
    pub half_life: Duration,
    /// Hedged requests (see `coach::hedge`): on, and at most this many extra
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
    #[serde(default = "default_strategy")]
    strategy: String,
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
    api: ApiKind,
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
}

fn default_deadline_ms() -> u64 {
    8_000
}
fn default_strategy() -> String {
    "thompson".into()
}
fn default_half_life_s() -> u64 {
    60
}
/// Off: the router benchmark found it not worth its extra calls (README).
fn default_hedge() -> bool {
    false
}
fn default_hedge_ratio() -> f64 {
    0.1
}
fn default_max_new_tokens() -> u32 {
    70
}
fn default_temperature() -> f32 {
    0.5
}
fn default_timeout_ms() -> u64 {
    5_000
}
fn default_enabled() -> bool {
    true
}

impl Registry {
    pub fn load(path: &Path) -> Result<Self, RegistryError> {
        let text = std::fs::read_to_string(path).map_err(|source| RegistryError::Read {
            path: path.display().to_string(),
            source,
        })?;
        Self::parse(&text)
    }

    pub fn parse(text: &str) -> Result<Self, RegistryError> {
        let raw: RawRegistry =
            toml::from_str(text).map_err(|e| RegistryError::Syntax(e.to_string()))?;
        if !(500..=120_000).contains(&raw.deadline_ms) {
            return Err(RegistryError::Top {
                key: "deadline_ms",
                message: "must be from 500 to 120000".into(),
            });
        }
        if crate::coach::router::strategy_named(&raw.strategy).is_none() {
            return Err(RegistryError::Top {
                key: "strategy",
                message: "must be \"seed\" or \"thompson\"".into(),
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
                let spec = validate(m)?;
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

    /// The router strategy this file names (validated by `parse`).
    pub fn strategy(&self) -> Box<dyn crate::coach::router::Strategy> {
        crate::coach::router::strategy_named(&self.strategy)
            .unwrap_or_else(|| Box::new(crate::coach::router::SeedStrategy))
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
    let base_url = m.base_url.unwrap_or_else(|| {
        match m.api {
            ApiKind::Chat => HF_CHAT_BASE,
            ApiKind::TextGeneration => HF_TEXT_GENERATION_URL,
        }
        .to_string()
    });
    if !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
        return Err(invalid(
            &alias,
            "base_url",
            "must start with http:// or https://",
        ));
    }
    if !(1..=512).contains(&m.max_new_tokens) {
        return Err(invalid(&alias, "max_new_tokens", "must be from 1 to 512"));
    }
    if !(0.0..=2.0).contains(&m.temperature) {
        return Err(invalid(&alias, "temperature", "must be from 0 to 2"));
    }
    if !(100..=60_000).contains(&m.timeout_ms) {
        return Err(invalid(&alias, "timeout_ms", "must be from 100 to 60000"));
    }
    match (m.api, &m.template) {
        (ApiKind::TextGeneration, None) => {
            return Err(invalid(
                &alias,
                "template",
                "a text-generation model needs its chat template",
            ))
        }
        (ApiKind::TextGeneration, Some(t)) => {
            crate::coach::providers::text_generation::check_template(t)
                .map_err(|e| invalid(&alias, "template", e.to_string()))?;
        }
        (ApiKind::Chat, Some(_)) => {
            return Err(invalid(
                &alias,
                "template",
                "only text-generation models take a template",
            ))
        }
        (ApiKind::Chat, None) => {}
    }
    Ok(ModelSpec {
        alias,
        model: m.model.trim().to_string(),
        api: m.api,
        base_url,
        max_new_tokens: m.max_new_tokens,
        temperature: m.temperature,
        timeout: Duration::from_millis(m.timeout_ms),
        enabled: m.enabled,
        template: m.template,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_file_in_the_repository_is_valid() {
        let registry = Registry::parse(include_str!("../../models.toml")).unwrap();
        assert!(registry.models.len() >= 4);
        assert!(registry.models.iter().all(|m| m.model.contains('/')));
        assert_eq!(registry.deadline, Duration::from_secs(8));
    }

    #[test]
    fn defaults_fill_what_is_left_out() {
        let r = Registry::parse(
            "[[models]]\nalias = \"q\"\nmodel = \"Qwen/Qwen2.5-7B-Instruct\"\napi = \"chat\"\n",
        )
        .unwrap();
        let m = &r.models[0];
        assert_eq!(
            (m.max_new_tokens, m.temperature, m.enabled),
            (70, 0.5, true)
        );
        assert_eq!(
            m.endpoint(),
            "https://router.huggingface.co/v1/chat/completions"
        );
        assert!(!m.is_local());
    }

    #[test]
    fn errors_name_the_model_and_the_key() {
        let err = |toml: &str| Registry::parse(toml).unwrap_err().to_string();
        let e = err(
            "[[models]]\nalias = \"phi\"\nmodel = \"m/p\"\napi = \"chat\"\ntemperature = 9.0\n",
        );
        assert!(e.contains("\"phi\"") && e.contains("temperature"), "{e}");
        let e = err("[[models]]\nalias = \"tg\"\nmodel = \"m/p\"\napi = \"text-generation\"\n");
        assert!(e.contains("\"tg\"") && e.contains("template"), "{e}");
        let e = err("[[models]]\nalias = \"tg\"\nmodel = \"m/p\"\napi = \"text-generation\"\ntemplate = \"{% if %}\"\n");
        assert!(e.contains("\"tg\"") && e.contains("template"), "{e}");
        let e = err("[[models]]\nalias = \"x\"\nmodel = \"m/p\"\napi = \"chat\"\ncolour = 1\n");
        assert!(e.contains("colour"), "{e}");
        let e = err("[[models]]\nalias = \"x\"\nmodel = \"m/p\"\napi = \"grpc\"\n");
        assert!(e.contains("api") || e.contains("grpc"), "{e}");
        let twice = "[[models]]\nalias = \"x\"\nmodel = \"m/p\"\napi = \"chat\"\n";
        let e = err(&format!("{twice}{twice}"));
        assert!(e.contains("\"x\"") && e.contains("alias"), "{e}");
    }

    #[test]
    fn the_strategy_is_chosen_by_name() {
        let r = Registry::parse("strategy = \"seed\"\nhalf_life_s = 600\n").unwrap();
        assert_eq!(
            (r.strategy().name(), r.half_life),
            ("seed", Duration::from_secs(600))
        );
        let defaults = Registry::parse("").unwrap();
        assert_eq!(
            (defaults.strategy().name(), defaults.half_life),
            ("thompson", Duration::from_secs(60))
        );
        assert_eq!(defaults.hedging(), None, "hedging is off by default");
        assert_eq!(
            Registry::parse("hedge = true\nhedge_ratio = 0.05\n")
                .unwrap()
                .hedging(),
            Some(0.05)
        );
        let e = Registry::parse("hedge_ratio = 1.5\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("hedge_ratio"), "{e}");
        let e = Registry::parse("strategy = \"magic\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("strategy"), "{e}");
        let e = Registry::parse("half_life_s = 1\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("half_life_s"), "{e}");
    }

    #[test]
    fn local_hosts_are_recognised() {
        let spec = |url: &str| ModelSpec {
            alias: "a".into(),
            model: "m".into(),
            api: ApiKind::Chat,
            base_url: url.into(),
            max_new_tokens: 70,
            temperature: 0.5,
            timeout: Duration::from_secs(1),
            enabled: true,
            template: None,
        };
        assert!(spec("http://127.0.0.1:11434/v1").is_local());
        assert!(spec("http://localhost:8080").is_local());
        assert!(spec("http://[::1]:8080/v1").is_local());
        assert!(!spec("https://router.huggingface.co/v1").is_local());
        assert!(!spec("http://localhost.example.com/v1").is_local());
    }
}
