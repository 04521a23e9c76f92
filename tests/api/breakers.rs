//! Circuit breakers seen from outside: a rate-limited model left alone, a
//! misconfigured one stopped, spent credits, and the last door.

use serde_json::json;
use wiremock::{matchers::method, Mock, MockServer, ResponseTemplate};

use crate::helpers::{chat_model, chat_reply, get_json, spawn_app, upstream};

async fn breaker_states(base: &str) -> Vec<(String, String)> {
    let (_, body) = get_json(&format!("{base}/models")).await;
    body["models"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["alias"].as_str().unwrap().to_string(),
                m["breaker"]["state"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_rate_limited_model_is_left_alone_for_its_retry_after() {
    let limited = upstream(ResponseTemplate::new(429).insert_header("retry-after", "30")).await;
    let fine = upstream(chat_reply("Fine! |fim|")).await;
    let base = spawn_app(&format!(
        "{}{}",
        chat_model("limited", &limited.uri()),
        chat_model("fine", &fine.uri())
    ))
    .await;

    let (_, first) = base.get_error("error=900&model=limited").await;
    assert_eq!(first["tried"][0]["outcome"], "rate_limited");
    for _ in 0..8 {
        let (_, body) = base.get_error("error=900").await;
        assert_eq!(
            body["tried"],
            json!([{"model": "fine", "outcome": "ok", "latency_ms": body["tried"][0]["latency_ms"]}])
        );
    }
    let limited_model = base.stats("limited").await;
    assert_eq!(limited_model["breaker"]["state"], "open");
    let retry = limited_model["breaker"]["retry_in_s"].as_f64().unwrap();
    assert!(retry > 0.0 && retry <= 30.0, "{retry}");
    assert_eq!(
        limited.received_requests().await.unwrap().len(),
        1,
        "called once only"
    );
}

#[tokio::test]
async fn a_misconfigured_model_is_not_called_again_and_says_so() {
    let upstream =
        upstream(ResponseTemplate::new(401).set_body_json(json!({"error": "Invalid credentials"})))
            .await;
    let base = spawn_app(&chat_model("badtoken", &upstream.uri())).await;
    let (_, first) = base.get_error("error=900").await;
    assert_eq!(first["tried"][0]["outcome"], "unauthorized");
    for _ in 0..3 {
        let (_, body) = base.get_error("error=900").await;
        assert_eq!(
            (body["tried"].clone(), body["model"].as_str()),
            (json!([]), Some("offline"))
        );
    }
    assert_eq!(
        breaker_states(&base).await,
        vec![("badtoken".to_string(), "misconfigured".to_string())]
    );
    assert_eq!(
        upstream.received_requests().await.unwrap().len(),
        1,
        "called once only"
    );
}

/// `chat_model` called with the fake key of `UPSTREAM_KEY`.
fn keyed_model(alias: &str, base: &str) -> String {
    format!("{}token_env = \"UPSTREAM_KEY\"\n", chat_model(alias, base))
}

/// Credits belong to a key: a 402 stops the models of that key and host,
/// and no other.
#[tokio::test]
async fn spent_credits_stop_the_models_of_that_key_and_host_only() {
    let spent = || {
        ResponseTemplate::new(402)
            .set_body_json(json!({"error": "You have exceeded your monthly included credits"}))
    };
    let (broke, sibling) = (
        upstream(spent()).await,
        upstream(chat_reply("Hi |fim|")).await,
    );
    let keyless = upstream(chat_reply("Hi |fim|")).await;
    // The same key on another host (localhost is not 127.0.0.1 by name).
    let elsewhere = keyless.uri().replace("127.0.0.1", "localhost");
    let base = spawn_app(&format!(
        "{}{}{}{}",
        keyed_model("broke", &broke.uri()),
        keyed_model("sibling", &sibling.uri()),
        keyed_model("elsewhere", &elsewhere),
        chat_model("keyless", &keyless.uri()),
    ))
    .await;
    let (_, body) = base.get_error("error=900&model=broke").await;
    assert_eq!(body["tried"][0]["outcome"], "credits");
    let state = |s: &str| (s.to_string(), "credits".to_string());
    let closed = |s: &str| (s.to_string(), "closed".to_string());
    assert_eq!(
        breaker_states(&base).await,
        vec![
            state("broke"),
            state("sibling"),
            closed("elsewhere"),
            closed("keyless")
        ]
    );
    // Out until the credits are bought or the month turns: an hour, not seconds.
    let rest = base.stats("broke").await["breaker"]["retry_in_s"]
        .as_f64()
        .unwrap();
    assert!(rest > 3500.0, "{rest}");
}

/// A model called with no key at all (a local Ollama) that answers 402
/// stops only itself.
#[tokio::test]
async fn a_keyless_model_out_of_credits_stops_only_itself() {
    let broke = upstream(ResponseTemplate::new(402)).await;
    let fine = upstream(chat_reply("Hi |fim|")).await;
    let base = spawn_app(&format!(
        "{}{}{}",
        chat_model("broke", &broke.uri()),
        chat_model("also_keyless", &fine.uri()),
        keyed_model("keyed", &fine.uri()),
    ))
    .await;
    let (_, body) = base.get_error("error=900&model=broke").await;
    assert_eq!(body["tried"][0]["outcome"], "credits");
    let states = breaker_states(&base).await;
    let open: Vec<&str> = states
        .iter()
        .filter(|(_, s)| s != "closed")
        .map(|(a, _)| a.as_str())
        .collect();
    assert_eq!(open, vec!["broke"]);
}

#[tokio::test]
async fn when_every_breaker_is_open_the_soonest_to_close_is_tried_once() {
    let loading = |seconds: f64| {
        ResponseTemplate::new(503).set_body_json(
            json!({"error": "Model is currently loading", "estimated_time": seconds}),
        )
    };
    let (a, b) = (MockServer::start().await, MockServer::start().await);
    Mock::given(method("POST"))
        .respond_with(loading(20.0))
        .mount(&a)
        .await;
    Mock::given(method("POST"))
        .respond_with(loading(60.0))
        .mount(&b)
        .await;
    let base = spawn_app(&format!(
        "{}{}",
        chat_model("a", &a.uri()),
        chat_model("b", &b.uri())
    ))
    .await;
    base.get_error("error=900&model=a").await;
    base.get_error("error=900&model=b").await;

    let (_, body) = base.get_error("error=900").await;
    let tried: Vec<&str> = body["tried"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["model"].as_str().unwrap())
        .collect();
    assert_eq!(
        tried,
        vec!["a"],
        "only the model whose cool-down ends first, once"
    );
    assert_eq!(body["model"], "offline");
}
