//! The coach against Hugging Face as it is in 2026 (`reference/hf-protocol-2026.md`),
//! through the whole app: a fake router that speaks its shapes (model info
//! with provider statuses and prices, `x-inference-provider`, `usage`, a 400
//! without a code, a 404, a 429 with `RateLimit` and no `Retry-After`, an
//! HTML 503) and a fake Hub that serves model cards.

use serde_json::{json, Value};
use wiremock::{
    matchers::{method, path},
    Mock, MockServer, ResponseTemplate,
};

use crate::helpers::{chat_model, chat_reply, get_json, spawn_app, spawn_checked};

/// The router's `GET /v1/models/{id}`: one provider per `(name, status)`.
fn model_info(id: &str, providers: &[(&str, &str)]) -> ResponseTemplate {
    let providers: Vec<Value> = providers
        .iter()
        .map(|(name, status)| {
            json!({"provider": name, "status": status, "context_length": 131072,
                   "pricing": {"input": 0.06, "output": 0.12}, "is_model_author": false})
        })
        .collect();
    ResponseTemplate::new(200).set_body_json(json!({
        "id": id, "object": "model", "created": 1721260800, "owned_by": "org",
        "providers": providers
    }))
}

async fn mount(server: &MockServer, verb: &str, at: &str, response: ResponseTemplate) {
    Mock::given(method(verb))
        .and(path(at))
        .respond_with(response)
        .mount(server)
        .await;
}

async fn error_json(url: &str) -> Value {
    get_json(url).await.1
}

#[tokio::test]
async fn a_model_without_a_live_provider_is_not_called_and_models_says_why() {
    let router = MockServer::start().await;
    mount(
        &router,
        "GET",
        "/v1/models/org/dead",
        model_info("org/dead", &[("together", "error"), ("nscale", "error")]),
    )
    .await;
    mount(
        &router,
        "GET",
        "/v1/models/org/live",
        model_info("org/live", &[("nscale", "live")]),
    )
    .await;
    mount(
        &router,
        "POST",
        "/v1/chat/completions",
        chat_reply("Nudge the bias up! |fim|"),
    )
    .await;
    let registry = format!(
        "{}{}",
        chat_model("dead", &router.uri()),
        chat_model("live", &router.uri())
    );
    let base = spawn_checked(&registry, &router.uri()).await;
    for i in 0..12 {
        let body = error_json(&format!("{base}/error?error={}", 900 + i)).await;
        assert_eq!(body["model"], "live", "{body}");
        assert!(
            body["tried"]
                .as_array()
                .unwrap()
                .iter()
                .all(|t| t["model"] != "dead"),
            "{body}"
        );
    }
    let dead = base.stats("dead").await;
    assert_eq!(dead["availability"]["state"], "not_served", "{dead}");
    let why = dead["availability"]["why"].as_str().unwrap();
    assert!(
        why.contains("no live provider") && why.contains("together"),
        "{why}"
    );
    assert_eq!(dead["availability"]["providers"][0]["live"], false);
    assert!(dead["availability"]["next_check_in_s"].as_f64().unwrap() > 3500.0);
    assert_eq!(dead["stats"]["total"], 0, "never called");
    let live = base.stats("live").await;
    assert_eq!(live["availability"]["state"], "live", "{live}");
    assert_eq!(
        live["availability"]["providers"][0]["pricing"]["output"],
        0.12
    );
    // Forced, it is refused by name, not called.
    let body = error_json(&format!("{base}/error?error=900&model=dead")).await;
    assert_eq!(body["tried"][0]["outcome"], "not_served", "{body}");
    let metrics = reqwest::get(format!("{base}/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        metrics.contains(r#"jay_model_availability{model="dead",state="not_served"} 1"#),
        "{metrics}"
    );
}

#[tokio::test]
async fn an_openai_server_that_lists_other_models_is_not_asked_for_this_one() {
    // llama.cpp's server: no /models/{id}, a list naming the file it loaded.
    let server = MockServer::start().await;
    mount(
        &server,
        "GET",
        "/v1/models",
        ResponseTemplate::new(200).set_body_json(json!({
            "object": "list", "data": [{"id": "SmolLM2-135M-Instruct.Q4_1.gguf", "object": "model"}]
        })),
    )
    .await;
    mount(
        &server,
        "POST",
        "/v1/chat/completions",
        chat_reply("Nice! |fim|"),
    )
    .await;
    let base = spawn_checked(&chat_model("smol", &server.uri()), &server.uri()).await;
    let smol = base.stats("smol").await;
    let why = smol["availability"]["why"].as_str().unwrap_or_default();
    assert!(why.contains("SmolLM2-135M-Instruct.Q4_1.gguf"), "{smol}");
    // A server that answers neither path leaves the model callable.
    let silent = MockServer::start().await;
    mount(
        &silent,
        "POST",
        "/v1/chat/completions",
        chat_reply("Nice! |fim|"),
    )
    .await;
    let base = spawn_checked(&chat_model("quiet", &silent.uri()), &silent.uri()).await;
    assert_eq!(
        base.stats("quiet").await["availability"]["state"],
        "unknown"
    );
    assert_eq!(
        error_json(&format!("{base}/error?error=900")).await["model"],
        "quiet"
    );
}

/// `(response, outcome, breaker state, seconds of rest at least)`.
fn router_errors() -> Vec<(ResponseTemplate, &'static str, &'static str, f64)> {
    let json_body = |status: u16, body: Value| ResponseTemplate::new(status).set_body_json(body);
    vec![
        (
            json_body(
                400,
                json!({"error": "Model not supported by provider together"}),
            ),
            "model_not_supported",
            "misconfigured",
            3500.0,
        ),
        (
            json_body(404, json!({"error": "Not Found"})),
            "model_not_supported",
            "misconfigured",
            3500.0,
        ),
        (
            ResponseTemplate::new(429).insert_header("ratelimit", "\"api\";r=0;t=55"),
            "rate_limited",
            "open",
            50.0,
        ),
        (
            ResponseTemplate::new(503)
                .set_body_string("<html><body>Service Temporarily Unavailable</body></html>"),
            "unavailable",
            "open",
            1.0,
        ),
        (
            json_body(
                402,
                json!({"error": "You have depleted your monthly included credits. Purchase pre-paid credits to continue using Inference Providers."}),
            ),
            "credits",
            "credits",
            3500.0,
        ),
        (
            json_body(
                401,
                json!({"error": "Invalid credentials in Authorization header"}),
            ),
            "unauthorized",
            "misconfigured",
            3500.0,
        ),
        (
            json_body(
                410,
                json!({"error": "https://api-inference.huggingface.co is no longer supported. Please use https://router.huggingface.co instead."}),
            ),
            "gone",
            "misconfigured",
            3500.0,
        ),
    ]
}

#[tokio::test]
async fn the_routers_errors_are_read_as_it_means_them() {
    for (response, outcome, state, rest) in router_errors() {
        let router = MockServer::start().await;
        mount(&router, "POST", "/v1/chat/completions", response).await;
        let base = spawn_app(&chat_model("m", &router.uri())).await;
        let body = error_json(&format!("{base}/error?error=900")).await;
        assert_eq!(body["tried"][0]["outcome"], outcome, "{body}");
        let m = base.stats("m").await;
        assert_eq!(m["breaker"]["state"], state, "{outcome}: {m}");
        let left = m["breaker"]["retry_in_s"].as_f64().unwrap_or(0.0);
        assert!(left >= rest, "{outcome}: rests {left} s");
    }
}

#[tokio::test]
async fn which_provider_answered_and_what_it_cost_is_counted() {
    let router = MockServer::start().await;
    mount(
        &router,
        "GET",
        "/v1/models/org/m",
        model_info("org/m", &[("nscale", "live"), ("groq", "live")]),
    )
    .await;
    let answered =
        chat_reply("Nudge the bias up! |fim|").insert_header("x-inference-provider", "nscale");
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(429).insert_header("x-inference-provider", "groq"))
        .up_to_n_times(1)
        .mount(&router)
        .await;
    mount(&router, "POST", "/v1/chat/completions", answered).await;
    let base = spawn_checked(&chat_model("m", &router.uri()), &router.uri()).await;
    let first = error_json(&format!("{base}/error?error=900")).await;
    assert_eq!(first["tried"][0]["served_by"], "groq", "{first}");
    let mut answers = 0;
    for i in 0..4 {
        let body = if i == 0 {
            first.clone()
        } else {
            error_json(&format!("{base}/error?error={}", 900 + i)).await
        };
        for t in body["tried"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["outcome"] == "ok")
        {
            assert_eq!(t["served_by"], "nscale", "{body}");
            answers += 1;
        }
    }
    assert!(answers >= 3, "{answers}");
    let m = base.stats("m").await;
    assert_eq!(m["last_provider"], "nscale", "{m}");
    assert_eq!(m["providers"]["nscale"]["outcomes"]["ok"], answers);
    assert_eq!(m["providers"]["groq"]["outcomes"]["rate_limited"], 1);
    // The fake's usage: 80 prompt and 21 completion tokens an answer.
    let (prompt, completion) = (80 * answers, 21 * answers);
    assert_eq!(
        (
            m["tokens"]["prompt"].as_u64(),
            m["tokens"]["completion"].as_u64()
        ),
        (Some(prompt), Some(completion))
    );
    assert_eq!(m["tokens_per_answer"]["prompt"], 80.0);
    let cost = m["cost_usd"].as_f64().unwrap();
    let expected = (prompt as f64 * 0.06 + completion as f64 * 0.12) / 1e6;
    assert!((cost - expected).abs() < 1e-12, "{cost}");
    let metrics = reqwest::get(format!("{base}/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for line in [
        format!(r#"jay_upstream_tokens_total{{model="m",kind="prompt"}} {prompt}"#),
        format!(
            r#"jay_upstream_provider_calls_total{{model="m",provider="nscale",outcome="ok"}} {answers}"#
        ),
        r#"jay_upstream_provider_calls_total{model="m",provider="groq",outcome="rate_limited"} 1"#
            .to_string(),
    ] {
        assert!(metrics.contains(&line), "{line}\n{metrics}");
    }
}

#[tokio::test]
async fn a_card_that_says_english_keeps_the_model_out_of_other_languages() {
    let hub = MockServer::start().await;
    let card = json!({"id": "HuggingFaceTB/SmolLM2-135M-Instruct", "cardData": {"language": ["en"], "license": "apache-2.0"}});
    mount(
        &hub,
        "GET",
        "/api/models/HuggingFaceTB/SmolLM2-135M-Instruct",
        ResponseTemplate::new(200).set_body_json(card),
    )
    .await;
    let server = MockServer::start().await;
    mount(
        &server,
        "POST",
        "/v1/chat/completions",
        chat_reply("Nice! |fim|"),
    )
    .await;
    let unsaid = format!(
        "[[models]]\nalias = \"smol\"\nmodel = \"HuggingFaceTB/SmolLM2-135M-Instruct\"\napi = \"chat\"\nbase_url = \"{}/v1\"\n",
        server.uri()
    );
    let base = spawn_checked(&unsaid, &hub.uri()).await;
    let smol = base.stats("smol").await;
    assert_eq!(
        (smol["languages"].clone(), smol["languages_from"].clone()),
        (json!(["en"]), json!("card")),
        "{smol}"
    );
    let pt = error_json(&format!("{base}/error?error=799.09&lang=pt")).await;
    assert_eq!(
        (pt["model"].as_str(), pt["tried"].as_array().map(Vec::len)),
        (Some("offline"), Some(0)),
        "{pt}"
    );
    let zh = error_json(&format!("{base}/error?error=799.09&lang=zh&model=smol")).await;
    assert_eq!(zh["tried"][0]["outcome"], "other_language", "{zh}");
    let en = error_json(&format!("{base}/error?error=799.09&lang=en")).await;
    assert_eq!(en["model"], "smol", "{en}");
    // The registry's own `languages` win over the card.
    let said = format!("{unsaid}languages = [\"en\", \"pt\"]\n");
    let base = spawn_checked(&said, &hub.uri()).await;
    let smol = base.stats("smol").await;
    assert_eq!(
        (smol["languages"].clone(), smol["languages_from"].clone()),
        (json!(["en", "pt"]), json!("registry"))
    );
}
