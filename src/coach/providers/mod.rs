//! Providers: what turns a prompt into text. One trait, one file per kind:
//! [`chat`] (OpenAI-compatible chat completions: the Hugging Face router, Ollama,
//! llama.cpp, vLLM, TGI), [`text_generation`] (the classic `inputs`/`parameters`
//! body with a Jinja chat template) and [`offline`] (the built-in commentator).
//!
//! Every HTTP failure of `reference/hf-protocol.md` §4 becomes its own
//! [`ProviderError`] variant, so the router can treat a cold model, a rate limit,
//! spent credits and a misconfiguration differently.
//!
//! Upstreams are untrusted: each request carries only the secret meant for its
//! host ([`ModelSpec::credential`]: `HF_TOKEN` to Hugging Face hosts only, a
//! model's own `token_env` key to its own endpoint, nothing elsewhere), at most
//! [`MAX_BODY`] bytes of an answer are read, and every secret is blanked out of
//! what comes back.

use std::time::{Duration, SystemTime};

use async_trait::async_trait;
use reqwest::{header::HeaderMap, StatusCode};
use serde_json::Value;

use super::{
    prompt::Prompt,
    registry::{Credential, ModelSpec},
};

pub mod chat;
pub mod offline;
pub mod text_generation;

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
    #[error("model loading (503), estimated {estimated:?}")]
    Loading { estimated: Option<Duration> },
    #[error("rate limited (429), retry after {retry_after:?}")]
    RateLimited { retry_after: Option<Duration> },
    #[error("credits spent (402)")]
    Credits,
    #[error("not authorised ({0})")]
    Unauthorized(u16),
    #[error("model not supported (400)")]
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
    /// Short, stable name for responses and stats (never contains upstream text).
    pub fn outcome(&self) -> &'static str {
        match self {
            ProviderError::Loading { .. } => "loading",
            ProviderError::RateLimited { .. } => "rate_limited",
            ProviderError::Credits => "credits",
            ProviderError::Unauthorized(_) => "unauthorized",
            ProviderError::ModelNotSupported => "model_not_supported",
            ProviderError::BadRequest(_) => "bad_request",
            ProviderError::Gone => "gone",
            ProviderError::Upstream(_) => "upstream_error",
            ProviderError::Timeout => "timeout",
            ProviderError::Connect => "connection_failed",
            ProviderError::BadBody(_) => "bad_body",
            ProviderError::NoToken => "no_token",
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

    /// Whether `spec` can be called at all (e.g. a remote model needs a token).
    fn usable(&self, _spec: &ModelSpec) -> bool {
        true
    }
}

/// Most of an answer that is read: a 20-word comment in a JSON envelope needs
/// a few hundred bytes; 64 KiB leaves room for verbose servers.
pub const MAX_BODY: usize = 64 * 1024;

/// The HTTP provider for both API kinds: one client and the Hugging Face token
/// (models with their own `token_env` key carry it in their [`ModelSpec`]).
pub struct HttpProvider {
    client: reqwest::Client,
    hf_token: Option<String>,
}

impl HttpProvider {
    /// `hf_token`: `HF_TOKEN`, sent to Hugging Face hosts only.
    pub fn new(hf_token: Option<String>) -> Self {
        let client = reqwest::Client::builder()
            .user_agent(concat!("jay-trainer/", env!("CARGO_PKG_VERSION")))
            .build()
            .unwrap_or_default();
        Self {
            client,
            hf_token: hf_token.filter(|t| !t.trim().is_empty()),
        }
    }

    /// The bearer token for `spec`'s requests: `Ok(None)` for none at all,
    /// `Err(NoToken)` when the model needs a key that is not set.
    fn key_for<'a>(&'a self, spec: &'a ModelSpec) -> Result<Option<&'a str>, ProviderError> {
        match spec.credential() {
            Credential::Own(key) => key.map(|k| Some(k.expose())).ok_or(ProviderError::NoToken),
            Credential::HuggingFace => self
                .hf_token
                .as_deref()
                .map(Some)
                .ok_or(ProviderError::NoToken),
            Credential::Nothing => Ok(None),
        }
    }

    /// `text` with every secret of this call blanked out: `HF_TOKEN` (sent or
    /// not) and the model's own key.
    fn redact(&self, text: &str, spec: &ModelSpec) -> String {
        let secrets = [
            self.hf_token.as_deref(),
            spec.key.as_ref().map(|k| k.expose()),
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
        let body = match spec.api {
            super::registry::ApiKind::Chat => serde_json::to_vec(&chat::body(spec, prompt)),
            super::registry::ApiKind::TextGeneration => {
                serde_json::to_vec(&text_generation::body(spec, prompt)?)
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
        // into the logs or to a visitor.
        let text = self.redact(&String::from_utf8_lossy(&body), spec);
        if !status.is_success() {
            let error = classify(status, &headers, &text);
            let message = self.redact(&upstream_message(&text), spec);
            tracing::warn!(model = %spec.alias, %status, %message, "model call failed");
            return Err(error);
        }
        // Decoded, the text may spell out what JSON escapes hid from the
        // first redaction.
        let text = match spec.api {
            super::registry::ApiKind::Chat => chat::text(&text),
            super::registry::ApiKind::TextGeneration => text_generation::text(&text),
        }?;
        Ok(self.redact(&text, spec))
    }

    /// False when the model needs a key that is not set.
    fn usable(&self, spec: &ModelSpec) -> bool {
        self.key_for(spec).is_ok()
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

/// Classifies a non-2xx answer by status first (bodies vary, or are HTML).
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

/// The upstream's error message, for logs only: `error`, `error.message`,
/// `detail` or `message`, cut to 200 characters.
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
    message.unwrap_or(body).chars().take(200).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coach::{input::CoachInput, prompt::build, registry::Registry, Lang};
    use reqwest::header::HeaderValue;
    use serde_json::json;
    use wiremock::{matchers::method, Mock, MockServer, ResponseTemplate};

    const HF_TOKEN: &str = "hf_secret_for_tests";
    const OWN_KEY: &str = "sk-own-key-for-tests";

    /// One model from `toml` (a `[[models]]` table); `UPSTREAM_KEY` is set.
    fn spec(toml: &str) -> ModelSpec {
        let env = |name: &str| (name == "UPSTREAM_KEY").then(|| OWN_KEY.to_string());
        Registry::parse_with_env(toml, env)
            .unwrap()
            .models
            .remove(0)
    }

    fn chat_at(base: &str, extra: &str) -> ModelSpec {
        spec(&format!(
            "[[models]]\nalias = \"m\"\nmodel = \"org/m\"\napi = \"chat\"\nbase_url = \"{base}/v1\"\n{extra}"
        ))
    }

    fn prompt() -> Prompt {
        build(&CoachInput {
            error: 812.0,
            attempts: vec![900.0],
            params: None,
            model: None,
            lang: Lang::En,
        })
    }

    /// A fake upstream answering every POST with `response`.
    async fn upstream(response: ResponseTemplate) -> MockServer {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .respond_with(response)
            .mount(&server)
            .await;
        server
    }

    fn chat_reply(content: &str) -> ResponseTemplate {
        ResponseTemplate::new(200).set_body_json(
            json!({"choices": [{"message": {"role": "assistant", "content": content}}]}),
        )
    }

    /// The `Authorization` headers the upstream received, one per request.
    async fn authorizations(server: &MockServer) -> Vec<Option<String>> {
        let requests = server.received_requests().await.unwrap_or_default();
        requests
            .iter()
            .map(|r| {
                r.headers
                    .get("authorization")
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_string)
            })
            .collect()
    }

    async fn call(spec: &ModelSpec) -> Result<String, ProviderError> {
        HttpProvider::new(Some(HF_TOKEN.into()))
            .complete(spec, &prompt(), Duration::from_secs(5))
            .await
    }

    #[tokio::test]
    async fn hf_token_never_goes_to_a_host_that_is_not_hugging_face() {
        let server = upstream(chat_reply("Nudge the bias!")).await;
        let text_generation = spec(&format!(
            "[[models]]\nalias = \"tg\"\nmodel = \"org/tg\"\napi = \"text-generation\"\nbase_url = \"{}/models/{{model}}\"\ntemplate = \"{{{{ messages[0].content }}}}\"\n",
            server.uri()
        ));
        assert_eq!(
            call(&chat_at(&server.uri(), "")).await.unwrap(),
            "Nudge the bias!"
        );
        let _ = call(&text_generation).await;
        let requests = server.received_requests().await.unwrap_or_default();
        assert_eq!(requests.len(), 2);
        assert_eq!(authorizations(&server).await, vec![None, None]);
        for request in requests {
            let headers = format!("{:?}", request.headers);
            assert!(!headers.contains(HF_TOKEN), "{headers}");
        }
    }

    #[tokio::test]
    async fn a_token_env_model_gets_its_own_key_and_it_is_redacted() {
        // The upstream echoes what it was sent, as a hostile one might.
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .respond_with(|request: &wiremock::Request| {
                let auth = request
                    .headers
                    .get("authorization")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or_default()
                    .to_string();
                chat_reply(&format!("Got {auth}"))
            })
            .mount(&server)
            .await;
        let own = chat_at(&server.uri(), "token_env = \"UPSTREAM_KEY\"\n");
        assert_eq!(call(&own).await.unwrap(), "Got Bearer [redacted]");
        assert_eq!(
            authorizations(&server).await,
            vec![Some(format!("Bearer {OWN_KEY}"))]
        );
    }

    #[tokio::test]
    async fn a_model_whose_key_is_unset_is_not_called() {
        let server = upstream(chat_reply("Hi")).await;
        let unset = chat_at(&server.uri(), "token_env = \"UNSET_KEY_FOR_TESTS\"\n");
        let provider = HttpProvider::new(Some(HF_TOKEN.into()));
        assert!(!provider.usable(&unset));
        assert_eq!(call(&unset).await, Err(ProviderError::NoToken));
        assert!(server
            .received_requests()
            .await
            .unwrap_or_default()
            .is_empty());
    }

    #[test]
    fn each_host_gets_its_secret_or_none() {
        let with_token = HttpProvider::new(Some(HF_TOKEN.into()));
        let without = HttpProvider::new(None);
        let hf = spec(
            "[[models]]\nalias = \"q\"\nmodel = \"Qwen/Qwen2.5-7B-Instruct\"\napi = \"chat\"\n",
        );
        assert_eq!(with_token.key_for(&hf), Ok(Some(HF_TOKEN)));
        assert_eq!(without.key_for(&hf), Err(ProviderError::NoToken));
        assert!(!without.usable(&hf));
        for base in [
            "http://127.0.0.1:11434",
            "https://api.example.com",
            "http://127.evil.example",
        ] {
            let other = chat_at(base, "");
            assert_eq!(with_token.key_for(&other), Ok(None), "{base}");
            assert!(without.usable(&other), "{base}");
        }
        let own = chat_at(
            "https://router.huggingface.co",
            "token_env = \"UPSTREAM_KEY\"\n",
        );
        assert_eq!(with_token.key_for(&own), Ok(Some(OWN_KEY)));
    }

    #[tokio::test]
    async fn a_body_over_64_kib_is_a_model_error() {
        let huge = format!(
            "{{\"choices\":[{{\"message\":{{\"content\":\"Hi\"}}}}],\"pad\":\"{}\"}}",
            "x".repeat(1 << 20)
        );
        let server = upstream(
            ResponseTemplate::new(200).set_body_raw(huge.into_bytes(), "application/json"),
        )
        .await;
        assert_eq!(
            call(&chat_at(&server.uri(), "")).await,
            Err(ProviderError::BadBody("body over 64 KiB".into()))
        );
        // Just under the cap is read whole.
        let padding = "x".repeat(MAX_BODY - 200);
        let server =
            upstream(ResponseTemplate::new(200).set_body_json(
                json!({"choices": [{"message": {"content": "Hi"}}], "pad": padding}),
            ))
            .await;
        assert_eq!(call(&chat_at(&server.uri(), "")).await.unwrap(), "Hi");
        // A failure's status still says what it was.
        let server =
            upstream(ResponseTemplate::new(503).set_body_string("<html>".repeat(200_000))).await;
        assert_eq!(
            call(&chat_at(&server.uri(), "")).await,
            Err(ProviderError::Loading { estimated: None })
        );
    }

    #[test]
    fn retry_after_is_read_in_both_forms() {
        let now = httpdate::parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT").unwrap();
        let read = |value: &'static str| {
            let mut headers = HeaderMap::new();
            headers.insert("retry-after", HeaderValue::from_static(value));
            retry_after(&headers, now)
        };
        assert_eq!(read("120"), Some(Duration::from_secs(120)));
        assert_eq!(read(" 7 "), Some(Duration::from_secs(7)));
        assert_eq!(
            read("Sun, 06 Nov 1994 08:51:37 GMT"),
            Some(Duration::from_secs(120))
        );
        // The obsolete forms RFC 9110 still asks recipients to accept.
        assert_eq!(
            read("Sunday, 06-Nov-94 08:50:37 GMT"),
            Some(Duration::from_secs(60))
        );
        assert_eq!(
            read("Sun Nov  6 08:50:07 1994"),
            Some(Duration::from_secs(30))
        );
        // A date already past (or now) is no hint; nor is garbage.
        assert_eq!(read("Sun, 06 Nov 1994 08:49:37 GMT"), None);
        assert_eq!(read("Sat, 05 Nov 1994 08:49:37 GMT"), None);
        assert_eq!(read("soon"), None);
        assert_eq!(read("-5"), None);
        // Bounded, both ways.
        assert_eq!(read("99999999999"), Some(MAX_RETRY_AFTER));
        assert_eq!(read("Fri, 31 Dec 9999 23:59:59 GMT"), Some(MAX_RETRY_AFTER));
        assert_eq!(retry_after(&HeaderMap::new(), now), None);
    }

    #[test]
    fn statuses_are_told_apart() {
        let none = HeaderMap::new();
        assert_eq!(
            classify(
                StatusCode::SERVICE_UNAVAILABLE,
                &none,
                r#"{"error":"Model X is currently loading","estimated_time":577.37}"#
            ),
            ProviderError::Loading {
                estimated: Some(Duration::from_secs_f64(577.37))
            }
        );
        assert_eq!(
            classify(
                StatusCode::SERVICE_UNAVAILABLE,
                &none,
                "<html>Service Temporarily Unavailable</html>"
            ),
            ProviderError::Loading { estimated: None }
        );
        let mut retry = HeaderMap::new();
        retry.insert("retry-after", HeaderValue::from_static("30"));
        assert_eq!(
            classify(StatusCode::TOO_MANY_REQUESTS, &retry, ""),
            ProviderError::RateLimited {
                retry_after: Some(Duration::from_secs(30))
            }
        );
        assert_eq!(
            classify(StatusCode::PAYMENT_REQUIRED, &none, "{}"),
            ProviderError::Credits
        );
        assert_eq!(
            classify(StatusCode::FORBIDDEN, &none, ""),
            ProviderError::Unauthorized(403)
        );
        assert_eq!(
            classify(
                StatusCode::BAD_REQUEST,
                &none,
                r#"{"error":{"message":"not supported","code":"model_not_supported"}}"#
            ),
            ProviderError::ModelNotSupported
        );
        assert_eq!(
            classify(
                StatusCode::UNPROCESSABLE_ENTITY,
                &none,
                "Input validation error"
            ),
            ProviderError::BadRequest(422)
        );
        assert_eq!(classify(StatusCode::GONE, &none, ""), ProviderError::Gone);
        assert_eq!(
            classify(StatusCode::BAD_GATEWAY, &none, ""),
            ProviderError::Upstream(502)
        );
    }

    #[test]
    fn upstream_messages_are_found_wherever_they_are() {
        assert_eq!(upstream_message(r#"{"error":"loading"}"#), "loading");
        assert_eq!(upstream_message(r#"{"error":{"message":"nope"}}"#), "nope");
        assert_eq!(upstream_message(r#"{"detail":"bad"}"#), "bad");
        assert_eq!(upstream_message(r#"{"message":"m"}"#), "m");
        assert_eq!(upstream_message(&"x".repeat(500)).len(), 200);
    }
}
