//! The least an axum server can do for a comment: take `GET /error`, post a
//! fixed chat request upstream with reqwest, read the reply out of its JSON
//! and answer it as text. No prompt, no checks, no limits, no layers: what
//! the stack itself costs, for `.ci/loadbench` to set beside the app.
//!
//! `PORT` to listen on, `UPSTREAM` the chat completions URL. The same
//! allocator as the server (`src/main.rs`).

use axum::{extract::State, routing::get, Router};
use serde::Deserialize;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Deserialize)]
struct Completion {
    choices: Vec<Choice>,
}

#[derive(Deserialize)]
struct Choice {
    message: Message,
}

#[derive(Deserialize)]
struct Message {
    content: String,
}

#[derive(Clone)]
struct Upstream {
    client: reqwest::Client,
    /// Parsed once, as the server keeps each model's endpoint.
    url: reqwest::Url,
}

async fn comment(State(upstream): State<Upstream>) -> String {
    let body = serde_json::json!({
        "model": "bench/instant",
        "messages": [{"role": "user", "content": "The error is 799.09. Say something short."}],
        "max_tokens": 60,
    });
    let reply = async {
        let response = upstream
            .client
            .post(upstream.url.clone())
            .json(&body)
            .send()
            .await?;
        response.json::<Completion>().await
    };
    match reply.await {
        Ok(c) => c
            .choices
            .into_iter()
            .next()
            .map(|c| c.message.content)
            .unwrap_or_default(),
        Err(e) => e.to_string(),
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let port: u16 = std::env::var("PORT")
        .unwrap_or_else(|_| "18090".into())
        .parse()
        .map_err(|e| format!("PORT: {e}"))?;
    let url = std::env::var("UPSTREAM")
        .unwrap_or_else(|_| "http://127.0.0.1:18080/v1/chat/completions".into())
        .parse()
        .map_err(|e| format!("UPSTREAM: {e}"))?;
    let upstream = Upstream {
        client: reqwest::Client::new(),
        url,
    };
    let app = Router::new()
        .route("/error", get(comment))
        .with_state(upstream);
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    Ok(axum::serve(listener, app).await?)
}
