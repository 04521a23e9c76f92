//! Providers: what turns a prompt into text. One trait, one file per kind:
//! [`http`] (the one HTTP client, its secrets and the classification of every
//! failure as Hugging Face's router means it, `reference/hf-protocol-2026.md`) speaking [`chat`] (OpenAI-compatible
//! chat completions: the Hugging Face router, Ollama, llama.cpp, vLLM, TGI) or
//! [`text_generation`] (the classic `inputs`/`parameters` body with a Jinja chat
//! template), and [`offline`] (the built-in commentator).
//!
//! A failure is a [`ProviderError`]; [`ProviderError::outcome`] names it as an
//! [`Outcome`] for the router and `tried`, and [`ProviderError::wait`] carries
//! the upstream's own "try again in". Knows models ([`crate::model`]) and
//! prompts, never the router or the service.

use std::time::Duration;

use async_trait::async_trait;

use super::{availability::Check, model::ModelSpec, outcome::Outcome, prompt::Prompt};

pub mod chat;
pub mod http;
pub mod served;
pub mod text_generation;

#[cfg(test)]
pub(crate) mod fake;

pub use http::HttpProvider;
pub use served::{Called, ProviderName, Served, Usage};

/// An answer that is not JSON.
fn not_json() -> ProviderError {
    ProviderError::BadBody("not JSON".into())
}

/// A `200` whose body carries an `"error"`: a failure all the same.
fn error_in_200() -> ProviderError {
    ProviderError::BadBody("error field in a 200 response".into())
}

/// Why a model gave no text.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ProviderError {
    #[error("unavailable (503), retry after {retry_after:?}")]
    Unavailable { retry_after: Option<Duration> },
    #[error("rate limited (429), retry after {retry_after:?}")]
    RateLimited { retry_after: Option<Duration> },
    #[error("credits spent (402)")]
    Credits,
    #[error("not authorised ({0})")]
    Unauthorized(u16),
    #[error("model not supported (400 or 404)")]
    ModelNotSupported,
    #[error("request rejected ({0})")]
    BadRequest(u16),
    #[error("endpoint gone (410)")]
    Gone,
    #[error("upstream error ({0})")]
    Upstream(u16),
    #[error("timed out")]
    Timeout,
    #[error("connection failed")]
    Connect,
    #[error("unusable response: {0}")]
    BadBody(String),
    #[error("no key for this model (HF_TOKEN, or the variable its token_env names)")]
    NoToken,
}

impl ProviderError {
    /// What this failure is called in `tried`, `/models` and `/metrics` (never
    /// upstream text).
    pub fn outcome(&self) -> Outcome {
        match self {
            ProviderError::Unavailable { .. } => Outcome::Unavailable,
            ProviderError::RateLimited { .. } => Outcome::RateLimited,
            ProviderError::Credits => Outcome::Credits,
            ProviderError::Unauthorized(403) => Outcome::Forbidden,
            ProviderError::Unauthorized(_) => Outcome::Unauthorized,
            ProviderError::ModelNotSupported => Outcome::ModelNotSupported,
            ProviderError::BadRequest(_) => Outcome::BadRequest,
            ProviderError::Gone => Outcome::Gone,
            ProviderError::Upstream(_) => Outcome::UpstreamError,
            ProviderError::Timeout => Outcome::Timeout,
            ProviderError::Connect => Outcome::ConnectionFailed,
            ProviderError::BadBody(_) => Outcome::BadBody,
            ProviderError::NoToken => Outcome::NoToken,
        }
    }

    /// How long the upstream asked us to wait (`Retry-After`, `RateLimit`'s
    /// `t=`, a loading model's `estimated_time`), when it said.
    pub fn wait(&self) -> Option<Duration> {
        match self {
            ProviderError::Unavailable { retry_after } => *retry_after,
            ProviderError::RateLimited { retry_after } => *retry_after,
            _ => None,
        }
    }
}

/// Something that can write a comment for a prompt.
#[async_trait]
pub trait Provider: Send + Sync {
    /// The model's raw text (not yet checked), within `timeout`.
    async fn complete(
        &self,
        spec: &ModelSpec,
        prompt: &Prompt,
        timeout: Duration,
    ) -> Result<String, ProviderError>;

    /// [`Provider::complete`], with what the upstream said of who served the
    /// call and what it cost ([`Served`]). By default it says nothing. The
    /// caller bounds it to `timeout` (the service's call does), so a
    /// provider may leave the time to it.
    async fn call(&self, spec: &ModelSpec, prompt: &Prompt, timeout: Duration) -> Called {
        self.complete(spec, prompt, timeout).await.into()
    }

    /// Whether `spec` is served, and in which languages its card says it
    /// writes (`coach::availability`). By default nothing can be told: the
    /// model stays callable.
    async fn check(&self, _spec: &ModelSpec) -> Check {
        Check::unknown("this provider cannot be checked")
    }

    /// Whether `spec` can be called at all (e.g. a remote model needs a token).
    fn usable(&self, _spec: &ModelSpec) -> bool {
        true
    }

    /// `text` with every secret `spec`'s calls know blanked out. The service
    /// runs it on the comment after the reply check's cleanup, which can put
    /// back together a key an answer split (`sk-ab<think></think>cd`).
    fn redact(&self, _spec: &ModelSpec, text: &str) -> String {
        text.to_string()
    }
}
