//! [`Guesser`] against whatlang itself: the same [`whatlang::Info`] (the
//! language and the confidence, to the bit) for every text.

use proptest::prelude::*;
use whatlang::{Detector, Lang};

use super::guess::{is_latin_script, trigrams, Guesser};
use super::profiles;
use super::tests::{CHINESE, ENGLISH, PORTUGUESE};

/// Allowlists with a profile for every Latin-script language, and two
/// without (which whatlang answers).
fn allowlists() -> Vec<Vec<Lang>> {
    vec![
        vec![Lang::Eng, Lang::Por],
        vec![Lang::Por, Lang::Eng],
        vec![Lang::Eng],
        vec![Lang::Por],
        vec![Lang::Eng, Lang::Por, Lang::Cmn],
        vec![Lang::Eng, Lang::Spa],
        vec![Lang::Cmn],
    ]
}

fn same_as_whatlang(text: &str) {
    for langs in allowlists() {
        let ours = Guesser::with_allowlist(langs.clone()).detect(text);
        let theirs = Detector::with_allowlist(langs.clone()).detect(text);
        assert_eq!(ours, theirs, "{langs:?} on {text:?}");
    }
}

#[test]
fn each_profile_is_300_distinct_trigrams_and_an_alphabet() {
    for profile in profiles::ALL {
        let mut all: Vec<[char; 3]> = trigrams(&profile).collect();
        assert_eq!(all.len(), 300, "{:?}", profile.lang);
        assert_eq!(profile.trigrams.matches('|').count(), 300);
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 300, "{:?} repeats a trigram", profile.lang);
        assert!(profile.alphabet.chars().all(char::is_alphabetic));
    }
}

#[test]
fn the_same_guess_as_whatlang_on_every_phrase_the_judge_tests_hold() {
    let corpora = [
        include_str!("../directions/corpus/en.txt"),
        include_str!("../directions/corpus/pt.txt"),
        include_str!("../directions/corpus/zh.txt"),
    ];
    let lines = corpora.iter().flat_map(|c| c.lines());
    let phrases = ENGLISH.iter().chain(PORTUGUESE).chain(CHINESE).copied();
    let mut n = 0;
    for text in lines.chain(phrases) {
        same_as_whatlang(text);
        n += 1;
    }
    assert!(n > 400, "{n} texts");
}

#[test]
fn the_same_guess_as_whatlang_on_texts_whatlang_finds_hard() {
    for text in [
        "",
        " ",
        "a",
        "Ab",
        "İstanbul ÇAÇA ẞ straße",
        "θ θ θ θ θ θ and the bias",
        "Ação! ÇÃO ÃO ação, ação; ação.",
        "café\u{301} crème brûlée",
        "the the the the the the the the the",
        "de de de de de de de de de de",
        "Nice! 你做得很好，继续加油",
        "Почти получилось! bias up",
        "\u{a0}\u{2003}weight\u{200b}bias",
        "🎉🎉🎉 great 🎉🎉🎉",
    ] {
        same_as_whatlang(text);
    }
    let long: String = ENGLISH.iter().chain(PORTUGUESE).copied().collect();
    same_as_whatlang(&long);
    same_as_whatlang(&long.repeat(8));
}

/// Words of both languages, their capitals and accents, and what replies
/// carry besides: numbers, punctuation, emoji, other scripts.
const PIECES: &[&str] = &[
    "the",
    "error",
    "is",
    "bias",
    "weight",
    "raise",
    "lower",
    "nice",
    "keep",
    "going",
    "almost",
    "there",
    "houses",
    "line",
    "step",
    "Great",
    "THE",
    "o",
    "erro",
    "é",
    "viés",
    "peso",
    "suba",
    "baixe",
    "ação",
    "quase",
    "lá",
    "mandou",
    "bem",
    "não",
    "está",
    "Ótimo",
    "ÇÃO",
    "você",
    "muito",
    "casas",
    "reta",
    "de",
    "que",
    "las",
    "muy",
    "pero",
    "und",
    "der",
    "799.09",
    "450",
    "13",
    "!",
    "?",
    ",",
    ".",
    "—",
    "🎉",
    "加油",
    "θ",
    "Почти",
    "İ",
    "ß",
    "ñ",
    "œ",
    "\u{301}",
    "'",
    "\"",
];

/// The script test answers as whatlang's `detect_script` for every
/// character, alone, among Latin letters and outnumbering them.
#[test]
fn the_script_test_is_whatlangs_for_every_character() {
    let latin = |text: &str| whatlang::detect_script(text) == Some(whatlang::Script::Latin);
    for c in (0..0x3_0000).filter_map(char::from_u32) {
        for text in [format!("{c}"), format!("ab{c}"), format!("{c}{c}{c}a")] {
            assert_eq!(is_latin_script(&text), latin(&text), "{text:?}");
        }
    }
}

fn sentence() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(PIECES);
    let gap = prop::sample::select(&[" ", " ", " ", "", ", ", "! ", "\n"][..]);
    prop::collection::vec((piece, gap), 0..40)
        .prop_map(|parts| parts.into_iter().flat_map(|(p, g)| [p, g]).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn the_same_guess_as_whatlang_on_sentences_of_both_languages(text in sentence()) {
        same_as_whatlang(&text);
    }

    #[test]
    fn the_same_guess_as_whatlang_on_any_text(text in "\\PC{0,120}") {
        same_as_whatlang(&text);
    }

    /// Long enough for more than 300, and more than 600, distinct trigrams.
    #[test]
    fn the_same_guess_as_whatlang_on_long_letter_soup(text in "[a-zãçéõ ]{400,3000}") {
        same_as_whatlang(&text);
    }
}
