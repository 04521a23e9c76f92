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

use super::{numbers, salvage::sentences};
use crate::{
    judge::directions::{clauses, normalise, word_matches},
    words::{words_for, ClaimWords},
};
use lesson::neuron::GOAL;
use vocabulary::Lang;

/// One place of a sentence.
#[derive(Debug)]
pub(super) enum Token {
    Word(String),
    /// A number, as its readings' values.
    Number(Vec<f64>),
}

/// The words and numbers of a normalised sentence: runs of letters, and
/// each Chinese character alone (a run of Latin letters in Chinese stays a
/// word). Every round takes at least one character.
pub(super) fn tokens(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        if c.is_ascii_digit() {
            while i < chars.len()
                && (chars[i].is_ascii_digit()
                    || (matches!(chars[i], '.' | ',')
                        && chars.get(i + 1).is_some_and(char::is_ascii_digit)))
            {
                i += 1;
            }
            let written: String = chars[start..i].iter().collect();
            out.extend(
                numbers::numbers(&written)
                    .into_iter()
                    .map(|rs| Token::Number(rs.into_iter().map(|r| r.value).collect())),
            );
        } else if c >= '\u{2E80}' && c.is_alphanumeric() {
            // A Han character (or kana, Hangul) is a word of its own, in
            // any language's reply.
            out.push(Token::Word(c.to_string()));
            i += 1;
        } else if c.is_alphabetic() {
            while i < chars.len()
                && (chars[i].is_alphanumeric() && chars[i] < '\u{2E80}'
                    || chars[i] == '\'' && chars.get(i + 1).is_some_and(|c| c.is_alphabetic()))
            {
                i += 1;
            }
            out.push(Token::Word(chars[start..i].iter().collect()));
        } else {
            i += 1;
        }
    }
    out
}

/// The parts of a key: its words, or (Chinese) its characters.
fn parts(key: &str, by_characters: bool) -> Vec<String> {
    if by_characters {
        key.chars()
            .filter(|c| !c.is_whitespace())
            .map(String::from)
            .collect()
    } else {
        key.split(' ').map(String::from).collect()
    }
}

/// Whether `parts` match the tokens from `at` on.
fn matches_at(tokens: &[Token], at: usize, parts: &[String]) -> bool {
    tokens.get(at..at + parts.len()).is_some_and(|run| {
        run.iter()
            .zip(parts)
            .all(|(t, p)| matches!(t, Token::Word(w) if word_matches(p, w)))
    })
}

/// Where a key of `keys` matches in `tokens`: (start, length) of each.
pub(super) fn find(tokens: &[Token], keys: &[&str], by_characters: bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for key in keys {
        let parts = parts(key, by_characters);
        for at in 0..tokens.len() {
            if matches_at(tokens, at, &parts) {
                out.push((at, parts.len()));
            }
        }
    }
    out
}

/// Whether a number token is the goal or less, however it is read
/// (`1,000` is a thousand, though a Portuguese reading makes it 1).
fn at_most_goal(token: Option<&Token>) -> bool {
    matches!(token, Some(Token::Number(values)) if values.iter().all(|v| *v <= GOAL + 1e-9))
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
}

impl Sentence<'_> {
    /// Where a key of `keys` matches: (start, length) of each.
    pub fn find(&self, keys: &[&str]) -> Vec<(usize, usize)> {
        find(&self.tokens, keys, self.by_characters)
    }

    /// Whether a key of `keys` is in it.
    pub fn says(&self, keys: &[&str]) -> bool {
        !self.find(keys).is_empty()
    }

    /// A question claims nothing ("Below 450?").
    pub fn is_question(&self) -> bool {
        self.written.contains(['?', '？'])
    }
}

/// Whether `claim` holds of any sentence of `text`, read in `lang`.
pub(super) fn any_sentence(text: &str, lang: Lang, claim: impl Fn(&Sentence) -> bool) -> bool {
    let words = words_for(lang);
    sentences(text).into_iter().any(|written| {
        let normalised = normalise(written, &words.directions);
        let sentence = Sentence {
            tokens: tokens(&normalised),
            normalised,
            written,
            words: &words.claims,
            by_characters: words.directions.by_characters,
        };
        claim(&sentence)
    })
}

/// Whether `text` says the goal is reached.
pub fn claims_goal(text: &str, lang: Lang) -> bool {
    any_sentence(text, lang, |s| {
        let (w, by_characters) = (s.words, s.by_characters);
        if s.is_question() || s.says(w.negations) {
            return false;
        }
        s.says(w.reached)
            || alone(&s.normalised, w, by_characters)
            || below(&s.tokens, w, by_characters)
    })
}

/// Whether `text` names the goal's number (450, however written) in a
/// sentence that is not an aim: no `aims` word before the number, and not a
/// question. Judged only above the goal (the caller's part).
pub fn names_goal_outside_aim(text: &str, lang: Lang) -> bool {
    any_sentence(text, lang, |s| {
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
            matches!(token, Token::Number(values) if values.iter().any(|v| (v - GOAL).abs() < 1e-9))
                && at < first_aim
        })
    })
}

/// An `alone` phrase as a whole clause of `sentence`.
fn alone(sentence: &str, w: &ClaimWords, by_characters: bool) -> bool {
    clauses(sentence).into_iter().any(|clause| {
        let tokens = tokens(clause);
        w.alone.iter().any(|key| {
            let parts = parts(key, by_characters);
            parts.len() == tokens.len() && matches_at(&tokens, 0, &parts)
        })
    })
}

/// "below 450" or "450 以下", in a sentence that states no aim.
fn below(tokens: &[Token], w: &ClaimWords, by_characters: bool) -> bool {
    if !find(tokens, w.aims, by_characters).is_empty() {
        return false;
    }
    let before = find(tokens, w.below, by_characters)
        .into_iter()
        .any(|(at, n)| at_most_goal(tokens.get(at + n)));
    let after = find(tokens, w.below_after, by_characters)
        .into_iter()
        .any(|(at, _)| at_most_goal(at.checked_sub(1).and_then(|i| tokens.get(i))));
    before || after
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_of_the_goal_in_three_languages() {
        for (lang, text) in [
            (Lang::En, "Below 450! Great work."),
            (Lang::En, "You're below 450 now, well done!"),
            (Lang::En, "Error under 450.00: goal reached!"),
            (Lang::En, "Goal reached!"),
            (Lang::En, "You did it! The line fits."),
            (Lang::En, "Great, you did it."),
            (Lang::En, "Perfect fit, champion."),
            (Lang::En, "Success!"),
            (Lang::En, "A win. Now nudge the bias in small steps."),
            (Lang::En, "Nice. You've trained a neuron!"),
            (Lang::En, "Less than 450, the best so far."),
            (
                Lang::En,
                "Your best move so far, and you've got your first goal!",
            ),
            (Lang::Pt, "Abaixo de 450! Parabéns."),
            (Lang::Pt, "Meta atingida, que beleza!"),
            (Lang::Pt, "Conseguiu!"),
            (Lang::Pt, "Você conseguiu, parabéns!"),
            (Lang::Pt, "O erro ficou abaixo de 450."),
            (Lang::Pt, "Você já está abaixo dos 450!"),
            (Lang::Pt, "Missão cumprida."),
            (Lang::Zh, "低于 450，这是目前最好的成绩。"),
            (Lang::Zh, "低于450了！"),
            (Lang::Zh, "误差已经在 450 以下了！"),
            (Lang::Zh, "达标了！"),
            (Lang::Zh, "恭喜，达到目标！"),
            (Lang::Zh, "成功了！"),
            (Lang::Zh, "你做到了。"),
            (Lang::Zh, "成功！"),
            (Lang::Zh, "已经降到 450 以下了。"),
        ] {
            assert!(claims_goal(text, lang), "{lang:?} not caught: {text}");
        }
    }

    #[test]
    fn aims_negations_and_other_numbers_claim_nothing() {
        for (lang, text) in [
            (Lang::En, "Keep going to get below 450!"),
            (Lang::En, "The goal is below 450; you're at 799.09."),
            (Lang::En, "Error now: 812.50 (goal: below 450)."),
            (Lang::En, "Not below 450 yet, but close."),
            (Lang::En, "Almost below 450!"),
            (Lang::En, "Below 450? Not yet."),
            (Lang::Zh, "低于 450？还差一点。"),
            (Lang::En, "You're nearly there, you almost did it!"),
            (Lang::En, "Aim below 450 with small steps."),
            (Lang::En, "Below 600 now. Next stop: the goal."),
            (Lang::En, "Under 1,000! Great progress."),
            (Lang::En, "Not a perfect fit yet."),
            (
                Lang::En,
                "Bold start! That line is aiming at houses on the Moon.",
            ),
            (Lang::En, "The error is lower than before."),
            (Lang::Pt, "Falta pouco para ficar abaixo de 450!"),
            (Lang::Pt, "A meta é ficar abaixo de 450."),
            (Lang::Pt, "Ainda não está abaixo de 450."),
            (Lang::Pt, "Quase conseguiu!"),
            (Lang::Pt, "Você conseguiu melhorar bastante!"),
            (Lang::Pt, "Abaixo de 800, bom avanço."),
            (Lang::Pt, "Tente chegar abaixo de 450."),
            (Lang::Pt, "O viés ainda está abaixo do ideal."),
            (Lang::Zh, "快低于 450 了！"),
            (Lang::Zh, "还没有达标，继续加油。"),
            (Lang::Zh, "目标：低于 450。"),
            (Lang::Zh, "把误差降到 450 以下吧。"),
            (Lang::Zh, "差一点就成功了！"),
            (Lang::Zh, "低于 800 了，进步很大！"),
            (Lang::Zh, "能降到 450 以下吗？"),
            (Lang::Zh, "离目标很近了！现在动作要小。"),
            (Lang::Zh, "这是成功的一步。"),
        ] {
            assert!(!claims_goal(text, lang), "{lang:?} wrongly caught: {text}");
        }
    }

    #[test]
    fn above_the_goal_its_number_is_named_only_as_an_aim() {
        // Served by SmolLM2-135M above the goal (modelbench, 3 December): the
        // number as if reached or near, with or without a negation.
        for (lang, text) in [
            (
                Lang::Zh,
                "跳过一段偏置，看红色差距低于 450；这将他人成功的扩大。",
            ),
            (Lang::Zh, "这是目前最差的低于 450…"),
            (Lang::Pt, "Las regras mais não são abaixo de 450…"),
            (Lang::En, "Not below 450 yet, but close."),
            (Lang::En, "Almost below 450!"),
            (Lang::En, "450 is close, great work."),
            (Lang::Pt, "Ainda não está abaixo de 450."),
            (Lang::Zh, "快低于 450 了！"),
            (Lang::Zh, "误差 450.00，继续！"),
        ] {
            assert!(
                names_goal_outside_aim(text, lang),
                "{lang:?} let through: {text}"
            );
        }
        for (lang, text) in [
            (Lang::En, "Keep going to get below 450!"),
            (Lang::En, "The goal is below 450; you're at 799.09."),
            (Lang::En, "Error now: 812.50 (goal: below 450)."),
            (Lang::En, "Aim below 450 with small steps."),
            (Lang::En, "Below 450? Not yet."),
            (Lang::En, "Below 600 now. Next stop: the goal."),
            (Lang::En, "Raise the bias by 13."),
            (Lang::En, "Error 812.50, 362.50 to go."),
            (Lang::Pt, "Tente chegar abaixo de 450."),
            (Lang::Pt, "A meta é ficar abaixo de 450."),
            (Lang::Pt, "Falta pouco para ficar abaixo de 450!"),
            (Lang::Zh, "目标：低于 450。"),
            (Lang::Zh, "要低于 450，先调偏置。"),
            (Lang::Zh, "把误差降到 450 以下吧。"),
            (Lang::Zh, "能降到 450 以下吗？"),
            (Lang::Zh, "误差 4500，离目标还远。"),
        ] {
            assert!(
                !names_goal_outside_aim(text, lang),
                "{lang:?} thrown away: {text}"
            );
        }
    }

    /// Found by the property test: a Han character in an English reply
    /// once stopped the tokeniser from moving on.
    #[test]
    fn any_script_in_any_language_is_read_to_its_end() {
        for lang in Lang::ALL {
            for text in [
                "Nice 加油 below 450!",
                "ok 𠀀 ok",
                "Ação! 한국어 450",
                "θ 12 ª",
            ] {
                let _ = claims_goal(text, lang);
            }
        }
        assert!(claims_goal("加油, below 450!", Lang::En));
    }

    #[test]
    fn only_the_goal_tier_examples_claim_it() {
        for lang in Lang::ALL {
            let examples = words_for(lang).examples;
            for (_, _, answer) in examples[0].iter().chain(examples[1].iter()) {
                assert!(!claims_goal(answer, lang), "{lang:?}: {answer}");
            }
        }
    }
}
