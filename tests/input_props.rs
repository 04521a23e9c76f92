//! Property tests of the `GET /error` query parser: no input panics, and every
//! rejection names one of the request's fields.
#![cfg(feature = "ssr")]

use jay_trainer::coach::input::CoachInput;
use proptest::prelude::*;

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("error".to_string()),
        Just("tentativas".to_string()),
        Just("attempts".to_string()),
        Just("model".to_string()),
        Just("lang".to_string()),
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
        match CoachInput::from_query(&pairs, accept.as_deref()) {
            Ok(input) => {
                prop_assert!(input.error.is_finite() && input.error >= 0.0);
                prop_assert!(input.attempts.iter().all(|a| a.is_finite() && *a >= 0.0));
                prop_assert!(input.attempts.len() <= 100);
            }
            Err(e) => {
                let known = ["error", "tentativas", "model", "lang"];
                let given = pairs.iter().any(|(k, _)| k.chars().take(40).collect::<String>() == e.field);
                prop_assert!(known.contains(&e.field.as_str()) || given, "field {:?}", e.field);
                prop_assert!(!e.message.is_empty());
            }
        }
    }

    #[test]
    fn plain_decimals_are_always_accepted(error in 0.0f64..1_000_000.0, history in proptest::collection::vec(0.0f64..1_000_000.0, 0..100)) {
        let list = history.iter().map(|h| format!("{h:.2}")).collect::<Vec<_>>().join(",");
        let pairs = vec![("error".to_string(), format!("{error:.2}")), ("tentativas".to_string(), list)];
        let input = CoachInput::from_query(&pairs, None).unwrap();
        prop_assert_eq!(input.attempts.len(), history.len());
    }
}
