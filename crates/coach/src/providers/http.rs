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

use std::{borrow::Cow, time::Duration};

use async_trait::async_trait;
use reqwest::header::HeaderMap;

use super::{chat, text_generation, Called, Provider, ProviderError, ProviderName, Served};
use crate::availability::Check;
use crate::{
    model::{Api, Credential, ModelSpec},
    prompt::Prompt,
    secret::Secret,
};

mod check;
mod classify;
pub use check::Hub;
pub use classify::{classify, upstream_message};
#[cfg(test)]
use classify::{retry_after, MAX_RETRY_AFTER};

/// Most of an upstream's error message the log keeps, in characters.
pub const LOG_CHARS: usize = 200;

/// The header naming the inference provider that took a call (sent by
/// Hugging Face's router; read by its own chat-ui, undocumented).
const PROVIDER_HEADER: &str = "x-inference-provider";

/// The header that bills a Hugging Face organisation instead of the token's
/// owner (its Team or Enterprise credits apply only when it is sent).
const BILL_TO_HEADER: &str = "x-hf-bill-to";

/// Most of an answer that is read: a 20-word comment in a JSON envelope needs
/// a few hundred bytes; 64 KiB leaves room for verbose servers.
pub const MAX_BODY: usize = 64 * 1024;

/// The HTTP provider for both API kinds: one client and the Hugging Face token
/// (models with their own `token_env` key carry it in their [`ModelSpec`]).
pub struct HttpProvider {
    client: reqwest::Client,
    hf_token: Option<Secret>,
    /// `JAY_HF_BILL_TO`: the organisation Hugging Face hosts bill.
    bill_to: Option<BillTo>,
    /// Where model cards are read (`check`).
    hub: Hub,
}

/// A Hugging Face organisation's name for `X-HF-Bill-To`: 1 to 96 letters,
/// digits, `-`, `_` or `.` (what the Hub allows in a name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BillTo(String);

impl BillTo {
    /// `None` for a name the Hub would not have.
    pub fn parse(raw: &str) -> Option<Self> {
        let name = raw.trim();
        let ok = (1..=96).contains(&name.len())
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
        ok.then(|| Self(name.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl HttpProvider {
    /// `hf_token`: `HF_TOKEN`, sent to Hugging Face hosts only.
    pub fn new(hf_token: Option<Secret>) -> Self {
        let client = reqwest::Client::builder()
            .user_agent(concat!("jay-trainer/", env!("CARGO_PKG_VERSION")))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap_or_default();
        Self {
            client,
            hf_token,
            bill_to: None,
            hub: Hub::default(),
        }
    }

    /// The organisation `spec`'s calls bill: `JAY_HF_BILL_TO` for a model
    /// on a Hugging Face host, none anywhere else (like `HF_TOKEN`).
    fn bill_to_for(&self, spec: &ModelSpec) -> Option<&str> {
        self.bill_to
            .as_ref()
            .filter(|_| spec.is_hugging_face())
            .map(BillTo::as_str)
    }

    /// Reads model cards from `hub` (see [`Hub`]).
    pub fn with_hub(mut self, hub: Hub) -> Self {
        self.hub = hub;
        self
    }

    /// Bills `org` for every call to a Hugging Face host (`X-HF-Bill-To`),
    /// and sends the header nowhere else.
    pub fn with_bill_to(mut self, org: Option<BillTo>) -> Self {
        self.bill_to = org;
        self
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
        tokio::time::timeout(timeout, self.post(spec, prompt, &mut Served::default()))
            .await
            .unwrap_or(Err(ProviderError::Timeout))
    }

    /// Sets no timer: the service's call is bounded by its own
    /// (`service::call`), and a second timer per call only costs a wake-up
    /// of the runtime's timer thread.
    async fn call(&self, spec: &ModelSpec, prompt: &Prompt, _timeout: Duration) -> Called {
        let mut served = Served::default();
        let result = self.post(spec, prompt, &mut served).await;
        Called { result, served }
    }

    async fn check(&self, spec: &ModelSpec) -> Check {
        self.check_model(spec).await
    }

    /// False when the model needs a key that is not set.
    fn usable(&self, spec: &ModelSpec) -> bool {
        self.key_for(spec).is_ok()
    }

    fn redact(&self, spec: &ModelSpec, text: &str) -> String {
        self.blank_secrets(text, spec)
    }
}

impl HttpProvider {
    /// Posts the prompt and reads the answer; `served` learns who served it
    /// and, for an answer, what it cost.
    async fn post(
        &self,
        spec: &ModelSpec,
        prompt: &Prompt,
        served: &mut Served,
    ) -> Result<String, ProviderError> {
        let key = self.key_for(spec)?;
        // The prompt's texts and the JSON around them, written without
        // growing the buffer on the way.
        let mut body = Vec::with_capacity(prompt.text_len() + 512);
        match &spec.api {
            Api::Chat => {
                chat::body(spec, prompt).and_then(|chat| serde_json::to_writer(&mut body, &chat))
            }
            Api::TextGeneration { template } => {
                serde_json::to_writer(&mut body, &text_generation::body(spec, template, prompt)?)
            }
        }
        .map_err(|_| ProviderError::BadBody("request not serialisable".into()))?;
        let mut request = self
            .client
            .post(spec.endpoint().clone())
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(body);
        if let Some(key) = key {
            request = request.bearer_auth(key);
        }
        if let Some(org) = self.bill_to_for(spec) {
            request = request.header(BILL_TO_HEADER, org);
        }
        let response = request.send().await.map_err(transport_error)?;
        let status = response.status();
        served.by = provider_of(response.headers());
        // A failure's headers say how long to wait (`Retry-After`).
        let failed = (!status.is_success()).then(|| response.headers().clone());
        let (body, complete) = read_capped(response, MAX_BODY).await?;
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
        let body = text_of(&body);
        if let Some(headers) = failed {
            let error = classify(status, &headers, &body);
            let message = self.log_message(&body, spec);
            let by = served.by.as_ref().map_or("", ProviderName::as_str);
            tracing::warn!(model = %spec.alias, provider = by, %status, %message, "model call failed");
            return Err(error);
        }
        let text = match spec.api {
            Api::Chat => {
                let (text, usage) = chat::answer(&body)?;
                served.usage = usage;
                text
            }
            Api::TextGeneration { .. } => text_generation::text(&body)?,
        };
        Ok(self.blank_secrets(&text, spec))
    }
}

/// The inference provider an answer names, if it names one plausibly.
fn provider_of(headers: &HeaderMap) -> Option<ProviderName> {
    ProviderName::parse(headers.get(PROVIDER_HEADER)?.to_str().ok()?)
}

/// `body` as text. Valid UTF-8, nearly every answer, is borrowed after std's
/// word-at-a-time check; only a body that is not has its bad bytes replaced
/// (`String::from_utf8_lossy` alone reads every byte one at a time).
fn text_of(body: &[u8]) -> Cow<'_, str> {
    std::str::from_utf8(body).map_or_else(|_| String::from_utf8_lossy(body), Cow::Borrowed)
}

/// Reads the body as it streams in, up to `cap` bytes: the bytes, and
/// whether that was all of it. Never more than the cap is held in memory.
async fn read_capped(
    mut response: reqwest::Response,
    cap: usize,
) -> Result<(Vec<u8>, bool), ProviderError> {
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(transport_error)? {
        if body.len() + chunk.len() > cap {
            let room = cap - body.len();
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

#[cfg(test)]
mod tests;

#[cfg(test)]
mod secret_tests;

#[cfg(test)]
mod served_tests;
