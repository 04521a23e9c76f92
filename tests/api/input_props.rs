//! Property tests of untrusted text: the `GET /error` query parser (no input
//! panics, and every rejection names one of the documented fields), the body
//! of `POST /api/comment` (never a 5xx; a refusal is JSON naming a field) and
//! the check of a model's answer (no answer panics, whatever its script).

use coach::{
    input::CoachInput,
    judge::{check, max_chars},
    prompt::build,
};
use lesson::neuron::{Params, BIAS_SLIDER, WEIGHT_SLIDER};
use proptest::{prelude::*, test_runner::TestRunner};
use serde_json::Value;
use vocabulary::Lang;

use crate::helpers::spawn_app;

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("error".to_string()),
        Just("tentativas".to_string()),
        Just("attempts".to_string()),
        Just("model".to_string()),
        Just("lang".to_string()),
        Just("format".to_string()),
        Just("weight".to_string()),
        Just("bias".to_string()),
        Just("lesson".to_string()),
        Just("w1".to_string()),
        Just("w2".to_string()),
        Just("b".to_string()),
        "[a-z]{1,8}",
        ".{0,12}",
    ]
}

fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9]{1,6}(\\.[0-9]{1,3})?",
        "0\\.[0-9]{1,4}",
        "([0-9]{1,5},){0,5}[0-9]{1,5}",
        "-?[0-9eE.+x-]{0,10}",
        Just("NaN".to_string()),
        Just("inf".to_string()),
        ".{0,40}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn never_panics_and_rejections_name_a_given_field(
        pairs in proptest::collection::vec((key(), value()), 0..6),
        accept in proptest::option::of(".{0,30}"),
    ) {
        match CoachInput::from_query(&pairs, accept.as_deref(), Lang::En) {
            Ok(input) => {
                prop_assert!(input.error.is_finite() && input.error >= 0.0);
                prop_assert!(input.attempts.iter().all(|a| a.is_finite() && *a >= 0.0));
                prop_assert!(input.attempts.len() <= 100);
            }
            Err(e) => {
                // Only documented fields are refused: anything else is ignored.
                // (Lesson 2's point, and the lesson, are documented too: a
                // field of the other lesson is refused by name.)
                let known = [
                    "error", "tentativas", "model", "lang", "format", "weight", "bias", "lesson",
                    "w1", "w2", "b",
                ];
                prop_assert!(known.contains(&e.field.as_ref()), "field {:?}", e.field);
                prop_assert!(!e.message.is_empty());
            }
        }
    }

    #[test]
    fn plain_decimals_are_always_accepted(error in 0.0f64..1_000_000.0, history in proptest::collection::vec(0.0f64..1_000_000.0, 0..100)) {
        let list = history.iter().map(|h| format!("{h:.2}")).collect::<Vec<_>>().join(",");
        let pairs = vec![("error".to_string(), format!("{error:.2}")), ("tentativas".to_string(), list)];
        let input = CoachInput::from_query(&pairs, None, Lang::En).unwrap();
        prop_assert_eq!(input.attempts.len(), history.len());
    }
}

/// A value as a caller might write one for a field of `/api/comment`.
fn json_value() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9]{1,6}(\\.[0-9]{1,3})?",
        "0\\.[0-9]{1,4}",
        "-?[0-9]{1,3}(\\.[0-9]{1,2})?([eE][+-]?[0-9]{1,3})?",
        "\\[(-?[0-9]{1,5}(\\.[0-9])?, ?){0,4}[0-9]{1,5}\\]",
        "\"[a-zA-Z_-]{0,8}\"",
        prop::sample::select(vec![
            "1e400",
            "null",
            "true",
            "{}",
            "[]",
            "[null]",
            "\"pt-BR\"",
            "\"PT\"",
            "\"zh_CN\"",
            "\"fr\"",
            "\"900\"",
        ])
        .prop_map(str::to_string),
    ]
}

fn json_key() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec!["error", "attempts", "weight", "bias", "lang", "model"])
            .prop_map(str::to_string),
        "[a-z]{1,6}",
    ]
}

/// A body for `/api/comment`: an object of such fields (often led by a point
/// whose error agrees with its weight and bias, so some bodies are good), or
/// any text.
fn comment_body() -> impl Strategy<Value = String> {
    let fields = proptest::collection::vec((json_key(), json_value()), 0..6);
    let point = proptest::option::of((
        WEIGHT_SLIDER.min..=WEIGHT_SLIDER.max,
        BIAS_SLIDER.min..=BIAS_SLIDER.max,
    ));
    prop_oneof![
        4 => (point, fields).prop_map(|(point, fields)| {
            let mut parts = Vec::new();
            if let Some((weight, bias)) = point {
                let error = Params::new(weight, bias).error();
                parts.push(format!(r#""error": {error}, "weight": {weight}, "bias": {bias}"#));
            }
            parts.extend(fields.iter().map(|(key, value)| format!(r#""{key}": {value}"#)));
            format!("{{{}}}", parts.join(", "))
        }),
        1 => ".{0,40}",
    ]
}

/// Any body posted to `/api/comment` gets a comment or a 4xx that is JSON
/// naming a field; never a 5xx. Over HTTP, against the real application.
#[test]
fn any_comment_body_gets_a_comment_or_a_4xx_naming_a_field() {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let base = runtime.block_on(spawn_app(""));
    let client = reqwest::Client::new();
    let mut runner = TestRunner::new(ProptestConfig {
        cases: 300,
        failure_persistence: None,
        ..ProptestConfig::default()
    });
    let result = runner.run(&comment_body(), |body| {
        let (status, text) = runtime.block_on(async {
            let response = client
                .post(format!("{base}/api/comment"))
                .header("content-type", "application/json")
                .body(body.clone())
                .send()
                .await
                .expect("request");
            let status = response.status().as_u16();
            (status, response.text().await.expect("body"))
        });
        prop_assert!(status < 500, "{status} for {body}: {text}");
        let answer: Value = serde_json::from_str(&text)
            .map_err(|e| TestCaseError::fail(format!("{body}: not JSON ({e}): {text}")))?;
        if status >= 400 {
            let field = answer["field"].as_str().unwrap_or_default();
            prop_assert!(!field.is_empty(), "{status} for {body}: {text}");
            prop_assert!(
                answer["error"].as_str().is_some_and(|e| !e.is_empty()),
                "{text}"
            );
        } else {
            prop_assert_eq!(status, 200);
            prop_assert!(answer["comment"].is_string(), "{body}: {text}");
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// Pieces of a model's answer: role tags in several cases, Portuguese and
/// Chinese text, characters whose lower case changes byte length (`İ`, the
/// Kelvin sign `K`, `ẞ`), quotes, markers and template tokens.
const PIECES: &[&str] = &[
    "assistant:",
    "ASSISTANT:",
    "Assistant:",
    "coach:",
    "Coach:",
    "answer:",
    "response:",
    "Treinador:",
    "RESPOSTA:",
    "教练：",
    "回答：",
    "İ",
    "İİ:",
    "\u{212A}",
    "\u{212A}oach:",
    "ẞ",
    "Ação",
    "ção",
    "Não é fácil!",
    "você",
    "Ünïcödé",
    "误差",
    "快到了！",
    "加油",
    "「",
    "」",
    "“",
    "”",
    "«",
    "»",
    "'",
    "\"",
    "`",
    " ",
    "\n",
    "|fim|",
    "<think>",
    "</think>",
    "<|assistant|>",
    "<|end|>",
    "<s>",
    "[INST]",
];

/// One of [`PIECES`], or any short text.
fn answer_piece() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(PIECES).prop_map(str::to_string),
        "\\PC{0,6}",
        ".{0,6}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn any_answer_is_checked_without_panicking(
        pieces in proptest::collection::vec(answer_piece(), 0..12),
        lang in prop::sample::select(vec![Lang::En, Lang::Pt, Lang::Zh]),
    ) {
        let raw = pieces.concat();
        let prompt = build(&CoachInput { error: 812.0, attempts: vec![900.0], params: None, lesson: lesson::lessons::Which::One, two: None, model: None, lang });
        if let Ok(comment) = check(&raw, &prompt) {
            let chars = comment.chars().count();
            prop_assert!(chars > 0 && chars <= max_chars(lang), "{comment:?}");
            prop_assert_eq!(comment.trim(), comment.as_str());
            prop_assert!(!comment.contains("|fim|"), "{comment:?}");
        }
    }
}
