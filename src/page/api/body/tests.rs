use super::*;

fn field_of(body: &str) -> String {
    decode(body.as_bytes())
        .map(|_| String::from("(accepted)"))
        .unwrap_or_else(|e| e.field)
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
    let null = decode(br#"{"error": null}"#).unwrap_err();
    assert!(null.message.contains("JSON.stringify"), "{}", null.message);
    assert_eq!(
        decode(br#"{"lang": "en"}"#).unwrap_err().message,
        "required"
    );
}

#[test]
fn what_decodes_here_decodes_in_server_fn_and_nothing_else_does() {
    for body in [
        r#"{"error": 900}"#,
        r#"{"error": 900, "attempts": [1, 2.5], "weight": 0.1, "bias": 150, "lang": "pt-BR"}"#,
        r#"{"error": 900, "attempts": [], "weight": null, "lang": null, "other": [1e999]}"#,
        r#"{"error": -1, "lang": "fr"}"#,
        r#"{"error": 900"#,
        r#"{"error": 900, "attempts": "1,2"}"#,
        "[900, []]",
        "[]",
    ] {
        let here = decode(body.as_bytes());
        let there = serde_json::from_slice::<GetComment>(body.as_bytes());
        assert_eq!(here.is_ok(), there.is_ok(), "{body}");
        if let (Ok(here), Ok(there)) = (here, there) {
            assert_eq!(format!("{here:?}"), format!("{there:?}"));
        }
    }
}

#[tokio::test]
async fn a_body_past_the_limit_is_too_large_with_or_without_its_length() {
    let body = format!(r#"{{"error": 900, "attempts": [{}1]}}"#, "1,".repeat(100));
    let request = |length: Option<usize>| {
        let mut builder = Request::post("/api/comment");
        if let Some(length) = length {
            builder = builder.header(CONTENT_LENGTH, length);
        }
        builder.body(Body::from(body.clone())).unwrap()
    };
    for length in [Some(body.len()), None] {
        assert_eq!(
            read(100, request(length)).await.unwrap_err(),
            Refusal::TooLarge(100)
        );
        assert!(read(body.len(), request(length)).await.is_ok());
    }
}
