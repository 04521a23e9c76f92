//! Whether a reply says the same words over, the mark of word salad in a
//! small model's Portuguese: "Não, não! Não! Não! Nao! Vamos fazer ao que
//! ocorreramos." and "O que é o que não? Espero estamos a ser o que não."
//! (SmolLM2-135M, docs/benchmarks/model.md): both in the right language, no
//! number, nothing false to catch, and nothing said.
//!
//! Read on the words of the whole reply (lower case, accents dropped,
//! punctuation ignored), two ways:
//!
//! - the same word three times in a row ("não não não"), in English and
//!   Portuguese (Chinese writes "哈哈哈" and "一点一点" on purpose);
//! - a run of words said twice: three words in English and Portuguese ("o
//!   que não … o que não"), four characters in Chinese, where each
//!   character is a word; or two words said three times ("good job, good
//!   job, good job").
//!
//! A short reply of real phrasings says neither: every example answer and
//! every sentence of the offline commentator passes (tests here and in
//! `offline`). Pure.

use compact_str::CompactString;

use super::claims::{tokens, Token};
use vocabulary::Lang;

/// The words of `text` for comparing: lower case, accents dropped (kept
/// inline: a reply's words are short).
fn words(text: &str) -> Vec<CompactString> {
    tokens(&text.to_lowercase())
        .into_iter()
        .filter_map(|t| match t {
            // Accents are all a word can lose: an ASCII word is kept as is.
            Token::Word(w) if w.is_ascii() => Some(w),
            Token::Word(w) => Some(w.chars().map(plain).collect()),
            Token::Number(_) => None,
        })
        .collect()
}

/// A Latin letter without its accent: models drop them at random ("nao").
fn plain(c: char) -> char {
    match c {
        'á' | 'à' | 'â' | 'ã' | 'ä' => 'a',
        'é' | 'è' | 'ê' | 'ë' => 'e',
        'í' | 'ì' | 'î' | 'ï' => 'i',
        'ó' | 'ò' | 'ô' | 'õ' | 'ö' => 'o',
        'ú' | 'ù' | 'û' | 'ü' => 'u',
        'ç' => 'c',
        c => c,
    }
}

/// Whether `text` repeats itself (module docs).
pub fn repeats(text: &str, lang: Lang) -> bool {
    let words = words(text);
    let (run, by_characters) = if lang.profile().spaced {
        (3, false)
    } else {
        (4, true)
    };
    let thrice = !by_characters && words.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]);
    thrice || said(&words, run, 2) || (!by_characters && said(&words, 2, 3))
}

/// Whether a run of `n` words occurs `times` times without overlapping.
fn said(words: &[CompactString], n: usize, times: usize) -> bool {
    (0..words.len().saturating_sub(n)).any(|i| {
        let run = &words[i..i + n];
        let (mut found, mut j) = (1, i + n);
        while j + n <= words.len() && found < times {
            if &words[j..j + n] == run {
                found += 1;
                j += n;
            } else {
                j += 1;
            }
        }
        found >= times
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::words_for;

    #[test]
    fn the_benchmarks_word_salad_is_caught() {
        for (lang, text) in [
            (
                Lang::Pt,
                "Não, não! Não! Não! Nao! Vamos fazer ao que ocorreramos.",
            ),
            (
                Lang::Pt,
                "O que é o que não? Espero estamos a ser o que não.",
            ),
            (Lang::En, "Good job, good job, good job!"),
            (Lang::En, "No no no, the bias."),
            (Lang::Zh, "误差很大，误差很大。"),
            (Lang::Zh, "调整偏置，再调整偏置吧。"),
        ] {
            assert!(repeats(text, lang), "{lang:?}: {text}");
        }
    }

    #[test]
    fn real_phrasings_pass() {
        for (lang, text) in [
            (Lang::En, "Nice!"),
            (
                Lang::En,
                "The error is 799.09. The next move is to raise the bias by 13.",
            ),
            (Lang::En, "Lower the weight, then lower the bias a little."),
            (Lang::En, "Step by step, the line is getting there."),
            (Lang::Pt, "Boa! Suba o viés."),
            (
                Lang::Pt,
                "O erro caiu para 799,09; agora baixe o peso um pouco.",
            ),
            (Lang::Pt, "Passo a passo, a reta chega lá."),
            (Lang::Zh, "加油！"),
            (Lang::Zh, "哈哈哈，差一点！"),
            (Lang::Zh, "一点一点调低权重，再调高偏置。"),
            (Lang::Zh, "误差 799.09，先调低权重，再调高偏置。"),
        ] {
            assert!(!repeats(text, lang), "{lang:?}: {text}");
        }
    }

    #[test]
    fn every_example_answer_passes() {
        for lang in Lang::ALL {
            for tier in words_for(lang).examples {
                for (_, _, answer) in tier.iter() {
                    assert!(!repeats(answer, lang), "{lang:?}: {answer}");
                }
            }
        }
    }
}
