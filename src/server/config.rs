//! Typed configuration, read once from the environment at start-up.
//!
//! | variable | meaning | default |
//! |---|---|---|
//! | `PORT` | listen on `HOST:PORT` (what container platforms such as Hugging Face Spaces set) | unset |
//! | `HOST` | interface used with `PORT` | `0.0.0.0` |
//! | `LEPTOS_SITE_ADDR` | full listen address when `PORT` is unset (cargo-leptos sets it) | `127.0.0.1:3000` |
//! | `LEPTOS_SITE_ROOT` | folder with the built site (`pkg/`, assets) | `target/site` |
//! | `JAY_MODELS` | the model registry (TOML, see `coach::registry`) | `models.toml` |
//! | `HF_TOKEN` | Hugging Face token, sent to Hugging Face hosts only (other hosts: a model's `token_env`); unset: those models are skipped; shorter than 8 characters: start-up stops | unset |
//! | `JAY_HF_BILL_TO` | the Hugging Face organisation whose credits pay (`X-HF-Bill-To`, sent to Hugging Face hosts only) | unset: the token's owner |
//! | `JAY_HF_HUB_URL` | where model cards are read for models without `languages`; set, every `owner/name` model's card is read there | `https://huggingface.co`, for models on Hugging Face hosts |
//! | `JAY_RATE_PER_MIN` | comments per minute per client IP (`/error` and the page) | `20` |
//! | `JAY_RATE_BURST` | requests a client may make at once before the rate applies | `5` |
//! | `JAY_VISITS_PER_HOUR` | new visits the insights record per client IP an hour (a third at once); a class room's seated visits are not counted | `60` |
//! | `JAY_TRUSTED_PROXY_HOPS` | proxies in front whose `X-Forwarded-For` entry is trusted (1 on Hugging Face Spaces) | `0` |
//! | `JAY_UPSTREAM_CONCURRENCY` | model calls under way at once, all visitors together | `8` |
//! | `JAY_UPSTREAM_DAILY_BUDGET` | model calls per UTC day (docs/operating.md, "What it costs") | `50` |
//! | `JAY_UPSTREAM_DAILY_PER_CLIENT` | model calls per UTC day for one client (IP address, IPv6 /64); past it, its comments are the offline commentator's, flagged `daily_budget` | 2 % of the daily budget, at least 20 (`100`) |
//! | `JAY_CORS_ORIGINS` | origins that may call `/error` and `/models` (`*` or a comma-separated list) | `*` |
//! | `JAY_FRAME_ANCESTORS` | sites that may embed the page (`*` or a space-separated CSP source list) | `*` |
//! | `JAY_DEFAULT_LANG` | the coach's language for a `/error` caller that sends no `lang` and no usable `Accept-Language` (`en`, `pt` or `zh`) | `en` |
//! | `JAY_MODELS_TOKEN` | when set, `/models` wants `Authorization: Bearer <it>`; 8 to 256 visible ASCII characters | unset: open |
//! | `JAY_INSIGHTS_TOKEN` | when set, `/insights` wants it: `Authorization: Bearer <it>`, or as the HTTP Basic password (any user name; the browser asks); 8 to 256 visible ASCII characters | unset: only this machine (loopback) may read them |
//! | `JAY_VOTES_PER_DAY` | votes on comments that count per client IP a day (`POST /api/feedback`; a class room's seated visit is a client of its own) | `100` |
//! | `JAY_FEEDBACK_KEY` | the key comment ids are signed with, base64 of at least 32 bytes (`openssl rand -base64 32`): the same for every replica behind one address | unset: made once in `JAY_DATA_DIR` (`feedback.key`) |
//! | `JAY_DATA_DIR` | where the router's statistics are saved (`router.json`) | `data` |
//! | `JAY_SAVE_EVERY_S` | seconds between saves (and one at shutdown) | `30` |
//! | `JAY_INSIGHTS`, `JAY_DATABASE_URL`, `JAY_INSIGHTS_DAYS` | the insights' recording and database (`insights::config`) | on; SQLite `insights.db` in `JAY_DATA_DIR`; `90` |
//!
//! The other `LEPTOS_*` variables are read by Leptos itself (`leptos_config`).

use std::{
    fmt,
    net::{IpAddr, SocketAddr},
    path::PathBuf,
};

use leptos::config::{errors::LeptosConfigError, get_configuration, LeptosOptions};

use super::assets::{AssetsError, SiteAssets};
pub use coach::secret::Secret;
use coach::{feedback::FeedbackKey, secret::MIN_KEY_CHARS};
use insights::{InsightsConfig, InsightsConfigError};
use vocabulary::Lang;

mod hugging_face;
#[cfg(test)]
use hugging_face::hf_token_from;
pub use hugging_face::HuggingFace;

/// Name of the JS/WASM/CSS bundle, as in `[package.metadata.leptos] output-name`.
pub const OUTPUT_NAME: &str = "jay-trainer";

/// Everything the server needs, validated.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Leptos's options; `site_addr` is the address to listen on.
    pub leptos: LeptosOptions,
    /// The model registry file.
    pub models_path: PathBuf,
    /// Token, organisation billed and Hub for Hugging Face hosts.
    pub hugging_face: HuggingFace,
    /// Limits, CORS, embedding and access: what the open internet needs.
    pub guard: Guard,
    /// Where and how often the router's statistics are saved.
    pub data_dir: PathBuf,
    pub save_every: std::time::Duration,
    /// What the insights record, and where (`insights`).
    pub insights: InsightsConfig,
    /// `JAY_FEEDBACK_KEY`; `None`: the one in `data_dir` (made there first).
    pub feedback_key: Option<FeedbackKey>,
}

/// The server's protections, with the defaults of the table above.
#[derive(Clone, Debug)]
pub struct Guard {
    pub rate_per_min: u32,
    pub rate_burst: u32,
    /// New visits recorded per client an hour (`JAY_VISITS_PER_HOUR`).
    pub visits_per_hour: u32,
    /// Votes on comments that count per client a day (`JAY_VOTES_PER_DAY`).
    pub votes_per_day: u32,
    pub trusted_proxy_hops: usize,
    pub upstream_concurrency: usize,
    pub upstream_daily_budget: u64,
    /// One client's share of the day; `None`: 2 % of it, at least 20
    /// (`coach::budget::default_share`).
    pub upstream_daily_per_client: Option<u64>,
    /// `None`: any origin.
    pub cors_origins: Option<Vec<String>>,
    /// The CSP `frame-ancestors` source list.
    pub frame_ancestors: String,
    pub models_token: Option<Secret>,
    /// `JAY_INSIGHTS_TOKEN`: what `/insights` wants (`None`: only this machine).
    pub insights_token: Option<Secret>,
    /// The coach's language when a `/error` caller names none.
    pub default_lang: Lang,
}

impl Default for Guard {
    fn default() -> Self {
        Self {
            rate_per_min: 20,
            rate_burst: 5,
            visits_per_hour: 60,
            votes_per_day: 100,
            trusted_proxy_hops: 0,
            upstream_concurrency: 8,
            upstream_daily_budget: coach::budget::DEFAULT_DAILY,
            upstream_daily_per_client: None,
            cors_origins: None,
            frame_ancestors: "*".into(),
            models_token: None,
            insights_token: None,
            default_lang: Lang::En,
        }
    }
}

impl Guard {
    /// Reads the `JAY_*` variables through `var` (the environment in production).
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let d = Self::default();
        let cors_origins = match var("JAY_CORS_ORIGINS").as_deref().map(str::trim) {
            None | Some("" | "*") => None,
            Some(list) => Some(
                list.split(',')
                    .map(|o| parse_origin(o.trim()))
                    .collect::<Result<Vec<_>, _>>()?,
            ),
        };
        let frame_ancestors = match var("JAY_FRAME_ANCESTORS") {
            Some(v) if !v.trim().is_empty() => parse_ancestors(&v)?,
            _ => d.frame_ancestors,
        };
        Ok(Self {
            rate_per_min: number(&var, "JAY_RATE_PER_MIN", d.rate_per_min, 1..=100_000)?,
            rate_burst: number(&var, "JAY_RATE_BURST", d.rate_burst, 1..=10_000)?,
            visits_per_hour: number(
                &var,
                "JAY_VISITS_PER_HOUR",
                d.visits_per_hour,
                1..=1_000_000,
            )?,
            votes_per_day: number(&var, "JAY_VOTES_PER_DAY", d.votes_per_day, 1..=100_000)?,
            trusted_proxy_hops: number(
                &var,
                "JAY_TRUSTED_PROXY_HOPS",
                d.trusted_proxy_hops,
                0..=10,
            )?,
            upstream_concurrency: number(
                &var,
                "JAY_UPSTREAM_CONCURRENCY",
                d.upstream_concurrency,
                1..=1000,
            )?,
            upstream_daily_budget: number(
                &var,
                "JAY_UPSTREAM_DAILY_BUDGET",
                d.upstream_daily_budget,
                0..=100_000_000,
            )?,
            upstream_daily_per_client: match var("JAY_UPSTREAM_DAILY_PER_CLIENT") {
                Some(v) if !v.trim().is_empty() => Some(number(
                    &var,
                    "JAY_UPSTREAM_DAILY_PER_CLIENT",
                    0,
                    1..=100_000_000,
                )?),
                _ => None,
            },
            cors_origins,
            frame_ancestors,
            models_token: token_from("JAY_MODELS_TOKEN", var("JAY_MODELS_TOKEN"))?,
            insights_token: token_from("JAY_INSIGHTS_TOKEN", var("JAY_INSIGHTS_TOKEN"))?,
            default_lang: match var("JAY_DEFAULT_LANG").as_deref().map(str::trim) {
                None | Some("") => d.default_lang,
                Some(tag) => Lang::parse(tag).ok_or_else(|| ConfigError::Invalid {
                    name: "JAY_DEFAULT_LANG",
                    value: tag.to_string(),
                    expected: "en, pt or zh".into(),
                })?,
            },
        })
    }
}

/// `JAY_INSIGHTS_TOKEN` or `JAY_MODELS_TOKEN` (`name`), if set (blank is
/// unset): 8 to 256 visible ASCII characters. Short enough to guess is
/// refused; a person types the insights' into the browser's password prompt,
/// which may encode other characters in a way the server cannot tell apart.
fn token_from(name: &'static str, value: Option<String>) -> Result<Option<Secret>, ConfigError> {
    let Some(token) = value.and_then(Secret::new) else {
        return Ok(None);
    };
    let t = token.expose();
    if (MIN_KEY_CHARS..=256).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_graphic()) {
        Ok(Some(token))
    } else {
        Err(ConfigError::Token(name))
    }
}

/// A whole number from the environment, within `range`, or `default` when unset.
fn number<T>(
    var: &impl Fn(&str) -> Option<String>,
    name: &'static str,
    default: T,
    range: std::ops::RangeInclusive<T>,
) -> Result<T, ConfigError>
where
    T: std::str::FromStr + PartialOrd + fmt::Display + Copy,
{
    let Some(raw) = var(name).filter(|v| !v.trim().is_empty()) else {
        return Ok(default);
    };
    raw.trim()
        .parse::<T>()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| ConfigError::Invalid {
            name,
            value: raw.clone(),
            expected: format!("a whole number from {} to {}", range.start(), range.end()),
        })
}

/// `https://blog.example` (scheme, host, optional port; no path).
fn parse_origin(given: &str) -> Result<String, ConfigError> {
    let origin = given.trim_end_matches('/');
    let ok = origin.split_once("://").is_some_and(|(scheme, rest)| {
        matches!(scheme, "http" | "https")
            && !rest.is_empty()
            && rest
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b))
    });
    if ok {
        // Browsers send origins in lower case.
        Ok(origin.to_ascii_lowercase())
    } else {
        Err(ConfigError::Invalid {
            name: "JAY_CORS_ORIGINS",
            value: given.to_string(),
            expected: "`*` or origins such as https://blog.example, comma-separated".into(),
        })
    }
}

/// A CSP source list: `*`, `'self'`, `'none'`, or origins / host patterns.
fn parse_ancestors(value: &str) -> Result<String, ConfigError> {
    let sources: Vec<&str> = value.split([' ', ',']).filter(|s| !s.is_empty()).collect();
    let ok = sources.iter().all(|s| {
        matches!(*s, "*" | "'self'" | "'none'")
            || s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-.:/*[]".contains(&b))
    });
    if ok {
        Ok(sources.join(" "))
    } else {
        Err(ConfigError::Invalid {
            name: "JAY_FRAME_ANCESTORS",
            value: value.to_string(),
            expected: "`*`, 'self', 'none' or origins such as https://blog.example".into(),
        })
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("PORT must be a whole number from 0 to 65535, got {0:?}")]
    Port(String),
    #[error("HOST must be an IP address such as 0.0.0.0 or 127.0.0.1, got {0:?}")]
    Host(String),
    #[error("{name} must be {expected}, got {value:?}")]
    Invalid {
        name: &'static str,
        value: String,
        expected: String,
    },
    /// The value is never shown.
    #[error("{0} is shorter than {MIN_KEY_CHARS} characters: every answer is searched for it and it would be blanked out of ordinary words; set the real token or leave {0} unset")]
    ShortKey(&'static str),
    /// The value is never shown.
    #[error("{0} must be {MIN_KEY_CHARS} to 256 visible ASCII characters (no spaces); its value is not shown")]
    Token(&'static str),
    /// The value is never shown.
    #[error("JAY_FEEDBACK_KEY must be base64 of at least 32 bytes (openssl rand -base64 32); its value is not shown")]
    FeedbackKey,
    #[error("Leptos configuration (LEPTOS_* variables): {0}")]
    Leptos(#[from] LeptosConfigError),
    #[error(transparent)]
    Assets(#[from] AssetsError),
    /// `JAY_INSIGHTS`, `JAY_DATABASE_URL` or `JAY_INSIGHTS_DAYS` (a URL shown without its password).
    #[error("insights (set JAY_INSIGHTS=off to record nothing): {0}")]
    Insights(#[from] InsightsConfigError),
}

impl Settings {
    /// Reads and validates the environment.
    pub fn from_env() -> Result<Self, ConfigError> {
        let mut leptos = get_configuration(None)?.leptos_options;
        if leptos.output_name.is_empty() {
            // Built without cargo-leptos (e.g. `cargo test`): use the known name.
            leptos.output_name = OUTPUT_NAME.into();
        }
        let port = std::env::var("PORT").ok();
        let host = std::env::var("HOST").ok();
        leptos.site_addr = resolve_addr(port.as_deref(), host.as_deref(), leptos.site_addr)?;
        let models_path = std::env::var_os("JAY_MODELS")
            .map_or_else(|| PathBuf::from("models.toml"), PathBuf::from);
        let var = |name: &str| std::env::var(name).ok();
        let hugging_face = HuggingFace::from_vars(var)?;
        let guard = Guard::from_vars(var)?;
        let data_dir = std::env::var_os("JAY_DATA_DIR")
            .filter(|d| !d.is_empty())
            .map_or_else(|| PathBuf::from("data"), PathBuf::from);
        let save_every =
            std::time::Duration::from_secs(number(&var, "JAY_SAVE_EVERY_S", 30, 1..=86_400)?);
        let insights = InsightsConfig::from_vars(var, &data_dir)?;
        let feedback_key = match var("JAY_FEEDBACK_KEY") {
            Some(v) if !v.trim().is_empty() => {
                Some(FeedbackKey::from_base64(&v).map_err(|_| ConfigError::FeedbackKey)?)
            }
            _ => None,
        };
        // Hashed file names when the build wrote its hash file beside this
        // executable, or LEPTOS_HASH_FILES says so (Leptos checked it is a
        // bool); the file is read here so that a missing one stops start-up.
        let hash_files = var("LEPTOS_HASH_FILES").map(|v| v.trim() == "true");
        let exe = std::env::current_exe().unwrap_or_default();
        leptos.hash_files = SiteAssets::beside(&exe, &leptos.hash_file, hash_files)?.hashed();
        Ok(Self {
            leptos,
            models_path,
            hugging_face,
            guard,
            data_dir,
            save_every,
            insights,
            feedback_key,
        })
    }
}

/// `HOST:PORT` when `PORT` is set (host defaults to every interface), else `fallback`.
pub fn resolve_addr(
    port: Option<&str>,
    host: Option<&str>,
    fallback: SocketAddr,
) -> Result<SocketAddr, ConfigError> {
    let Some(port) = port.map(str::trim).filter(|p| !p.is_empty()) else {
        return Ok(fallback);
    };
    let port: u16 = port
        .parse()
        .map_err(|_| ConfigError::Port(port.to_string()))?;
    let host = host
        .map(str::trim)
        .filter(|h| !h.is_empty())
        .unwrap_or("0.0.0.0");
    let ip: IpAddr = host
        .parse()
        .map_err(|_| ConfigError::Host(host.to_string()))?;
    Ok(SocketAddr::new(ip, port))
}

#[cfg(test)]
mod tests;
