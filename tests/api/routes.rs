//! The routes as callers use them: `/models` under load, bad requests, the
//! the original server's callers, the offline commentator's languages, the page's server
//! function, and the facts a comment must not contradict.

use jay_trainer::server::config::Guard;
use reqwest::{Client, StatusCode};
use serde_json::{json, Value};

use crate::guard::spawn;
use crate::helpers::{chat_model, chat_reply, get_json, spawn_app, upstream};

#[tokio::test]
async fn routes_keep_answering_while_models_is_hammered() {
    let model = upstream(chat_reply("Still here! |fim|")).await;
    let base = spawn_app(&format!(
        "{}{}",
        chat_model("a", &model.uri()),
        chat_model("b", &model.uri())
    ))
    .await;
    let client = reqwest::Client::new();
    let hammers: Vec<_> = (0..4)
        .map(|_| {
            let (client, url) = (client.clone(), format!("{base}/models"));
            tokio::spawn(async move {
                let mut ok = 0;
                for _ in 0..100 {
                    let response = client.get(&url).send().await.expect("GET /models");
                    ok += usize::from(response.status() == 200);
                }
                ok
            })
        })
        .collect();
    for i in 0..20 {
        let (status, body) = get_json(&format!("{base}/error?error={}", 900 + i)).await;
        assert_eq!(
            (status, body["comment"].as_str()),
            (200, Some("Still here!"))
        );
    }
    for hammer in hammers {
        assert_eq!(hammer.await.unwrap(), 100, "every /models request answered");
    }
    // What was learned meanwhile shows at once: the cached report is renewed
    // after every finished call.
    let a = base.stats("a").await;
    let b = base.stats("b").await;
    assert_eq!(
        a["stats"]["total"].as_u64().unwrap() + b["stats"]["total"].as_u64().unwrap(),
        20
    );
}

#[tokio::test]
async fn bad_requests_get_a_400_naming_the_field() {
    let base = spawn_app("").await;
    for (query, field) in [
        ("", "error"),
        ("error=abc", "error"),
        ("error=-1", "error"),
        ("error=NaN", "error"),
        ("error=12&tentativas=1,x", "tentativas"),
        ("error=12&model=nope", "model"),
        ("error=12&lang=fr", "lang"),
        ("error=12&format=xml", "format"),
        ("error=12&error=13", "error"),
    ] {
        let (status, body) = base.get_error(query).await;
        assert_eq!(status, 400, "{query}");
        assert_eq!(body["field"], field, "{query}: {body}");
        assert!(body["error"].as_str().is_some_and(|e| !e.is_empty()));
        // A plain caller (curl's `Accept: */*`) gets the same refusal in one line.
        let plain = reqwest::get(format!("{base}/error?{query}")).await.unwrap();
        assert_eq!(plain.status(), 400, "{query}");
        assert_eq!(plain.headers()["content-type"], "text/plain; charset=utf-8");
        let line = plain.text().await.unwrap();
        assert!(line.starts_with(&format!("{field}: ")), "{line:?}");
        assert_eq!(line.trim_end().lines().count(), 1, "{line:?}");
    }
}

#[tokio::test]
async fn the_seeds_callers_get_text_and_their_quirks_are_tolerated() {
    let base = spawn_app("").await;
    // Plain text, as the original server answered: just the comment.
    let response = reqwest::get(format!(
        "{base}/error?error=812.5&tentativas=13359.08,900,&_=1733000000000&v=2"
    ))
    .await
    .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()["content-type"],
        "text/plain; charset=utf-8"
    );
    let text = response.text().await.unwrap();
    assert!(!text.is_empty() && !text.starts_with('{'), "{text:?}");
    // JSON when asked for, either way, exactly as documented.
    let (status, body) = base.get_error("error=812.5").await;
    assert_eq!((status, body["provider"].as_str()), (200, Some("offline")));
    let by_param: Value = reqwest::get(format!("{base}/error?error=812.5&format=json"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(by_param["provider"], "offline");
    // A history of 150 attempts is not refused: the latest 100 are used.
    let long: Vec<String> = (0..150).map(|i| format!("{}", 900 + i)).collect();
    let (status, body) = get_json(&format!(
        "{base}/error?error=812.5&tentativas={}",
        long.join(",")
    ))
    .await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test]
async fn with_no_models_the_offline_commentator_answers_in_the_asked_language() {
    let base = spawn_app("").await;
    let client = reqwest::Client::new();
    let body: Value = client
        .get(format!("{base}/error?error=13359.08"))
        .header("accept", "application/json")
        .header("accept-language", "zh-CN,zh;q=0.9")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        (
            body["provider"].as_str(),
            body["lang"].as_str(),
            body["tier"].as_str()
        ),
        (Some("offline"), Some("zh"), Some("far"))
    );
    assert_eq!(body["tried"], json!([]));
    assert_eq!(
        get_json(&format!("{base}/test")).await,
        (200, json!({"ok": true}))
    );
}

#[tokio::test]
async fn the_page_server_function_uses_the_same_service_and_checks() {
    let base = spawn_app("").await;
    let client = reqwest::Client::new();
    let url = format!("{base}/api/comment");
    let ok = client
        .post(&url)
        .header("accept-language", "pt-BR")
        .json(&json!({"error": 812.5, "attempts": [13359.08], "lang": null}))
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status(), 200);
    let body: Value = ok.json().await.unwrap();
    assert_eq!(
        (body["provider"].as_str(), body["lang"].as_str()),
        (Some("offline"), Some("pt"))
    );

    // Refusals are JSON like `/error`'s, naming the field.
    for (bad, field) in [
        (json!({"error": -1.0, "attempts": []}), "error"),
        (json!({"error": 5.0, "attempts": [900.0, -1.0]}), "attempts"),
        (json!({"error": 5.0, "attempts": [], "weight": 0.1}), "bias"),
        (
            json!({"error": 5.0, "weight": 0.41, "bias": 150.0}),
            "weight",
        ),
        (json!({"error": 5.0, "weight": 0.1, "bias": 500.5}), "bias"),
    ] {
        let response = client.post(&url).json(&bad).send().await.unwrap();
        assert_eq!(response.status(), 400, "{bad}");
        let body: Value = response.json().await.expect("a JSON refusal");
        assert_eq!(body["field"], field, "{bad}");
        assert!(
            body["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{body}"
        );
    }
    // Jay's weight range (to 0.4) is accepted, and so is a bias up to 500, the
    // bias slider's end before it took Jay's 460: a caller that worked still works.
    for (weight, bias) in [(0.35, 150.0), (0.1, 480.0)] {
        let error = lesson::neuron::Params::new(weight, bias).error();
        let body = json!({"error": error, "weight": weight, "bias": bias});
        let response = client.post(&url).json(&body).send().await.unwrap();
        assert_eq!(response.status(), 200, "{body}");
    }
    // The page's 102nd attempt gets its comment like the first.
    let long = json!({"error": 5.0, "attempts": vec![900.0; 101]});
    let response = client.post(&url).json(&long).send().await.unwrap();
    assert_eq!(response.status(), 200);
}

#[tokio::test]
async fn marker_less_and_multi_marker_answers_are_accepted_and_cut() {
    for (raw, expected) in [
        (
            "Keep the weight, move the bias.",
            "Keep the weight, move the bias.",
        ),
        ("Almost! |fim| Almost! |fim| |fim|", "Almost!"),
    ] {
        let upstream = upstream(chat_reply(raw)).await;
        let base = spawn_app(&chat_model("m", &upstream.uri())).await;
        let (_, body) = base.get_error("error=1200").await;
        assert_eq!(
            (body["comment"].as_str(), body["fallback"].as_bool()),
            (Some(expected), Some(false))
        );
        let m = base.stats("m").await;
        assert_eq!(
            (m["stats"]["successes"].as_u64(), m["last_error"].is_null()),
            (Some(1), true)
        );
    }
}

/// Aliases of the models `/models` lists, with their breaker state.
#[tokio::test]
async fn an_answer_that_contradicts_the_facts_is_a_model_error_in_every_language() {
    // From the guide's start the facts say: raise the bias by about 13.
    for (lang, contrary, stated) in [
        (
            "en",
            "Lower the bias a lot, trust me!",
            "raise the bias by about 13",
        ),
        (
            "pt",
            "Diminua o viés bastante, confie!",
            "aumente o viés em cerca de 13",
        ),
        ("zh", "把偏置调低很多，相信我！", "把偏置调高约 13"),
    ] {
        let upstream = upstream(chat_reply(&format!("{contrary} |fim|"))).await;
        let base = spawn_app(&chat_model("contrarian", &upstream.uri())).await;
        let query = format!("error=799.09&lang={lang}&model=contrarian");
        let (status, body) = base
            .get_error(&format!("{query}&weight=0.1&bias=150"))
            .await;
        assert_eq!(status, 200, "{body}");
        // Tried, rejected, and the offline commentator said something true instead.
        assert_eq!(
            body["tried"][0]["outcome"], "rejected: contradicts the facts: says to lower the bias",
            "{lang}: {body}"
        );
        assert_eq!(body["fallback"], true, "{body}");
        assert_ne!(body["comment"], contrary);
        // The facts were in the prompt, in the visitor's language.
        let sent = upstream.received_requests().await.unwrap();
        let prompt = String::from_utf8_lossy(&sent[0].body).to_string();
        assert!(prompt.contains(stated), "{lang}: {prompt}");
        // Forced (`model=`), the rejection is not learned: a client choosing
        // the model cannot farm its record. Routed, it counts.
        let forced = base.stats("contrarian").await;
        assert_eq!(forced["stats"]["total"], 0, "{forced}");
        let routed = format!("{base}/error?error=799.09&lang={lang}&weight=0.1&bias=150");
        let (_, body) = get_json(&routed).await;
        assert_eq!(body["fallback"], true, "{body}");
        let stats = base.stats("contrarian").await;
        assert_eq!(stats["stats"]["outcomes"]["rejected"], 1, "{stats}");

        // Without weight and bias (an old caller) the same answer stands.
        let (_, old) = base.get_error(&query).await;
        assert_eq!(
            (old["comment"].as_str(), old["fallback"].as_bool()),
            (Some(contrary), Some(false))
        );
    }
}

#[tokio::test]
async fn the_offline_commentator_gives_the_best_single_move_when_it_knows_the_point() {
    let base = spawn_app("").await;
    let (_, body) = get_json(&format!(
        "{base}/error?error=799.09&weight=0.1&bias=150&lang=en"
    ))
    .await;
    let comment = body["comment"].as_str().unwrap();
    assert!(
        comment.ends_with("Try to raise the bias by about 13."),
        "{comment}"
    );
    // A point that does not match its error is refused, naming `error`.
    let (status, body) = base.get_error("error=500&weight=0.1&bias=150").await;
    assert_eq!((status, body["field"].as_str()), (400, Some("error")));
}

#[tokio::test]
async fn oversized_bodies_and_queries_are_refused() {
    let base = spawn(Guard::default(), "", crate::helpers::roomy()).await;
    let huge = Client::new()
        .post(format!("{base}/api/comment"))
        .header("content-type", "application/json")
        .body(format!(
            "{{\"error\": 900, \"attempts\": [{}1]}}",
            "1,".repeat(20_000)
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(huge.status(), StatusCode::PAYLOAD_TOO_LARGE);
    // 20,000 bytes: a history of 10,000 attempts is past the query's limit.
    let long = Client::new()
        .get(format!(
            "{base}/error?error=900&attempts={}1",
            "1,".repeat(10_000)
        ))
        .header("accept", "application/json")
        .send()
        .await
        .unwrap();
    assert_eq!(long.status(), StatusCode::BAD_REQUEST);
    let body: Value = long.json().await.unwrap();
    assert_eq!(body["field"], "query");
}
