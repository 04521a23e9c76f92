//! `GET /error`, `GET /models` and the failover path against local fake upstreams
//! (wiremock) that speak the Hugging Face router's wire shapes.
#![cfg(feature = "ssr")]

mod support;

use std::{sync::Arc, time::Duration};

use jay_trainer::{
    coach::{budget::UpstreamBudget, providers::HttpProvider, registry::Registry, service::Coach},
    server::config::Guard,
};
use serde_json::{json, Value};
use wiremock::{
    matchers::{body_partial_json, header, method, path},
    Mock, MockServer, ResponseTemplate,
};

const TOKEN: &str = "hf_fake_token_for_tests";

/// The app with `registry` (TOML), a fixed random seed and the fake token.
async fn spawn_app(registry: &str) -> String {
    spawn_with(registry, Some(TOKEN), UpstreamBudget::default()).await
}

/// The app with `registry` (TOML), a fixed random seed, `token` and `budget`.
async fn spawn_with(registry: &str, token: Option<&str>, budget: UpstreamBudget) -> String {
    // The learning strategy, with circuit breakers (the seed's has none).
    // A model with `token_env = "UPSTREAM_KEY"` gets the fake token as its key
    // (HF_TOKEN itself only goes to Hugging Face hosts, never to these fakes).
    let env = |name: &str| (name == "UPSTREAM_KEY").then(|| TOKEN.to_string());
    let registry = Registry::parse_with_env(&format!("strategy = \"thompson\"\n{registry}"), env)
        .expect("valid registry");
    let coach = Coach::new(
        registry,
        None,
        Arc::new(HttpProvider::new(token.map(String::from))),
        Some(7),
    )
    .with_budget(budget);
    // These tests ask often from one address: no rate limit in the way.
    let guard = Guard {
        rate_per_min: 100_000,
        rate_burst: 100_000,
        ..Guard::default()
    };
    support::serve(coach, &guard).await
}

fn chat_model(alias: &str, base: &str) -> String {
    format!("[[models]]\nalias = \"{alias}\"\nmodel = \"org/{alias}\"\napi = \"chat\"\nbase_url = \"{base}/v1\"\ntimeout_ms = 400\n")
}

fn text_model(alias: &str, base: &str) -> String {
    format!(
        "[[models]]\nalias = \"{alias}\"\nmodel = \"org/{alias}\"\napi = \"text-generation\"\nbase_url = \"{base}/models/{{model}}\"\ntimeout_ms = 400\ntemplate = \"{{% for m in messages %}}<|{{{{ m.role }}}}|>{{{{ m.content }}}}<|end|>{{% endfor %}}<|assistant|>\"\n"
    )
}

fn chat_reply(content: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({
        "id": "x", "object": "chat.completion", "created": 1764400000, "model": "org/m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 80, "completion_tokens": 21, "total_tokens": 101}
    }))
}

fn text_reply(text: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!([{ "generated_text": text }]))
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

/// A JSON caller's GET (`/error` answers plain text to anyone else).
async fn get_json(url: &str) -> (u16, Value) {
    let response = reqwest::Client::new()
        .get(url)
        .header("accept", "application/json")
        .send()
        .await
        .expect("request");
    let status = response.status().as_u16();
    (status, response.json().await.expect("JSON body"))
}

async fn stats(base: &str, alias: &str) -> Value {
    let (_, body) = get_json(&format!("{base}/models")).await;
    body["models"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["alias"] == alias)
        .cloned()
        .expect("model listed")
}

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

    let (status, body) =
        get_json(&format!("{base}/error?error=812.5&tentativas=13359.08,900")).await;
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

    let m = stats(&base, "m").await;
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
        let (_, body) = get_json(&format!("{base}/error?error=5000&lang=pt")).await;
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
    let (status, body) = get_json(&format!("{base}/error?error=812.5")).await;
    assert_eq!(status, 200);
    assert_eq!(body["tried"][0]["outcome"], outcome, "{body}");
    assert_eq!(
        (body["model"].as_str(), body["fallback"].as_bool()),
        (Some("offline"), Some(true)),
        "{body}"
    );
    assert!(!body["comment"].as_str().unwrap().is_empty());
    let m = stats(&base, "m").await;
    assert_eq!(
        (m["stats"]["total"].as_u64(), m["stats"]["errors"].as_f64()),
        (Some(1), Some(1.0)),
        "{m}"
    );
    assert_eq!(m["last_error"], outcome);
}

/// Every failure of hf-protocol.md §4, with the outcome it must be told apart as;
/// `reply` wraps a model text in the API kind's 200 shape.
fn error_cases(reply: fn(&str) -> ResponseTemplate) -> Vec<(ResponseTemplate, &'static str)> {
    let json_body = |status: u16, body: Value| ResponseTemplate::new(status).set_body_json(body);
    vec![
        (
            json_body(
                503,
                json!({"error": "Model org/m is currently loading", "estimated_time": 577.37}),
            ),
            "loading",
        ),
        (
            ResponseTemplate::new(503)
                .set_body_string("<html>Service Temporarily Unavailable</html>"),
            "loading",
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
    let (_, body) = get_json(&format!("{base}/error?error=447.29")).await;
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
        let (_, body) = get_json(&format!("{base}/error?error=812.5")).await;
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
                (Some("bad"), Some("loading"))
            );
        }
    }
    let (bad_stats, good_stats) = (stats(&base, "bad").await, stats(&base, "good").await);
    assert!(
        bad_stats["stats"]["total"].as_u64().unwrap() >= 1,
        "the seeded draws tried the bad model"
    );
    assert!(bad_stats["probability"].as_f64() < good_stats["probability"].as_f64());
    assert_eq!(good_stats["stats"]["total"], 6);
    // The seed's names, readable beside today's.
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
        let (_, body) = get_json(&format!("{base}/error?error=3000&model=b")).await;
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
    let (_, body) = get_json(&format!("{base}/error?error=900&model=m")).await;
    assert_eq!(tried(&body), vec![pair("m", "daily_budget")]);
    assert_eq!(
        (body["model"].as_str(), body["limited"].as_str()),
        (Some("offline"), Some("daily_budget"))
    );

    // A remote model without its token is never called, forced or not.
    let remote = "[[models]]\nalias = \"hf\"\nmodel = \"org/hf\"\napi = \"chat\"\n";
    let base = spawn_with(remote, None, UpstreamBudget::default()).await;
    let (_, body) = get_json(&format!("{base}/error?error=900&model=hf")).await;
    assert_eq!(tried(&body), vec![pair("hf", "no_token")]);
    assert_eq!(body["model"], "offline");
}

#[tokio::test]
async fn routes_keep_answering_while_models_is_hammered() {
    let model = upstream(chat_reply("Still here! |fim|")).await;
    let base = spawn_app(&format!(
        "{}{}",
        chat_model("a", &model.uri()),
        chat_model("b", &model.uri())
    ))
    .await;
    let client = reqwest::Client::new();
    let hammers: Vec<_> = (0..4)
        .map(|_| {
            let (client, url) = (client.clone(), format!("{base}/models"));
            tokio::spawn(async move {
                let mut ok = 0;
                for _ in 0..100 {
                    let response = client.get(&url).send().await.expect("GET /models");
                    ok += usize::from(response.status() == 200);
                }
                ok
            })
        })
        .collect();
    for i in 0..20 {
        let (status, body) = get_json(&format!("{base}/error?error={}", 900 + i)).await;
        assert_eq!(
            (status, body["comment"].as_str()),
            (200, Some("Still here!"))
        );
    }
    for hammer in hammers {
        assert_eq!(hammer.await.unwrap(), 100, "every /models request answered");
    }
    // What was learned meanwhile shows at once: the cached report is renewed
    // after every finished call.
    let a = stats(&base, "a").await;
    let b = stats(&base, "b").await;
    assert_eq!(
        a["stats"]["total"].as_u64().unwrap() + b["stats"]["total"].as_u64().unwrap(),
        20
    );
}

#[tokio::test]
async fn bad_requests_get_a_400_naming_the_field() {
    let base = spawn_app("").await;
    for (query, field) in [
        ("", "error"),
        ("error=abc", "error"),
        ("error=-1", "error"),
        ("error=NaN", "error"),
        ("error=12&tentativas=1,x", "tentativas"),
        ("error=12&model=nope", "model"),
        ("error=12&lang=fr", "lang"),
        ("error=12&format=xml", "format"),
        ("error=12&error=13", "error"),
    ] {
        let (status, body) = get_json(&format!("{base}/error?{query}")).await;
        assert_eq!(status, 400, "{query}");
        assert_eq!(body["field"], field, "{query}: {body}");
        assert!(body["error"].as_str().is_some_and(|e| !e.is_empty()));
        // A plain caller (curl's `Accept: */*`) gets the same refusal in one line.
        let plain = reqwest::get(format!("{base}/error?{query}")).await.unwrap();
        assert_eq!(plain.status(), 400, "{query}");
        assert_eq!(plain.headers()["content-type"], "text/plain; charset=utf-8");
        let line = plain.text().await.unwrap();
        assert!(line.starts_with(&format!("{field}: ")), "{line:?}");
        assert_eq!(line.trim_end().lines().count(), 1, "{line:?}");
    }
}

#[tokio::test]
async fn the_seeds_callers_get_text_and_their_quirks_are_tolerated() {
    let base = spawn_app("").await;
    // Plain text, as the seed answered: just the comment.
    let response = reqwest::get(format!(
        "{base}/error?error=812.5&tentativas=13359.08,900,&_=1733000000000&v=2"
    ))
    .await
    .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()["content-type"],
        "text/plain; charset=utf-8"
    );
    let text = response.text().await.unwrap();
    assert!(!text.is_empty() && !text.starts_with('{'), "{text:?}");
    // JSON when asked for, either way, exactly as documented.
    let (status, body) = get_json(&format!("{base}/error?error=812.5")).await;
    assert_eq!((status, body["provider"].as_str()), (200, Some("offline")));
    let by_param: Value = reqwest::get(format!("{base}/error?error=812.5&format=json"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(by_param["provider"], "offline");
    // A history of 150 attempts is not refused: the latest 100 are used.
    let long: Vec<String> = (0..150).map(|i| format!("{}", 900 + i)).collect();
    let (status, body) = get_json(&format!(
        "{base}/error?error=812.5&tentativas={}",
        long.join(",")
    ))
    .await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test]
async fn with_no_models_the_offline_commentator_answers_in_the_asked_language() {
    let base = spawn_app("").await;
    let client = reqwest::Client::new();
    let body: Value = client
        .get(format!("{base}/error?error=13359.08"))
        .header("accept", "application/json")
        .header("accept-language", "zh-CN,zh;q=0.9")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        (
            body["provider"].as_str(),
            body["lang"].as_str(),
            body["tier"].as_str()
        ),
        (Some("offline"), Some("zh"), Some("far"))
    );
    assert_eq!(body["tried"], json!([]));
    assert_eq!(
        get_json(&format!("{base}/test")).await,
        (200, json!({"ok": true}))
    );
}

#[tokio::test]
async fn the_page_server_function_uses_the_same_service_and_checks() {
    let base = spawn_app("").await;
    let client = reqwest::Client::new();
    let url = format!("{base}/api/comment");
    let ok = client
        .post(&url)
        .header("accept-language", "pt-BR")
        .json(&json!({"error": 812.5, "attempts": [13359.08], "lang": null}))
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status(), 200);
    let body: Value = ok.json().await.unwrap();
    assert_eq!(
        (body["provider"].as_str(), body["lang"].as_str()),
        (Some("offline"), Some("pt"))
    );

    for bad in [
        json!({"error": -1.0, "attempts": []}),
        json!({"error": 5.0, "attempts": [900.0, -1.0]}),
    ] {
        let response = client.post(&url).json(&bad).send().await.unwrap();
        assert_eq!(response.status(), 400, "{bad}");
    }
    // The page's 102nd attempt gets its comment like the first.
    let long = json!({"error": 5.0, "attempts": vec![900.0; 101]});
    let response = client.post(&url).json(&long).send().await.unwrap();
    assert_eq!(response.status(), 200);
}

#[tokio::test]
async fn marker_less_and_multi_marker_answers_are_accepted_and_cut() {
    for (raw, expected) in [
        (
            "Keep the weight, move the bias.",
            "Keep the weight, move the bias.",
        ),
        ("Almost! |fim| Almost! |fim| |fim|", "Almost!"),
    ] {
        let upstream = upstream(chat_reply(raw)).await;
        let base = spawn_app(&chat_model("m", &upstream.uri())).await;
        let (_, body) = get_json(&format!("{base}/error?error=1200")).await;
        assert_eq!(
            (body["comment"].as_str(), body["fallback"].as_bool()),
            (Some(expected), Some(false))
        );
        let m = stats(&base, "m").await;
        assert_eq!(
            (m["stats"]["successes"].as_u64(), m["last_error"].is_null()),
            (Some(1), true)
        );
    }
}

/// Aliases of the models `/models` lists, with their breaker state.
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

    let (_, first) = get_json(&format!("{base}/error?error=900&model=limited")).await;
    assert_eq!(first["tried"][0]["outcome"], "rate_limited");
    for _ in 0..8 {
        let (_, body) = get_json(&format!("{base}/error?error=900")).await;
        assert_eq!(
            body["tried"],
            json!([{"model": "fine", "outcome": "ok", "latency_ms": body["tried"][0]["latency_ms"]}])
        );
    }
    let limited_model = stats(&base, "limited").await;
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
    let (_, first) = get_json(&format!("{base}/error?error=900")).await;
    assert_eq!(first["tried"][0]["outcome"], "unauthorized");
    for _ in 0..3 {
        let (_, body) = get_json(&format!("{base}/error?error=900")).await;
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

#[tokio::test]
async fn spent_credits_open_every_model_of_the_token() {
    let broke = upstream(
        ResponseTemplate::new(402)
            .set_body_json(json!({"error": "You have exceeded your monthly included credits"})),
    )
    .await;
    let other = upstream(chat_reply("Hi |fim|")).await;
    let base = spawn_app(&format!(
        "{}{}",
        chat_model("broke", &broke.uri()),
        chat_model("other", &other.uri())
    ))
    .await;
    let (_, body) = get_json(&format!("{base}/error?error=900&model=broke")).await;
    assert_eq!(body["tried"][0]["outcome"], "credits");
    assert_eq!(
        breaker_states(&base).await,
        vec![
            ("broke".to_string(), "open".to_string()),
            ("other".to_string(), "open".to_string())
        ]
    );
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
    get_json(&format!("{base}/error?error=900&model=a")).await;
    get_json(&format!("{base}/error?error=900&model=b")).await;

    let (_, body) = get_json(&format!("{base}/error?error=900")).await;
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

#[tokio::test]
async fn an_answer_that_contradicts_the_facts_is_a_model_error_in_every_language() {
    // From the guide's start the facts say: raise the bias by about 13.
    for (lang, contrary, stated) in [
        (
            "en",
            "Lower the bias a lot, trust me!",
            "raise the bias by about 13",
        ),
        (
            "pt",
            "Diminua o viés bastante, confie!",
            "aumente o viés em cerca de 13",
        ),
        ("zh", "把偏置调低很多，相信我！", "把偏置调高约 13"),
    ] {
        let upstream = upstream(chat_reply(&format!("{contrary} |fim|"))).await;
        let base = spawn_app(&chat_model("contrarian", &upstream.uri())).await;
        let query = format!("error=799.09&lang={lang}&model=contrarian");
        let (status, body) = get_json(&format!("{base}/error?{query}&weight=0.1&bias=150")).await;
        assert_eq!(status, 200, "{body}");
        // Tried, rejected, and the offline commentator said something true instead.
        assert_eq!(
            body["tried"][0]["outcome"], "rejected: contradicts the facts: says to lower the bias",
            "{lang}: {body}"
        );
        assert_eq!(body["fallback"], true, "{body}");
        assert_ne!(body["comment"], contrary);
        // The facts were in the prompt, in the visitor's language.
        let sent = upstream.received_requests().await.unwrap();
        let prompt = String::from_utf8_lossy(&sent[0].body).to_string();
        assert!(prompt.contains(stated), "{lang}: {prompt}");
        let stats = stats(&base, "contrarian").await;
        assert_eq!(stats["stats"]["outcomes"]["rejected"], 1, "{stats}");

        // Without weight and bias (an old caller) the same answer stands.
        let (_, old) = get_json(&format!("{base}/error?{query}")).await;
        assert_eq!(
            (old["comment"].as_str(), old["fallback"].as_bool()),
            (Some(contrary), Some(false))
        );
    }
}

#[tokio::test]
async fn the_offline_commentator_gives_the_best_single_move_when_it_knows_the_point() {
    let base = spawn_app("").await;
    let (_, body) = get_json(&format!(
        "{base}/error?error=799.09&weight=0.1&bias=150&lang=en"
    ))
    .await;
    let comment = body["comment"].as_str().unwrap();
    assert!(
        comment.ends_with("Try to raise the bias by about 13."),
        "{comment}"
    );
    // A point that does not match its error is refused, naming `error`.
    let (status, body) = get_json(&format!("{base}/error?error=500&weight=0.1&bias=150")).await;
    assert_eq!((status, body["field"].as_str()), (400, Some("error")));
}
