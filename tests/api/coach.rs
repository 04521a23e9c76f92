//! `GET /error` and the failover path against local fake upstreams (wiremock)
//! that speak the Hugging Face router's wire shapes: both API kinds, every
//! upstream error, failover, and forced models.

use std::time::Duration;

use coach::budget::UpstreamBudget;
use serde_json::{json, Value};
use wiremock::{
    matchers::{body_partial_json, header, method, path},
    Mock, MockServer, ResponseTemplate,
};

use crate::helpers::{
    chat_model, chat_reply, get_json, spawn_app, spawn_with, text_model, text_reply, upstream,
    TOKEN,
};

#[tokio::test]
async fn a_chat_model_answers_and_the_reply_is_cleaned() {
    let upstream = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .and(header("authorization", format!("Bearer {TOKEN}").as_str()))
        .and(body_partial_json(
            json!({"model": "org/m", "stop": ["|fim|"], "max_tokens": 70, "temperature": 0.5}),
        ))
        .respond_with(chat_reply(
            " \"Nudge the bias a little!\" |fim| and then I rambled on |fim|",
        ))
        .expect(1)
        .mount(&upstream)
        .await;
    let model = chat_model("m", &upstream.uri()) + "token_env = \"UPSTREAM_KEY\"\n";
    let base = spawn_app(&model).await;

    let (status, body) = base.get_error("error=812.5&tentativas=13359.08,900").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["comment"], "Nudge the bias a little!");
    assert_eq!(
        (body["model"].as_str(), body["provider"].as_str()),
        (Some("m"), Some("chat"))
    );
    assert_eq!(
        (
            body["tier"].as_str(),
            body["lang"].as_str(),
            body["fallback"].as_bool()
        ),
        (Some("close"), Some("en"), Some(false))
    );
    assert_eq!(body["tried"][0]["outcome"], "ok");

    let m = base.stats("m").await;
    assert_eq!(
        (
            m["stats"]["total"].as_u64(),
            m["stats"]["successes"].as_u64()
        ),
        (Some(1), Some(1))
    );
    assert_eq!(m["probability"], 1.0);
    assert_eq!(
        m["stats"]["outcomes"],
        json!({"ok": 1}),
        "counts by outcome"
    );
    let latency = body["tried"][0]["latency_ms"].as_u64().unwrap();
    assert_eq!(m["p50_ms"].as_u64(), Some(latency));
    assert_eq!(m["p95_ms"].as_u64(), Some(latency));
    assert!(m["latency_ewma_ms"].as_f64().is_some() && m["success_estimate"].as_f64() > Some(0.67));
    assert_eq!(m["breaker"]["state"], "closed");
    let models = reqwest::get(format!("{base}/models"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        !models.contains(TOKEN),
        "the token never appears on /models"
    );
}

#[tokio::test]
async fn a_text_generation_model_gets_its_template_and_both_shapes_are_read() {
    for shape in [
        json!([{"generated_text": "Keep going! |fim|"}]),
        json!({"generated_text": "Keep going! |fim|"}),
    ] {
        let upstream = MockServer::start().await;
        Mock::given(method("POST"))
            .and(path("/models/org/t"))
            .and(body_partial_json(json!({"parameters": {"max_new_tokens": 70, "return_full_text": false, "stop": ["|fim|"]}})))
            .respond_with(ResponseTemplate::new(200).set_body_json(shape))
            .expect(1)
            .mount(&upstream)
            .await;
        let base = spawn_app(&text_model("t", &upstream.uri())).await;
        let (_, body) = base.get_error("error=5000&lang=pt").await;
        assert_eq!(
            (body["comment"].as_str(), body["provider"].as_str()),
            (Some("Keep going!"), Some("text-generation"))
        );
        let sent: Value = upstream.received_requests().await.unwrap()[0]
            .body_json()
            .unwrap();
        let inputs = sent["inputs"].as_str().unwrap();
        assert!(
            inputs.starts_with("<|system|>") && inputs.ends_with("<|assistant|>"),
            "{inputs}"
        );
        assert!(
            inputs.contains("português"),
            "the prompt asks for Portuguese"
        );
    }
}

/// One failing upstream behaviour: the offline commentator answers, the tried
/// list names the outcome, and the model's stats count one error.
async fn expect_failure(
    model: fn(&str, &str) -> String,
    response: ResponseTemplate,
    outcome: &str,
) {
    let upstream = upstream(response).await;
    let base = spawn_app(&model("m", &upstream.uri())).await;
    let (status, body) = base.get_error("error=812.5").await;
    assert_eq!(status, 200);
    assert_eq!(body["tried"][0]["outcome"], outcome, "{body}");
    assert_eq!(
        (body["model"].as_str(), body["fallback"].as_bool()),
        (Some("offline"), Some(true)),
        "{body}"
    );
    assert!(!body["comment"].as_str().unwrap().is_empty());
    let m = base.stats("m").await;
    assert_eq!(
        (m["stats"]["total"].as_u64(), m["stats"]["errors"].as_f64()),
        (Some(1), Some(1.0)),
        "{m}"
    );
    assert_eq!(m["last_error"], outcome);
}

/// Every failure of hf-protocol-2026.md ("Errors, as they come back"), with
/// the outcome it must be told apart as;
/// `reply` wraps a model text in the API kind's 200 shape.
fn error_cases(reply: fn(&str) -> ResponseTemplate) -> Vec<(ResponseTemplate, &'static str)> {
    let json_body = |status: u16, body: Value| ResponseTemplate::new(status).set_body_json(body);
    vec![
        (
            json_body(
                503,
                json!({"error": "Model org/m is currently loading", "estimated_time": 577.37}),
            ),
            "unavailable",
        ),
        (
            ResponseTemplate::new(503)
                .set_body_string("<html>Service Temporarily Unavailable</html>"),
            "unavailable",
        ),
        (
            ResponseTemplate::new(429).insert_header("retry-after", "30"),
            "rate_limited",
        ),
        (
            json_body(
                402,
                json!({"error": "You have exceeded your monthly included credits"}),
            ),
            "credits",
        ),
        (
            json_body(
                400,
                json!({"error": {"message": "not supported", "type": "invalid_request_error", "code": "model_not_supported"}}),
            ),
            "model_not_supported",
        ),
        (
            json_body(401, json!({"error": "Invalid credentials"})),
            "unauthorized",
        ),
        (
            json_body(403, json!({"error": "Access to model org/m is restricted"})),
            "forbidden",
        ),
        (
            json_body(
                400,
                json!({"error": "Model not supported by provider together"}),
            ),
            "model_not_supported",
        ),
        (ResponseTemplate::new(404), "model_not_supported"),
        (json_body(500, json!({"error": "boom"})), "upstream_error"),
        (
            json_body(410, json!({"error": "no longer supported"})),
            "gone",
        ),
        (
            ResponseTemplate::new(422).set_body_string("Input validation error: inputs too long"),
            "bad_request",
        ),
        (
            reply("Too slow |fim|").set_delay(Duration::from_millis(1500)),
            "timeout",
        ),
        (
            ResponseTemplate::new(200).set_body_string("garbage, not JSON"),
            "bad_body",
        ),
        (json_body(200, json!({"error": "oops"})), "bad_body"),
        (reply(""), "rejected: empty"),
        (
            reply(&"blah ".repeat(50)),
            "rejected: too long (249 > 160 characters)",
        ),
    ]
}

#[tokio::test]
async fn every_upstream_error_is_told_apart_and_counted_for_both_api_kinds() {
    for (response, outcome) in error_cases(chat_reply) {
        expect_failure(chat_model, response, outcome).await;
    }
    for (response, outcome) in error_cases(text_reply) {
        expect_failure(text_model, response, outcome).await;
    }
}

#[tokio::test]
async fn a_refused_connection_fails_over_to_the_offline_commentator() {
    // Bind and drop a listener: nothing listens on that port any more.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let base = spawn_app(&chat_model("gone", &format!("http://127.0.0.1:{port}"))).await;
    let (_, body) = base.get_error("error=447.29").await;
    assert_eq!(body["tried"][0]["outcome"], "connection_failed");
    assert_eq!(
        (body["model"].as_str(), body["tier"].as_str()),
        (Some("offline"), Some("goal"))
    );
}

#[tokio::test]
async fn a_failing_model_is_skipped_for_a_working_one_and_loses_weight() {
    let bad = upstream(ResponseTemplate::new(503)).await;
    let good = upstream(chat_reply("Nice! |fim|")).await;
    let base = spawn_app(&format!(
        "{}{}",
        chat_model("bad", &bad.uri()),
        chat_model("good", &good.uri())
    ))
    .await;

    for _ in 0..6 {
        let (_, body) = base.get_error("error=812.5").await;
        assert_eq!(
            (body["model"].as_str(), body["comment"].as_str()),
            (Some("good"), Some("Nice!")),
            "{body}"
        );
        let tried = body["tried"].as_array().unwrap();
        assert!(tried.len() <= 2 && tried.last().unwrap()["model"] == "good");
        if tried.len() == 2 {
            assert_eq!(
                (tried[0]["model"].as_str(), tried[0]["outcome"].as_str()),
                (Some("bad"), Some("unavailable"))
            );
        }
    }
    let (bad_stats, good_stats) = (base.stats("bad").await, base.stats("good").await);
    assert!(
        bad_stats["stats"]["total"].as_u64().unwrap() >= 1,
        "the seeded draws tried the bad model"
    );
    assert!(bad_stats["probability"].as_f64() < good_stats["probability"].as_f64());
    assert_eq!(good_stats["stats"]["total"], 6);
    // The original server's names, readable beside today's.
    for s in [&bad_stats, &good_stats] {
        assert_eq!(s["erros"], s["stats"]["errors"], "{s}");
        assert_eq!(s["parcela"], s["probability"], "{s}");
    }
    assert!(bad_stats["erros"].as_f64().unwrap() >= 1.0);
}

#[tokio::test]
async fn a_forced_model_is_the_only_one_tried() {
    let a = upstream(chat_reply("From A |fim|")).await;
    let b = upstream(chat_reply("From B |fim|")).await;
    let base = spawn_app(&format!(
        "{}{}",
        chat_model("a", &a.uri()),
        chat_model("b", &b.uri())
    ))
    .await;
    for _ in 0..3 {
        let (_, body) = base.get_error("error=3000&model=b").await;
        assert_eq!(body["comment"], "From B");
    }
    assert!(a.received_requests().await.unwrap().is_empty());
}

/// `tried` of a comment as (model, outcome) pairs.
fn tried(body: &Value) -> Vec<(String, String)> {
    body["tried"]
        .as_array()
        .expect("tried")
        .iter()
        .map(|t| {
            let field = |k: &str| t[k].as_str().unwrap_or_default().to_string();
            (field("model"), field("outcome"))
        })
        .collect()
}

fn pair(model: &str, outcome: &str) -> (String, String) {
    (model.to_string(), outcome.to_string())
}

#[tokio::test]
async fn a_forced_model_gets_no_way_around_the_safeguards() {
    // Disabled: never called, forced or not.
    let off = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(chat_reply("Should not be asked |fim|"))
        .expect(0)
        .mount(&off)
        .await;
    // Rate limited for 30 s after its first call; misconfigured after its first.
    let limited = upstream(ResponseTemplate::new(429).insert_header("retry-after", "30")).await;
    let revoked =
        upstream(ResponseTemplate::new(401).set_body_json(json!({"error": "Invalid credentials"})))
            .await;
    let base = spawn_app(&format!(
        "{}enabled = false\n{}{}",
        chat_model("off", &off.uri()),
        chat_model("limited", &limited.uri()),
        chat_model("revoked", &revoked.uri()),
    ))
    .await;
    let force = |alias: &str| format!("{base}/error?error=900&model={alias}");

    let (status, body) = get_json(&force("off")).await;
    assert_eq!((status, body["model"].as_str()), (200, Some("offline")));
    assert_eq!(tried(&body), vec![pair("off", "disabled")]);

    let (_, first) = get_json(&force("limited")).await;
    assert_eq!(tried(&first), vec![pair("limited", "rate_limited")]);
    let (_, again) = get_json(&force("limited")).await;
    assert_eq!(tried(&again), vec![pair("limited", "breaker_open")]);
    assert_eq!(again["model"], "offline");
    assert_eq!(limited.received_requests().await.unwrap().len(), 1);

    let (_, first) = get_json(&force("revoked")).await;
    assert_eq!(tried(&first), vec![pair("revoked", "unauthorized")]);
    let (_, again) = get_json(&force("revoked")).await;
    assert_eq!(tried(&again), vec![pair("revoked", "misconfigured")]);
    assert_eq!(revoked.received_requests().await.unwrap().len(), 1);
}

#[tokio::test]
async fn a_forced_model_waits_for_the_budget_and_its_token_like_any_other() {
    let model = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(chat_reply("Should not be asked |fim|"))
        .expect(0)
        .mount(&model)
        .await;
    // The day's budget is spent (none at all).
    let base = spawn_with(
        &chat_model("m", &model.uri()),
        Some(TOKEN),
        UpstreamBudget::new(8, 0),
    )
    .await;
    let (_, body) = base.get_error("error=900&model=m").await;
    assert_eq!(tried(&body), vec![pair("m", "daily_budget")]);
    assert_eq!(
        (body["model"].as_str(), body["limited"].as_str()),
        (Some("offline"), Some("daily_budget"))
    );

    // A remote model without its token is never called, forced or not.
    let remote = "[[models]]\nalias = \"hf\"\nmodel = \"org/hf\"\napi = \"chat\"\n";
    let base = spawn_with(remote, None, crate::helpers::roomy()).await;
    let (_, body) = base.get_error("error=900&model=hf").await;
    assert_eq!(tried(&body), vec![pair("hf", "no_token")]);
    assert_eq!(body["model"], "offline");
}
