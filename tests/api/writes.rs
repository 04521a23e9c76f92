//! What a stranger can make the insights write (the insights on the open
//! internet): nothing for a comment answered over a limit, nothing for a
//! visit that never started or an attempt past 500, a bounded number of new
//! visits per address, and no write at all from another site's page. Each
//! refusal is counted in `/metrics` by reason.

use insights::Refusal;
use jay_trainer::server::config::Guard;
use reqwest::Client;
use serde_json::{json, Value};

use crate::insights::{spawn_guarded, spawn_limited, spawn_recording, start_in, VISIT};

/// Attempt `n` at the page's starting point, of `visit`.
fn attempt(visit: &str, n: u32) -> Value {
    json!({"error": 799.09, "weight": 0.1, "bias": 150.0, "lang": "en", "visit": visit, "attempt": n})
}

/// A metric's line, from `/metrics`' text.
fn metric<'a>(text: &'a str, name: &str) -> &'a str {
    text.lines()
        .find(|l| l.starts_with(name))
        .unwrap_or_else(|| panic!("{name} not in {text}"))
}

#[tokio::test]
async fn a_comment_over_the_limit_records_no_attempt() {
    // Five comments a minute, five at once, from one address.
    let app = spawn_limited("", "on", 5).await;
    let from = [("x-forwarded-for", "198.51.100.60")];
    assert_eq!(app.report(&start_in(VISIT, "none"), &from).await.0, 204);
    app.written(4).await;
    for n in 1..=20 {
        let (status, answer) = app.comment(&attempt(VISIT, n), &from).await;
        assert_eq!(status, 200, "{answer}");
        assert_eq!(
            answer["limited"].is_string(),
            n > 5,
            "attempt {n}: {answer}"
        );
    }
    app.written(9).await;
    assert_eq!(app.count("SELECT COUNT(*) FROM insights_attempts").await, 5);
    assert_eq!(app.recorder.stats().refused(Refusal::Limited), 15);
    let text = app.metrics().await;
    assert_eq!(
        metric(&text, "jay_insights_refused_total{reason=\"limited\"}"),
        "jay_insights_refused_total{reason=\"limited\"} 15"
    );
}

#[tokio::test]
async fn attempts_of_visits_that_never_started_are_not_stored() {
    let app = spawn_recording("", "on").await;
    for i in 0..60 {
        let forged = format!("floodfloodflood{i:04}");
        let (status, _) = app.comment(&attempt(&forged, 1), &[]).await;
        assert_eq!(status, 200, "the comment is answered all the same");
    }
    app.handled(60).await;
    assert_eq!(app.count("SELECT COUNT(*) FROM insights_attempts").await, 0);
    assert_eq!(
        app.count("SELECT COUNT(*) FROM insights_visit_sums").await,
        0
    );
    let text = app.metrics().await;
    assert!(
        text.contains("jay_insights_refused_total{reason=\"no_visit\"} 60"),
        "{text}"
    );
}

#[tokio::test]
async fn an_attempt_past_500_is_answered_and_not_stored() {
    let app = spawn_recording("", "on").await;
    assert_eq!(app.report(&start_in(VISIT, "none"), &[]).await.0, 204);
    app.written(4).await;
    for n in [500, 501, 100_000] {
        assert_eq!(app.comment(&attempt(VISIT, n), &[]).await.0, 200, "{n}");
    }
    app.written(5).await;
    assert_eq!(
        app.count("SELECT COUNT(*) FROM insights_attempts WHERE attempt = 500")
            .await,
        1
    );
    assert_eq!(app.count("SELECT COUNT(*) FROM insights_attempts").await, 1);
    assert_eq!(app.recorder.stats().refused(Refusal::AttemptNumber), 2);
    // Past what the API takes at all, still a 400 naming it.
    let (status, refusal) = app.comment(&attempt(VISIT, 100_001), &[]).await;
    assert_eq!((status, refusal["field"].as_str()), (400, Some("attempt")));
}

#[tokio::test]
async fn new_visits_have_an_hourly_allowance_per_address() {
    let guard = Guard {
        visits_per_hour: 6,
        trusted_proxy_hops: 1,
        ..Guard::default()
    };
    let app = spawn_guarded("", "on", guard).await;
    let from = |ip: &'static str| [("x-forwarded-for", ip)];
    let visit = |i: usize| format!("newvisitnewvisit{i:04}");
    // Six an hour, two at once.
    for i in 0..2 {
        let (status, _) = app
            .report(&start_in(&visit(i), "none"), &from("198.51.100.7"))
            .await;
        assert_eq!(status, 204, "visit {i}");
    }
    let (status, answer) = app
        .report(&start_in(&visit(2), "none"), &from("198.51.100.7"))
        .await;
    assert_eq!(status, 429, "{answer}");
    assert!(answer["error"]
        .as_str()
        .is_some_and(|e| e.contains("new visits")));
    // Its tools alone are no new visit; another address has its own.
    let tools = json!({"visit": visit(0), "tools": ["map"]}).to_string();
    assert_eq!(app.report(&tools, &from("198.51.100.7")).await.0, 204);
    assert_eq!(
        app.report(&start_in(&visit(3), "none"), &from("198.51.100.8"))
            .await
            .0,
        204
    );
    app.handled(3 * 4 + 1).await;
    assert_eq!(app.count("SELECT COUNT(*) FROM insights_visits").await, 3);
    let text = app.metrics().await;
    assert!(
        text.contains("jay_insights_refused_total{reason=\"visits_per_hour\"} 1"),
        "{text}"
    );
}

#[tokio::test]
async fn writes_from_another_site_are_refused_and_the_pages_own_pass() {
    let app = spawn_recording("", "on").await;
    let host = app.base.trim_start_matches("http://").to_string();
    let post = |path: &str, headers: Vec<(&'static str, String)>, body: String| {
        let mut request = Client::new()
            .post(format!("{}{path}", app.base))
            .header("content-type", "text/plain;charset=UTF-8")
            .body(body);
        for (name, value) in headers {
            request = request.header(name, value);
        }
        request.send()
    };
    let beacon = start_in(VISIT, "none");
    let comment = attempt(VISIT, 1).to_string();
    for (path, body) in [
        ("/insights/events", &beacon),
        ("/api/comment", &comment),
        ("/insights/rooms", &String::new()),
    ] {
        for (headers, field) in [
            (
                vec![("sec-fetch-site", "cross-site".to_string())],
                "sec-fetch-site",
            ),
            (
                vec![("sec-fetch-site", "same-site".to_string())],
                "sec-fetch-site",
            ),
            (
                vec![("origin", "https://blog.example".to_string())],
                "origin",
            ),
            (vec![("origin", "null".to_string())], "origin"),
        ] {
            let response = post(path, headers.clone(), body.clone())
                .await
                .expect("post");
            assert_eq!(response.status().as_u16(), 403, "{path} {headers:?}");
            let refusal: Value = response.json().await.expect("json");
            assert_eq!(refusal["field"], field, "{path}: {refusal}");
        }
    }
    // The page's own, in a tab or inside a blog's iframe: same-origin.
    let own = vec![
        ("sec-fetch-site", "same-origin".to_string()),
        ("origin", format!("http://{host}")),
    ];
    let response = post("/insights/events", own.clone(), beacon)
        .await
        .expect("post");
    assert_eq!(response.status().as_u16(), 204);
    let response = Client::new()
        .post(format!("{}/api/comment", app.base))
        .header("sec-fetch-site", "same-origin")
        .json(&attempt(VISIT, 1))
        .send()
        .await
        .expect("post");
    assert_eq!(response.status().as_u16(), 200);
    // An old browser with no Sec-Fetch-Site, from this site's own page.
    let response = post(
        "/insights/events",
        vec![("origin", format!("http://{host}"))],
        start_in("OldBrowserOldBrowser", "none"),
    )
    .await
    .expect("post");
    assert_eq!(response.status().as_u16(), 204);
    // `/error` stays the public cross-site API.
    let response = Client::new()
        .get(format!("{}/error?error=812.5", app.base))
        .header("sec-fetch-site", "cross-site")
        .header("origin", "https://blog.example")
        .send()
        .await
        .expect("get");
    assert_eq!(response.status().as_u16(), 200);
    assert!(response
        .headers()
        .contains_key("access-control-allow-origin"));
    app.written(6).await;
    assert_eq!(app.count("SELECT COUNT(*) FROM insights_visits").await, 2);
}
