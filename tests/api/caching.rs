//! What a cache in front may keep: no answer of the JSON and text routes (a
//! comment is new each time, and its form and language follow the caller's
//! headers), and which answers are compressed. The page's and `/pkg`'s
//! policies are tested in `page`.

use reqwest::{Client, Response};
use serde_json::json;

use crate::helpers::spawn_app;

/// Every value of the `name` headers, joined by `, ` and lower-cased.
fn all(response: &Response, name: &str) -> String {
    response
        .headers()
        .get_all(name)
        .iter()
        .map(|v| v.to_str().unwrap_or_default().to_ascii_lowercase())
        .collect::<Vec<_>>()
        .join(", ")
}

#[tokio::test]
async fn no_answer_of_the_api_is_stored_and_error_varies_with_the_callers_headers() {
    let base = spawn_app("").await;
    let client = Client::new();
    let mut answers = Vec::new();
    for path in [
        "/error?error=900",
        "/error?error=abc",
        "/models",
        "/metrics",
    ] {
        let response = client
            .get(format!("{base}{path}"))
            .send()
            .await
            .expect("request");
        answers.push((path.to_string(), response));
    }
    for body in [
        json!({"error": 900.0, "attempts": []}),
        json!({"error": -1}),
    ] {
        let response = client
            .post(format!("{base}/api/comment"))
            .json(&body)
            .send()
            .await
            .expect("request");
        answers.push((format!("/api/comment {body}"), response));
    }
    for (what, response) in &answers {
        assert_eq!(all(response, "cache-control"), "no-store", "{what}");
    }
    for (what, response) in answers.iter().filter(|(p, _)| p.starts_with("/error")) {
        let vary = all(response, "vary");
        for header in ["accept", "accept-language"] {
            assert!(
                vary.split(',').any(|v| v.trim() == header),
                "{what}: vary {vary:?}"
            );
        }
    }
}

#[tokio::test]
async fn operator_answers_are_compressed_and_comments_are_sent_as_they_are() {
    let base = spawn_app("").await;
    let client = Client::builder()
        .no_gzip()
        .no_brotli()
        .build()
        .expect("client");
    let metrics = client
        .get(format!("{base}/metrics"))
        .header("accept-encoding", "br, gzip")
        .send()
        .await
        .expect("request");
    assert_eq!(all(&metrics, "content-encoding"), "br");
    assert!(all(&metrics, "vary").contains("accept-encoding"));
    let comment = client
        .post(format!("{base}/api/comment"))
        .header("accept-encoding", "br, gzip")
        .json(&json!({"error": 900.0, "attempts": []}))
        .send()
        .await
        .expect("request");
    assert_eq!(comment.status(), 200);
    assert_eq!(all(&comment, "content-encoding"), "");
    assert!(!all(&comment, "vary").contains("accept-encoding"));
}
