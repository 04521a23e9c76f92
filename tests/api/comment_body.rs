//! `POST /api/comment` as any caller may send it: a malformed body gets a 4xx
//! naming the field, JSON shaped like `/error`'s refusals, never a 500; `lang`
//! is read as `/error` reads it (any case, any region); an oversized body is a
//! `413` however it is sent.

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::helpers::{spawn_app, TestApp};

/// Posts `body` as JSON: the status and the parsed answer.
async fn post(app: &TestApp, body: &str) -> (u16, Value) {
    let response = app.post_comment(body).await;
    let status = response.status().as_u16();
    let text = response.text().await.expect("body");
    let json = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{body:.60}: {e}: {text:?}"));
    (status, json)
}

#[tokio::test]
async fn malformed_bodies_get_a_400_naming_the_field() {
    let base = spawn_app("").await;
    for (body, field) in [
        (r#"{"attempts": []}"#, "error"),
        // What `JSON.stringify(NaN)` sends.
        (r#"{"error": null, "attempts": []}"#, "error"),
        (r#"{"error": 1e400, "attempts": []}"#, "error"),
        (r#"{"error": "900", "attempts": []}"#, "error"),
        (r#"{"error": 900, "error": 800}"#, "error"),
        (r#"{"error": 900, "attempts": [900, null]}"#, "attempts"),
        (r#"{"error": 900, "attempts": "900,800"}"#, "attempts"),
        (r#"{"error": 900, "attempts": [1e999]}"#, "attempts"),
        (r#"{"error": 900, "weight": "0.1", "bias": 150}"#, "weight"),
        (r#"{"error": 900, "weight": 0.1, "bias": null}"#, "bias"),
        (r#"{"error": 900, "lang": 7}"#, "lang"),
        (r#"{"error": 900, "lang": "fr"}"#, "lang"),
        (r#"{"error": 900, "lang": ""}"#, "lang"),
        ("not json", "body"),
        ("", "body"),
        ("900", "body"),
        ("[]", "body"),
        ("{\"error\": 900} trailing", "body"),
    ] {
        let (status, answer) = post(&base, body).await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert_eq!(answer["field"], field, "{body}: {answer}");
        assert!(
            answer["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{body}: {answer}"
        );
    }
    // Cut short: refused, naming some field, never a 500.
    let (status, answer) = post(&base, r#"{"error": 900, "attempts": [1,"#).await;
    assert_eq!(status, 400, "{answer}");
    assert!(answer["field"].is_string(), "{answer}");
}

#[tokio::test]
async fn lang_is_read_as_error_reads_it() {
    let base = spawn_app("").await;
    for (lang, spoken) in [
        ("pt-BR", "pt"),
        ("PT", "pt"),
        ("zh-CN", "zh"),
        ("en-US", "en"),
        ("zh_TW", "zh"),
    ] {
        let (status, answer) = post(
            &base,
            &format!(r#"{{"error": 900, "attempts": [], "lang": "{lang}"}}"#),
        )
        .await;
        assert_eq!(status, 200, "{lang}: {answer}");
        assert_eq!(answer["lang"], spoken, "{lang}: {answer}");
    }
    // Without `attempts` (as `/error` without `tentativas`): a first attempt.
    let (status, answer) = post(&base, r#"{"error": 900, "lang": "pt"}"#).await;
    assert_eq!((status, answer["lang"].as_str()), (200, Some("pt")));
}

#[tokio::test]
async fn an_oversized_body_is_a_413_with_or_without_its_length() {
    let base = spawn_app("").await;
    let big = format!(
        "{{\"error\": 900, \"attempts\": [{}1]}}",
        "1,".repeat(10_240)
    );
    // With a Content-Length.
    let (status, answer) = post(&base, &big).await;
    assert_eq!((status, answer["field"].as_str()), (413, Some("body")));

    // Chunked, no Content-Length: refused as it streams in.
    let addr = base.trim_start_matches("http://");
    let mut socket = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let mut request = format!(
        "POST /api/comment HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/json\r\n\
         transfer-encoding: chunked\r\nconnection: close\r\n\r\n"
    );
    for chunk in big.as_bytes().chunks(1024) {
        request.push_str(&format!("{:x}\r\n", chunk.len()));
        request.push_str(std::str::from_utf8(chunk).expect("ASCII"));
        request.push_str("\r\n");
    }
    request.push_str("0\r\n\r\n");
    socket.write_all(request.as_bytes()).await.expect("send");
    let mut answer = Vec::new();
    // The server may close before reading the rest: what it said is enough.
    let _ = socket.read_to_end(&mut answer).await;
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains(r#""field":"body""#), "{answer}");
}
