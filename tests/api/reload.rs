//! `POST /models/reload`: the registry re-read over HTTP by the holder of the
//! `/models` token (a Hugging Face Space cannot be sent SIGHUP).

use std::{path::Path, sync::Arc};

use coach::{providers::HttpProvider, registry::Registry, secret::Secret, Coach};
use jay_trainer::server::config::Guard;
use reqwest::{Client, StatusCode};
use serde_json::{json, Value};
use wiremock::ResponseTemplate;

use crate::{
    binary::temp_registry,
    helpers::{chat_model, chat_reply, serve, upstream, TestApp},
};

const OPERATOR: &str = "let-me-in";

/// The app reading its registry from `path`, behind `token` (if any).
async fn spawn_from_file(path: &Path, token: Option<&str>) -> TestApp {
    let registry = Registry::load(path).expect("valid registry");
    let provider = Arc::new(HttpProvider::new(None));
    let coach = Coach::new(registry, Some(path.to_path_buf()), provider, Some(7));
    let guard = Guard {
        models_token: token.and_then(Secret::new),
        ..Guard::default()
    };
    serve(coach, &guard).await
}

fn write(path: &Path, models: &[String]) {
    let text = format!("strategy = \"thompson\"\n{}", models.concat());
    std::fs::write(path, text).expect("write the registry");
}

async fn reload(base: &str, token: Option<&str>) -> (StatusCode, Option<String>, Value) {
    let mut request = Client::new().post(format!("{base}/models/reload"));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.expect("request");
    let status = response.status();
    let cache = response
        .headers()
        .get("cache-control")
        .map(|v| v.to_str().unwrap().to_string());
    (status, cache, response.json().await.unwrap_or(Value::Null))
}

/// Each model's alias and breaker state, as `/models` shows them.
async fn models(base: &str) -> Vec<(String, String)> {
    let response = Client::new()
        .get(format!("{base}/models"))
        .bearer_auth(OPERATOR)
        .send()
        .await
        .expect("request");
    let body: Value = response.json().await.expect("JSON body");
    body["models"]
        .as_array()
        .expect("models")
        .iter()
        .map(|m| {
            let state = m["breaker"]["state"].as_str().unwrap_or("none");
            (m["alias"].as_str().unwrap().to_string(), state.to_string())
        })
        .collect()
}

fn pair(alias: &str, state: &str) -> (String, String) {
    (alias.to_string(), state.to_string())
}

#[tokio::test]
async fn the_operator_reloads_the_registry_and_a_bad_file_keeps_the_old_one() {
    let fine = upstream(chat_reply("Hi |fim|")).await;
    let gated = upstream(
        ResponseTemplate::new(403)
            .set_body_json(json!({"error": "Access to model org/gated is restricted"})),
    )
    .await;
    let path = temp_registry("reload-operator", "");
    write(
        &path,
        &[
            chat_model("gated", &gated.uri()),
            chat_model("fine", &fine.uri()),
        ],
    );
    let base = spawn_from_file(&path, Some(OPERATOR)).await;
    let url = |q: &str| format!("{base}/error?error=900&format=json{q}");
    reqwest::get(url("&model=gated")).await.expect("request");
    assert_eq!(
        models(&base).await,
        vec![pair("gated", "misconfigured"), pair("fine", "closed")]
    );

    // A new model in the file; a caller without the token changes nothing.
    write(
        &path,
        &[
            chat_model("gated", &gated.uri()),
            chat_model("fine", &fine.uri()),
            chat_model("new", &fine.uri()),
        ],
    );
    for token in [None, Some("let-me-out")] {
        let (status, _, body) = reload(&base, token).await;
        assert_eq!(
            (status, &body["field"]),
            (StatusCode::UNAUTHORIZED, &json!("authorization"))
        );
    }
    assert_eq!(models(&base).await.len(), 2);

    let (status, cache, body) = reload(&base, Some(OPERATOR)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, json!({ "reloaded": 3 }));
    assert_eq!(cache.as_deref(), Some("no-store"));
    assert_eq!(
        models(&base).await,
        vec![
            pair("gated", "closed"),
            pair("fine", "closed"),
            pair("new", "closed")
        ],
        "the new model is in, and the gated one may be tried again"
    );

    // A broken file: refused as the registry's fault, the old one answers on.
    std::fs::write(&path, "strategy = \"thompson\"\n[[models]\nalias = ").expect("write");
    let (status, cache, body) = reload(&base, Some(OPERATOR)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(cache.as_deref(), Some("no-store"));
    assert_eq!(body["field"], "registry");
    assert!(
        body["error"]
            .as_str()
            .is_some_and(|e| e.contains("registry")),
        "{body}"
    );
    assert_eq!(models(&base).await.len(), 3);
    let answer: Value = reqwest::get(url("&model=new"))
        .await
        .expect("request")
        .json()
        .await
        .expect("JSON body");
    assert_eq!(
        (answer["model"].as_str(), answer["fallback"].as_bool()),
        (Some("new"), Some(false))
    );
}

/// With no token configured, `/models` is open to all, but a reload (which
/// resets the breakers) is refused: it would let anyone call stopped models.
#[tokio::test]
async fn without_a_models_token_reload_is_refused() {
    let path = temp_registry("reload-open", "");
    write(&path, &[chat_model("a", "http://127.0.0.1:9")]);
    let base = spawn_from_file(&path, None).await;
    let (status, cache, body) = reload(&base, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(cache.as_deref(), Some("no-store"));
    assert!(
        body["error"]
            .as_str()
            .is_some_and(|e| e.contains("JAY_MODELS_TOKEN")),
        "{body}"
    );
}
