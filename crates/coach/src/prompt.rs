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
use lesson::{
    advice::Facts,
    neuron::{min_error, GOAL},
};
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
    pub tier: Tier,
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

/// The parts of a prompt that depend only on the language and the tier.
struct Fixed {
    system: String,
    /// Every ordered choice of [`EXAMPLES_SHOWN`] examples of the pool.
    choices: Vec<Vec<(String, String)>>,
}

/// [`Fixed`] for `lang` and `tier`, written on first use and kept: a request
/// only writes its own question and picks one of the choices.
fn fixed(lang: Lang, tier: Tier) -> &'static Fixed {
    // `Lang::ALL` and `Tier::ALL` list the variants in declaration order, so
    // `as usize` indexes them (checked by a test).
    static ALL: std::sync::LazyLock<[[Fixed; Tier::ALL.len()]; Lang::ALL.len()]> =
        std::sync::LazyLock::new(|| {
            Lang::ALL.map(|lang| Tier::ALL.map(|tier| write_fixed(lang, tier)))
        });
    &ALL[lang as usize][tier as usize]
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
    let tier = Tier::of(input.error);
    let trend = Trend::of(input.error, &input.attempts);
    let fixed = fixed(input.lang, tier);
    let facts = input.params.map(Facts::of);
    let mut user = situation(input.lang, input.error, &trend);
    let mut figures = figures(input.error, &trend);
    if let Some(facts) = &facts {
        user.push(' ');
        user.push_str(&crate::prompt::facts::statements(input.lang, facts));
        figures.extend(crate::prompt::facts::figures(facts));
    }
    // `choices` is never empty (checked by a test); `% len` keeps the index in it.
    let len = fixed.choices.len().max(1) as u64;
    let pick = usize::try_from(draw % len).unwrap_or_default();
    Prompt {
        system: &fixed.system,
        examples: fixed.choices.get(pick).map_or(&[], Vec::as_slice),
        user,
        lang: input.lang,
        tier,
        facts,
        trend,
        figures,
    }
}

/// The numbers of the situation ([`situation`]) and the system text: the
/// error, the best, the attempt count, the goal, the floor, and how far the
/// error is from both (the offline commentator's "349.09 to go").
fn figures(error: f64, trend: &Trend) -> Vec<f64> {
    let attempts = trend.attempts as f64;
    let mut out = vec![attempts, GOAL];
    for x in [
        error,
        trend.best,
        min_error(),
        (error - GOAL).max(0.0),
        (error - min_error()).max(0.0),
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

fn write_fixed(lang: Lang, tier: Tier) -> Fixed {
    let words = words_for(lang);
    let text = &words.prompt;
    let system = format!(
        "{} {} {}",
        text.role,
        match tier {
            Tier::Far => text.far,
            Tier::Close => text.close,
            Tier::Goal => text.goal,
        },
        fill(
            text.rules,
            &[("words", &MAX_WORDS.to_string()), ("marker", END_MARKER)]
        )
    );
    let pool: Vec<(String, String)> = words.examples[tier as usize]
        .iter()
        .map(|(error, history, answer)| {
            (
                situation(lang, *error, &Trend::of(*error, history)),
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
pub fn situation(lang: Lang, error: f64, trend: &Trend) -> String {
    let text = &words_for(lang).prompt;
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
        text.situation,
        &[
            ("error", &grouped_in(error, DECIMALS, lang)),
            ("attempt", &trend.attempts.to_string()),
            ("direction", direction),
            ("best", &best),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fixed_parts_are_those_of_the_language_and_tier() {
        for (l, lang) in Lang::ALL.into_iter().enumerate() {
            assert_eq!(lang as usize, l);
            for (t, tier) in Tier::ALL.into_iter().enumerate() {
                assert_eq!(tier as usize, t);
                let fixed = fixed(lang, tier);
                let written = write_fixed(lang, tier);
                assert_eq!(
                    (&fixed.system, &fixed.choices),
                    (&written.system, &written.choices)
                );
                assert!(fixed.system.contains(words_for(lang).prompt.role));
            }
        }
    }

    fn input(error: f64, attempts: &[f64], lang: Lang) -> CoachInput {
        CoachInput {
            error,
            attempts: attempts.to_vec(),
            params: None,
            model: None,
            lang,
        }
    }

    #[test]
    fn trend_reads_the_history() {
        assert_eq!(Trend::of(900.0, &[]).direction, Direction::First);
        let t = Trend::of(900.0, &[2000.0, 1000.0]);
        assert_eq!(
            (t.direction, t.attempts, t.is_best, t.best),
            (Direction::Improving, 3, true, 900.0)
        );
        let t = Trend::of(1500.0, &[2000.0, 1000.0]);
        assert_eq!(
            (t.direction, t.is_best, t.best),
            (Direction::Worse, false, 1000.0)
        );
        assert_eq!(Trend::of(1000.2, &[1000.0]).direction, Direction::Stuck);
    }

    #[test]
    fn only_the_current_tier_is_in_the_prompt() {
        let far = build(&input(13_359.08, &[], Lang::En));
        assert_eq!(far.tier, Tier::Far);
        assert!(far.system.contains("tease"));
        assert!(!far.system.contains("nudge") && !far.system.contains("celebrate"));
        assert!(far.examples.iter().all(|(_, a)| !a.contains("Perfect fit")));

        let close = build(&input(812.0, &[900.0], Lang::En));
        assert!(close.system.contains("nudge") && !close.system.contains("tease"));

        let goal = build(&input(447.29, &[812.0], Lang::En));
        assert!(goal.system.contains("celebrate") && !goal.system.contains("nudge"));
    }

    #[test]
    fn prompt_has_the_numbers_the_limit_and_the_marker() {
        let p = build(&input(812.5, &[13_359.08, 900.0], Lang::En));
        assert!(p.system.contains("20 words") && p.system.contains(END_MARKER));
        assert_eq!(p.user, "Error now: 812.50 (goal: below 450). Attempt 3, better than the last one; the best so far.");
        assert_eq!(p.examples.len(), 2);
        assert!(p
            .examples
            .iter()
            .all(|(u, a)| u.starts_with("Error now:") && a.ends_with(END_MARKER)));
    }

    #[test]
    fn every_language_and_tier_has_its_own_text() {
        for lang in Lang::ALL {
            for error in [13_359.08, 812.0, 447.29] {
                let p = build(&input(error, &[20_000.0], lang));
                assert_eq!(p.lang, lang);
                assert!(!p.examples.is_empty());
                assert!(p.system.contains(END_MARKER) && p.system.contains("20"));
                assert!(
                    !p.user.contains('{'),
                    "unfilled placeholder in {:?}",
                    p.user
                );
            }
        }
        assert!(build(&input(812.0, &[], Lang::Pt))
            .system
            .contains("português"));
        assert!(build(&input(812.0, &[], Lang::Zh))
            .system
            .contains("简体中文"));
    }

    #[test]
    fn each_prompt_shows_a_drawn_two_of_a_pool_of_six_or_more() {
        for lang in Lang::ALL {
            for (tier, error) in [
                (Tier::Far, 13_359.08),
                (Tier::Close, 812.0),
                (Tier::Goal, 447.29),
            ] {
                let pool = words_for(lang).examples[tier as usize];
                assert!(pool.len() >= 6, "{lang:?} {tier:?}: {}", pool.len());
                let choices = &fixed(lang, tier).choices;
                assert_eq!(choices.len(), pool.len() * (pool.len() - 1));
                let input = input(error, &[20_000.0], lang);
                assert_eq!(build(&input), build_drawn(&input, 0));
                let mut seen = std::collections::HashSet::new();
                for draw in 0..choices.len() as u64 {
                    let p = build_drawn(&input, draw);
                    assert_eq!(p.examples.len(), EXAMPLES_SHOWN);
                    assert_ne!(p.examples[0], p.examples[1], "two different ones");
                    assert!(p.examples.iter().all(|(_, a)| pool
                        .iter()
                        .any(|(_, _, answer)| *a == format!("{answer} {END_MARKER}"))));
                    seen.insert(p.examples.to_vec());
                }
                assert_eq!(seen.len(), choices.len(), "every draw its own choice");
                // The draw is all it depends on.
                assert_eq!(
                    build_drawn(&input, 7),
                    build_drawn(&input, 7 + choices.len() as u64)
                );
            }
        }
    }

    #[test]
    fn the_figures_are_the_numbers_the_prompt_states() {
        let p = build(&input(13_359.08, &[20_000.0, 9_000.0], Lang::Zh));
        for stated in [13_359.08, 9_000.0, 3.0, 450.0, 12_909.08] {
            assert!(
                p.figures.iter().any(|f| (f - stated).abs() < 1e-9),
                "{stated}: {:?}",
                p.figures
            );
        }
        assert!(p.figures.iter().any(|f| (f - 447.29).abs() < 0.005));
        let with_facts = build(&CoachInput {
            params: Some(lesson::neuron::START),
            ..input(799.09, &[], Lang::En)
        });
        // weight 0.1, bias 150, 351.80 above the floor, raise the bias by
        // about 13, to about 635 (the statements' numbers).
        for stated in [0.1, 150.0, 351.8, 13.0, 635.0] {
            assert!(
                with_facts.figures.iter().any(|f| (f - stated).abs() < 0.01),
                "{stated}: {:?}",
                with_facts.figures
            );
        }
    }
}
