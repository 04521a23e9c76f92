//! The insights record each lesson apart: a visit of `/two` (its start names
//! `"lesson": 2`) and its comments' attempts (`w1`, `w2`, `b`) are stored as
//! lesson 2's; an attempt of the other lesson than its visit's is left out;
//! a vote on a lesson 2 comment is lesson 2's; and `/insights?lesson=2`,
//! with its CSV files, reports lesson 2 alone, by its goal (below 1,420).

use reqwest::Client;
use serde_json::{json, Value};

use crate::insights::{spawn_recording, VISIT};

/// Another visit id as the page's script makes them.
const ONE: &str = "Lesson1-visit-aaaaaaaa";

fn start(visit: &str, lesson: Option<u32>) -> String {
    let mut body = json!({"visit": visit, "lang": "en", "layout": "page", "width": 1280,
                          "tools": ["nudge"]});
    if let Some(n) = lesson {
        body["lesson"] = json!(n);
    }
    body.to_string()
}

fn two(visit: &str, attempt: u32, error: f64, [w1, w2, b]: [f64; 3]) -> Value {
    json!({"lesson": 2, "visit": visit, "attempt": attempt, "error": error,
           "w1": w1, "w2": w2, "b": b, "lang": "en"})
}

async fn text(url: String) -> String {
    let response = Client::new().get(url).send().await.expect("request");
    assert_eq!(response.status().as_u16(), 200);
    response.text().await.expect("text")
}

#[tokio::test]
async fn a_lesson_two_visit_is_recorded_and_reported_apart() {
    let app = spawn_recording("", "on").await;
    assert_eq!(app.report(&start(VISIT, Some(2)), &[]).await.0, 204);
    assert_eq!(app.report(&start(ONE, None), &[]).await.0, 204);
    app.written(4).await;
    // Jay's start, then area alone's best, then the goal with a negative w2.
    let points = [
        (1, 3431.91, [0.1, 0.0, 150.0]),
        (2, 1423.44, [0.1794, 0.0, -15.13]),
        (3, 1408.5, [0.185, -9.0, 4.0]),
    ];
    let mut ids = Vec::new();
    for (n, error, p) in points {
        let (status, answer) = app.comment(&two(VISIT, n, error, p), &[]).await;
        assert_eq!(status, 200, "{answer}");
        ids.push(answer["id"].as_str().expect("an id").to_string());
    }
    // Lesson 1's point on lesson 2's visit: answered, not recorded.
    let error = lesson::neuron::Params::new(0.1, 150.0).error();
    let crossed = json!({"visit": VISIT, "attempt": 4, "error": error, "weight": 0.1,
                         "bias": 150.0, "lang": "en"});
    assert_eq!(app.comment(&crossed, &[]).await.0, 200);
    app.handled(8).await;
    let vote = Client::new()
        .post(format!("{}/api/feedback", app.base))
        .json(&json!({"id": ids[2], "vote": "up"}))
        .send()
        .await
        .expect("vote");
    assert_eq!(vote.status().as_u16(), 204);
    app.written(8).await;

    let of_two = "SELECT COUNT(*) FROM insights_visits WHERE lesson = 2";
    assert_eq!(app.count(of_two).await, 1);
    let attempts = "SELECT COUNT(*) FROM insights_attempts WHERE lesson = 2 AND visit_id = \
                    'Zx8_Qm2-Lk9aBc3dEf4gHi'";
    assert_eq!(
        app.count(attempts).await,
        3,
        "the lesson 1 point is left out"
    );
    let w2 = "SELECT COUNT(*) FROM insights_attempts WHERE attempt = 3 AND weight = 0.185 \
              AND weight2 = -9.0 AND bias = 4.0";
    assert_eq!(app.count(w2).await, 1);
    let votes = "SELECT COUNT(*) FROM insights_votes WHERE lesson = 2 AND vote = 'up'";
    assert_eq!(app.count(votes).await, 1);

    // The page, by lesson: lesson 2 alone, by its own goal.
    let two_page = text(format!("{}/insights?lesson=2&period=1", app.base)).await;
    assert!(
        two_page.contains("Reached the goal: error below 1,420"),
        "{two_page:.300}"
    );
    assert!(
        two_page.contains("Lesson 2: two inputs · "),
        "the scope names it"
    );
    assert!(two_page.contains(r#"<option value="2" selected>"#));
    assert!(two_page.contains("Visits: 1."));
    let one_page = text(format!("{}/insights?period=1", app.base)).await;
    assert!(one_page.contains("Reached the goal: error 450 or less"));
    assert!(one_page.contains("Visits: 1."), "lesson 1's visit only");
    let funnel = text(format!(
        "{}/insights/funnel.csv?lesson=2&period=1",
        app.base
    ))
    .await;
    for row in [
        "attempted,1,",
        "at_or_below_2000,1,",
        "at_or_below_1423.44,1,",
        "goal_below_1420,1,",
    ] {
        assert!(funnel.contains(row), "{row}: {funnel}");
    }
    let stuck = text(format!(
        "{}/insights/points.csv?lesson=2&period=1",
        app.base
    ))
    .await;
    assert!(
        stuck.starts_with("kind,visit,point,w1,w2,b,error"),
        "{stuck}"
    );
    assert!(
        stuck.contains(",0.185,-9,4,1408.5"),
        "the path's last point: {stuck}"
    );
}

#[tokio::test]
async fn a_bad_lesson_is_named() {
    let app = spawn_recording("", "on").await;
    for lesson in ["3", "0"] {
        let body = start(VISIT, Some(lesson.parse().expect("a number")));
        let (status, answer) = app.report(&body, &[]).await;
        assert_eq!((status, answer["field"].as_str()), (400, Some("lesson")));
    }
    let page = Client::new()
        .get(format!("{}/insights?lesson=3", app.base))
        .send()
        .await
        .expect("page");
    assert_eq!(page.status().as_u16(), 400);
    assert!(page.text().await.expect("text").contains("lesson"));
}

#[tokio::test]
async fn a_room_watched_in_lesson_two_shows_its_lesson_two_learners() {
    let app = spawn_recording("", "on").await;
    let made = app.create_room_answer(40).await;
    let room = made["code"].as_str().expect("a code").to_string();
    assert!(made["link_two"]
        .as_str()
        .expect("lesson 2's link")
        .ends_with(&format!("/two?room={room}")));
    assert_eq!(made["view_two"], format!("/insights/room/{room}?lesson=2"));
    let mut learner: Value = serde_json::from_str(&start(VISIT, Some(2))).expect("json");
    learner["room"] = json!(room);
    assert_eq!(app.report(&learner.to_string(), &[]).await.0, 204);
    app.written(2).await;
    let (status, answer) = app
        .comment(&two(VISIT, 1, 3431.91, [0.1, 0.0, 150.0]), &[])
        .await;
    assert_eq!(status, 200, "{answer}");
    app.written(3).await;
    let now = |lesson: &str| {
        let url = format!("{}/insights/room/{room}/now.json{lesson}", app.base);
        async move {
            let r = Client::new().get(url).send().await.expect("get");
            (r.status().as_u16(), r.json::<Value>().await.expect("json"))
        }
    };
    let (status, two_now) = now("?lesson=2").await;
    assert_eq!(status, 200);
    assert_eq!(
        two_now["dots"].as_array().map(Vec::len),
        Some(1),
        "{two_now}"
    );
    assert_eq!(two_now["funnel"][1]["count"], 1, "tried once: {two_now}");
    let (_, one_now) = now("").await;
    assert_eq!(
        one_now["dots"],
        json!([]),
        "not on lesson 1's map: {one_now}"
    );
    let (status, bad) = now("?lesson=9").await;
    assert_eq!((status, bad["field"].as_str()), (400, Some("lesson")));
    // (minijinja writes `/` as `&#x2f;`.)
    let page = text(format!("{}/insights/room/{room}?lesson=2", app.base))
        .await
        .replace("&#x2f;", "/");
    assert!(page.contains(&format!("/two?room={room}")) && page.contains("two-ground"));
}
