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
//! # enabled (true), template (text-generation only: a Jinja chat template),
//! # token_env (the environment variable holding this provider's key)
//! ```
//!
//! Every problem stops start-up with a message naming the model and the key.
//!
//! **Which secret goes where** ([`ModelSpec::credential`]): a model with
//! `token_env` gets that variable's value (read when the file is loaded; unset,
//! the model is skipped); otherwise a model on a Hugging Face host (`https`,
//! `huggingface.co` or a subdomain, or a dedicated Inference Endpoint under
//! `endpoints.huggingface.cloud`) gets `HF_TOKEN`; anything else (Ollama, a
//! third-party host, a typo'd domain, a Space on `*.hf.space`, which runs
//! someone's own code) is called with no `Authorization` header at all.

use std::{collections::HashSet, fmt, net::IpAddr, path::Path, time::Duration};

use reqwest::Url;
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
    /// The environment variable holding this model's own key, if any.
    pub token_env: Option<String>,
    /// That variable's value, read when the registry was loaded (`None`: unset).
    pub key: Option<ApiKey>,
    /// [`Self::endpoint`], parsed once at load (not on every call).
    endpoint: Url,
    /// [`Self::is_hugging_face`], decided once at load.
    hugging_face: bool,
}

/// A provider's key: never printed (`Debug` shows `[redacted]`).
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    /// `None` for an empty or blank value.
    pub fn new(value: &str) -> Option<Self> {
        let value = value.trim();
        (!value.is_empty()).then(|| Self(value.to_string()))
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey([redacted])")
    }
}

/// Which secret a model's requests carry (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Credential<'a> {
    /// Its own key, from `token_env` (`None`: the variable is unset).
    Own(Option<&'a ApiKey>),
    /// A Hugging Face host: `HF_TOKEN`.
    HuggingFace,
    /// No `Authorization` header.
    Nothing,
}

/// Domains whose hosts (the domain itself and its subdomains) get `HF_TOKEN`.
const HF_DOMAINS: [&str; 2] = ["huggingface.co", "endpoints.huggingface.cloud"];

impl ModelSpec {
    /// The URL a request goes to.
    pub fn endpoint(&self) -> &Url {
        &self.endpoint
    }

    /// The base URL's host, as the URL parser reads it (lower-cased; an IPv6
    /// address in brackets; `user@` and the port left out).
    fn host(&self) -> Option<(Url, String)> {
        host_of(&self.base_url)
    }

    /// True when the endpoint is on this machine: the host is `localhost` or a
    /// loopback address (`127.0.0.0/8`, `::1`). `127.evil.example` is a domain
    /// like any other.
    pub fn is_local(&self) -> bool {
        let Some((_, host)) = self.host() else {
            return false;
        };
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        match bare.parse::<IpAddr>() {
            Ok(IpAddr::V4(ip)) => ip.is_loopback(),
            Ok(IpAddr::V6(ip)) => {
                ip.is_loopback() || ip.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
            }
            Err(_) => host == "localhost",
        }
    }

    /// True when the endpoint is a Hugging Face host reached over `https`:
    /// `huggingface.co` or one of its subdomains (the router, the Inference
    /// API), or a dedicated Inference Endpoint (`*.endpoints.huggingface.cloud`).
    /// Not `*.hf.space`: a Space runs its owner's code.
    pub fn is_hugging_face(&self) -> bool {
        self.hugging_face
    }

    /// Which secret this model's requests carry.
    pub fn credential(&self) -> Credential<'_> {
        if self.token_env.is_some() {
            Credential::Own(self.key.as_ref())
        } else if self.is_hugging_face() {
            Credential::HuggingFace
        } else {
            Credential::Nothing
        }
    }

    /// What an operator should know about this model's key, for the log at
    /// load: an unset `token_env` (the model is skipped), a key sent in clear
    /// text, a remote host that gets no key at all.
    pub fn key_notice(&self) -> Option<String> {
        let alias = &self.alias;
        let plain_remote = self.base_url.starts_with("http://") && !self.is_local();
        match (self.credential(), &self.token_env) {
            (Credential::Own(None), Some(name)) => Some(format!(
                "model {alias:?}: token_env {name} is not set: the model is skipped"
            )),
            (Credential::Own(Some(_)), Some(name)) if plain_remote => Some(format!(
                "model {alias:?}: the key from {name} travels unencrypted (http:// to another machine)"
            )),
            (Credential::Nothing, _) if !self.is_local() => Some(format!(
                "model {alias:?}: not a Hugging Face host and no token_env: called without a key"
            )),
            _ => None,
        }
    }
}

/// `url`'s host (see [`ModelSpec::host`]).
fn host_of(url: &str) -> Option<(Url, String)> {
    let url = Url::parse(url).ok()?;
    let host = url.host_str()?.to_string();
    Some((url, host))
}

/// See [`ModelSpec::is_hugging_face`].
fn is_hugging_face(base_url: &str) -> bool {
    let Some((url, host)) = host_of(base_url) else {
        return false;
    };
    url.scheme() == "https"
        && HF_DOMAINS.iter().any(|domain| {
            host == *domain
                || host
                    .strip_suffix(domain)
                    .is_some_and(|sub| sub.ends_with('.'))
        })
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
    token_env: Option<String>,
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
                let mut spec = validate(m)?;
                spec.key = spec
                    .token_env
                    .as_deref()
                    .and_then(&env)
                    .as_deref()
                    .and_then(ApiKey::new);
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
    let url_ok = Url::parse(&base_url)
        .is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host_str().is_some());
    if !url_ok {
        return Err(invalid(
            &alias,
            "base_url",
            "must be an http:// or https:// URL with a host",
        ));
    }
    if let Some(name) = &m.token_env {
        let mut bytes = name.bytes();
        let name_ok = name.len() <= 128
            && bytes
                .next()
                .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
            && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_');
        if !name_ok {
            return Err(invalid(
                &alias,
                "token_env",
                "must name an environment variable (letters, digits and _, not starting with a digit)",
            ));
        }
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
    let model = m.model.trim().to_string();
    let endpoint = match m.api {
        ApiKind::Chat => format!("{}/chat/completions", base_url.trim_end_matches('/')),
        ApiKind::TextGeneration => base_url.replace("{model}", &model),
    };
    let endpoint = Url::parse(&endpoint)
        .map_err(|e| invalid(&alias, "base_url", format!("gives no usable URL ({e})")))?;
    Ok(ModelSpec {
        hugging_face: is_hugging_face(&base_url),
        endpoint,
        alias,
        model,
        api: m.api,
        base_url,
        max_new_tokens: m.max_new_tokens,
        temperature: m.temperature,
        timeout: Duration::from_millis(m.timeout_ms),
        enabled: m.enabled,
        template: m.template,
        token_env: m.token_env,
        key: None,
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
            m.endpoint().as_str(),
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

    /// A chat model at `url`, with `extra` TOML lines; `FAKE_KEY` is set.
    fn spec(url: &str, extra: &str) -> ModelSpec {
        let toml = format!(
            "[[models]]\nalias = \"a\"\nmodel = \"m/m\"\napi = \"chat\"\nbase_url = \"{url}\"\n{extra}"
        );
        let env = |name: &str| (name == "FAKE_KEY").then(|| "sk-fake".to_string());
        let mut registry = Registry::parse_with_env(&toml, env).unwrap();
        registry.models.remove(0)
    }

    #[test]
    fn local_hosts_are_recognised() {
        let local = |url: &str| spec(url, "").is_local();
        assert!(local("http://127.0.0.1:11434/v1"));
        assert!(local("http://127.0.0.2:8080"));
        assert!(local("http://127.1:8080/v1"), "the URL parser's 127.0.0.1");
        assert!(local("http://localhost:8080"));
        assert!(local("http://LOCALHOST/v1"));
        assert!(local("http://[::1]:8080/v1"));
        assert!(local("http://[::ffff:127.0.0.1]/v1"));
        assert!(!local("https://router.huggingface.co/v1"));
        assert!(!local("http://localhost.example.com/v1"));
        assert!(!local("http://127.evil.example/v1"));
        assert!(!local("http://127.0.0.1.evil.example/v1"));
        assert!(!local("http://localhost@evil.example/v1"));
        assert!(!local("http://evil.example/127.0.0.1/v1"));
        assert!(!local("http://10.0.0.1:11434/v1"));
        assert!(!local("http://[::2]/v1"));
    }

    #[test]
    fn hugging_face_hosts_are_recognised() {
        let hf = |url: &str| spec(url, "").is_hugging_face();
        assert!(hf("https://router.huggingface.co/v1"));
        assert!(hf("https://huggingface.co/api"));
        assert!(hf("https://api-inference.huggingface.co/models/{model}"));
        assert!(hf("https://ROUTER.HuggingFace.co:443/v1"));
        assert!(hf(
            "https://x1y2.us-east-1.aws.endpoints.huggingface.cloud/v1"
        ));
        assert!(
            !hf("http://router.huggingface.co/v1"),
            "never in clear text"
        );
        assert!(!hf("https://router.hugginface.co/v1"), "a typo");
        assert!(!hf("https://evilhuggingface.co/v1"));
        assert!(!hf("https://huggingface.co.evil.example/v1"));
        assert!(!hf("https://router.huggingface.co@evil.example/v1"));
        assert!(!hf("https://evil.example/huggingface.co/v1"));
        assert!(
            !hf("https://someone-app.hf.space/v1"),
            "a Space runs its owner's code"
        );
        assert!(!hf("https://huggingface.cloud/v1"));
        assert!(!hf("http://127.0.0.1:11434/v1"));
    }

    #[test]
    fn each_model_gets_its_own_secret_or_none() {
        let hf = spec("https://router.huggingface.co/v1", "");
        assert_eq!(hf.credential(), Credential::HuggingFace);
        assert_eq!(hf.key_notice(), None);
        let own = spec("https://api.example.com/v1", "token_env = \"FAKE_KEY\"\n");
        assert_eq!(
            own.credential(),
            Credential::Own(ApiKey::new("sk-fake").as_ref())
        );
        assert_eq!(own.key_notice(), None);
        assert!(
            !format!("{own:?}").contains("sk-fake"),
            "the key is never printed"
        );
        // token_env wins over the host: a Hugging Face host gets the named key.
        let named = spec(
            "https://router.huggingface.co/v1",
            "token_env = \"FAKE_KEY\"\n",
        );
        assert_eq!(
            named.credential(),
            Credential::Own(ApiKey::new("sk-fake").as_ref())
        );
        let unset = spec(
            "https://api.example.com/v1",
            "token_env = \"NOT_SET_ANYWHERE\"\n",
        );
        assert_eq!(unset.credential(), Credential::Own(None));
        let notice = unset.key_notice().unwrap();
        assert!(
            notice.contains("\"a\"") && notice.contains("NOT_SET_ANYWHERE"),
            "{notice}"
        );
        let ollama = spec("http://127.0.0.1:11434/v1", "");
        assert_eq!(
            (ollama.credential(), ollama.key_notice()),
            (Credential::Nothing, None)
        );
        let typo = spec("https://router.hugginface.co/v1", "");
        assert_eq!(typo.credential(), Credential::Nothing);
        assert!(typo.key_notice().unwrap().contains("without a key"));
        let clear = spec("http://gpu-box.lan:8000/v1", "token_env = \"FAKE_KEY\"\n");
        assert!(clear.key_notice().unwrap().contains("unencrypted"));
    }

    #[test]
    fn token_env_must_be_a_variable_name() {
        for bad in ["", "1KEY", "MY-KEY", "KEY NAME", "$KEY", "KEY=x", "ключ"] {
            let toml = format!(
                "[[models]]\nalias = \"ext\"\nmodel = \"m/m\"\napi = \"chat\"\ntoken_env = \"{bad}\"\n"
            );
            let e = Registry::parse(&toml).unwrap_err().to_string();
            assert!(
                e.contains("\"ext\"") && e.contains("token_env"),
                "{bad:?}: {e}"
            );
        }
        for good in ["OPENAI_API_KEY", "_K", "k2"] {
            assert!(spec(
                "https://api.example.com/v1",
                &format!("token_env = \"{good}\"\n")
            )
            .token_env
            .is_some());
        }
        let e = Registry::parse(
            "[[models]]\nalias = \"u\"\nmodel = \"m/m\"\napi = \"chat\"\nbase_url = \"http://\"\n",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("\"u\"") && e.contains("base_url"), "{e}");
    }
}
