//! The offline commentator in lesson 2: over points across the lesson's
//! sliders and histories of each kind, in every language, its comment
//! passes the reply check a model's answer must pass (with lesson 2's
//! prompt), names lesson 2's goal and floor, never lesson 1's, and gives
//! the facts' step short of the goal.

use proptest::prelude::*;

use super::{comment, hint};
use crate::{input::CoachInput, judge::check, prompt::build};
use lesson::lessons::TWO;
use vocabulary::Lang;

/// Whether `text` writes 450 or 447.29 as a number of its own.
fn names_lesson_ones_numbers(text: &str) -> bool {
    text.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
        .map(|n| n.trim_end_matches(['.', ',']))
        .any(|n| ["450", "447.29", "447,29"].contains(&n))
}

fn point() -> impl Strategy<Value = [f64; 3]> {
    let range = |i: usize| TWO.params[i].min..=TWO.params[i].max;
    (range(0), range(1), range(2)).prop_map(|(a, b, c)| [a, b, c])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn anywhere_on_lesson_twos_sliders_the_offline_words_pass(
        p in point(),
        earlier in proptest::collection::vec(1_406.1f64..200_000.0, 0..4),
        lang in proptest::sample::select(Lang::ALL.to_vec()),
    ) {
        let error = TWO.error(&p);
        let input = CoachInput::new_two(error, earlier, Some(p), None, lang).expect("valid");
        let text = comment(&input);
        let prompt = build(&input);
        prop_assert!(check(&text, &prompt).is_ok(), "{lang:?} {p:?}: {text} ({:?})", check(&text, &prompt));
        prop_assert!(!names_lesson_ones_numbers(&text), "{text}");
        prop_assert_eq!(hint(&input).is_some(), !input.reaches_goal() && prompt.facts_two.as_ref().is_some_and(|f| f.best_move.is_some()));
    }
}

#[test]
fn at_the_goal_lesson_two_names_its_own_numbers() {
    let best = TWO.optimum().expect("optimum");
    let p = [best[0], best[1], best[2]];
    for (lang, goal) in [
        (Lang::En, "1,420"),
        (Lang::Pt, "1.420"),
        (Lang::Zh, "1,420"),
    ] {
        let mut said = String::new();
        for earlier in [vec![], vec![1500.0], vec![1406.0], vec![1406.06]] {
            let input =
                CoachInput::new_two(TWO.error(&p), earlier, Some(p), None, lang).expect("valid");
            let text = comment(&input);
            assert!(check(&text, &build(&input)).is_ok(), "{text}");
            said.push_str(&text);
        }
        assert!(!names_lesson_ones_numbers(&said), "{said}");
        assert!(
            said.contains(goal) || said.contains("1,406.05") || said.contains("1.406,05"),
            "{said}"
        );
    }
}
