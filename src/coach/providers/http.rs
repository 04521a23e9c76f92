//! The HTTP provider for both API kinds: one `reqwest` client, the secrets
//! and where they go, and every failure classified by status.
//!
//! Upstreams are untrusted: each request carries only the secret meant for its
//! host ([`ModelSpec::credential`]: `HF_TOKEN` to Hugging Face hosts only, a
//! model's own `token_env` key to its own endpoint, nothing elsewhere), at most
//! [`MAX_BODY`] bytes of an answer are read, no redirect is followed (a 3xx is
//! that model's failure: a token is never replayed to where it points), and
//! every secret is blanked out of what comes back: out of an error message
//! before it is cut for the log, out of the answer once it is read from its
//! JSON envelope, and again out of the comment after the reply check's
//! cleanup ([`Provider::redact`]), which can join a key split by a tag.

use std::time::{Duration, SystemTime};

use async_trait::async_trait;
use reqwest::{header::HeaderMap, StatusCode};
use serde_json::Value;

use super::{chat, text_generation, Provider, ProviderError};
use crate::{
    coach::secret::Secret,
    coach::{
        model::{Api, Credential, ModelSpec},
        text::prompt::Prompt,
    },
};

/// Most of an answer that is read: a 20-word comment in a JSON envelope needs
/// a few hundred bytes; 64 KiB leaves room for verbose servers.
pub const MAX_BODY: usize = 64 * 1024;

/// The HTTP provider for both API kinds: one client and the Hugging Face token
/// (models with their own `token_env` key carry it in their [`ModelSpec`]).
pub struct HttpProvider {
    client: reqwest::Client,
    hf_token: Option<Secret>,
}

impl HttpProvider {
    /// `hf_token`: `HF_TOKEN`, sent to Hugging Face hosts only.
    pub fn new(hf_token: Option<Secret>) -> Self {
        let client = reqwest::Client::builder()
            .user_agent(concat!("jay-trainer/", env!("CARGO_PKG_VERSION")))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap_or_default();
        Self { client, hf_token }
    }

    /// The bearer token for `spec`'s requests: `Ok(None)` for none at all,
    /// `Err(NoToken)` when the model needs a key that is not set.
    fn key_for<'a>(&'a self, spec: &'a ModelSpec) -> Result<Option<&'a str>, ProviderError> {
        match spec.credential() {
            Credential::Own(key) => key.map(|k| Some(k.expose())).ok_or(ProviderError::NoToken),
            Credential::HuggingFace => self
                .hf_token
                .as_ref()
                .map(|t| Some(t.expose()))
                .ok_or(ProviderError::NoToken),
            Credential::Nothing => Ok(None),
        }
    }

    /// What the log says of a failed call's body: its message, redacted
    /// whole (a JSON-escaped key is spelt out only once parsed), then cut to
    /// [`LOG_CHARS`], so no part of a key is ever cut off from the rest.
    fn log_message(&self, body: &str, spec: &ModelSpec) -> String {
        self.blank_secrets(&upstream_message(body), spec)
            .chars()
            .take(LOG_CHARS)
            .collect()
    }

    /// `text` with every secret of this call blanked out: `HF_TOKEN` (sent or
    /// not) and the model's own key.
    fn blank_secrets(&self, text: &str, spec: &ModelSpec) -> String {
        let secrets = [
            self.hf_token.as_ref().map(Secret::expose),
            spec.key.as_ref().map(Secret::expose),
        ];
        let mut text = text.to_string();
        for secret in secrets.into_iter().flatten() {
            if text.contains(secret) {
                text = text.replace(secret, "[redacted]");
            }
        }
        text
    }
}

#[async_trait]
impl Provider for HttpProvider {
    async fn complete(
        &self,
        spec: &ModelSpec,
        prompt: &Prompt,
        timeout: Duration,
    ) -> Result<String, ProviderError> {
        let key = self.key_for(spec)?;
        let body = match &spec.api {
            Api::Chat => serde_json::to_vec(&chat::body(spec, prompt)),
            Api::TextGeneration { template } => {
                serde_json::to_vec(&text_generation::body(spec, template, prompt)?)
            }
        }
        .map_err(|_| ProviderError::BadBody("request not serialisable".into()))?;
        let mut request = self
            .client
            .post(spec.endpoint().clone())
            .timeout(timeout)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(body);
        if let Some(key) = key {
            request = request.bearer_auth(key);
        }
        let response = request.send().await.map_err(transport_error)?;
        let status = response.status();
        let headers = response.headers().clone();
        let (body, complete) = read_capped(response).await?;
        // A failure is told by its status; its first 64 KiB say enough.
        if status.is_success() && !complete {
            return Err(ProviderError::BadBody("body over 64 KiB".into()));
        }
        // Upstream text is untrusted: one that echoes a secret (in an error
        // message, or a model repeating its input) must not carry it further,
        // into the logs or to a visitor. Secrets are blanked out of what is
        // read from the body, never out of the raw JSON: decoded, the text may
        // spell out what JSON escapes hid, and a key the envelope happens to
        // spell must not break it.
        let body = String::from_utf8_lossy(&body);
        if !status.is_success() {
            let error = classify(status, &headers, &body);
            let message = self.log_message(&body, spec);
            tracing::warn!(model = %spec.alias, %status, %message, "model call failed");
            return Err(error);
        }
        let text = match spec.api {
            Api::Chat => chat::text(&body),
            Api::TextGeneration { .. } => text_generation::text(&body),
        }?;
        Ok(self.blank_secrets(&text, spec))
    }

    /// False when the model needs a key that is not set.
    fn usable(&self, spec: &ModelSpec) -> bool {
        self.key_for(spec).is_ok()
    }

    fn redact(&self, spec: &ModelSpec, text: &str) -> String {
        self.blank_secrets(text, spec)
    }
}

/// Reads the body as it streams in, up to [`MAX_BODY`] bytes: the bytes, and
/// whether that was all of it. Never more than the cap is held in memory.
async fn read_capped(mut response: reqwest::Response) -> Result<(Vec<u8>, bool), ProviderError> {
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(transport_error)? {
        if body.len() + chunk.len() > MAX_BODY {
            let room = MAX_BODY - body.len();
            body.extend_from_slice(&chunk[..room]);
            return Ok((body, false));
        }
        body.extend_from_slice(&chunk);
    }
    Ok((body, true))
}

fn transport_error(e: reqwest::Error) -> ProviderError {
    if e.is_timeout() {
        ProviderError::Timeout
    } else if e.is_connect() {
        ProviderError::Connect
    } else {
        ProviderError::BadBody("transport error".into())
    }
}

/// Classifies a non-2xx answer by status first (bodies vary, or are HTML). A
/// redirect (3xx, never followed) is an upstream error like a 5xx.
pub fn classify(status: StatusCode, headers: &HeaderMap, body: &str) -> ProviderError {
    let json: Option<Value> = serde_json::from_str(body).ok();
    match status.as_u16() {
        503 => ProviderError::Loading {
            estimated: json
                .as_ref()
                .and_then(|j| j.get("estimated_time"))
                .and_then(Value::as_f64)
                .filter(|s| s.is_finite() && *s >= 0.0)
                .map(|s| Duration::from_secs_f64(s.min(86_400.0))),
        },
        429 => ProviderError::RateLimited {
            retry_after: retry_after(headers, SystemTime::now()),
        },
        402 => ProviderError::Credits,
        401 | 403 => ProviderError::Unauthorized(status.as_u16()),
        410 => ProviderError::Gone,
        400 if body.contains("model_not_supported") => ProviderError::ModelNotSupported,
        code @ (400..=499) => ProviderError::BadRequest(code),
        code => ProviderError::Upstream(code),
    }
}

/// Longest `Retry-After` read (the breaker honours at most an hour of it).
const MAX_RETRY_AFTER: Duration = Duration::from_secs(86_400);

/// `Retry-After` as a wait from `now`, in either of its forms (RFC 9110
/// §10.2.3): delta-seconds (`120`) or an HTTP date (`Fri, 31 Dec 2026 23:59:59
/// GMT`, and the two obsolete date formats). A date already past, or a value
/// that is neither, is no hint: the breaker's own back-off applies.
fn retry_after(headers: &HeaderMap, now: SystemTime) -> Option<Duration> {
    let value = headers
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim();
    let wait = match value.parse::<u64>() {
        Ok(seconds) => Duration::from_secs(seconds),
        Err(_) => {
            let date = httpdate::parse_http_date(value).ok()?;
            date.duration_since(now).ok().filter(|d| !d.is_zero())?
        }
    };
    Some(wait.min(MAX_RETRY_AFTER))
}

/// Most of an upstream's error message the log keeps, in characters.
pub const LOG_CHARS: usize = 200;

/// The upstream's error message, for logs only: `error`, `error.message`,
/// `detail` or `message`, whole (the log cuts it after redaction).
pub fn upstream_message(body: &str) -> String {
    let json: Option<Value> = serde_json::from_str(body).ok();
    let message = json.as_ref().and_then(|j| {
        j.get("error")
            .and_then(|e| {
                e.as_str()
                    .or_else(|| e.get("message").and_then(Value::as_str))
            })
            .or_else(|| j.get("detail").and_then(Value::as_str))
            .or_else(|| j.get("message").and_then(Value::as_str))
    });
    message.unwrap_or(body).to_string()
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod secret_tests;
