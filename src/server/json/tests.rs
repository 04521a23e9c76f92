//! A JSON body: decoded as its type, each refusal naming one of its fields,
//! read within its limit however it is sent.

use axum::http::Request as HttpRequest;
use serde::Deserialize;

use super::*;

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Sample {
    error: f64,
    #[serde(default)]
    attempts: Vec<f64>,
    #[serde(default)]
    weight: Option<f64>,
    #[serde(default)]
    bias: Option<f64>,
    #[serde(default)]
    lang: Option<String>,
}

impl JsonBody for Sample {
    const FIELDS: &'static [&'static str] = &["error", "attempts", "weight", "bias", "lang"];
    const LIMIT: usize = 100;
}

fn field_of(body: &str) -> String {
    decode::<Sample>(body.as_bytes())
        .map(|_| String::from("(accepted)"))
        .unwrap_or_else(|e| e.field.into_owned())
}

#[test]
fn a_malformed_body_names_its_field() {
    for (body, field) in [
        (r#"{"attempts": []}"#, "error"),
        (r#"{"error": null}"#, "error"),
        (r#"{"error": 1e400}"#, "error"),
        (r#"{"error": "900"}"#, "error"),
        (r#"{"error": 900, "error": 800}"#, "error"),
        (r#"{"error": 900, "attempts": [1, null]}"#, "attempts"),
        (r#"{"error": 900, "weight": true}"#, "weight"),
        (r#"{"error": 900, "bias": {}}"#, "bias"),
        (r#"{"error": 900, "lang": 7}"#, "lang"),
        ("not json", "body"),
        ("", "body"),
        ("900", "body"),
        (r#"{"error": 900} {}"#, "body"),
    ] {
        assert_eq!(field_of(body), field, "{body}");
    }
    let null = decode::<Sample>(br#"{"error": null}"#).unwrap_err();
    assert!(null.message.contains("JSON.stringify"), "{}", null.message);
    assert_eq!(
        decode::<Sample>(br#"{"lang": "en"}"#).unwrap_err().message,
        "required"
    );
    let whole = decode::<Sample>(b"[").unwrap_err();
    assert!(
        whole.message.starts_with(
            r#"must be a JSON object {"error", "attempts", "weight", "bias", "lang"}"#
        ),
        "{}",
        whole.message
    );
}

#[test]
fn good_bodies_decode_and_other_fields_are_ignored() {
    for body in [
        r#"{"error": 900}"#,
        r#"{"error": 900, "attempts": [1, 2.5], "weight": 0.1, "bias": 150, "lang": "pt-BR"}"#,
        r#"{"error": 900, "attempts": [], "weight": null, "lang": null, "other": [1e999]}"#,
    ] {
        assert_eq!(field_of(body), "(accepted)", "{body}");
    }
}

#[tokio::test]
async fn a_body_past_the_limit_is_too_large_with_or_without_its_length() {
    let body = format!(r#"{{"error": 900, "attempts": [{}1]}}"#, "1,".repeat(100));
    let request = |length: Option<usize>| {
        let mut builder = HttpRequest::post("/api/comment");
        if let Some(length) = length {
            builder = builder.header(CONTENT_LENGTH, length);
        }
        builder.body(Body::from(body.clone())).unwrap()
    };
    for length in [Some(body.len()), None] {
        let refused = AppJson::<Sample>::from_request(request(length), &()).await;
        assert_eq!(refused.err(), Some(ApiError::TooLarge { limit: 100 }));
    }
    let short = HttpRequest::post("/api/comment")
        .body(Body::from(r#"{"error": 900}"#))
        .unwrap();
    assert!(AppJson::<Sample>::from_request(short, &()).await.is_ok());
}
