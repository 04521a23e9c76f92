//! The rules every opener keeps, as the tests read them (tests only): no
//! praise after a worse attempt or when far, "close" only within
//! [`super::CLOSE_MARGIN`] of the goal (and never after a worse attempt), the
//! goal only when it is reached, and no slider named (the hint names it).
//! The keywords are each language's ([`super::Keys`], in its phrasebook
//! file); a key matches at a word's start (a stem: "fine-tun" is in
//! "fine-tuning") when it begins with a letter, anywhere when it is Chinese.

use super::{phrasebook, Distance, Progress, Situation};
use crate::words::words_for;
use vocabulary::Lang;

/// The first of `keys` that `text` holds, if any. A number key ("450") is
/// a whole number: not a part of 1,450.20 or 450.29.
pub fn holds(text: &str, keys: &[&'static str]) -> Option<&'static str> {
    let lower = text.to_lowercase();
    keys.iter().copied().find(|key| {
        lower.match_indices(key).any(|(at, _)| {
            let before = lower[..at].chars().next_back();
            let mut after = lower[at + key.len()..].chars();
            match key.chars().next() {
                Some(c) if c.is_ascii_digit() => {
                    !inside_a_number(before, after.next(), after.next())
                }
                Some(c) if c.is_ascii_alphabetic() => !before.is_some_and(char::is_alphanumeric),
                _ => true,
            }
        })
    })
}

/// Whether a number that has `before` before it and `next`, `then` after it
/// is a part of a longer one: a digit beside it, or a separator and a digit.
fn inside_a_number(before: Option<char>, next: Option<char>, then: Option<char>) -> bool {
    let digit = |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit());
    let separator = |c: Option<char>| c.is_some_and(|c| c == ',' || c == '.');
    digit(before) || separator(before) || digit(next) || (separator(next) && digit(then))
}

/// A slider's name as the direction check knows it ("weight", "peso", "权重").
pub fn names_a_slider(text: &str, lang: Lang) -> Option<&'static str> {
    let w = &words_for(lang).directions;
    holds(text, w.weight).or_else(|| holds(text, w.bias))
}

/// Why `opener` does not fit `situation`, if it does not.
pub fn misfit(opener: &str, situation: Situation, lang: Lang) -> Option<String> {
    let worse = situation.progress == Progress::Worse;
    let far = situation.distance == Distance::Far;
    if let Some(word) = holds(opener, phrasebook(lang).keys.praise).filter(|_| worse || far) {
        return Some(format!("praises ({word:?}) in {situation:?}"));
    }
    let close = situation.distance == Distance::Close && !worse;
    if let Some(word) = holds(opener, phrasebook(lang).keys.closeness).filter(|_| !close) {
        return Some(format!("calls it close ({word:?}) in {situation:?}"));
    }
    if let Some(word) = holds(opener, phrasebook(lang).keys.goal_claims)
        .filter(|_| situation.distance != Distance::Goal)
    {
        return Some(format!("claims the goal ({word:?}) in {situation:?}"));
    }
    names_a_slider(opener, lang).map(|word| format!("names a slider ({word:?})"))
}
