//! The visitor walk of 1 December 2026 (finding 1), replayed: what the
//! offline commentator said there, and may no longer say.

use super::comment;
use crate::{
    input::CoachInput,
    offline::phrasebook::{
        judge::{holds, names_a_slider},
        phrasebook,
    },
    prompt::facts,
};
use lesson::{
    advice::Facts,
    neuron::{Params, START},
};
use vocabulary::Lang;

fn said(error: f64, attempts: Vec<f64>, params: Option<Params>, lang: Lang) -> String {
    comment(&CoachInput {
        error,
        attempts,
        params,
        lesson: lesson::lessons::Which::One,
        two: None,
        model: None,
        lang,
    })
}

/// Earlier errors that end in `last`, for many different visitors.
fn histories(last: f64) -> impl Iterator<Item = Vec<f64>> {
    (0..60).map(move |i| {
        let mut history: Vec<f64> = (0..i % 9)
            .map(|j| 3_000.0 + f64::from(i * 31 + j))
            .collect();
        history.push(last);
        history
    })
}

#[test]
fn errors_the_walk_heard_called_close_are_not_called_close() {
    // "Attempt 5 at 1,592.25. The line is almost hugging the houses.",
    // "Close!" at 1,457.45, "Attempt 1 at 799.85. …almost hugging…",
    // "第 5 次，误差 671.91，线快贴住房子了。": all 150 or more above 450.
    for lang in Lang::ALL {
        for error in [1_592.25, 1_457.45, 799.85, 671.91] {
            for before in [error * 1.2, error / 1.2] {
                for history in histories(before).chain([vec![]]) {
                    let text = said(error, history, None, lang);
                    if let Some(word) = holds(&text, phrasebook(lang).keys.closeness) {
                        panic!("{lang:?} at {error}: {word:?} in {text:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn a_worse_attempt_is_never_praised() {
    // "Only 1,437.35 to go. Fine-tune, don't fling." right after 929.91 → 1,887.35.
    for lang in Lang::ALL {
        for (before, error) in [(929.91, 1_887.35), (700.0, 799.09), (5_000.0, 9_000.0)] {
            for history in histories(before) {
                let text = said(error, history, None, lang);
                let word = holds(&text, phrasebook(lang).keys.praise)
                    .or_else(|| holds(&text, phrasebook(lang).keys.closeness));
                assert!(
                    word.is_none(),
                    "{lang:?} {before} → {error}: {word:?} in {text:?}"
                );
            }
        }
    }
}

#[test]
fn the_opener_names_no_slider_for_the_hint_to_contradict() {
    // "Close! Hold the weight steady and nudge the bias. Try to raise the
    // weight by about 0.0016.": the opener's words are its own, the hint's
    // come from the facts; only the hint may name a slider.
    let near = Params::new(0.0585, 246.0);
    for lang in Lang::ALL {
        for p in [START, near, Params::new(0.3, 0.0), Params::new(0.05, 300.0)] {
            let hint = facts::hint(lang, &Facts::of(p)).unwrap_or_default();
            for history in histories(p.error() * 1.3).chain(histories(p.error() * 0.8)) {
                let text = said(p.error(), history, Some(p), lang);
                let opener = text.strip_suffix(hint.as_str()).unwrap_or(&text);
                let named = names_a_slider(opener, lang);
                assert!(named.is_none(), "{lang:?} {p:?}: {text:?}");
            }
        }
    }
}

#[test]
fn the_openers_are_drawn_not_cycled() {
    // The pt walk: six openers in a fixed order, obvious after six taps. A
    // visitor stuck at one error: the opener k attempts later is the same one
    // for no fixed k.
    for lang in Lang::ALL {
        for period in 2..=12 {
            let (mut same, mut pairs) = (0, 0);
            for visitor in 0..20 {
                let first = 5_000.0 + f64::from(visitor) * 7.0;
                let mut history = vec![first];
                let mut heard = Vec::new();
                for _ in 0..30 {
                    heard.push(said(5_000.0, history.clone(), None, lang));
                    history.push(5_000.0);
                }
                for k in 0..heard.len() - period {
                    pairs += 1;
                    same += usize::from(heard[k] == heard[k + period]);
                }
            }
            assert!(
                same * 2 < pairs,
                "{lang:?}: every {period} attempts the same opener ({same} of {pairs})"
            );
        }
    }
}

/// Ten attempts of one visitor, from Jay's start to the goal, as the page
/// would send them: `cargo test --features ssr --lib sample_walk -- --ignored --nocapture`.
#[test]
#[ignore = "prints a sample walk for reading"]
fn sample_walk() {
    let walk = [
        (0.1, 150.0),
        (0.1, 163.0),
        (0.08, 163.0),
        (0.08, 200.0),
        (0.12, 200.0),
        (0.06, 240.0),
        (0.06, 240.4),
        (0.07, 240.0),
        (0.06, 245.0),
        (0.0585, 247.0),
    ];
    for lang in Lang::ALL {
        let mut history = Vec::new();
        for (i, (w, b)) in walk.into_iter().enumerate() {
            let p = Params::new(w, b);
            let text = said(p.error(), history.clone(), Some(p), lang);
            println!(
                "{lang:?} {:>2}. w {w} b {b} error {:.2}: {text}",
                i + 1,
                p.error()
            );
            history.push(p.error());
        }
    }
}
