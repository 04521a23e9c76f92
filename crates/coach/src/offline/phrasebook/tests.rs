//! The phrasebook's shape: enough phrases in every situation and language,
//! each one fit for its situation (`judge`), and only the numbers that
//! situation has.

use super::{judge::misfit, phrasebook, Distance, Progress, Situation};
use crate::judge::directions::advised;
use vocabulary::Lang;

/// Placeholders a phrase may hold.
const KNOWN: [&str; 7] = [
    "error", "best", "to_go", "attempt", "attempts", "min", "goal",
];

fn placeholders(phrase: &str) -> Vec<&str> {
    phrase
        .split('{')
        .skip(1)
        .filter_map(|rest| rest.split_once('}').map(|(name, _)| name))
        .collect()
}

#[test]
fn every_situation_has_at_least_four_phrases_and_the_common_ones_more() {
    for lang in Lang::ALL {
        let book = phrasebook(lang);
        for situation in Situation::all() {
            let n = book.phrases(situation).len();
            // Away from the goal and moving: what most attempts hear.
            let common = situation.distance != Distance::Goal
                && matches!(situation.progress, Progress::NewBest | Progress::Worse)
                || situation.progress == Progress::First;
            let least = if common { 5 } else { 4 };
            assert!(n >= least, "{lang:?} {situation:?}: {n} phrases");
        }
    }
}

#[test]
fn no_phrase_is_said_in_two_places() {
    for lang in Lang::ALL {
        let book = phrasebook(lang);
        let mut seen = std::collections::HashSet::new();
        for situation in Situation::all() {
            for phrase in book.phrases(situation) {
                assert!(seen.insert(*phrase), "{lang:?}: twice: {phrase}");
            }
        }
    }
}

#[test]
fn every_phrase_fits_its_situation_and_advises_nothing() {
    for lang in Lang::ALL {
        let book = phrasebook(lang);
        for situation in Situation::all() {
            for phrase in book.phrases(situation) {
                if let Some(why) = misfit(phrase, situation, lang) {
                    panic!("{lang:?}: {why}: {phrase}");
                }
                assert_eq!(advised(phrase, lang), [], "{lang:?}: {phrase}");
            }
        }
    }
}

#[test]
fn every_phrase_holds_only_the_numbers_of_its_situation() {
    for lang in Lang::ALL {
        let book = phrasebook(lang);
        for situation in Situation::all() {
            let goal = situation.distance == Distance::Goal;
            for phrase in book.phrases(situation) {
                for name in placeholders(phrase) {
                    assert!(KNOWN.contains(&name), "{lang:?}: {{{name}}} in {phrase}");
                    // The floor only where the goal is reached (the prompt
                    // names it there); nothing "to go" once there; no
                    // "best" that is the error itself.
                    assert!(name != "min" || goal, "{lang:?} {situation:?}: {phrase}");
                    assert!(name != "to_go" || !goal, "{lang:?} {situation:?}: {phrase}");
                    let is_best = matches!(situation.progress, Progress::First | Progress::NewBest);
                    assert!(
                        name != "best" || !is_best,
                        "{lang:?} {situation:?}: {phrase}"
                    );
                }
                // No number of its own but the goal's 450, and that only at the goal.
                let bare: String = phrase
                    .split('{')
                    .map(|part| part.split_once('}').map_or(part, |(_, rest)| rest))
                    .collect();
                let mut numbers = bare
                    .split(|c: char| !c.is_ascii_digit())
                    .filter(|n| !n.is_empty());
                assert!(
                    numbers.all(|n| goal && n == "450"),
                    "{lang:?} {situation:?}: {phrase}"
                );
            }
        }
    }
}

#[test]
fn close_means_within_150_of_the_goal() {
    assert_eq!(Distance::of(450.0), Distance::Goal);
    assert_eq!(Distance::of(450.01), Distance::Close);
    assert_eq!(Distance::of(600.0), Distance::Close);
    assert_eq!(Distance::of(600.01), Distance::Middle);
    // Jay's start, and the walk's "Close!" and "almost hugging".
    for error in [799.09, 1_457.45, 1_592.25, 671.91, 2_000.0] {
        assert_eq!(Distance::of(error), Distance::Middle, "{error}");
    }
    assert_eq!(Distance::of(2_000.01), Distance::Far);
}

#[test]
fn the_judge_catches_what_the_walk_heard() {
    use super::judge::holds;
    let middle = |progress| Situation {
        progress,
        distance: Distance::Middle,
    };
    let walk = [
        (
            Lang::En,
            "Close! Hold the weight steady and nudge the bias.",
            middle(Progress::Better),
        ),
        (
            Lang::En,
            "Attempt 5 at 1,592.25. The line is almost hugging the houses.",
            middle(Progress::NewBest),
        ),
        (
            Lang::En,
            "Only 1,437.35 to go. Fine-tune, don't fling.",
            middle(Progress::Worse),
        ),
        (
            Lang::Pt,
            "Perto! Segure o peso e mexa de leve no viés.",
            middle(Progress::NewBest),
        ),
        (
            Lang::Zh,
            "第 5 次，误差 671.91，线快贴住房子了。",
            middle(Progress::NewBest),
        ),
        (
            Lang::En,
            "Nice! Watch the red gaps.",
            middle(Progress::Worse),
        ),
        (
            Lang::Zh,
            "低于 450，这是目前最好的成绩。",
            middle(Progress::NewBest),
        ),
    ];
    for (lang, said, situation) in walk {
        assert!(misfit(said, situation, lang).is_some(), "{said}");
    }
    // 450 is a number of its own, not a part of the error.
    assert_eq!(holds("450,964.39 to start with", &["450"]), None);
    assert_eq!(holds("First attempt: 450.29.", &["450"]), None);
    assert_eq!(holds("误差 1,450.20", &["450"]), None);
    assert_eq!(holds("Below 450 with 449.30!", &["450"]), Some("450"));
    assert_eq!(holds("低于 450。", &["450"]), Some("450"));
}
