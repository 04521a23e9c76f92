//! Lesson 2 through the comment routes: `lesson=2` with `w1`, `w2` and `b`
//! (negative values too), each range-checked with a 400 naming the field,
//! and a comment that speaks of lesson 2 (its goal, its floor), in each
//! language, by `GET /error` and by `POST /api/comment`.

use serde_json::{json, Value};

use crate::helpers::{spawn_app, TestApp};

async fn post(app: &TestApp, body: Value) -> (u16, Value) {
    let response = app.post_comment(&body.to_string()).await;
    let status = response.status().as_u16();
    (status, response.json().await.expect("JSON"))
}

#[tokio::test]
async fn a_lesson_two_point_gets_a_lesson_two_comment() {
    let app = spawn_app("").await;
    // Jay's start: 3,431.91, in the close tier; no model (no token): the built-in coach.
    let (status, answer) = app
        .get_error("lesson=2&error=3431.91&w1=0.1&w2=0&b=150&lang=en&format=json")
        .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["tier"], "close", "{answer}");
    let comment = answer["comment"].as_str().expect("comment");
    assert!(
        comment.contains("w1") || comment.contains("w2") || comment.contains("bias b"),
        "a step: {comment}"
    );
    // At the floor (negative w2), in Portuguese, by the page's route.
    let (status, answer) = post(
        &app,
        json!({"lesson": 2, "error": 1406.05, "attempts": [1500.0], "w1": 0.18613, "w2": -10.01238, "b": 3.57538, "lang": "pt"}),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["tier"], "goal", "{answer}");
    let comment = answer["comment"].as_str().expect("comment");
    assert!(
        !comment.contains(" 450") && !comment.contains("447,29"),
        "{comment}"
    );
    // Above 5,000: far.
    let (_, far) = app
        .get_error("lesson=2&error=20000&lang=zh&format=json")
        .await;
    assert_eq!(far["tier"], "far", "{far}");
}

#[tokio::test]
async fn each_wrong_field_is_named() {
    let app = spawn_app("").await;
    for (query, field) in [
        ("lesson=3&error=900", "lesson"),
        ("lesson=two&error=900", "lesson"),
        ("lesson=2&error=3431.91&w1=0.5&w2=0&b=150", "w1"),
        ("lesson=2&error=3431.91&w1=0.1&w2=-101&b=150", "w2"),
        ("lesson=2&error=3431.91&w1=0.1&w2=0&b=301", "b"),
        ("lesson=2&error=3431.91&w1=0.1&w2=--1&b=150", "w2"),
        ("lesson=2&error=3431.91&w1=0.1&w2=0", "b"),
        ("lesson=2&error=3431.91&w2=0&b=150", "w1"),
        ("lesson=2&error=999&w1=0.1&w2=0&b=150", "error"),
        ("lesson=2&error=3431.91&weight=0.1&bias=150", "weight"),
        ("error=799.09&w1=0.1&w2=0&b=150", "w1"),
        ("lesson=2&lesson=2&error=900", "lesson"),
    ] {
        let (status, answer) = app.get_error(&format!("{query}&format=json")).await;
        assert_eq!(status, 400, "{query}: {answer}");
        assert_eq!(answer["field"], field, "{query}: {answer}");
    }
    for (body, field) in [
        (
            json!({"lesson": 2, "error": 3431.91, "w1": 0.1, "w2": 0, "b": -100.5}),
            "b",
        ),
        (
            json!({"lesson": 2, "error": 3431.91, "w1": 0.1, "w2": 0}),
            "b",
        ),
        (
            json!({"lesson": 2, "error": 3431.91, "w1": 0.1, "w2": 0, "b": 150, "weight": 0.1, "bias": 150}),
            "weight",
        ),
        (json!({"lesson": 9, "error": 900}), "lesson"),
        (json!({"lesson": "2", "error": 900}), "lesson"),
        (json!({"error": 799.09, "w1": 0.1, "w2": 0, "b": 150}), "w1"),
    ] {
        let (status, answer) = post(&app, body.clone()).await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert_eq!(answer["field"], field, "{body}: {answer}");
    }
}
