//! `GET /models` shows each model's record per language (`by_lang`) and its
//! queue (`in_flight`, `max_concurrency`), against a fake upstream (wiremock)
//! that answers English well and Portuguese with nothing usable.

use serde_json::json;
use wiremock::{
    matchers::{body_string_contains, method},
    Mock, MockServer,
};

use crate::helpers::{chat_model, chat_reply, spawn_app};

#[tokio::test]
async fn models_shows_each_languages_record_and_the_queue() {
    let upstream = MockServer::start().await;
    // The Portuguese prompt's question ("Erro agora: ..."): an empty answer.
    Mock::given(method("POST"))
        .and(body_string_contains("Erro agora"))
        .respond_with(chat_reply("|fim|"))
        .with_priority(1)
        .mount(&upstream)
        .await;
    Mock::given(method("POST"))
        .respond_with(chat_reply("Nice move! |fim|"))
        .mount(&upstream)
        .await;
    let base = spawn_app(&(chat_model("m", &upstream.uri()) + "max_concurrency = 2\n")).await;

    let (_, en) = base.get_error("error=812.5").await;
    assert_eq!(en["fallback"], false, "{en}");
    let (_, pt) = base.get_error("error=812.5&lang=pt").await;
    assert_eq!(pt["fallback"], true, "{pt}");
    assert_eq!(pt["tried"][0]["outcome"], "rejected: empty");

    let m = base.stats("m").await;
    let by_lang = &m["by_lang"];
    let counts = |lang: &str| {
        let l = &by_lang[lang];
        (
            l["calls"].clone(),
            l["successes"].clone(),
            l["rejections"].clone(),
        )
    };
    assert_eq!(counts("en"), (json!(1), json!(1), json!(0)), "{m}");
    assert_eq!(counts("pt"), (json!(1), json!(0), json!(1)));
    assert_eq!(counts("zh"), (json!(0), json!(0), json!(0)));
    let estimate = |lang: &str| by_lang[lang]["success_estimate"].as_f64().unwrap();
    assert!(estimate("en") > estimate("zh") && estimate("zh") > estimate("pt"));
    for lang in ["en", "pt", "zh"] {
        assert_eq!(by_lang[lang]["breaker"]["state"], "closed", "{m}");
        assert_eq!(by_lang[lang]["probability"], 1.0, "the only model");
    }
    assert_eq!(by_lang["pt"]["breaker"]["consecutive_rejections"], 1);
    // Today's fields stay, as totals.
    assert_eq!(m["stats"]["total"], 2);
    assert_eq!(m["stats"]["outcomes"], json!({"ok": 1, "rejected": 1}));
    assert_eq!(m["breaker"]["consecutive_rejections"], 1);
    assert_eq!(
        (m["in_flight"].clone(), m["max_concurrency"].clone()),
        (json!(0), json!(2))
    );
}
