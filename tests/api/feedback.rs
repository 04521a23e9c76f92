//! Votes on comments (`POST /api/feedback`): every comment carries an id the
//! server signed; a vote on it is taken once per comment (a second replaces
//! the first), teaches the router the model's record in the comment's
//! language, and is refused, naming its field, when anything is wrong.

use serde_json::{json, Value};
use wiremock::MockServer;

use crate::helpers::{chat_model, chat_reply, spawn_app, upstream, TestApp};

/// An app with one model, `m`, that always answers well (the fake model
/// server goes when the pair is dropped).
async fn app() -> (TestApp, MockServer) {
    let server = upstream(chat_reply("Nudge the bias a little! |fim|")).await;
    (spawn_app(&chat_model("m", &server.uri())).await, server)
}

/// A comment from `m` in `lang`: its id.
async fn comment_id(app: &TestApp, query: &str) -> String {
    let (status, body) = app.get_error(query).await;
    assert_eq!(status, 200, "{body}");
    body["id"]
        .as_str()
        .expect("every comment has an id")
        .to_string()
}

fn votes(model: &Value, lang: &str) -> (u64, u64) {
    let v = &model["by_lang"][lang]["votes"];
    (
        v["up"].as_u64().unwrap_or(99),
        v["down"].as_u64().unwrap_or(99),
    )
}

#[tokio::test]
async fn a_vote_on_a_comment_is_taken_once_and_teaches_its_model_in_its_language() {
    let (app, _model) = app().await;
    let id = comment_id(&app, "error=812.5&lang=pt").await;
    assert_eq!(
        app.post_feedback(json!({"id": id, "vote": "up"})).await,
        (204, Value::Null)
    );
    let m = app.stats("m").await;
    assert_eq!(votes(&m, "pt"), (1, 0));
    assert_eq!(votes(&m, "en"), (0, 0), "{m}");
    let up = m["by_lang"]["pt"]["success_estimate"]
        .as_f64()
        .expect("estimate");
    // The visitor changes their mind: the vote is replaced, not added.
    assert_eq!(
        app.post_feedback(json!({"id": id, "vote": "down"})).await.0,
        204
    );
    let m = app.stats("m").await;
    assert_eq!(votes(&m, "pt"), (0, 1));
    let down = m["by_lang"]["pt"]["success_estimate"]
        .as_f64()
        .expect("estimate");
    assert!(down < up, "a down-vote lowers the estimate: {up} → {down}");
    // The page's comment carries one too.
    let body = app
        .post_comment(r#"{"error": 812.5, "attempts": [900], "lang": "en"}"#)
        .await
        .json::<Value>()
        .await
        .expect("JSON");
    assert!(
        body["id"].as_str().is_some_and(|id| id.len() > 20),
        "{body}"
    );
}

#[tokio::test]
async fn a_forced_models_comments_and_the_built_in_coachs_do_not_train_the_router() {
    let (app, _model) = app().await;
    let forced = comment_id(&app, "error=812.5&model=m").await;
    assert_eq!(
        app.post_feedback(json!({"id": forced, "vote": "down"}))
            .await
            .0,
        204
    );
    let offline = comment_id(&app, "error=812.5&model=offline").await;
    assert_eq!(
        app.post_feedback(json!({"id": offline, "vote": "down"}))
            .await
            .0,
        204
    );
    assert_eq!(votes(&app.stats("m").await, "en"), (0, 0));
}

#[tokio::test]
async fn a_bad_vote_is_refused_naming_its_field() {
    let (app, _model) = app().await;
    let id = comment_id(&app, "error=812.5").await;
    let mut forged = id.clone().into_bytes();
    let last = forged.len() - 3;
    forged[last] = if forged[last] == b'A' { b'B' } else { b'A' };
    let forged = String::from_utf8(forged).expect("ASCII");
    for (body, field) in [
        (json!({"id": forged, "vote": "up"}), "id"),
        (json!({"id": "made-up", "vote": "up"}), "id"),
        (json!({"vote": "up"}), "id"),
        (json!({"id": id, "vote": "meh"}), "vote"),
        (json!({"id": id}), "vote"),
        (json!({"id": id, "vote": 1}), "vote"),
        (json!({"id": "x".repeat(2000), "vote": "up"}), "body"),
    ] {
        let (status, answer) = app.post_feedback(body.clone()).await;
        assert!(status == 400 || status == 413, "{status} {body}");
        assert_eq!(answer["field"], field, "{body}: {answer}");
    }
    assert_eq!(votes(&app.stats("m").await, "en"), (0, 0));
}

#[tokio::test]
async fn another_sites_page_cannot_vote() {
    let (app, _model) = app().await;
    let id = comment_id(&app, "error=812.5").await;
    let response = app
        .client
        .post(format!("{app}/api/feedback"))
        .header("sec-fetch-site", "cross-site")
        .json(&json!({"id": id, "vote": "down"}))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 403);
    assert_eq!(votes(&app.stats("m").await, "en"), (0, 0));
}

/// One client, a thousand votes over 120 comments: its day's allowance
/// (`JAY_VOTES_PER_DAY`, 100) counts, the rest is refused and moves nothing.
#[tokio::test]
async fn one_client_voting_a_thousand_times_moves_nothing_beyond_its_allowance() {
    let (app, _model) = app().await;
    let mut ids = Vec::new();
    for i in 0..120 {
        ids.push(comment_id(&app, &format!("error={}", 800 + i)).await);
    }
    let mut in_effect = std::collections::HashMap::new();
    let (mut taken, mut refused) = (0, 0);
    for n in 0..1000 {
        let (id, vote) = (&ids[n % ids.len()], if n % 3 == 0 { "up" } else { "down" });
        let (status, answer) = app.post_feedback(json!({"id": id, "vote": vote})).await;
        match status {
            204 => {
                taken += 1;
                in_effect.insert(id.clone(), vote);
            }
            429 => {
                refused += 1;
                assert!(
                    answer["retry_after_s"].as_u64().is_some_and(|s| s > 0),
                    "{answer}"
                );
            }
            other => panic!("{other}: {answer}"),
        }
    }
    assert_eq!((taken, refused), (100, 900));
    let up = in_effect.values().filter(|v| **v == "up").count() as u64;
    let down = in_effect.len() as u64 - up;
    assert_eq!(votes(&app.stats("m").await, "en"), (up, down));
}

/// A vote is stored as its comment's id names it, and nothing else; a
/// visitor who asks not to be tracked still teaches the router (the vote is
/// aggregate), but leaves no row.
#[tokio::test]
async fn a_vote_is_stored_without_its_voter_and_not_at_all_under_dnt() {
    let server = upstream(chat_reply("稳住，慢慢调。 |fim|")).await;
    let r = crate::insights::spawn_recording(&chat_model("m", &server.uri()), "on").await;
    let (first, tracked_not, second) = (
        comment_id(&r.base, "error=812.5&lang=zh").await,
        comment_id(&r.base, "error=700&lang=zh").await,
        comment_id(&r.base, "error=600&lang=zh").await,
    );
    let vote = |id: &str, vote: &str, dnt: bool| {
        let mut request = r
            .base
            .client
            .post(format!("{}/api/feedback", r.base))
            .json(&json!({"id": id, "vote": vote}));
        if dnt {
            request = request.header("DNT", "1");
        }
        request.send()
    };
    assert_eq!(vote(&first, "up", false).await.expect("vote").status(), 204);
    assert_eq!(
        vote(&tracked_not, "down", true)
            .await
            .expect("vote")
            .status(),
        204
    );
    assert_eq!(
        vote(&second, "down", false).await.expect("vote").status(),
        204
    );
    r.written(2).await;
    assert_eq!(
        votes(&r.base.stats("m").await, "zh"),
        (1, 2),
        "all three teach"
    );
    assert_eq!(r.count("SELECT COUNT(*) FROM insights_votes").await, 2);
    assert_eq!(
        r.count(
            "SELECT COUNT(*) FROM insights_votes WHERE model = 'm' AND lang = 'zh' \
             AND tier = 'close' AND issued_min > 0 AND at_min >= issued_min"
        )
        .await,
        2
    );
    assert_eq!(
        r.count("SELECT COUNT(*) FROM insights_votes WHERE vote = 'down'")
            .await,
        1,
        "the DNT visitor's down-vote is not stored"
    );
}
