//! What a real small model got wrong (SmolLM2-135M), as fakes
//! behind the real HTTP stack: a model that copies the prompt's example,
//! one that answers English to every language, one that misquotes the
//! numbers, one that claims the goal, one that rambles past the limit, and
//! one each that praises a worse attempt, repeats itself, or gives another
//! number as the error.
//! Each is rejected with its reason in `tried` (or, rambling, cut back to its
//! first sentences), the visitor gets the offline comment or another model's,
//! and a good model is served in every language.

use serde_json::Value;
use wiremock::{matchers::method, Mock, MockServer, Request};

use crate::helpers::{chat_model, chat_reply, spawn_app, upstream, TestApp};

/// From the guide's start: error 799.09, raise the bias by about 13.
const START: &str = "error=799.09&weight=0.1&bias=150";

async fn ask(base: &TestApp, query: &str) -> Value {
    let (status, body) = base.get_error(query).await;
    assert_eq!(status, 200, "{body}");
    body
}

/// A model that answers with the last example answer of the prompt it was
/// sent (the chat API's last assistant turn, without the end marker).
async fn copycat() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(|request: &Request| {
            let body: Value = serde_json::from_slice(&request.body).unwrap_or_default();
            let example = body["messages"]
                .as_array()
                .and_then(|m| m.iter().rev().find(|m| m["role"] == "assistant"))
                .and_then(|m| m["content"].as_str())
                .unwrap_or_default()
                .replace("|fim|", "");
            chat_reply(example.trim())
        })
        .mount(&server)
        .await;
    server
}

#[tokio::test]
async fn a_model_that_copies_the_prompts_example_is_rejected() {
    let server = copycat().await;
    let base = spawn_app(&chat_model("copycat", &server.uri())).await;
    for lang in ["en", "pt", "zh"] {
        for error in ["13359.09", "799.09", "447.29"] {
            let body = ask(&base, &format!("error={error}&lang={lang}&model=copycat")).await;
            assert_eq!(
                body["tried"][0]["outcome"], "rejected: copies an example",
                "{lang} {error}: {body}"
            );
            assert_eq!(body["fallback"], true, "{body}");
        }
    }
    // The example it copied was in the prompt: the fake did copy.
    assert!(!server
        .received_requests()
        .await
        .unwrap_or_default()
        .is_empty());
}

#[tokio::test]
async fn english_to_a_portuguese_or_chinese_visitor_is_rejected_and_another_answers() {
    let english = "Nice jump! Now take small steps and watch the red gaps.";
    let en_only = upstream(chat_reply(&format!("{english} |fim|"))).await;
    let polyglot = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(|request: &Request| {
            let body = String::from_utf8_lossy(&request.body).to_string();
            chat_reply(if body.contains("português") {
                "Boa! Passos pequenos agora. |fim|"
            } else if body.contains("简体中文") {
                "加油！小步慢慢来。 |fim|"
            } else {
                "Good one! Small steps now. |fim|"
            })
        })
        .mount(&polyglot)
        .await;
    let registry = format!(
        "{}{}",
        chat_model("english", &en_only.uri()),
        chat_model("polyglot", &polyglot.uri())
    );
    let base = spawn_app(&registry).await;
    for lang in ["pt", "zh"] {
        let forced = ask(&base, &format!("error=812&lang={lang}&model=english")).await;
        assert_eq!(
            forced["tried"][0]["outcome"], "rejected: wrong language",
            "{lang}: {forced}"
        );
        assert_eq!(forced["fallback"], true, "{forced}");
        for _ in 0..6 {
            let routed = ask(&base, &format!("error=812&lang={lang}")).await;
            assert_ne!(routed["comment"], english, "{routed}");
            assert!(
                routed["model"] == "polyglot" || routed["fallback"] == true,
                "{routed}"
            );
        }
    }
    // In English, the same answer is served.
    let en = ask(&base, "error=812&lang=en&model=english").await;
    assert_eq!(
        (en["comment"].as_str(), en["fallback"].as_bool()),
        (Some(english), Some(false))
    );
}

#[tokio::test]
async fn a_model_that_misquotes_the_numbers_is_rejected() {
    for (lang, misquote) in [
        ("en", "The error is 79.9. Raise the bias!"),
        ("pt", "O erro é 79,9. Suba o viés!"),
        ("zh", "误差是 79.9，把偏置调高！"),
    ] {
        let server = upstream(chat_reply(&format!("{misquote} |fim|"))).await;
        let base = spawn_app(&chat_model("sloppy", &server.uri())).await;
        let body = ask(&base, &format!("{START}&lang={lang}&model=sloppy")).await;
        assert_eq!(
            body["tried"][0]["outcome"], "rejected: misquotes a number",
            "{lang}: {body}"
        );
        assert_eq!(body["fallback"], true, "{body}");
        // Routed, the rejection counts against it.
        let routed = ask(&base, &format!("{START}&lang={lang}")).await;
        assert_eq!(routed["fallback"], true, "{routed}");
        let stats = base.stats("sloppy").await;
        assert_eq!(stats["stats"]["outcomes"]["rejected"], 1, "{stats}");
    }
}

#[tokio::test]
async fn a_model_that_claims_the_goal_short_of_it_is_rejected() {
    for (lang, claim) in [
        ("en", "Below 450! You did it!"),
        ("pt", "Abaixo de 450! Meta atingida!"),
        ("zh", "低于 450，这是目前最好的成绩。"),
    ] {
        let server = upstream(chat_reply(&format!("{claim} |fim|"))).await;
        let base = spawn_app(&chat_model("boaster", &server.uri())).await;
        for error in ["13359.09", "799.09"] {
            let body = ask(&base, &format!("error={error}&lang={lang}&model=boaster")).await;
            assert_eq!(
                body["tried"][0]["outcome"], "rejected: claims the goal",
                "{lang} {error}: {body}"
            );
            assert_eq!(body["fallback"], true, "{body}");
        }
        // At the goal it is the truth.
        let body = ask(&base, &format!("error=449.5&lang={lang}&model=boaster")).await;
        assert_eq!(
            (body["comment"].as_str(), body["fallback"].as_bool()),
            (Some(claim), Some(false)),
            "{body}"
        );
    }
}

#[tokio::test]
async fn a_good_model_is_served_in_every_language() {
    for (lang, good) in [
        ("en", "Getting warmer! Raise the bias by about 13."),
        ("pt", "Esquentando! Suba o viés uns 13."),
        ("zh", "越来越近了！把偏置调高约 13。"),
    ] {
        let server = upstream(chat_reply(&format!("{good} |fim|"))).await;
        let base = spawn_app(&chat_model("good", &server.uri())).await;
        let body = ask(&base, &format!("{START}&lang={lang}")).await;
        assert_eq!(
            (body["comment"].as_str(), body["model"].as_str()),
            (Some(good), Some("good")),
            "{lang}: {body}"
        );
        assert_eq!(body["tried"][0]["outcome"], "ok", "{body}");
    }
}

#[tokio::test]
async fn a_rambling_answer_is_served_as_its_first_sentences() {
    let first = "The error is 799.09. The next move is to raise the bias by 13.";
    let long = format!(
        "{first} After that, keep an eye on the weight as well, since the line still \
         misses the largest house by a wide margin. Small steps, patience and a steady \
         hand will bring the error down towards the goal in no time at all, trust me."
    );
    assert!(long.chars().count() > 250);
    let server = upstream(chat_reply(&format!("{long} |fim|"))).await;
    let base = spawn_app(&chat_model("rambler", &server.uri())).await;
    let body = ask(&base, &format!("{START}&lang=en")).await;
    assert_eq!(
        (body["comment"].as_str(), body["fallback"].as_bool()),
        (Some(first), Some(false)),
        "{body}"
    );
    // With no sentence end within the limit, it is still too long.
    let server = upstream(chat_reply(&"blah ".repeat(50))).await;
    let base = spawn_app(&chat_model("rambler", &server.uri())).await;
    let body = ask(&base, &format!("{START}&lang=en")).await;
    assert_eq!(
        body["tried"][0]["outcome"], "rejected: too long (249 > 160 characters)",
        "{body}"
    );
}

/// Three more of the real model's served replies (docs/benchmarks/model.md), each false or empty in the right language: praise
/// for a worse attempt, word salad, and another number given as the error.
#[tokio::test]
async fn false_praise_word_salad_and_a_misstated_error_are_rejected() {
    for (lang, query, reply, why) in [
        (
            "zh",
            "error=1457.42&tentativas=799.09,635.29",
            "上一次差不多。这是目前最好的成绩",
            "rejected: claims progress",
        ),
        (
            "pt",
            "error=799.09",
            "O que é o que não? Espero estamos a ser o que não.",
            "rejected: repeats itself",
        ),
        (
            "en",
            "error=13359.09&weight=0.1&bias=50",
            "The error is 635 and the best so far was just about to be surpassed.",
            "rejected: misquotes a number",
        ),
    ] {
        let server = upstream(chat_reply(&format!("{reply} |fim|"))).await;
        let base = spawn_app(&chat_model("small", &server.uri())).await;
        let body = ask(&base, &format!("{query}&lang={lang}&model=small")).await;
        assert_eq!(body["tried"][0]["outcome"], why, "{lang}: {body}");
        assert_eq!(body["fallback"], true, "{body}");
    }
    // The same praise is true of a new best, and served.
    let praise = "这是目前最好的成绩！";
    let server = upstream(chat_reply(&format!("{praise} |fim|"))).await;
    let base = spawn_app(&chat_model("small", &server.uri())).await;
    let body = ask(
        &base,
        "error=600&tentativas=799.09,635.29&lang=zh&model=small",
    )
    .await;
    assert_eq!(
        (body["comment"].as_str(), body["fallback"].as_bool()),
        (Some(praise), Some(false)),
        "{body}"
    );
}
