//! A clause as a row of keywords ([`Lexeme`]s): the text normalised (lower
//! case, straight apostrophes, Simplified characters), then cut into words
//! (English, Portuguese) or read character by character (Chinese), each place
//! taking the longest key of the language's [`DirectionWords`] that matches.
//! Pure.

use std::sync::LazyLock;

use foldhash::{HashMap, HashMapExt};

use crate::judge::key_index::KeyIndex;
use crate::words::{words_for, DirectionWords};
use lesson::advice::{Param, Way};
use vocabulary::Lang;

/// What a slider word names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Noun {
    Slider(Param),
    /// The error: "lower the error" moves no slider.
    Error,
}

/// What one place of a clause is, for the direction check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lexeme {
    Noun(Noun),
    /// A move word; `past` when its ending puts it in the past ("lowered").
    Move {
        way: Way,
        past: bool,
    },
    /// "more", "less" (see `DirectionWords::more`).
    Amount(Way),
    Negation,
    VerbNegation,
    Join,
    Cutoff,
    Describer,
    Adverb,
    Than,
    Comparative,
    PastMarker,
    Pronoun,
    Filler,
    /// An idiom, or any other word.
    Other,
}

/// The apostrophes [`normalise`] makes straight.
const APOSTROPHES: [char; 5] = ['\u{2019}', '\u{2018}', '\u{02BC}', '\u{00B4}', '`'];

/// `text` in lower case, with straight apostrophes and the language's
/// Simplified characters.
pub fn normalise(text: &str, w: &DirectionWords) -> String {
    let lower = text.to_lowercase();
    // Most replies have nothing more to change (a language without
    // Traditional characters, no curly apostrophe).
    if w.simplified.is_empty() && !lower.contains(APOSTROPHES) {
        return lower;
    }
    let mut out = String::with_capacity(lower.len());
    out.extend(lower.chars().map(|c| {
        match c {
            c if APOSTROPHES.contains(&c) => '\'',
            c => w
                .simplified
                .iter()
                .find(|(traditional, _)| *traditional == c)
                .map_or(c, |&(_, simplified)| simplified),
        }
    }));
    out
}

/// Characters that end a clause, besides `.`, `,` and `-` (which depend on
/// their neighbours). Not `、` (it lists nouns: "权重、偏置").
const BREAKS: &[char] = &[
    ';', ':', '!', '?', '…', '(', ')', '[', ']', '\n', '—', '–', '。', '，', '；', '：', '！',
    '？', '（', '）', '【', '】',
];

/// The clauses of normalised `text`: cut at punctuation, dashes (`—`, `–`,
/// and ` - ` with spaces) and colons, but not at a decimal point or a
/// thousands separator between digits (`1.234,56`).
pub fn clauses(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut before = None;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let after = chars.peek().map(|&(_, c)| c);
        let cut = match c {
            '.' | ',' => {
                !(before.is_some_and(|b: char| b.is_ascii_digit())
                    && after.is_some_and(|a| a.is_ascii_digit()))
            }
            '-' => {
                before.is_some_and(char::is_whitespace) && after.is_some_and(char::is_whitespace)
            }
            c => BREAKS.contains(&c),
        };
        if cut {
            out.push(&text[start..at]);
            start = at + c.len_utf8();
        }
        before = Some(c);
    }
    out.push(&text[start..]);
    out
}

/// The keyword lists in the order that breaks a tie between two keys of one
/// length: idioms first ("why not" is no negation), slider words before move
/// words.
fn lists(w: &DirectionWords) -> [(&'static [&'static str], Lexeme); 19] {
    let moves = |way| Lexeme::Move { way, past: false };
    [
        (w.idioms, Lexeme::Other),
        (w.negations, Lexeme::Negation),
        (w.cutoffs, Lexeme::Cutoff),
        (w.joins, Lexeme::Join),
        (w.than, Lexeme::Than),
        (w.comparative, Lexeme::Comparative),
        (w.describers, Lexeme::Describer),
        (w.past_markers, Lexeme::PastMarker),
        (w.weight, Lexeme::Noun(Noun::Slider(Param::Weight))),
        (w.bias, Lexeme::Noun(Noun::Slider(Param::Bias))),
        (w.error, Lexeme::Noun(Noun::Error)),
        (w.up, moves(Way::Up)),
        (w.down, moves(Way::Down)),
        (w.more, Lexeme::Amount(Way::Up)),
        (w.less, Lexeme::Amount(Way::Down)),
        (w.verb_negations, Lexeme::VerbNegation),
        (w.pronouns, Lexeme::Pronoun),
        (w.adverbs, Lexeme::Adverb),
        (w.fillers, Lexeme::Filler),
    ]
}

/// One key of a list, and what it reads as.
#[derive(Debug)]
struct Key {
    text: &'static str,
    lexeme: Lexeme,
}

/// A language's keys, read once: in [`lists`]' order, cut into their words
/// and found by the first ([`KeyIndex`]).
pub struct Lexicon {
    pub words: &'static DirectionWords,
    keys: Vec<Key>,
    index: KeyIndex,
    /// The keys by their first character, in [`lists`]' order (Chinese,
    /// read character by character, tries at each place only these).
    by_first_char: HashMap<char, Vec<usize>>,
}

impl Lexicon {
    fn new(words: &'static DirectionWords) -> Self {
        let keys: Vec<Key> = lists(words)
            .into_iter()
            .flat_map(|(keys, lexeme)| keys.iter().map(move |&text| Key { text, lexeme }))
            .filter(|key| !key.text.is_empty())
            .collect();
        let index = KeyIndex::new(keys.iter().map(|key| key.text), false);
        let mut by_first_char: HashMap<char, Vec<usize>> = HashMap::new();
        for (i, key) in keys.iter().enumerate() {
            if let Some(first) = key.text.chars().next() {
                by_first_char.entry(first).or_default().push(i);
            }
        }
        Self {
            words,
            keys,
            index,
            by_first_char,
        }
    }

    /// The lexicon of `lang`.
    pub fn of(lang: Lang) -> &'static Lexicon {
        static ALL: LazyLock<Vec<Lexicon>> = LazyLock::new(|| {
            Lang::ALL
                .iter()
                .map(|&lang| Lexicon::new(&words_for(lang).directions))
                .collect()
        });
        &ALL[lang.index()]
    }
}

/// The lexemes of one normalised clause.
pub fn lex(clause: &str, lexicon: &Lexicon) -> Vec<Lexeme> {
    if lexicon.words.by_characters {
        by_characters(clause, lexicon)
    } else {
        by_words(clause, lexicon)
    }
}

/// Chinese: at each character the longest key of any list, else one
/// unknown character (spaces are skipped).
fn by_characters(clause: &str, lexicon: &Lexicon) -> Vec<Lexeme> {
    let mut out = Vec::new();
    let mut rest = clause;
    while let Some(c) = rest.chars().next() {
        let best = (lexicon.by_first_char.get(&c).into_iter().flatten())
            .map(|&i| &lexicon.keys[i])
            .filter(|k| rest.starts_with(k.text))
            .fold(None::<&Key>, |best, k| match best {
                Some(b) if b.text.len() >= k.text.len() => best,
                _ => Some(k),
            });
        match best {
            Some(key) => {
                out.push(key.lexeme);
                rest = &rest[key.text.len()..];
            }
            None => {
                if !c.is_whitespace() {
                    out.push(Lexeme::Other);
                }
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    out
}

/// The words of a clause: letters, digits and inner apostrophes; a hyphen
/// inside a word starts a word of its own (`aumente-o` → `aumente`, `-o`).
fn words(clause: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = None;
    let mut prev = ' ';
    for (at, c) in clause.char_indices() {
        let part = c.is_alphanumeric() || c == '\'';
        let clitic = c == '-' && prev.is_alphanumeric();
        if clitic {
            if let Some(s) = start.take() {
                out.push(&clause[s..at]);
            }
            start = Some(at);
        } else if part {
            start.get_or_insert(at);
        } else if let Some(s) = start.take() {
            out.push(&clause[s..at]);
        }
        prev = c;
    }
    if let Some(s) = start {
        out.push(&clause[s..]);
    }
    out.into_iter()
        .map(|w| w.trim_matches('\''))
        .filter(|w| !w.is_empty() && *w != "-")
        .collect()
}

/// Whether one word of a key matches `word`: whole, as a stem (`rais*`) or
/// as an ending (`*n't`, with something before it).
pub fn word_matches(key: &str, word: &str) -> bool {
    if let Some(stem) = key.strip_suffix('*') {
        word.starts_with(stem)
    } else if let Some(end) = key.strip_prefix('*') {
        word.len() > end.len() && word.ends_with(end)
    } else {
        key == word
    }
}

/// English and Portuguese: at each word the longest key (in words) of any
/// list, else one unknown word. A move word a stem found is in the past when
/// it ends in one of the language's past endings.
fn by_words(clause: &str, lexicon: &Lexicon) -> Vec<Lexeme> {
    let words = words(clause);
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        // The longest key that fits; of two as long, the first in the lists.
        let mut best: Option<(usize, usize)> = None;
        for k in lexicon.index.starting(Some(words[i])) {
            let parts = lexicon.index.parts(k);
            let n = parts.len();
            let fits = words
                .get(i..i + n)
                .is_some_and(|ws| parts.iter().zip(ws).all(|(p, word)| word_matches(p, word)));
            if fits && best.is_none_or(|(m, b)| n > m || (n == m && k < b)) {
                best = Some((n, k));
            }
        }
        match best {
            Some((n, k)) => {
                let key = &lexicon.keys[k];
                let word = words[i + n - 1];
                out.push(match key.lexeme {
                    Lexeme::Move { way, .. } => Lexeme::Move {
                        way,
                        past: key.text.ends_with('*')
                            && lexicon.words.past_endings.iter().any(|e| word.ends_with(e)),
                    },
                    other => other,
                });
                i += n;
            }
            None => {
                out.push(Lexeme::Other);
                i += 1;
            }
        }
    }
    out
}
