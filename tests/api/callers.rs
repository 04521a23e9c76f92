//! What other sites' callers send at the edges: the `Accept` headers of common
//! HTTP clients (axios's among them), their own `x-request-id`, a query past
//! the limit.

use reqwest::Client;
use serde_json::Value;

use crate::helpers::spawn_app;

#[tokio::test]
async fn axios_gets_the_seeds_text_and_a_caller_that_prefers_json_gets_json() {
    let base = spawn_app("").await;
    for (accept, json) in [
        // axios's default: JSON is not preferred over text.
        ("application/json, text/plain, */*", false),
        ("text/plain, application/json", false),
        ("*/*", false),
        ("application/json", true),
        ("application/json, text/plain;q=0.5", true),
        ("application/json;q=0.5, */*;q=0.1", true),
        ("application/json;Q=0", false),
    ] {
        let response = Client::new()
            .get(format!("{base}/error?error=812.5"))
            .header("accept", accept)
            .send()
            .await
            .expect("request");
        assert_eq!(response.status(), 200, "{accept}");
        let content_type = response.headers()["content-type"]
            .to_str()
            .expect("ASCII")
            .to_owned();
        let body = response.text().await.expect("body");
        if json {
            assert_eq!(content_type, "application/json", "{accept}");
            let parsed: Value = serde_json::from_str(&body).expect("JSON");
            assert!(parsed["comment"].is_string(), "{accept}: {body}");
        } else {
            assert_eq!(content_type, "text/plain; charset=utf-8", "{accept}");
            assert!(!body.starts_with('{'), "{accept}: {body}");
        }
    }
}

/// The `x-request-id` the app answers a request carrying `given`.
async fn id_for(base: &str, given: &str) -> String {
    let response = Client::new()
        .get(format!("{base}/healthz"))
        .header("x-request-id", given)
        .send()
        .await
        .expect("request");
    response.headers()["x-request-id"]
        .to_str()
        .expect("ASCII")
        .to_owned()
}

#[tokio::test]
async fn a_clients_request_id_is_kept_only_when_it_is_a_plain_token() {
    let base = spawn_app("").await;
    for kept in ["abc-123.X_y".to_string(), "a".repeat(64)] {
        assert_eq!(id_for(&base, &kept).await, kept);
    }
    for forged in [
        "a method=POST path=/admin".to_string(),
        String::new(),
        "a\"b".to_string(),
        "a".repeat(65),
    ] {
        let id = id_for(&base, &forged).await;
        assert_ne!(id, forged);
        // A fresh UUID instead.
        assert_eq!(id.len(), 36, "{id}");
        assert!(
            id.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-'),
            "{id}"
        );
    }
}

#[tokio::test]
async fn a_query_past_16_kib_is_refused_before_any_of_it_is_read() {
    let base = spawn_app("").await;
    // A bad `format` first: were the query read, `format` would be refused.
    let query = format!("format=xml&error=900&attempts={}1", "1,".repeat(8_700));
    assert!(query.len() > 17 * 1024);
    let response = Client::new()
        .get(format!("{base}/error?{query}"))
        .header("accept", "application/json")
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 400);
    let body: Value = response.json().await.expect("JSON");
    assert_eq!(body["field"], "query", "{body}");
    // Exactly 16 KiB is still read.
    let head = format!("error=900&attempts={}1&v=", "1,".repeat(8_000));
    let query = format!("{head}{}", "x".repeat(16 * 1024 - head.len()));
    let response = Client::new()
        .get(format!("{base}/error?{query}"))
        .header("accept", "application/json")
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 200);
}
