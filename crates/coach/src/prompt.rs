//! The prompt for one attempt: pure functions, no I/O.
//!
//! As the original Node server did, a prompt carries only the instruction and the few-shot
//! examples of the tier that applies (small models follow far better when the
//! context holds nothing else), the trend of the visitor's history, a limit of
//! [`MAX_WORDS`] words and the end marker [`END_MARKER`], after which small models
//! tend to ramble. The numbers in it are the parsed ones, never request text.
//! Its sentences and examples are in the language files.
//!
//! Small models copy their examples, so a prompt shows only
//! [`EXAMPLES_SHOWN`] of its tier's pool, a different choice (and order) per
//! request, drawn from the request's own randomness ([`build_drawn`]; the
//! coach seeds it, so a test can fix it). Every choice is written once and
//! kept. The prompt also lists the numbers it states ([`Prompt::figures`]),
//! from the same values that write it, for the reply check to hold a
//! model's numbers to.

pub mod facts;
pub mod facts_two;
pub mod trend;

use crate::response::Tier;
use crate::{
    input::CoachInput,
    prompt::{
        facts::printed,
        trend::{Direction, Trend},
    },
    words::words_for,
};
use lesson::{advice::Facts, lessons::Which, moves::PointFacts};
use vocabulary::{fill, format::grouped_in, Lang};

pub use crate::words::{END_MARKER, MAX_WORDS};

/// How many of its tier's example answers a prompt shows: as many as the
/// original server's prompts did, so a prompt is no longer (nor slower) than before.
pub const EXAMPLES_SHOWN: usize = 2;
/// Decimals of the error and the best in a prompt.
const DECIMALS: usize = 2;

/// A chat-shaped prompt: system text, few-shot pairs, the question.
#[derive(Clone, Debug, PartialEq)]
pub struct Prompt {
    /// Fixed per language and tier: written once ([`fixed`]).
    pub system: &'static str,
    /// (user, assistant) pairs; each assistant turn ends with [`END_MARKER`].
    /// [`EXAMPLES_SHOWN`] of the tier's pool, in the drawn order.
    pub examples: &'static [(String, String)],
    pub user: String,
    pub lang: Lang,
    /// The lesson it is about, and that lesson's goal (the claims check's).
    pub lesson: Which,
    pub goal: f64,
    pub tier: Tier,
    /// Lesson 2's facts about its point, when the caller gave w1, w2 and b.
    pub facts_two: Option<PointFacts>,
    /// The facts about the point, when the caller gave weight and bias: stated
    /// in the question, and the answer is held to them ([`crate::judge`]).
    pub facts: Option<Facts>,
    /// The visitor's history summed up: the answer may not call this attempt
    /// the best, or better than the last, when it is not ([`crate::judge`]).
    pub trend: Trend,
    /// Every number the question and the system text state about this
    /// attempt, as printed and unrounded: the error, the best, the attempt
    /// count, the goal and the floor, how far both are, and the facts'
    /// numbers. A reply may quote these, rounded; no others (the examples'
    /// numbers are other visitors').
    pub figures: Vec<f64>,
}

impl Prompt {
    /// The bytes of its texts: the system's, the examples' and the question.
    pub fn text_len(&self) -> usize {
        let examples: usize = self.examples.iter().map(|(u, a)| u.len() + a.len()).sum();
        self.system.len() + examples + self.user.len()
    }
}

/// The parts of a prompt that depend only on the language and the tier.
struct Fixed {
    system: String,
    /// Every ordered choice of [`EXAMPLES_SHOWN`] examples of the pool.
    choices: Vec<Vec<(String, String)>>,
}

/// [`Fixed`] for `lesson`, `lang` and `tier`, written on first use and kept:
/// a request only writes its own question and picks one of the choices.
fn fixed(lesson: Which, lang: Lang, tier: Tier) -> &'static Fixed {
    // `Which::ALL`, `Lang::ALL` and `Tier::ALL` list the variants in
    // declaration order, so `as usize` indexes them (checked by a test).
    type Table = [[[Fixed; Tier::ALL.len()]; Lang::ALL.len()]; Which::ALL.len()];
    static ALL: std::sync::LazyLock<Table> = std::sync::LazyLock::new(|| {
        Which::ALL.map(|lesson| {
            Lang::ALL.map(|lang| Tier::ALL.map(|tier| write_fixed(lesson, lang, tier)))
        })
    });
    &ALL[lesson as usize][lang as usize][tier as usize]
}

/// Builds the prompt for a validated input, with the first choice of
/// examples (the pool's first ones, in order): for callers without
/// randomness of their own.
pub fn build(input: &CoachInput) -> Prompt {
    build_drawn(input, 0)
}

/// Builds the prompt for a validated input, with the choice of examples
/// that `draw` (a random number) picks.
pub fn build_drawn(input: &CoachInput, draw: u64) -> Prompt {
    let lesson = input.lesson;
    let tier = Tier::in_lesson(lesson, input.error);
    let trend = Trend::of(input.error, &input.attempts);
    let fixed = fixed(lesson, input.lang, tier);
    let facts = input.params.filter(|_| lesson == Which::One).map(Facts::of);
    let facts_two = input
        .two
        .filter(|_| lesson == Which::Two)
        .map(facts_two::of);
    let mut user = situation(lesson, input.lang, input.error, &trend);
    let mut figures = figures(lesson, input.error, &trend);
    if let Some(facts) = &facts {
        user.push(' ');
        user.push_str(&crate::prompt::facts::statements(input.lang, facts));
        figures.extend(crate::prompt::facts::figures(facts));
    }
    if let Some(facts) = &facts_two {
        user.push(' ');
        user.push_str(&facts_two::statements(input.lang, facts));
        figures.extend(facts_two::figures(facts));
    }
    // `choices` is never empty (checked by a test); `% len` keeps the index in it.
    let len = fixed.choices.len().max(1) as u64;
    let pick = usize::try_from(draw % len).unwrap_or_default();
    Prompt {
        system: &fixed.system,
        examples: fixed.choices.get(pick).map_or(&[], Vec::as_slice),
        user,
        lang: input.lang,
        lesson,
        goal: lesson.describe().goal,
        tier,
        facts_two,
        facts,
        trend,
        figures,
    }
}

/// The numbers of the situation ([`situation`]) and the system text: the
/// error, the best, the attempt count, the goal, the floor, and how far the
/// error is from both (the offline commentator's "349.09 to go").
fn figures(lesson: Which, error: f64, trend: &Trend) -> Vec<f64> {
    let attempts = trend.attempts as f64;
    let (goal, floor) = (lesson.describe().goal, lesson.floor());
    let mut out = vec![attempts, goal];
    for x in [
        error,
        trend.best,
        floor,
        (error - goal).max(0.0),
        (error - floor).max(0.0),
    ] {
        out.extend(printed(x, DECIMALS));
    }
    out
}

/// Every ordered choice of `k` distinct indices below `n`, the identity first.
fn orders(n: usize, k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for first in 0..n {
        for mut rest in orders(n, k - 1) {
            if !rest.contains(&first) {
                rest.insert(0, first);
                out.push(rest);
            }
        }
    }
    out
}

fn write_fixed(lesson: Which, lang: Lang, tier: Tier) -> Fixed {
    let words = words_for(lang);
    let text = &words.prompt;
    let (role, goal, examples) = match lesson {
        Which::One => (text.role, text.goal, &words.examples),
        Which::Two => (words.two.role, words.two.goal, &words.two.examples),
    };
    let system = format!(
        "{} {} {}",
        role,
        match tier {
            Tier::Far => text.far,
            Tier::Close => text.close,
            Tier::Goal => goal,
        },
        fill(
            text.rules,
            &[("words", &MAX_WORDS.to_string()), ("marker", END_MARKER)]
        )
    );
    let pool: Vec<(String, String)> = examples[tier as usize]
        .iter()
        .map(|(error, history, answer)| {
            (
                situation(lesson, lang, *error, &Trend::of(*error, history)),
                format!("{answer} {END_MARKER}"),
            )
        })
        .collect();
    let shown = EXAMPLES_SHOWN.min(pool.len());
    let choices = orders(pool.len(), shown)
        .into_iter()
        .map(|order| order.into_iter().map(|i| pool[i].clone()).collect())
        .collect();
    Fixed { system, choices }
}

/// The user turn: the numbers and the trend, in the visitor's language.
pub fn situation(lesson: Which, lang: Lang, error: f64, trend: &Trend) -> String {
    let text = &words_for(lang).prompt;
    let template = match lesson {
        Which::One => text.situation,
        Which::Two => words_for(lang).two.situation,
    };
    let direction = match trend.direction {
        Direction::First => text.first,
        Direction::Improving => text.improving,
        Direction::Worse => text.worse,
        Direction::Stuck => text.stuck,
    };
    let best = if trend.is_best {
        text.is_best.to_string()
    } else {
        fill(
            text.best,
            &[("best", &grouped_in(trend.best, DECIMALS, lang))],
        )
    };
    fill(
        template,
        &[
            ("error", &grouped_in(error, DECIMALS, lang)),
            ("attempt", &trend.attempts.to_string()),
            ("direction", direction),
            ("best", &best),
        ],
    )
}

#[cfg(test)]
mod tests;
