//! Whether a reply is in the visitor's language.
//!
//! Chinese by its script: a reply with letters but no Han characters, with
//! more than twice as many Latin letters as Han characters, or with kana,
//! Hangul or Cyrillic among them (Japanese, Korean, Russian) is not Chinese.
//! English and Portuguese are written in Latin letters: a reply mostly in
//! another script is in neither; between the languages written in Latin
//! letters, `whatlang` decides, asked to choose between just these (each
//! language's [`Script`], in its words), and only where it is sure
//! ([`whatlang::Info::is_reliable`]) of a text of at least [`FLOOR`] letters;
//! [`guess`] computes whatlang's answer faster for the languages it holds.
//! Short replies ("Nice!", "Boa!") are too short to tell, and a guess never
//! throws a good one away. Before the guess, a word of a neighbouring
//! language that this one never writes (its words' `foreign`: Spanish "las"
//! or "muy" in Portuguese) is the wrong language at once: whatlang, sure of
//! the whole, lets a Portuguese sentence with a Spanish word through. A reply with no letters at all (`450!`, an emoji)
//! is in no language and passes. Pure.

mod guess;
#[cfg(test)]
mod guess_tests;
mod profiles;

use std::sync::LazyLock;

use guess::Guesser;

use crate::words::{words_for, Script};
use vocabulary::Lang;

/// Fewer Latin letters than this, and English and Portuguese are not told apart.
pub const FLOOR: usize = 8;

/// The letters of a text, by script.
#[derive(Debug, Default, PartialEq)]
struct Letters {
    han: usize,
    latin: usize,
    /// Kana, Hangul, Cyrillic, Arabic… (Greek is left out: θ, α are maths.)
    other: usize,
}

fn is_han(c: char) -> bool {
    matches!(c as u32,
        0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x3134F)
}

fn is_latin(c: char) -> bool {
    c.is_ascii_alphabetic()
        || (matches!(c as u32, 0xC0..=0x24F | 0x1E00..=0x1EFF) && c.is_alphabetic())
}

fn is_greek(c: char) -> bool {
    matches!(c as u32, 0x370..=0x3FF | 0x1F00..=0x1FFF)
}

fn letters(text: &str) -> Letters {
    let mut count = Letters::default();
    for c in text.chars().filter(|c| c.is_alphabetic()) {
        if is_han(c) {
            count.han += 1;
        } else if is_latin(c) {
            count.latin += 1;
        } else if !is_greek(c) {
            count.other += 1;
        }
    }
    count
}

/// The languages we speak that are written in Latin letters, nothing else.
static LATIN: LazyLock<Guesser> = LazyLock::new(|| {
    let latin = Lang::ALL
        .into_iter()
        .filter_map(|lang| match words_for(lang).script {
            Script::Latin(language) => Some(language),
            Script::Han => None,
        });
    Guesser::with_allowlist(latin.collect())
});

/// Whether a word of `text` (a run of letters, in any case) is one of `foreign`.
fn has_foreign_word(text: &str, foreign: &[&str]) -> bool {
    !foreign.is_empty()
        && text
            .split(|c: char| !c.is_alphabetic())
            .filter(|word| !word.is_empty())
            .any(|word| {
                // Lower-cased as it is compared: no copy a word.
                let lower = || word.chars().flat_map(char::to_lowercase);
                foreign.iter().any(|f| lower().eq(f.chars()))
            })
}

/// Whether `text` is, as far as can be told, not in `lang`.
pub fn wrong(text: &str, lang: Lang) -> bool {
    let count = letters(text);
    match words_for(lang).script {
        Script::Han => {
            let any = count.han + count.latin + count.other > 0;
            any && (count.han == 0 || count.latin > 2 * count.han || count.other * 4 > count.han)
        }
        Script::Latin(wanted) => {
            if count.han + count.other > count.latin {
                return true;
            }
            if has_foreign_word(text, words_for(lang).foreign) {
                return true;
            }
            if count.latin < FLOOR {
                return false;
            }
            LATIN
                .detect(text)
                .is_some_and(|info| info.is_reliable() && info.lang() != wanted)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Real phrasings, short ones first: none may be thrown away.
    pub(super) const ENGLISH: &[&str] = &[
        "Nice!",
        "Great!",
        "Good job!",
        "Almost there!",
        "So close!",
        "Keep going!",
        "Not bad!",
        "Oops!",
        "Bravo!",
        "Super!",
        "Perfect!",
        "Fantastic!",
        "Legendary!",
        "Nailed it!",
        "Steady now.",
        "Easy does it.",
        "Tiny steps!",
        "450!",
        "799.09 🎉",
        "Final stretch!",
        "Patience pays off.",
        "Fine-tune it.",
        "Hold steady!",
        "Bias up, weight steady.",
        "So close! Tiny steps now.",
        "Raise the bias by 13.",
        "Stay calm, adjust the bias.",
        "Move the weight a little.",
        "Error 799.09. Adjust the bias.",
        "Wow, the error collapsed!",
        "Bold start! That line is aiming at houses on the Moon.",
        "The error is 799.09. The next move is to raise the bias by 13.",
        "Ouch, that went the wrong way. Hold the weight and nudge the bias.",
        "Voilà! A fine fit, and a café for the neuron.",
    ];
    pub(super) const PORTUGUESE: &[&str] = &[
        "Boa!",
        "Ótimo!",
        "Muito bem!",
        "Quase lá!",
        "Falta pouco!",
        "Vamos lá!",
        "Mandou bem!",
        "Bravo!",
        "Super!",
        "Top!",
        "Legal!",
        "Show de bola!",
        "Perfeito!",
        "Excelente!",
        "Parabéns!",
        "Isso aí!",
        "Beleza!",
        "Arrasou!",
        "Perto!",
        "Calma!",
        "Melhorou!",
        "Piorou.",
        "Esquentando!",
        "450!",
        "Boa! Suba o viés.",
        "Ajuste o viés.",
        "Baixe o peso.",
        "Ajuste fino!",
        "Bom trabalho!",
        "Erro 799,09. Ajuste o viés.",
        "Viés pra cima, peso firme.",
        "Um passo de cada vez.",
        "Segure o peso e mexa de leve no bias.",
        "Começo ousado! Essa reta está mirando em casas na Lua.",
        "O erro é 799,09. O próximo passo é aumentar o viés em 13.",
        "Top! Show! Mandou muito bem, continue assim.",
    ];
    pub(super) const CHINESE: &[&str] = &[
        "加油！",
        "好！",
        "不错！",
        "快到了！",
        "450！",
        "🎉",
        "误差 799.09，继续！",
        "把偏置调高约 13。",
        "调高bias约13",
        "MSE 降了不少，θ 再调一调。",
        "低于 450，这是目前最好的成绩。",
        "開局很大膽！",
    ];

    #[test]
    fn real_phrasings_in_their_own_language_pass() {
        for (lang, texts) in [
            (Lang::En, ENGLISH),
            (Lang::Pt, PORTUGUESE),
            (Lang::Zh, CHINESE),
        ] {
            for text in texts {
                assert!(!wrong(text, lang), "{lang:?} thrown away: {text}");
            }
        }
    }

    #[test]
    fn replies_in_another_language_are_caught() {
        for (lang, text) in [
            // English to Portuguese.
            (Lang::Pt, "Almost there!"),
            (Lang::Pt, "Lower the weight a touch."),
            (
                Lang::Pt,
                "The error is 799.09. The next move is to raise the bias by 13.",
            ),
            (
                Lang::Pt,
                "Bold start! That line is aiming at houses on the Moon.",
            ),
            (
                Lang::Pt,
                "Great job, the line is getting closer to the houses.",
            ),
            // Portuguese to English.
            (Lang::En, "Quase lá! Suba o viés."),
            (Lang::En, "Um passo atrás. Segure o peso e refine o viés."),
            (
                Lang::En,
                "O que é o que não? Espero estamos a ser o que não.",
            ),
            (Lang::En, "Aumente o viés em cerca de 13."),
            // English, Portuguese or Japanese to Chinese.
            (Lang::Zh, "Keep going, you are close!"),
            (Lang::Zh, "Nice!"),
            (Lang::Zh, "Quase lá!"),
            (Lang::Zh, "Great job! 加油"),
            (Lang::Zh, "加油！Keep going!"),
            (Lang::Zh, "頑張って！"),
            (Lang::Zh, "Почти получилось!"),
            // Spanish words in Portuguese, which whatlang takes for Portuguese.
            (Lang::Pt, "Las regras mais não são abaixo de 450."),
            (Lang::Pt, "Muy bem! Suba o viés."),
            (Lang::Pt, "Boa, pero ajuste o peso."),
            (Lang::Pt, "Ahora suba o viés."),
            // Another script to English or Portuguese.
            (Lang::En, "加油！继续努力"),
            (Lang::Pt, "Почти получилось! Увеличьте смещение."),
            (Lang::En, "Nice! 你做得很好，继续加油"),
        ] {
            assert!(wrong(text, lang), "{lang:?} let through: {text}");
        }
    }
}
