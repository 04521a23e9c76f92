//! Which moves a comment advises: "raise the bias", "diminua o peso", "把权重调低".
//!
//! A model may rephrase the facts ([`crate::advice`]) but not contradict them,
//! so [`super::reply::check`] reads each clause of an answer for one parameter
//! (weight or bias) and one way (up or down), per language, and rejects the
//! answer when the facts say that move raises the error. Keyword sets, not a
//! parser: a clause naming both parameters, both ways or a negation ("don't
//! lower the bias") says nothing we can hold it to, and is skipped. The check
//! errs on the side of letting an answer through.
//! Pure; its keywords are in the language files.

use super::words_for;
use crate::{
    advice::{Param, Way},
    coach::lang::Lang,
};

/// The moves `text` advises, one per clause that names exactly one parameter
/// and one way, without a negation.
pub fn advised(text: &str, lang: Lang) -> Vec<(Param, Way)> {
    let w = &words_for(lang).directions;
    let mut lowered = format!(" {} ", text.to_lowercase());
    for join in w.joins {
        lowered = lowered.replace(join, ".");
    }
    lowered
        .split(|c: char| ".,;:!?。，；：！？、".contains(c))
        .filter_map(|clause| {
            let has = |list: &[&str]| list.iter().any(|k| contains_word(clause, k, w.whole_words));
            if has(w.negations) {
                return None;
            }
            let param = match (has(w.weight), has(w.bias)) {
                (true, false) => Param::Weight,
                (false, true) => Param::Bias,
                _ => return None,
            };
            let way = match (has(w.up), has(w.down)) {
                (true, false) => Way::Up,
                (false, true) => Way::Down,
                _ => return None,
            };
            Some((param, way))
        })
        .collect()
}

/// `key` in `clause`. English keys are whole words ("up" is not in "cup" or
/// "update"), or stems at a word's start when they end in `*` ("lower*" finds
/// "lowering", not "flower"). Portuguese stems and Chinese words match anywhere.
fn contains_word(clause: &str, key: &str, whole_words: bool) -> bool {
    if !whole_words {
        return clause.contains(key);
    }
    let (key, stem) = match key.strip_suffix('*') {
        Some(stem) => (stem, true),
        None => (key, false),
    };
    let boundary = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric() && c != '\'');
    clause.match_indices(key).any(|(at, _)| {
        let starts = boundary(clause[..at].chars().next_back());
        let ends = stem || boundary(clause[at + key.len()..].chars().next());
        starts && ends
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use Param::{Bias, Weight};
    use Way::{Down, Up};

    #[test]
    fn english_phrasings() {
        for (text, moves) in [
            ("Raise the bias by about 13!", vec![(Bias, Up)]),
            ("Nudge the bias up a little.", vec![(Bias, Up)]),
            (
                "Try lowering the weight and raising the bias together.",
                vec![(Weight, Down), (Bias, Up)],
            ),
            (
                "Bring the weight down a touch, then push the bias higher.",
                vec![(Weight, Down), (Bias, Up)],
            ),
            (
                "Decrease the bias, you're overshooting.",
                vec![(Bias, Down)],
            ),
            ("Increasing the slope should help.", vec![(Weight, Up)]),
            // Nothing to hold it to:
            ("Don't lower the bias yet!", vec![]),
            ("The error is lower now, nice!", vec![]),
            ("Move the weight and the bias together.", vec![]),
            ("Keep going, champion!", vec![]),
            ("A cup of bias.", vec![]),
        ] {
            assert_eq!(advised(text, Lang::En), moves, "{text}");
        }
    }

    #[test]
    fn portuguese_phrasings() {
        for (text, moves) in [
            ("Aumente o viés em uns 13!", vec![(Bias, Up)]),
            ("Suba um pouco o viés.", vec![(Bias, Up)]),
            (
                "Diminua o peso e aumente o viés juntos.",
                vec![(Weight, Down), (Bias, Up)],
            ),
            ("Tente reduzir o viés, passou do ponto.", vec![(Bias, Down)]),
            ("Abaixe o peso devagar.", vec![(Weight, Down)]),
            ("Não diminua o viés agora!", vec![]),
            ("O erro ficou menor, boa!", vec![]),
        ] {
            assert_eq!(advised(text, Lang::Pt), moves, "{text}");
        }
    }

    #[test]
    fn chinese_phrasings() {
        for (text, moves) in [
            ("把偏置调高约 13！", vec![(Bias, Up)]),
            ("试着提高偏置。", vec![(Bias, Up)]),
            ("降低权重，同时提高偏置。", vec![(Weight, Down), (Bias, Up)]),
            ("偏置减少一点，你超过了。", vec![(Bias, Down)]),
            ("快到了！把偏置再调低一点就行。", vec![(Bias, Down)]),
            ("先调高偏置，再降低权重。", vec![(Bias, Up), (Weight, Down)]),
            ("权重再小一点试试。", vec![(Weight, Down)]),
            ("别降低偏置！", vec![]),
            ("误差变小了，不错！", vec![]),
        ] {
            assert_eq!(advised(text, Lang::Zh), moves, "{text}");
        }
    }
}
