//! The built-in offline commentator. It answers when no remote model can be
//! used (no `HF_TOKEN`) and as the last resort when every model failed, so the
//! bubble is never empty.
//!
//! A comment is an opener and a hint. The opener is a phrase of the visitor's
//! situation ([`Situation`]: far, middle, close or at the goal; first
//! attempt, new best, better, worse or about the same as the last one) from
//! the [`phrasebook`], with the visitor's numbers
//! filled in; it names no slider. The hint, when the weight and bias are
//! known and the goal is not reached, is the one concrete step the facts
//! give ([`lesson::advice`]): "Try to raise the bias by about 13.". Both come
//! from the same facts, and the reply checks that judge a model's answer pass
//! them too (tests).
//!
//! Variety without memory on the server: the phrase is drawn from its
//! situation's list by a hash of the visitor's whole history (the same input
//! gives the same phrase; different visitors hear different ones). The draw is
//! replayed from the first attempt of the history (at most the 100 the request
//! keeps), so the phrases the visitor heard are known: the one just heard is
//! never drawn again, nor the one or two before it in the same situation.
//! Pure: no I/O; its words are the [`phrasebook`]'s and [`crate::words`]'s.

use crate::{
    input::CoachInput,
    prompt::{facts, trend::Trend},
    words::words_for,
};
pub mod phrasebook;

use lesson::{advice::Facts, lessons::Which};
use phrasebook::{phrasebook, Distance, Phrasebook, Situation};
use vocabulary::{fill, format::grouped_in};

/// The comment for this input: the opener, then the hint if there is one.
pub fn comment(input: &CoachInput) -> String {
    let opener = opener(input);
    match hint(input) {
        Some(hint) => format!("{opener}{}{hint}", words_for(input.lang).separator),
        None => opener,
    }
}

/// The opener alone: a phrase of the visitor's situation, numbers filled in.
pub fn opener(input: &CoachInput) -> String {
    let book = phrasebook(input.lang);
    let situation = Situation::in_lesson(input.lesson, input.error, &input.attempts);
    let phrases = book.phrases(situation);
    let at = pick(book, input.lesson, input.error, &input.attempts);
    phrases
        .get(at)
        .map_or_else(String::new, |p| render(p, input))
}

/// With the weight and bias known, short of the goal: one concrete step, from
/// the facts (`None` when no step helps).
pub fn hint(input: &CoachInput) -> Option<String> {
    if Distance::in_lesson(input.lesson, input.error) == Distance::Goal {
        return None;
    }
    match input.lesson {
        Which::One => facts::hint(input.lang, &Facts::of(input.params?)),
        Which::Two => {
            crate::prompt::facts_two::hint(input.lang, &crate::prompt::facts_two::of(input.two?))
        }
    }
}

/// `phrase` with the visitor's numbers, in the page's separators.
pub(crate) fn render(phrase: &str, input: &CoachInput) -> String {
    let book = phrasebook(input.lang);
    let trend = Trend::of(input.error, &input.attempts);
    let num = |x: f64| grouped_in(x, 2, input.lang);
    let count = if trend.attempts == 1 {
        book.attempts_one
    } else {
        book.attempts_many
    };
    let attempts = fill(count, &[("n", &trend.attempts.to_string())]);
    let goal = input.lesson.describe().goal;
    fill(
        phrase,
        &[
            ("error", &num(input.error)),
            ("best", &num(trend.best)),
            ("to_go", &num((input.error - goal).max(0.0))),
            ("attempt", &trend.attempts.to_string()),
            ("attempts", &attempts),
            ("goal", &grouped_in(goal, 0, input.lang)),
            ("min", &num(input.lesson.floor())),
        ],
    )
}

/// Which phrase of its situation the current attempt gets: drawn by a hash of
/// every error so far, among the phrases its situation has not used lately.
/// Replayed attempt by attempt from the first, so the phrases the visitor
/// heard are known: the last one or two of the same situation (fewer than
/// half of its phrases) are not drawn again, and never the one just heard.
fn pick(book: &Phrasebook, lesson: Which, error: f64, history: &[f64]) -> usize {
    let mut hash = 0x6a09_e667_f3bc_c908_u64;
    let mut heard: Vec<(Situation, usize)> = Vec::with_capacity(history.len() + 1);
    for (i, &e) in history.iter().chain([&error]).enumerate() {
        let situation = Situation::in_lesson(lesson, e, history.get(..i).unwrap_or_default());
        hash = mix(hash ^ e.to_bits());
        let n = book.phrases(situation).len();
        let avoid = ((n.saturating_sub(1)) / 2).max(1);
        let lately: Vec<usize> = heard
            .iter()
            .rev()
            .filter(|(s, _)| *s == situation)
            .map(|&(_, at)| at)
            .take(avoid)
            .collect();
        let fresh: Vec<usize> = (0..n).filter(|at| !lately.contains(at)).collect();
        let at = match fresh.len() {
            0 => 0,
            len => fresh[(hash % len as u64) as usize],
        };
        heard.push((situation, at));
    }
    heard.last().map_or(0, |&(_, at)| at)
}

/// SplitMix64's finaliser: every bit of the input moves every bit of the
/// output, so nearby errors (799.09, 799.10) draw unrelated phrases.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod lesson_two_tests;
#[cfg(test)]
mod properties;
#[cfg(test)]
mod walk_tests;

#[cfg(test)]
mod tests;
