//! The insights' recording: `POST /insights/events` and the
//! attempts of `POST /api/comment`, into a real SQLite file in the test
//! app's data folder, which is then read back: the rows that should be
//! there, none for `DNT` / `Sec-GPC`, and no address or user agent anywhere.

mod recording;

use std::path::Path;

use insights::Refusal;
use reqwest::Client;
use serde_json::{json, Value};

pub use self::recording::{spawn_guarded, spawn_limited, spawn_recording, Recording};
use crate::helpers::{chat_model, chat_reply, upstream};

/// A visit id as the page's script makes them.
pub const VISIT: &str = "Zx8_Qm2-Lk9aBc3dEf4gHi";
const IP: &str = "203.0.113.77";
const UA: &str = "JayPrivacyProbe/9.9 (X11; Linux)";

/// A visit's first report: its start in `room`, and three tools.
pub fn start_in(visit: &str, room: &str) -> String {
    json!({"visit": visit, "lang": "pt", "layout": "embed", "width": 360, "room": room,
           "tools": ["map", "nudge", "map"]})
    .to_string()
}

/// A visit's first report, naming a room nobody created.
fn start(visit: &str) -> String {
    start_in(visit, "Class-7B")
}

/// Every file of the database (its WAL too), as bytes.
fn database_bytes(dir: &Path) -> Vec<u8> {
    let mut all = Vec::new();
    for entry in std::fs::read_dir(dir).expect("data folder").flatten() {
        if entry
            .file_name()
            .to_string_lossy()
            .starts_with("insights.db")
        {
            all.extend(std::fs::read(entry.path()).expect("read"));
        }
    }
    all
}

#[tokio::test]
async fn a_visit_start_and_its_tools_are_recorded() {
    let app = spawn_recording("", "on").await;
    let room = app.create_room(40).await;
    let (status, answer) = app
        .report(&start_in(VISIT, &room.to_uppercase()), &[])
        .await;
    assert_eq!(status, 204, "{answer}");
    app.written(4).await;
    let visits = format!(
        "SELECT COUNT(*) FROM insights_visits WHERE visit_id = 'Zx8_Qm2-Lk9aBc3dEf4gHi' \
         AND lang = 'pt' AND layout = 'embed' AND device = 'phone' AND room = '{room}'"
    );
    assert_eq!(app.count(&visits).await, 1);
    let maps = "SELECT uses FROM insights_tools WHERE tool = 'map'";
    assert_eq!(app.count(maps).await, 2);
}

#[tokio::test]
async fn a_room_nobody_created_puts_nobody_in_it() {
    let app = spawn_recording("", "on").await;
    assert_eq!(app.report(&start(VISIT), &[]).await.0, 204);
    app.written(4).await;
    let unroomed = "SELECT COUNT(*) FROM insights_visits WHERE room IS NULL";
    assert_eq!(app.count(unroomed).await, 1, "recorded, without the room");
    assert_eq!(app.recorder.stats().refused(Refusal::UnknownRoom), 1);
}

#[tokio::test]
async fn each_bad_field_is_a_4xx_naming_it_and_nothing_is_kept() {
    let app = spawn_recording("", "on").await;
    for (body, field) in [
        (r#"{"visit":"short","tools":["map"]}"#.to_string(), "visit"),
        (
            format!(r#"{{"visit":"{VISIT}","lang":"fr","layout":"page","width":360}}"#),
            "lang",
        ),
        (
            format!(r#"{{"visit":"{VISIT}","lang":"en","layout":"frame","width":360}}"#),
            "layout",
        ),
        (
            format!(r#"{{"visit":"{VISIT}","lang":"en","layout":"page","width":0}}"#),
            "width",
        ),
        (
            format!(r#"{{"visit":"{VISIT}","lang":"en","layout":"page","width":9,"room":"a/b"}}"#),
            "room",
        ),
        (
            format!(r#"{{"visit":"{VISIT}","tools":["keylogger"]}}"#),
            "tool",
        ),
        ("{".to_string(), "body"),
    ] {
        let (status, answer) = app.report(&body, &[]).await;
        assert_eq!(
            (status, answer["field"].as_str()),
            (400, Some(field)),
            "{body}: {answer}"
        );
    }
    let big = json!({"visit": VISIT, "tools": vec!["map"; 800]}).to_string();
    let (status, answer) = app.report(&big, &[]).await;
    assert_eq!(
        (status, answer["field"].as_str()),
        (413, Some("body")),
        "{answer}"
    );
    let form = Client::new()
        .post(format!("{}/insights/events", app.base))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(start(VISIT))
        .send()
        .await
        .expect("request");
    assert_eq!(form.status().as_u16(), 415);
    app.report(&json!({"visit": VISIT, "tools": ["map"]}).to_string(), &[])
        .await;
    app.handled(1).await;
    assert_eq!(app.count("SELECT COUNT(*) FROM insights_visits").await, 0);
    assert_eq!(
        app.count("SELECT COUNT(*) FROM insights_tools").await,
        0,
        "no visit, no tool"
    );
}

#[tokio::test]
async fn off_records_nothing_and_still_answers_204() {
    let app = spawn_recording("", "off").await;
    let (status, _) = app.report(&start(VISIT), &[]).await;
    assert_eq!(status, 204);
    assert!(
        !app.dir.path().join("insights.db").exists(),
        "no database when off"
    );
}

#[tokio::test]
async fn attempts_are_recorded_from_the_comment_request_with_their_outcome() {
    let good = upstream(chat_reply("Nice! |fim|")).await;
    let app = spawn_recording(&chat_model("good", &good.uri()), "on").await;
    assert_eq!(app.report(&start(VISIT), &[]).await.0, 204);
    app.written(4).await;
    let post = |body: Value| {
        Client::new()
            .post(format!("{}/api/comment", app.base))
            .json(&body)
            .send()
    };
    let asked = json!({"error": 799.09, "attempts": [900.0], "weight": 0.1, "bias": 150.0,
                       "lang": "en", "visit": VISIT, "attempt": 2});
    let answer: Value = post(asked.clone())
        .await
        .expect("post")
        .json()
        .await
        .expect("json");
    assert_eq!(answer["model"], "good", "{answer}");
    // No visit: a comment as before, nothing recorded.
    let mut anonymous = asked.clone();
    anonymous.as_object_mut().expect("object").remove("visit");
    assert_eq!(post(anonymous).await.expect("post").status().as_u16(), 200);
    // A bad visit or attempt is refused, naming it.
    for (key, bad, field) in [
        ("visit", json!("x"), "visit"),
        ("attempt", json!(0), "attempt"),
        ("attempt", json!(-3), "attempt"),
        ("visit", json!(7), "visit"),
    ] {
        let mut body = asked.clone();
        body[key] = bad;
        let response = post(body).await.expect("post");
        let status = response.status().as_u16();
        let refusal: Value = response.json().await.expect("json");
        assert_eq!(
            (status, refusal["field"].as_str()),
            (400, Some(field)),
            "{refusal}"
        );
    }
    app.written(5).await;
    let served = "SELECT COUNT(*) FROM insights_attempts WHERE attempt = 2 AND model = 'good' \
                  AND outcome = 'served' AND error = 799.09 AND weight = 0.1 AND bias = 150";
    assert_eq!(app.count(served).await, 1);
    assert_eq!(app.count("SELECT COUNT(*) FROM insights_attempts").await, 1);
}

#[tokio::test]
async fn an_offline_comment_is_recorded_as_offline() {
    let app = spawn_recording("", "on").await;
    assert_eq!(app.report(&start(VISIT), &[]).await.0, 204);
    app.written(4).await;
    let body = json!({"error": 799.09, "weight": 0.1, "bias": 150.0, "visit": VISIT});
    let response = Client::new()
        .post(format!("{}/api/comment", app.base))
        .json(&body)
        .send()
        .await
        .expect("post");
    assert_eq!(response.status().as_u16(), 200);
    app.written(5).await;
    let offline = "SELECT COUNT(*) FROM insights_attempts WHERE attempt = 1 AND model = 'offline' \
                   AND outcome = 'offline' AND reason IS NULL";
    assert_eq!(app.count(offline).await, 1);
}

#[tokio::test]
async fn no_address_or_user_agent_is_stored_and_dnt_or_gpc_leave_no_row() {
    let app = spawn_recording("", "on").await;
    let who = [("x-forwarded-for", IP), ("user-agent", UA)];
    let with = |extra: (&'static str, &'static str)| [who[0], who[1], extra];
    let (a, b) = ("DntDntDntDntDnt_0001", "GpcGpcGpcGpcGpc_0002");
    assert_eq!(app.report(&start(a), &with(("dnt", "1"))).await.0, 204);
    assert_eq!(app.report(&start(b), &with(("sec-gpc", "1"))).await.0, 204);
    assert_eq!(app.report(&start(VISIT), &who).await.0, 204);
    app.written(4).await;
    for (visit, extra) in [
        (a, ("dnt", "1")),
        (b, ("sec-gpc", "1")),
        (VISIT, ("accept", "*/*")),
    ] {
        let body = json!({"error": 799.09, "weight": 0.1, "bias": 150.0, "visit": visit});
        let mut request = Client::new()
            .post(format!("{}/api/comment", app.base))
            .json(&body);
        for (name, value) in with(extra) {
            request = request.header(name, value);
        }
        assert_eq!(request.send().await.expect("post").status().as_u16(), 200);
    }
    // The recorded visit (1), its three tool rows' uses (3) and its attempt (1).
    app.written(5).await;
    for table in ["insights_visits", "insights_attempts", "insights_tools"] {
        let sql = format!("SELECT COUNT(*) FROM {table} WHERE visit_id <> '{VISIT}'");
        assert_eq!(
            app.count(&sql).await,
            0,
            "{table}: rows for DNT / GPC visits"
        );
    }
    assert_eq!(app.count("SELECT COUNT(*) FROM insights_attempts").await, 1);
    let bytes = database_bytes(app.dir.path());
    assert!(!bytes.is_empty());
    for needle in [IP, "203.0.113", UA, "JayPrivacyProbe"] {
        let found = bytes.windows(needle.len()).any(|w| w == needle.as_bytes());
        assert!(!found, "{needle:?} is in the database");
    }
}

#[tokio::test]
async fn metrics_show_the_insights_counts() {
    let app = spawn_recording("", "on").await;
    app.report(&start(VISIT), &[]).await;
    app.written(4).await;
    let text = reqwest::get(format!("{}/metrics", app.base))
        .await
        .expect("metrics")
        .text()
        .await
        .expect("text");
    assert!(text.contains("jay_insights_written_total 4"), "{text}");
    assert!(text.contains("jay_insights_dropped_total 0"), "{text}");
}

#[tokio::test]
async fn the_page_carries_the_visit_script_with_its_nonce_and_csp_allows_the_beacon() {
    let app = spawn_recording("", "on").await;
    let response = reqwest::get(format!("{}/?room=Class-7B", app.base))
        .await
        .expect("page");
    let csp = response.headers()["content-security-policy"]
        .to_str()
        .expect("ascii")
        .to_string();
    assert!(csp.contains("connect-src 'self'"), "{csp}");
    let html = response.text().await.expect("html");
    let script = html
        .split("<script")
        .find(|s| s.contains("__jayVisit"))
        .expect("the visit script");
    assert!(script.trim_start().starts_with("nonce="), "{script:.80}");
    assert!(script.contains("/insights/events") && script.contains("getRandomValues"));
    // Lesson 2's page carries the same script (it does not hydrate).
    let two = reqwest::get(format!("{}/two?room=Class-7B", app.base))
        .await
        .expect("lesson 2")
        .text()
        .await
        .expect("html");
    let body = |html: &str| {
        let from = html.find("(function(){try{var w=window")?;
        let to = html[from..].find("</script>")?;
        Some(html[from..from + to].to_string())
    };
    assert_eq!(body(&two), body(&html), "the same visit script");
    assert!(body(&html).is_some());
    // Every tool's element, as the script finds it, is on one of the pages; a
    // shared link is also noted when a page opens with one.
    for (selector, code) in jay_trainer::page::visit::TOOLS {
        let on = |html: &str| match selector.strip_prefix('.') {
            Some(class) => html.split("class=\"").skip(1).any(|rest| {
                rest.split('"')
                    .next()
                    .is_some_and(|classes| classes.split(' ').any(|c| c == class))
            }),
            None => html.contains(&selector.replace("=", "=\"").replace(']', "\"")[1..]),
        };
        assert!(on(&html) || on(&two), "{code}: {selector}");
    }
    assert!(script.contains(r#"q.push("shared_link")"#));
}

#[tokio::test]
async fn reports_have_their_own_allowance_per_client() {
    // One comment a minute: reports get three a minute, four at once.
    let app = spawn_limited("", "on", 1).await;
    let tools = json!({"visit": VISIT, "tools": ["map"]}).to_string();
    let from = |ip: &'static str| [("x-forwarded-for", ip)];
    for _ in 0..4 {
        assert_eq!(app.report(&tools, &from("198.51.100.1")).await.0, 204);
    }
    let (status, answer) = app.report(&tools, &from("198.51.100.1")).await;
    assert_eq!(status, 429, "{answer}");
    assert_eq!(app.report(&tools, &from("198.51.100.2")).await.0, 204);
}
