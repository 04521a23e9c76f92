//! Secrets against hostile or careless upstreams (review L3, L4): redaction
//! before any cut and after the reply's cleanup, answers read before they
//! are redacted, and no redirect followed.

use std::{sync::Arc, time::Duration};

use super::{
    tests::{call, chat_at, chat_reply, prompt, upstream, HF_TOKEN, OWN_KEY},
    *,
};
use crate::{input::CoachInput, providers::ProviderError, registry::Registry, service::Coach};
use url::Url;
use wiremock::{matchers::method, Mock, MockServer, ResponseTemplate};

/// A JSON-escaped key straddling the 200th character: cut first, then
/// redacted, half of it was logged.
#[test]
fn the_log_redacts_the_whole_message_before_cutting_it() {
    let provider = HttpProvider::new(Secret::new(HF_TOKEN));
    let spec = chat_at("https://api.example.com", "");
    // `\u0065` is `e`: the raw body does not spell the token, its message does.
    let escaped = HF_TOKEN.replacen('e', "\\u0065", 1);
    let body = format!(r#"{{"error":"{}{escaped}"}}"#, "x".repeat(190));
    let message = provider.log_message(&body, &spec);
    assert!(!message.contains(&HF_TOKEN[..6]), "{message}");
    assert!(message.contains("[redacted]"), "{message}");
    assert!(message.chars().count() <= 200, "{message}");
    let plain = provider.log_message(&format!("{}{HF_TOKEN}", "y".repeat(195)), &spec);
    assert!(!plain.contains(&HF_TOKEN[..4]), "{plain}");
}

fn coach_at(base: &str, env: impl Fn(&str) -> Option<String>) -> Coach {
    let toml = format!(
        "[[models]]\nalias = \"m\"\nmodel = \"org/m\"\napi = \"chat\"\nbase_url = \"{base}/v1\"\ntoken_env = \"UPSTREAM_KEY\"\n"
    );
    let registry = Registry::parse_with_env(&toml, env).unwrap();
    let provider = HttpProvider::new(Secret::new(HF_TOKEN));
    Coach::new(registry, None, Arc::new(provider), Some(1))
}

fn visitor() -> CoachInput {
    CoachInput::sample()
}

/// An upstream that holds a key (its own `token_env` one) can split it with
/// a tag the reply's cleanup removes; the visitor must still not see it.
#[tokio::test]
async fn a_key_the_cleanup_puts_back_together_is_redacted_in_the_comment() {
    let split = |key: &str, tag: &str| format!("{}{tag}{}", &key[..6], &key[6..]);
    for (key, tag) in [
        (OWN_KEY, "<think>hm</think>"),
        (OWN_KEY, "<|eot|>"),
        (HF_TOKEN, "<think></think>"),
    ] {
        let server = upstream(chat_reply(&format!("Got {} |fim|", split(key, tag)))).await;
        let coach = coach_at(&server.uri(), |_| Some(OWN_KEY.to_string()));
        let comment = coach
            .comment(visitor(), crate::budget::ClientKey::default())
            .await;
        assert_eq!(comment.model, "m", "{:?}", comment.tried);
        assert_eq!(comment.comment, "Got [redacted]", "{tag}");
    }
}

/// The answer is taken out of its JSON envelope before it is redacted: a
/// key the envelope happens to spell must not make every answer unreadable.
#[tokio::test]
async fn the_answer_is_read_out_of_its_envelope_before_it_is_redacted() {
    let server = upstream(chat_reply("Nice one!")).await;
    let key = "\"content\"";
    let toml = format!(
        "[[models]]\nalias = \"m\"\nmodel = \"org/m\"\napi = \"chat\"\nbase_url = \"{}/v1\"\ntoken_env = \"ODD_KEY\"\n",
        server.uri()
    );
    let spec = Registry::parse_with_env(&toml, |_| Some(key.to_string()))
        .unwrap()
        .models
        .remove(0);
    assert_eq!(call(&spec).await.as_deref(), Ok("Nice one!"));
}

/// A model id filled into the host (`{model}` in the authority) decides
/// where the request goes, so it decides which secret goes with it.
#[test]
fn the_token_follows_the_final_url_not_the_template() {
    let base = Url::parse("https://{model}.endpoints.huggingface.cloud").unwrap();
    assert_eq!(base.host_str(), Some("{model}.endpoints.huggingface.cloud"));
    let toml = "[[models]]\nalias = \"e\"\nmodel = \"evil.example#\"\napi = \"text-generation\"\nbase_url = \"https://{model}.endpoints.huggingface.cloud\"\ntemplate = \"{{ messages[0].content }}\"\n";
    let spec = Registry::parse(toml).unwrap().models.remove(0);
    assert_eq!(spec.endpoint().host_str(), Some("evil.example"));
    assert!(!spec.is_hugging_face());
    let provider = HttpProvider::new(Secret::new(HF_TOKEN));
    assert_eq!(provider.key_for(&spec), Ok(None));
    // A real endpoint name still gets the token.
    let toml = toml.replace("evil.example#", "x1y2.us-east-1.aws");
    let spec = Registry::parse(&toml).unwrap().models.remove(0);
    assert_eq!(provider.key_for(&spec), Ok(Some(HF_TOKEN)));
}

/// A redirect is not followed: a 3xx is that model's failure, and the host
/// it points to receives nothing (no replayed POST, no key).
#[tokio::test]
async fn redirects_are_not_followed() {
    let elsewhere = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(chat_reply("Followed!"))
        .expect(0)
        .mount(&elsewhere)
        .await;
    for status in [301, 302, 307, 308] {
        let location = format!("{}/v1/chat/completions", elsewhere.uri());
        let server =
            upstream(ResponseTemplate::new(status).insert_header("location", location.as_str()))
                .await;
        let spec = chat_at(&server.uri(), "token_env = \"UPSTREAM_KEY\"\n");
        let result = HttpProvider::new(Secret::new(HF_TOKEN))
            .complete(&spec, &prompt(), Duration::from_secs(5))
            .await;
        assert_eq!(result, Err(ProviderError::Upstream(status)));
    }
    assert!(elsewhere
        .received_requests()
        .await
        .unwrap_or_default()
        .is_empty());
}
