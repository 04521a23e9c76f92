//! Property tests of untrusted text: the `GET /error` query parser (no input
//! panics, and every rejection names one of the documented fields) and the check
//! of a model's answer (no answer panics, whatever its script).

use jay_trainer::coach::{
    text::{
        input::CoachInput,
        prompt::build,
        reply::{check, max_chars},
    },
    Lang,
};
use proptest::prelude::*;

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("error".to_string()),
        Just("tentativas".to_string()),
        Just("attempts".to_string()),
        Just("model".to_string()),
        Just("lang".to_string()),
        Just("format".to_string()),
        "[a-z]{1,8}",
        ".{0,12}",
    ]
}

fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9]{1,6}(\\.[0-9]{1,3})?",
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
                let known = ["error", "tentativas", "model", "lang", "format"];
                prop_assert!(known.contains(&e.field.as_str()), "field {:?}", e.field);
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
        let prompt = build(&CoachInput { error: 812.0, attempts: vec![900.0], params: None, model: None, lang });
        if let Ok(comment) = check(&raw, &prompt) {
            let chars = comment.chars().count();
            prop_assert!(chars > 0 && chars <= max_chars(lang), "{comment:?}");
            prop_assert_eq!(comment.trim(), comment.as_str());
            prop_assert!(!comment.contains("|fim|"), "{comment:?}");
        }
    }
}
