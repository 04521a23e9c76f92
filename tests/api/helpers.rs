//! Shared by the integration tests: the real application on a free port
//! ([`TestApp`], with request helpers), fake
//! upstreams that speak the Hugging Face router's wire shapes (wiremock), and
//! the JSON caller's view of the routes.

use std::sync::Arc;

use coach::{
    budget::UpstreamBudget,
    providers::{http::Hub, HttpProvider},
    registry::Registry,
    secret::Secret,
    Coach,
};
use insights::Insights;
use jay_trainer::server::{
    config::Guard,
    startup::{AppParts, Application},
};
use leptos::config::LeptosOptions;
use serde_json::{json, Value};
use wiremock::{matchers::method, Mock, MockServer, ResponseTemplate};

/// The application under test, on 127.0.0.1 at a free port, and a client
/// to call it. It reads as its base URL (`format!("{app}/error")`, or
/// `&app` where a `&str` is wanted).
#[derive(Clone)]
pub struct TestApp {
    pub address: String,
    pub client: reqwest::Client,
}

impl TestApp {
    /// Serves `parts` (on 127.0.0.1, port 0, whatever their address says):
    /// the one way every test that wants the whole application starts it.
    pub async fn spawn(mut parts: AppParts) -> Self {
        parts.leptos.site_addr = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
        let app = Application::from_parts(parts)
            .await
            .expect("bind a free port");
        let addr = app.local_addr().expect("address");
        tokio::spawn(app.run_until_stopped());
        Self {
            address: format!("http://{addr}"),
            client: reqwest::Client::new(),
        }
    }

    /// `GET /error?{query}` as a JSON caller: the status and the answer.
    pub async fn get_error(&self, query: &str) -> (u16, Value) {
        get_json(&format!("{}/error?{query}", self.address)).await
    }

    /// `POST /api/comment` with `body` as JSON, as the page sends it.
    pub async fn post_comment(&self, body: &str) -> reqwest::Response {
        self.client
            .post(format!("{}/api/comment", self.address))
            .header("content-type", "application/json")
            .body(body.to_string())
            .send()
            .await
            .expect("request")
    }

    /// `POST /api/feedback` with `body`, from the page's own origin: the
    /// status and the answer (JSON, or `null` for a `204`).
    pub async fn post_feedback(&self, body: Value) -> (u16, Value) {
        let response = self
            .client
            .post(format!("{}/api/feedback", self.address))
            .header("sec-fetch-site", "same-origin")
            .json(&body)
            .send()
            .await
            .expect("request");
        let status = response.status().as_u16();
        let text = response.text().await.expect("body");
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// One model's entry of `GET /models`.
    pub async fn stats(&self, alias: &str) -> Value {
        stats(&self.address, alias).await
    }
}

impl std::ops::Deref for TestApp {
    type Target = str;

    fn deref(&self) -> &str {
        &self.address
    }
}

impl std::fmt::Display for TestApp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.address)
    }
}

/// Leptos's options for a test's application (no site files are served).
pub fn options() -> LeptosOptions {
    LeptosOptions::builder().output_name("jay-trainer").build()
}

/// Serves `coach` behind `guard`.
pub async fn serve(coach: Coach, guard: &Guard) -> TestApp {
    serve_recording(coach, guard, Insights::off()).await
}

/// The app with `registry` (TOML), checking its models' availability in the
/// background as a production start-up does, model cards read at `hub`;
/// returns once every enabled model has been checked once.
pub async fn spawn_checked(registry: &str, hub: &str) -> TestApp {
    let env = |name: &str| (name == "UPSTREAM_KEY").then(|| TOKEN.to_string());
    let registry = Registry::parse_with_env(&format!("strategy = \"thompson\"\n{registry}"), env)
        .expect("valid registry");
    let hub = Hub {
        url: hub.parse().expect("hub URL"),
        everywhere: true,
    };
    let provider = HttpProvider::new(Secret::new(TOKEN)).with_hub(hub);
    let coach = Coach::new(registry, None, Arc::new(provider), Some(7)).with_budget(roomy());
    let guard = Guard {
        rate_per_min: 100_000,
        rate_burst: 100_000,
        ..Guard::default()
    };
    let app = TestApp::spawn(AppParts {
        checks: true,
        ..AppParts::new(options(), Arc::new(coach), guard)
    })
    .await;
    // A safety net against hanging, not a speed check.
    for _ in 0..400 {
        let (_, body) = get_json(&format!("{app}/models")).await;
        let checked = body["models"]
            .as_array()
            .expect("models")
            .iter()
            .all(|m| m["enabled"] == false || m["availability"]["state"] != "unchecked");
        if checked {
            return app;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    panic!("the models were never checked");
}

/// [`serve`], recording into `insights` (a store in a temporary folder).
pub async fn serve_recording(coach: Coach, guard: &Guard, insights: Insights) -> TestApp {
    TestApp::spawn(AppParts {
        insights,
        ..AppParts::new(options(), Arc::new(coach), guard.clone())
    })
    .await
}

/// A folder of its own under the system's temporary one, named for `name`,
/// removed with the value: a test holds it for as long as it (or the server
/// it started) uses the folder.
pub fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("jay-{name}-"))
        .tempdir()
        .expect("a temporary folder")
}

pub const TOKEN: &str = "hf_fake_token_for_tests";

/// A day of model calls no test runs out of unless it means to (the default
/// day is a free Hugging Face account's 50).
pub fn roomy() -> UpstreamBudget {
    UpstreamBudget::new(8, 1_000_000)
}

/// The app with `registry` (TOML), a fixed random seed and the fake token.
pub async fn spawn_app(registry: &str) -> TestApp {
    spawn_with(registry, Some(TOKEN), roomy()).await
}

/// The app with `registry` (TOML), a fixed random seed, `token` and `budget`.
pub async fn spawn_with(registry: &str, token: Option<&str>, budget: UpstreamBudget) -> TestApp {
    // The learning strategy, with circuit breakers (the original server's has none).
    // A model with `token_env = "UPSTREAM_KEY"` gets the fake token as its key
    // (HF_TOKEN itself only goes to Hugging Face hosts, never to these fakes).
    let env = |name: &str| (name == "UPSTREAM_KEY").then(|| TOKEN.to_string());
    let registry = Registry::parse_with_env(&format!("strategy = \"thompson\"\n{registry}"), env)
        .expect("valid registry");
    let coach = Coach::new(
        registry,
        None,
        Arc::new(HttpProvider::new(token.and_then(Secret::new))),
        Some(7),
    )
    .with_budget(budget);
    // These tests ask often from one address: no rate limit in the way.
    let guard = Guard {
        rate_per_min: 100_000,
        rate_burst: 100_000,
        ..Guard::default()
    };
    serve(coach, &guard).await
}

pub fn chat_model(alias: &str, base: &str) -> String {
    format!("[[models]]\nalias = \"{alias}\"\nmodel = \"org/{alias}\"\napi = \"chat\"\nbase_url = \"{base}/v1\"\ntimeout_ms = 400\n")
}

pub fn text_model(alias: &str, base: &str) -> String {
    format!(
        "[[models]]\nalias = \"{alias}\"\nmodel = \"org/{alias}\"\napi = \"text-generation\"\nbase_url = \"{base}/models/{{model}}\"\ntimeout_ms = 400\ntemplate = \"{{% for m in messages %}}<|{{{{ m.role }}}}|>{{{{ m.content }}}}<|end|>{{% endfor %}}<|assistant|>\"\n"
    )
}

pub fn chat_reply(content: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({
        "id": "x", "object": "chat.completion", "created": 1764400000, "model": "org/m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 80, "completion_tokens": 21, "total_tokens": 101}
    }))
}

pub fn text_reply(text: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!([{ "generated_text": text }]))
}

/// A fake upstream answering every POST with `response`.
pub async fn upstream(response: ResponseTemplate) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(response)
        .mount(&server)
        .await;
    server
}

/// A JSON caller's GET (`/error` answers plain text to anyone else).
pub async fn get_json(url: &str) -> (u16, Value) {
    let response = reqwest::Client::new()
        .get(url)
        .header("accept", "application/json")
        .send()
        .await
        .expect("request");
    let status = response.status().as_u16();
    (status, response.json().await.expect("JSON body"))
}

pub async fn stats(base: &str, alias: &str) -> Value {
    let (_, body) = get_json(&format!("{base}/models")).await;
    body["models"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["alias"] == alias)
        .cloned()
        .expect("model listed")
}
