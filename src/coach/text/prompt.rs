//! The prompt for one attempt: pure functions, no I/O.
//!
//! Following the seed, a prompt carries only the instruction and the few-shot
//! examples of the tier that applies (small models follow far better when the
//! context holds nothing else), the trend of the visitor's history, a limit of
//! [`MAX_WORDS`] words and the end marker [`END_MARKER`], after which small models
//! tend to ramble. The numbers in it are the parsed ones, never request text.
//! Its sentences and examples are in the language files.

use super::{
    input::CoachInput,
    trend::{Direction, Trend},
    words_for,
};
use crate::{
    advice::Facts,
    coach::{comment::Tier, lang::Lang},
    format::grouped_in,
    i18n::fill,
};

pub use super::words::{END_MARKER, MAX_WORDS};

/// A chat-shaped prompt: system text, few-shot pairs, the question.
#[derive(Clone, Debug, PartialEq)]
pub struct Prompt {
    /// Fixed per language and tier: written once ([`fixed`]).
    pub system: &'static str,
    /// (user, assistant) pairs; each assistant turn ends with [`END_MARKER`].
    /// Fixed per language and tier too.
    pub examples: &'static [(String, String)],
    pub user: String,
    pub lang: Lang,
    pub tier: Tier,
    /// The facts about the point, when the caller gave weight and bias: stated
    /// in the question, and the answer is held to them ([`super::reply`]).
    pub facts: Option<Facts>,
}

/// The parts of a prompt that depend only on the language and the tier.
struct Fixed {
    system: String,
    examples: Vec<(String, String)>,
}

/// [`Fixed`] for `lang` and `tier`, written on first use and kept: a request
/// only writes its own question.
fn fixed(lang: Lang, tier: Tier) -> &'static Fixed {
    // `Lang::ALL` and `Tier::ALL` list the variants in declaration order, so
    // `as usize` indexes them (checked by a test).
    static ALL: std::sync::LazyLock<[[Fixed; 3]; 3]> = std::sync::LazyLock::new(|| {
        Lang::ALL.map(|lang| Tier::ALL.map(|tier| write_fixed(lang, tier)))
    });
    &ALL[lang as usize][tier as usize]
}

/// Builds the prompt for a validated input.
pub fn build(input: &CoachInput) -> Prompt {
    let tier = Tier::of(input.error);
    let trend = Trend::of(input.error, &input.attempts);
    let fixed = fixed(input.lang, tier);
    let facts = input.params.map(Facts::of);
    let mut user = situation(input.lang, input.error, &trend);
    if let Some(facts) = &facts {
        user.push(' ');
        user.push_str(&super::facts::statements(input.lang, facts));
    }
    Prompt {
        system: &fixed.system,
        examples: &fixed.examples,
        user,
        lang: input.lang,
        tier,
        facts,
    }
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
    let examples = words.examples[tier as usize]
        .iter()
        .map(|(error, history, answer)| {
            (
                situation(lang, *error, &Trend::of(*error, history)),
                format!("{answer} {END_MARKER}"),
            )
        })
        .collect();
    Fixed { system, examples }
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
        fill(text.best, &[("best", &grouped_in(trend.best, 2, lang))])
    };
    fill(
        text.situation,
        &[
            ("error", &grouped_in(error, 2, lang)),
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
                    (&fixed.system, &fixed.examples),
                    (&written.system, &written.examples)
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
}
