//! Checks on a model's answer, which is untrusted text, in this order:
//!
//! 1. **Clean** ([`clean`]): keep what comes before the first [`END_MARKER`];
//!    drop reasoning blocks, echoes of the prompt, chat-template tokens, role
//!    tags and surrounding quotes. Nothing left: `empty`.
//! 2. **Salvage** ([`salvage`]): an answer longer than [`max_chars`] (the
//!    the original server's rule: 20 words × 8 characters; 60 in Chinese) is cut back to the
//!    whole sentences that fit; when not even one does, `too long`.
//! 3. **Judge** what is left: `wrong language` ([`language`]), `copies an
//!    example` of the prompt or of its tier's pool ([`copy`]), `claims the
//!    goal` when the tier is not the goal, or names its number other than as
//!    an aim (unless the prompt states 450 as another figure too) ([`claims`]),
//!    `claims progress`
//!    (the best so far, or better than the last, when it is not:
//!    [`progress`]), `contradicts the facts` ([`crate::judge::directions`]),
//!    `misquotes a number` that the prompt does not state ([`numbers`]) or
//!    states another as the error ([`stated_error`]),
//!    and last `repeats itself` ([`repeats`]), word salad.
//!
//! A rejected answer counts against the model. The caller (`settle`) redacts
//! the text that passes. Pure: it judges text, and leaves the counting to the
//! router.

mod claims;
mod clean;
mod copy;
pub mod directions;
mod key_index;
mod keys;
mod language;
mod numbers;
mod progress;
mod repeats;
mod salvage;
mod stated_error;
mod tokens;

use std::cell::LazyCell;

use crate::response::Tier;
use crate::{
    prompt::{Prompt, END_MARKER},
    words::words_for,
};
use lesson::advice::{Param, Way};
use vocabulary::Lang;

/// Why an answer was not used. The `Display` is the reason `tried` and the
/// log show after `rejected: `.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    #[error("empty")]
    Empty,
    /// Too long, and not even its first sentence fits.
    #[error("too long ({chars} > {max} characters)")]
    TooLong { chars: usize, max: usize },
    /// Not in the visitor's language (or script).
    #[error("wrong language")]
    WrongLanguage,
    /// Nearly the same as one of the tier's example answers.
    #[error("copies an example")]
    CopiesExample,
    /// Says the goal is reached when it is not.
    #[error("claims the goal")]
    ClaimsGoal,
    /// Calls this attempt the best, or better than the last, when it is not.
    #[error("claims progress")]
    ClaimsProgress,
    /// Says the same words over ("Não, não! Não! Não!"): word salad.
    #[error("repeats itself")]
    Repeats,
    /// It tells the visitor to move a parameter the way that raises the error.
    #[error("contradicts the facts: says to {0}")]
    Contradicts(String),
    /// Quotes a number (two or more significant digits) the prompt does not state.
    #[error("misquotes a number")]
    MisquotesNumber,
}

/// Longest accepted comment: 20 words × 8 characters, or 60 characters for
/// Chinese, where a word is one or two characters (each language's file).
pub fn max_chars(lang: Lang) -> usize {
    words_for(lang).max_chars
}

/// The comment in `raw`, cleaned (and cut back to the sentences that fit),
/// or why there is none.
pub fn check(raw: &str, prompt: &Prompt) -> Result<String, Rejection> {
    let cleaned = clean::cleaned(raw, prompt);
    let chars = cleaned.chars().count();
    let max = max_chars(prompt.lang);
    if chars == 0 {
        return Err(Rejection::Empty);
    }
    let text = if chars > max {
        salvage::salvage(&cleaned, max).ok_or(Rejection::TooLong { chars, max })?
    } else {
        cleaned.as_str()
    };
    judge(text, prompt)?;
    Ok(text.to_string())
}

/// Steps 3 on: what the text says, held to the prompt.
fn judge(text: &str, prompt: &Prompt) -> Result<(), Rejection> {
    if language::wrong(text, prompt.lang) {
        return Err(Rejection::WrongLanguage);
    }
    if copies_an_example(text, prompt) {
        return Err(Rejection::CopiesExample);
    }
    // 450 may be another figure the prompt states too (a move of about
    // 450, the 450th attempt): then naming it is no sign of the goal.
    let goal_is_also_a_figure = prompt
        .figures
        .iter()
        .filter(|f| (**f - prompt.goal).abs() < 1e-9)
        .count()
        > 1;
    // Its sentences, read once for the checks that read sentences.
    let reading = LazyCell::new(|| claims::Reading::of(text, prompt.lang));
    if prompt.tier != Tier::Goal
        && (claims::claims_goal_in(&reading, prompt.goal)
            || (!goal_is_also_a_figure && claims::names_goal_outside_aim_in(&reading, prompt.goal)))
    {
        return Err(Rejection::ClaimsGoal);
    }
    if progress::claims_progress_in(&reading, &prompt.trend) {
        return Err(Rejection::ClaimsProgress);
    }
    let contradicted = |param: Param, way: Way| match (&prompt.facts, &prompt.facts_two) {
        (Some(facts), _) => facts.contradicts(param, way),
        // Lesson 2: the bias is the bias; "the weight" may be either, so
        // only a move both weights' facts refuse is a contradiction.
        (None, Some(two)) => match param {
            Param::Bias => two.contradicts(2, way),
            Param::Weight => two.contradicts(0, way) && two.contradicts(1, way),
        },
        (None, None) => false,
    };
    if let Some((param, way)) = (prompt.facts.is_some() || prompt.facts_two.is_some())
        .then(|| directions::advised(text, prompt.lang))
        .into_iter()
        .flatten()
        .find(|&(param, way)| contradicted(param, way))
    {
        let way = match way {
            Way::Up => "raise",
            Way::Down => "lower",
        };
        return Err(Rejection::Contradicts(
            format!("{way} the {param:?}").to_lowercase(),
        ));
    }
    if numbers::misquoted(text, &prompt.figures).is_some()
        || stated_error::misstates_error_in(&reading, prompt.trend.error)
    {
        return Err(Rejection::MisquotesNumber);
    }
    if repeats::repeats(text, prompt.lang) {
        return Err(Rejection::Repeats);
    }
    Ok(())
}

/// Whether `text` copies an example answer: one the prompt shows, or any of
/// its tier's pool in its language (a copy of any example is a copy). The
/// prompt shows examples of that pool, each compared once.
fn copies_an_example(text: &str, prompt: &Prompt) -> bool {
    let pool = copy::pool(prompt.lang, prompt.lesson, prompt.tier);
    let reply = copy::numbered(&copy::words(text));
    pool.iter().any(|example| example.copied_by(&reply))
        || prompt
            .examples
            .iter()
            .map(|(_, answer)| without_markers(answer).trim_end())
            .filter(|shown| !pool.iter().any(|example| example.text == *shown))
            .any(|shown| copy::copies(text, shown))
}

/// `answer` without the end markers it ends with (`trim_end_matches`,
/// without readying a substring search for each example).
fn without_markers(mut answer: &str) -> &str {
    while let Some(before) = answer.strip_suffix(END_MARKER) {
        answer = before;
    }
    answer
}

#[cfg(test)]
mod lesson_two_tests;
#[cfg(test)]
mod tests;
