//! Class rooms on the open internet: a teacher creates one (nobody else
//! can), a room seats at most its size, a class behind one school address
//! gets its comments at a learner's pace and all of it shows on the live
//! view, the view is never kept by a cache, and a room's times are kept to
//! the hour.

use insights::{Minute, Refusal};
use jay_trainer::server::config::Guard;
use lesson::neuron::Params;
use reqwest::Client;
use serde_json::{json, Value};

use crate::{
    insights::{spawn_guarded, spawn_recording, start_in},
    insights_room::now,
};

/// A visit id for learner `n`.
fn learner(n: usize) -> String {
    format!("learner{n:04}-aaaaaaaaaa")
}

#[tokio::test]
async fn a_teacher_creates_a_room_and_a_stranger_cannot() {
    let app = spawn_recording("", "on").await;
    let client = Client::new();
    let url = format!("{}/insights/rooms", app.base);
    // A script on this machine, JSON.
    let made = client
        .post(&url)
        .json(&json!({"size": 25}))
        .send()
        .await
        .expect("post");
    assert_eq!(made.status().as_u16(), 201);
    assert_eq!(made.headers()["cache-control"], "no-store");
    let location = made.headers()["location"]
        .to_str()
        .expect("ascii")
        .to_string();
    let room: Value = made.json().await.expect("json");
    let code = room["code"].as_str().expect("code");
    assert_eq!(room["size"], 25);
    assert!(code.len() >= 8 && code.bytes().all(|b| b == b'-' || b.is_ascii_alphanumeric()));
    assert!(
        !code.contains(['0', 'o', '1', 'l', 'i']),
        "unambiguous: {code}"
    );
    let host = app.base.trim_start_matches("http://");
    assert_eq!(room["link"], format!("http://{host}/?room={code}"));
    assert_eq!(location, format!("/insights/room/{code}"));
    assert_eq!(room["view"], location);
    // The /insights form, from a browser: a page with the link to hand out.
    let page = client
        .post(&url)
        .header("content-type", "application/x-www-form-urlencoded")
        .header("accept", "text/html")
        .header("accept-language", "pt-BR")
        .body("size=30")
        .send()
        .await
        .expect("post");
    assert_eq!(page.status().as_u16(), 201);
    let html = page.text().await.expect("html");
    assert!(html.contains("com lugar para 30 alunos"), "{html}");
    // minijinja writes `/` as `&#x2f;`, which the browser reads as `/`.
    assert!(html.contains("&#x2f;?room="), "the learners' link: {html}");
    assert!(
        html.contains("&#x2f;insights&#x2f;room&#x2f;"),
        "the live view: {html}"
    );
    // Every room's code is its own.
    let another: Value = client
        .post(&url)
        .send()
        .await
        .expect("post")
        .json()
        .await
        .expect("json");
    assert_ne!(another["code"], room["code"]);
    assert_eq!(another["size"], 40, "the default size");
    // A bad size names the field.
    for bad in [
        json!({"size": 0}),
        json!({"size": 501}),
        json!({"size": "many"}),
    ] {
        let r = client.post(&url).json(&bad).send().await.expect("post");
        assert_eq!(r.status().as_u16(), 400, "{bad}");
        let refusal: Value = r.json().await.expect("json");
        assert_eq!(refusal["field"], "size");
    }
    // Through a proxy (any other client) without a token: refused.
    let stranger = client
        .post(&url)
        .header("x-forwarded-for", "203.0.113.50")
        .json(&json!({"size": 40}))
        .send()
        .await
        .expect("post");
    assert_eq!(stranger.status().as_u16(), 403);
}

#[tokio::test]
async fn a_full_room_seats_no_more_and_forged_visits_cannot_crowd_out_the_class() {
    let app = spawn_recording("", "on").await;
    let room = app.create_room(3).await;
    for n in 0..5 {
        assert_eq!(app.report(&start_in(&learner(n), &room), &[]).await.0, 204);
    }
    app.written(20).await;
    let seated = format!("SELECT COUNT(*) FROM insights_visits WHERE room = '{room}'");
    assert_eq!(app.count(&seated).await, 3);
    assert_eq!(
        app.count("SELECT COUNT(*) FROM insights_visits WHERE room IS NULL")
            .await,
        2
    );
    assert_eq!(app.recorder.stats().refused(Refusal::RoomFull), 2);
    let view = now(&app, &room).await;
    assert_eq!(view["visitors"], 3, "{view}");
    // One learner leaves (the page's last beacon): a newcomer is seated, and
    // the view shows who is there now.
    let left = json!({"visit": learner(1), "left": true}).to_string();
    assert_eq!(app.report(&left, &[]).await.0, 204);
    assert_eq!(app.report(&start_in(&learner(9), &room), &[]).await.0, 204);
    app.written(24).await;
    assert_eq!(app.count(&seated).await, 4);
    assert_eq!(now(&app, &room).await["visitors"], 3);
}

#[tokio::test]
async fn thirty_learners_behind_one_school_address_all_get_comments_and_all_show() {
    // The server's default allowances (20 comments a minute, 5 at once, per
    // client) behind the Space's proxy: the whole class has one address.
    let guard = Guard {
        trusted_proxy_hops: 1,
        ..Guard::default()
    };
    let app = spawn_guarded("", "on", guard).await;
    let room = app.create_room(40).await;
    let school = [("x-forwarded-for", "198.51.100.30")];
    for n in 0..30 {
        let (status, answer) = app.report(&start_in(&learner(n), &room), &school).await;
        assert_eq!(status, 204, "learner {n}: {answer}");
    }
    app.written(30 * 4).await;
    // Three attempts each, as fast as the requests go: each learner is a
    // client of its own, so none is limited.
    for attempt in 1..=3u32 {
        for n in 0..30 {
            let (w, b) = (
                0.1 - 0.01 * f64::from(attempt),
                150.0 + 20.0 * f64::from(attempt),
            );
            let body = json!({"error": Params::new(w, b).error(), "weight": w, "bias": b,
                              "lang": "en", "visit": learner(n), "attempt": attempt});
            let (status, answer) = app.comment(&body, &school).await;
            assert_eq!(status, 200, "{answer}");
            assert!(
                answer.get("limited").is_none(),
                "learner {n}, attempt {attempt}: {answer}"
            );
        }
    }
    app.written(30 * 4 + 90).await;
    let view = now(&app, &room).await;
    assert_eq!(view["visitors"], 30, "{view}");
    assert_eq!(view["dots"].as_array().map(Vec::len), Some(30), "{view}");
    // Without the room, the same address is one client: limited at once.
    let (status, _) = app
        .report(&start_in("outsider-outsider-0001", "none"), &school)
        .await;
    assert_eq!(status, 204);
    let mut limited = 0;
    for n in 1..=8 {
        let body = json!({"error": 799.09, "weight": 0.1, "bias": 150.0,
                          "visit": "outsider-outsider-0001", "attempt": n});
        let (_, answer) = app.comment(&body, &school).await;
        limited += usize::from(answer["limited"] == "client");
    }
    assert!(limited >= 3, "{limited} of 8 limited");
}

#[tokio::test]
async fn a_rooms_live_view_is_never_kept_by_a_cache() {
    let app = spawn_recording("", "on").await;
    let room = app.create_room(40).await;
    for path in [
        format!("/insights/room/{room}"),
        format!("/insights/room/{room}/now.json"),
    ] {
        let r = reqwest::get(format!("{}{path}", app.base))
            .await
            .expect("get");
        assert_eq!(r.status().as_u16(), 200, "{path}");
        assert_eq!(r.headers()["cache-control"], "no-store", "{path}");
        assert!(!r.headers().contains_key("etag"), "{path}");
    }
}

#[tokio::test]
async fn a_rooms_times_are_kept_to_the_hour_and_its_durations_true() {
    let app = spawn_recording("", "on").await;
    let room = app.create_room(40).await;
    let visit = learner(1);
    assert_eq!(app.report(&start_in(&visit, &room), &[]).await.0, 204);
    let body = json!({"error": 799.09, "weight": 0.1, "bias": 150.0, "visit": visit, "attempt": 1});
    assert_eq!(app.comment(&body, &[]).await.0, 200);
    app.written(5).await;
    let started = app.count("SELECT started_min FROM insights_visits").await;
    assert_eq!(started % 60, 0, "the hour it began in");
    assert!(Minute::now().0 - started < 60);
    let after = app
        .count("SELECT at_min - (SELECT started_min FROM insights_visits) FROM insights_attempts")
        .await;
    assert_eq!(after, 0, "tried in its first minute");
    let first = app.count("SELECT MIN(first_min) FROM insights_tools").await;
    assert_eq!(first, started, "its tools too");
}
