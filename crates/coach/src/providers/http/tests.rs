//! The HTTP provider against local fake upstreams (wiremock): which secret
//! goes where, redaction, the body cap, and how failures are classified.

use std::time::Duration;

use super::*;
use crate::secret::Secret;
use crate::{
    input::CoachInput,
    prompt::{build, Prompt},
    providers::{Provider, ProviderError},
    registry::Registry,
};
use reqwest::{
    header::{HeaderMap, HeaderValue},
    StatusCode,
};
use serde_json::json;
use vocabulary::Lang;
use wiremock::{matchers::method, Mock, MockServer, ResponseTemplate};

pub(super) const HF_TOKEN: &str = "hf_secret_for_tests";
pub(super) const OWN_KEY: &str = "sk-own-key-for-tests";

/// One model from `toml` (a `[[models]]` table); `UPSTREAM_KEY` is set.
pub(super) fn spec(toml: &str) -> ModelSpec {
    let env = |name: &str| (name == "UPSTREAM_KEY").then(|| OWN_KEY.to_string());
    Registry::parse_with_env(toml, env)
        .unwrap()
        .models
        .remove(0)
}

pub(super) fn chat_at(base: &str, extra: &str) -> ModelSpec {
    spec(&format!(
        "[[models]]\nalias = \"m\"\nmodel = \"org/m\"\napi = \"chat\"\nbase_url = \"{base}/v1\"\n{extra}"
    ))
}

pub(super) fn prompt() -> Prompt {
    build(&CoachInput {
        error: 812.0,
        attempts: vec![900.0],
        params: None,
        lesson: lesson::lessons::Which::One,
        two: None,
        model: None,
        lang: Lang::En,
    })
}

/// A fake upstream answering every POST with `response`.
pub(super) async fn upstream(response: ResponseTemplate) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(response)
        .mount(&server)
        .await;
    server
}

pub(super) fn chat_reply(content: &str) -> ResponseTemplate {
    ResponseTemplate::new(200)
        .set_body_json(json!({"choices": [{"message": {"role": "assistant", "content": content}}]}))
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

pub(super) async fn call(spec: &ModelSpec) -> Result<String, ProviderError> {
    HttpProvider::new(Secret::new(HF_TOKEN))
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
    let provider = HttpProvider::new(Secret::new(HF_TOKEN));
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
    let with_token = HttpProvider::new(Secret::new(HF_TOKEN));
    let without = HttpProvider::new(None);
    let hf =
        spec("[[models]]\nalias = \"q\"\nmodel = \"Qwen/Qwen2.5-7B-Instruct\"\napi = \"chat\"\n");
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
    let server =
        upstream(ResponseTemplate::new(200).set_body_raw(huge.into_bytes(), "application/json"))
            .await;
    assert_eq!(
        call(&chat_at(&server.uri(), "")).await,
        Err(ProviderError::BadBody("body over 64 KiB".into()))
    );
    // Just under the cap is read whole.
    let padding = "x".repeat(MAX_BODY - 200);
    let server = upstream(
        ResponseTemplate::new(200)
            .set_body_json(json!({"choices": [{"message": {"content": "Hi"}}], "pad": padding})),
    )
    .await;
    assert_eq!(call(&chat_at(&server.uri(), "")).await.unwrap(), "Hi");
    // A failure's status still says what it was.
    let server =
        upstream(ResponseTemplate::new(503).set_body_string("<html>".repeat(200_000))).await;
    assert_eq!(
        call(&chat_at(&server.uri(), "")).await,
        Err(ProviderError::Unavailable { retry_after: None })
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
        ProviderError::Unavailable {
            retry_after: Some(Duration::from_secs_f64(577.37))
        }
    );
    assert_eq!(
        classify(
            StatusCode::SERVICE_UNAVAILABLE,
            &none,
            "<html>Service Temporarily Unavailable</html>"
        ),
        ProviderError::Unavailable { retry_after: None }
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
    // Whole: the log cuts it only after redaction (`log_message`).
    assert_eq!(upstream_message(&"x".repeat(500)).len(), 500);
}

#[tokio::test]
async fn complete_gives_up_at_its_timeout() {
    let server = upstream(chat_reply("Too late.").set_delay(Duration::from_secs(5))).await;
    let answer = HttpProvider::new(None)
        .complete(
            &chat_at(&server.uri(), ""),
            &prompt(),
            Duration::from_millis(200),
        )
        .await;
    assert!(matches!(answer, Err(ProviderError::Timeout)), "{answer:?}");
}

#[test]
fn a_body_reads_as_text_as_a_lossy_reading_would() {
    let bodies: [&[u8]; 6] = [
        b"{\"content\":\"caf\xc3\xa9 \xe5\x81\x9a\"}",
        b"",
        b"plain",
        b"a bad \xff byte",
        b"cut short \xe4\xb8",
        b"\xc3\xa9 then a surrogate \xed\xa0\x80",
    ];
    for body in bodies {
        assert_eq!(text_of(body), String::from_utf8_lossy(body), "{body:?}");
    }
    assert!(matches!(text_of(b"valid"), Cow::Borrowed("valid")));
}
