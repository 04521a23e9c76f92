//! Whether a reply says the goal is reached ("goal reached", "abaixo de
//! 450", "达标"), read sentence by sentence with the language's
//! [`ClaimWords`]:
//!
//! - a question ("Below 450?") claims nothing, nor does a sentence with a
//!   negation, a question word or a future ("not yet", "almost", "quase",
//!   "还没", "快", "吗");
//! - otherwise a `reached` phrase anywhere in it is a claim, and so is an
//!   `alone` phrase that is a whole clause ("Conseguiu!", "成功！");
//! - "below 450" (a `below` word before the number, or a `below_after` word
//!   after it, with the goal or less) is a claim unless the sentence states
//!   an aim ("get below 450", "the goal is below 450", "把误差降到 450 以下").
//!
//! Above the goal a reply may name the goal's number only as an aim: a
//! sentence with 450 in it must have an `aims` word before it ("get below
//! 450", "a meta é 450", "要低于 450") or ask a question ("Below 450?").
//! Small models write it as if it were reached or near ("这是目前最差的低于
//! 450", "跳过一段偏置，看红色差距低于 450"), in ways no list of claims
//! foresees, negated or not ([`names_goal_outside_aim`]).
//!
//! Sentences end at `. ! ? 。！？…`, not at commas or colons: "Error now:
//! 812.50 (goal: below 450)" states the goal, it does not claim it. Keys are
//! matched as the direction check matches them ([`normalise`]d, whole words
//! and stems, Chinese character by character). Pure.

pub(super) use super::tokens::{tokens, Token};
use super::{
    keys::{Claims, Found, Keys},
    salvage::sentences,
};
use crate::{
    judge::directions::{clauses, normalise},
    words::{words_for, ClaimWords},
};
use vocabulary::Lang;

/// Whether a number token is the goal or less, however it is read
/// (`1,000` is a thousand, though a Portuguese reading makes it 1).
fn at_most_goal(token: Option<&Token>, goal: f64) -> bool {
    matches!(token, Some(Token::Number(values)) if values.iter().all(|v| *v <= goal + 1e-9))
}

/// One sentence of a reply as the claim checks read it (this module's, and
/// [`super::progress`]'s and [`super::stated_error`]'s).
pub(super) struct Sentence<'a> {
    /// As the reply wrote it.
    pub written: &'a str,
    /// [`normalise`]d: lower case, straight apostrophes, Simplified.
    pub normalised: String,
    /// The words and numbers of `normalised`.
    pub tokens: Vec<Token>,
    /// The language's claim words, and whether its keys are matched
    /// character by character (Chinese).
    pub words: &'static ClaimWords,
    pub by_characters: bool,
    /// Where each of `words`' lists matches in `tokens`, read at once.
    claims: &'static Claims,
    found: Vec<Found>,
}

impl Sentence<'_> {
    /// Where a key of `keys` matches: (start, length) of each.
    pub fn find(&self, keys: &'static [&'static str]) -> Vec<(usize, usize)> {
        match self.claims.list(keys) {
            Some(list) => self.found_in(list).collect(),
            // Not one of the language's lists (a test's): read now.
            None => Keys::new(keys, self.by_characters).find(&self.tokens),
        }
    }

    /// Whether a key of `keys` is in it.
    pub fn says(&self, keys: &'static [&'static str]) -> bool {
        match self.claims.list(keys) {
            Some(list) => self.found_in(list).next().is_some(),
            None => !self.find(keys).is_empty(),
        }
    }

    fn found_in(&self, list: u8) -> impl Iterator<Item = (usize, usize)> + '_ {
        (self.found.iter())
            .filter(move |&&(l, ..)| l == list)
            .map(|&(_, at, n)| (at, n))
    }

    /// A question claims nothing ("Below 450?").
    pub fn is_question(&self) -> bool {
        self.written.contains(['?', '？'])
    }
}

/// A reply read once, sentence by sentence, for every check that reads
/// sentences (this module's, [`super::progress`]'s, [`super::stated_error`]'s).
pub(crate) struct Reading<'a> {
    sentences: Vec<Sentence<'a>>,
}

impl<'a> Reading<'a> {
    /// `text`'s sentences, [`normalise`]d and cut into tokens, in `lang`.
    pub fn of(text: &'a str, lang: Lang) -> Self {
        let words = words_for(lang);
        let claims = Claims::of(lang);
        let sentences = sentences(text)
            .into_iter()
            .map(|written| {
                let normalised = normalise(written, &words.directions);
                let tokens = tokens(&normalised);
                Sentence {
                    found: claims.find_all(&tokens),
                    tokens,
                    normalised,
                    written,
                    words: &words.claims,
                    by_characters: words.directions.by_characters,
                    claims,
                }
            })
            .collect();
        Self { sentences }
    }

    /// Whether `claim` holds of any of its sentences.
    pub fn any(&self, claim: impl Fn(&Sentence) -> bool) -> bool {
        self.sentences.iter().any(claim)
    }
}

/// Whether `text` says the goal (an error below `goal`) is reached (the
/// tests' way in; the judge reads a reply once, [`claims_goal_in`]).
#[cfg(test)]
pub fn claims_goal(text: &str, lang: Lang, goal: f64) -> bool {
    claims_goal_in(&Reading::of(text, lang), goal)
}

/// [`claims_goal`] of a reply already read.
pub(crate) fn claims_goal_in(reading: &Reading, goal: f64) -> bool {
    reading.any(|s| {
        let w = s.words;
        if s.is_question() || s.says(w.negations) {
            return false;
        }
        s.says(w.reached) || alone(s) || below(s, goal)
    })
}

/// Whether `text` names the goal's number (`goal`: 450, however written) in a
/// sentence that is not an aim: no `aims` word before the number, and not a
/// question. Judged only above the goal (the caller's part).
#[cfg(test)]
pub fn names_goal_outside_aim(text: &str, lang: Lang, goal: f64) -> bool {
    names_goal_outside_aim_in(&Reading::of(text, lang), goal)
}

/// [`names_goal_outside_aim`] of a reply already read.
pub(crate) fn names_goal_outside_aim_in(reading: &Reading, goal: f64) -> bool {
    reading.any(|s| {
        if s.is_question() {
            return false;
        }
        let first_aim = s
            .find(s.words.aims)
            .into_iter()
            .map(|(at, _)| at)
            .min()
            .unwrap_or(usize::MAX);
        s.tokens.iter().enumerate().any(|(at, token)| {
            matches!(token, Token::Number(values) if values.iter().any(|v| (v - goal).abs() < 1e-9))
                && at < first_aim
        })
    })
}

/// An `alone` phrase as a whole clause of the sentence.
fn alone(s: &Sentence) -> bool {
    let Some(alone) = s.claims.list(s.words.alone) else {
        return false;
    };
    // A clause's tokens are a run of its sentence's (no word or number goes
    // across a clause's end), so a key that is a whole clause was found in
    // the sentence too: without one, no clause is read.
    if s.found_in(alone).next().is_none() {
        return false;
    }
    clauses(&s.normalised)
        .into_iter()
        .any(|clause| s.claims.is_whole(alone, &tokens(clause)))
}

/// "below 450" or "450 以下", in a sentence that states no aim.
fn below(s: &Sentence, goal: f64) -> bool {
    let (w, tokens) = (s.words, &s.tokens);
    if s.says(w.aims) {
        return false;
    }
    let before =
        (s.find(w.below).into_iter()).any(|(at, n)| at_most_goal(tokens.get(at + n), goal));
    let after = (s.find(w.below_after).into_iter())
        .any(|(at, _)| at_most_goal(at.checked_sub(1).and_then(|i| tokens.get(i)), goal));
    before || after
}

#[cfg(test)]
#[path = "claims_tests.rs"]
mod tests;
