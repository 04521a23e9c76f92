//! A class room's live view: a visitor of `?room=abc` who tries
//! shows up as a dot in `/insights/room/abc/now.json`, at their latest point,
//! and nowhere else; a `DNT: 1` visitor never does; a bad code is a `400`
//! naming the field; `JAY_INSIGHTS_TOKEN` guards the view.

use crate::helpers::TestApp;
use std::sync::Arc;

use coach::{providers::HttpProvider, registry::Registry, secret::Secret, Coach};
use insights::{Insights, InsightsConfig};
use jay_trainer::server::config::Guard;
use lesson::{map::MapView, neuron::Params};
use reqwest::{Client, Response};
use serde_json::{json, Value};

use crate::insights::{spawn_recording, Recording, VISIT};

/// The dots' nudge apart, at most (`live::SPREAD`), plus rounding.
const NEAR: f64 = 3.01;
/// A point at the goal (error about 447.5).
const GOAL_POINT: (f64, f64) = (0.0585, 247.26);

fn start(visit: &str, room: &str) -> String {
    json!({"visit": visit, "lang": "en", "layout": "page", "width": 1280, "room": room}).to_string()
}

/// Attempt `n` of `visit` at (`w`, `b`), as the page's comment request sends it.
async fn attempt(app: &Recording, visit: &str, n: u32, (w, b): (f64, f64)) {
    let error = Params::new(w, b).error();
    let body = json!({"error": error, "weight": w, "bias": b, "lang": "en",
                      "visit": visit, "attempt": n});
    let response = Client::new()
        .post(format!("{}/api/comment", app.base))
        .json(&body)
        .send()
        .await
        .expect("post");
    let status = response.status().as_u16();
    assert_eq!(status, 200, "{}", response.text().await.unwrap_or_default());
}

async fn get(app: &Recording, path: &str) -> Response {
    reqwest::get(format!("{}{path}", app.base))
        .await
        .expect("get")
}

pub async fn now(app: &Recording, room: &str) -> Value {
    let response = get(app, &format!("/insights/room/{room}/now.json")).await;
    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(response.headers()["cache-control"], "no-store");
    response.json().await.expect("json")
}

/// Whether `dot` sits at (`w`, `b`) on the page's full map.
fn at(dot: &Value, w: f64, b: f64) -> bool {
    let (x, y) = MapView::full().to_svg(Params::new(w, b));
    let near = |v: &Value, to: f64| v.as_f64().is_some_and(|v| (v - to).abs() <= NEAR);
    near(&dot["x"], x) && near(&dot["y"], y)
}

#[tokio::test]
async fn a_visitor_in_a_room_is_a_dot_there_moving_as_they_try_and_nowhere_else() {
    assert!(Params::new(GOAL_POINT.0, GOAL_POINT.1).error() <= 450.0);
    let app = spawn_recording("", "on").await;
    let abc = app.create_room(40).await;
    let abc = abc.as_str();
    assert_eq!(
        app.report(&start(VISIT, &abc.to_uppercase()), &[]).await.0,
        204
    );
    app.written(1).await;
    // In the room, yet to try: counted, not drawn.
    let first = now(&app, abc).await;
    assert_eq!(
        (first["visitors"].as_u64(), first["waiting"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(first["dots"], json!([]));

    attempt(&app, VISIT, 1, (0.1, 150.0)).await;
    app.written(2).await;
    let one = now(&app, abc).await;
    let dots = one["dots"].as_array().expect("dots");
    assert_eq!(dots.len(), 1, "{one}");
    assert!(at(&dots[0], 0.1, 150.0), "{one}");
    assert_eq!(
        (dots[0]["attempts"].as_u64(), dots[0]["goal"].as_bool()),
        (Some(1), Some(false))
    );
    let key = dots[0]["key"].as_str().expect("key").to_string();
    assert_eq!(
        one["summary"],
        "1 in the room · 0 at the goal · 0 yet to try"
    );
    assert_eq!(one["funnel"][1]["count"], 1, "one visit tried");

    // At the goal, then away from it: the same key, moved, a star still.
    attempt(&app, VISIT, 2, GOAL_POINT).await;
    attempt(&app, VISIT, 3, (0.2, 100.0)).await;
    app.written(4).await;
    let later = now(&app, abc).await;
    let dot = &later["dots"][0];
    assert_eq!(dot["key"], key.as_str(), "the dot keeps its key");
    assert!(at(dot, 0.2, 100.0) && dot["goal"] == true, "{later}");
    assert_eq!(later["reached"], 1);
    assert_eq!(later["funnel"][5]["count"], 1, "the funnel's goal row");

    // Never the visit's id; not in another room.
    let text = get(&app, &format!("/insights/room/{abc}/now.json"))
        .await
        .text()
        .await
        .expect("text");
    assert!(!text.contains(VISIT), "{text}");
    let other = now(&app, "xyz").await;
    assert_eq!(
        (other["visitors"].as_u64(), other["dots"].clone()),
        (Some(0), json!([]))
    );

    // The page draws it, in the language asked, under its own script.
    let page = get(&app, &format!("/insights/room/{abc}?lang=pt")).await;
    assert_eq!(page.status().as_u16(), 200);
    let csp = page.headers()["content-security-policy"]
        .to_str()
        .expect("csp")
        .to_string();
    assert!(
        csp.contains("connect-src 'self'") && csp.contains("style-src 'self'"),
        "{csp}"
    );
    let nonce = csp
        .split("'nonce-")
        .nth(1)
        .and_then(|s| s.split('\'').next())
        .expect("a nonce")
        .to_string();
    let html = page.text().await.expect("html");
    assert!(html.contains(&format!(r#"data-key="{key}""#)), "the dot");
    assert!(html.contains(r#"<g class="dot goal""#));
    assert!(html.contains("1 na sala · 1 na meta · 0 ainda sem tentar"));
    assert!(html.contains(&format!(r#"<script nonce="{nonce}">"#)));
    assert!(!html.contains(VISIT));
}

#[tokio::test]
async fn a_visit_that_says_do_not_track_never_appears() {
    let app = spawn_recording("", "on").await;
    let abc = app.create_room(40).await;
    let abc = abc.as_str();
    let dnt = "DntDntDntDntDnt_0001";
    assert_eq!(app.report(&start(dnt, abc), &[("dnt", "1")]).await.0, 204);
    let error = Params::new(0.1, 150.0).error();
    let body = json!({"error": error, "weight": 0.1, "bias": 150.0, "visit": dnt, "attempt": 1});
    let comment = Client::new()
        .post(format!("{}/api/comment", app.base))
        .header("dnt", "1")
        .json(&body)
        .send()
        .await
        .expect("post");
    assert_eq!(comment.status().as_u16(), 200);
    // A visit that is recorded, after those: once it is written, anything
    // the DNT requests had queued would be too.
    assert_eq!(app.report(&start(VISIT, abc), &[]).await.0, 204);
    app.written(1).await;
    let room = now(&app, abc).await;
    assert_eq!(
        (room["visitors"].as_u64(), room["dots"].clone()),
        (Some(1), json!([])),
        "{room}"
    );
}

#[tokio::test]
async fn a_bad_room_code_is_a_400_naming_the_field_and_an_empty_room_a_200() {
    let app = spawn_recording("", "on").await;
    for code in ["a_b", "x%2Fy", "%20", &"c".repeat(25)] {
        let page = get(&app, &format!("/insights/room/{code}")).await;
        assert_eq!(page.status().as_u16(), 400, "{code}");
        let line = page.text().await.expect("text");
        assert!(
            line.starts_with("room: ") && line.lines().count() == 1,
            "{line}"
        );
        let data = get(&app, &format!("/insights/room/{code}/now.json")).await;
        assert_eq!(data.status().as_u16(), 400, "{code}");
        let refusal: Value = data.json().await.expect("json");
        assert_eq!(refusal["field"], "room", "{refusal}");
    }
    let empty = get(&app, "/insights/room/nobody-here").await;
    assert_eq!(empty.status().as_u16(), 200);
    let html = empty.text().await.expect("html");
    assert!(html.contains("0 in the room · 0 at the goal · 0 yet to try"));
    assert!(!html.contains(r#"<g class="dot" data-key"#), "no dot");
    assert!(!html.contains(r#"<g class="dot goal" data-key"#), "no star");
}

/// The app recording into `dir`, with `JAY_INSIGHTS_TOKEN` = `token`.
async fn spawn_guarded(token: &str, dir: &std::path::Path) -> TestApp {
    let config = InsightsConfig::from_vars(|_| None, dir).expect("config");
    let insights = Insights::start(&config).expect("store");
    let registry = Registry::parse("strategy = \"thompson\"\n").expect("registry");
    let coach = Coach::new(registry, None, Arc::new(HttpProvider::new(None)), Some(7));
    let guard = Guard {
        insights_token: Secret::new(token),
        ..Guard::default()
    };
    crate::helpers::serve_recording(coach, &guard, insights).await
}

#[tokio::test]
async fn the_insights_token_guards_the_room_view_and_its_data() {
    let data = crate::helpers::scratch("room");
    let base = spawn_guarded("teach-3rd-grade", data.path()).await;
    let client = Client::new();
    for path in ["/insights/room/abc", "/insights/room/abc/now.json"] {
        let url = format!("{base}{path}");
        let refused = client.get(&url).send().await.expect("get");
        assert_eq!(refused.status().as_u16(), 401, "{path}");
        assert!(refused.headers()["www-authenticate"]
            .to_str()
            .is_ok_and(|v| v.starts_with("Basic")));
        let wrong = client.get(&url).bearer_auth("guess-guess").send().await;
        assert_eq!(wrong.expect("get").status().as_u16(), 401, "{path}");
        let bearer = client.get(&url).bearer_auth("teach-3rd-grade").send().await;
        assert_eq!(bearer.expect("get").status().as_u16(), 200, "{path}");
        let basic = client
            .get(&url)
            .basic_auth("teacher", Some("teach-3rd-grade"))
            .send()
            .await;
        assert_eq!(basic.expect("get").status().as_u16(), 200, "{path}");
    }
}
