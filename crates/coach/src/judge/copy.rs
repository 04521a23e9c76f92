//! Whether a reply copies an example answer.
//!
//! Small models parrot their few-shot examples: word for word, or one word
//! away. A reply and an example are compared as words (runs of letters and
//! digits, in lower case; each Chinese character is a word of its own), by
//! the Damerau–Levenshtein distance over those words (`strsim`): a reply at
//! most a quarter of the longer one's words away from an example
//! ([`NEAR`]), or holding a whole example of at least [`WHOLE`] words, is a
//! copy. A quarter: two words of an eight-word example, three of a twelve:
//! "the same words, give or take a couple"; the issue's near-copies differed
//! by one. A reply that holds one of an example's sentences whole, when it
//! has at least [`SENTENCE`] words, copies it too ("You've done it! From
//! thousands down to the island, by hand. You're right…" holds the second
//! sentence of "You did it! From thousands down to the island, by hand.");
//! shorter sentences ("A step back.", "447.29 is the best…" reworded) are
//! the common words any comment may share. Pure.

use std::sync::LazyLock;

use compact_str::CompactString;
use foldhash::{HashMap, HashMapExt};
use strsim::generic_damerau_levenshtein;

use crate::{response::Tier, words::words_for};
use lesson::lessons::Which;
use vocabulary::Lang;

/// A reply at most one in this many of the longer one's words away (a
/// quarter) is a copy.
pub const NEAR: usize = 4;
/// A reply holding a whole example of at least this many words is a copy.
pub const WHOLE: usize = 4;
/// A reply holding a whole sentence of an example, of at least this many
/// words, is a copy.
pub const SENTENCE: usize = 6;

/// The words of `text`, as the comparison sees them (inline: a word is short).
pub fn words(text: &str) -> Vec<CompactString> {
    let mut out = Vec::new();
    let mut word = CompactString::default();
    for c in text.chars() {
        // An ASCII character lowers to one: no iterator for it.
        if c.is_ascii() {
            add(c.to_ascii_lowercase(), &mut word, &mut out);
        } else {
            c.to_lowercase().for_each(|c| add(c, &mut word, &mut out));
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// One lower-case character of a text: onto the word it continues, or
/// ending it (a wide letter is a word of its own).
fn add(c: char, word: &mut CompactString, out: &mut Vec<CompactString>) {
    let wide = c >= '\u{2E80}';
    if c.is_alphanumeric() && !wide {
        word.push(c);
        return;
    }
    if !word.is_empty() {
        out.push(std::mem::take(word));
    }
    if c.is_alphanumeric() {
        out.push(CompactString::new(c.encode_utf8(&mut [0; 4])));
    }
}

/// An example as replies are compared with it: its words, and the words of
/// each of its sentences long enough to count ([`SENTENCE`]). The pools'
/// examples hold their words as numbers ([`numbered`]), compared as integers;
/// another example ([`copies`]) holds them as text.
#[derive(Debug)]
pub struct Example<W = u32> {
    pub text: &'static str,
    words: Vec<W>,
    sentences: Vec<Vec<W>>,
}

impl<W: Clone + Eq + std::hash::Hash> Example<W> {
    /// `text` read, each word made a `W` by `word`.
    fn read(text: &'static str, mut word: impl FnMut(CompactString) -> W) -> Self {
        let mut of = |part: &str| words(part).into_iter().map(&mut word).collect::<Vec<W>>();
        Self {
            text,
            words: of(text),
            sentences: sentences(text)
                .map(&mut of)
                .filter(|s| s.len() >= SENTENCE)
                .collect(),
        }
    }

    /// Whether a reply of these `reply` words copies it (see the module's
    /// docs). The distance is at least [`unshared`], which is at least the
    /// difference in length: a reply whose length alone rules a near copy
    /// out is not compared word by word, and one with more words of its own
    /// than a near copy can have is not measured.
    pub fn copied_by(&self, reply: &[W]) -> bool {
        let example = &self.words;
        if reply.is_empty() || example.is_empty() {
            return false;
        }
        let longer = reply.len().max(example.len());
        let shorter = reply.len().min(example.len());
        ((longer - shorter) * NEAR <= longer
            && unshared(reply, example) * NEAR <= longer
            && generic_damerau_levenshtein(reply, example) * NEAR <= longer)
            || (example.len() >= WHOLE && holds(reply, example))
            || self.sentences.iter().any(|s| holds(reply, s))
    }
}

/// Whether `reply` copies `example` (see the module's docs).
pub fn copies(reply: &str, example: &'static str) -> bool {
    Example::read(example, |w| w).copied_by(&words(reply))
}

/// Every pool's examples, by language, lesson and tier, with their words
/// numbered: the same word the same number in every pool.
struct Pools {
    numbers: HashMap<CompactString, u32>,
    pools: Vec<Vec<[Vec<Example>; 3]>>,
}

impl Pools {
    fn new() -> Self {
        let mut numbers = HashMap::new();
        let mut number = |word: CompactString| {
            let next = numbers.len() as u32;
            *numbers.entry(word).or_insert(next)
        };
        let pools = Lang::ALL
            .iter()
            .map(|&lang| {
                let words = words_for(lang);
                Which::ALL
                    .iter()
                    .map(|lesson| {
                        let tiers = match lesson {
                            Which::One => &words.examples,
                            Which::Two => &words.two.examples,
                        };
                        tiers.map(|pool| {
                            pool.iter()
                                .map(|(_, _, a)| Example::read(a, &mut number))
                                .collect()
                        })
                    })
                    .collect()
            })
            .collect();
        Self { numbers, pools }
    }

    /// A reply's words as the pools number them; a word no example has gets
    /// a number of its own past theirs (the same one each time it recurs).
    fn number(&self, reply: &[CompactString]) -> Vec<u32> {
        let mut unknown: Vec<&str> = Vec::new();
        reply
            .iter()
            .map(|word| match self.numbers.get(word) {
                Some(&n) => n,
                None => {
                    let at = unknown.iter().position(|u| *u == word.as_str());
                    let at = at.unwrap_or_else(|| {
                        unknown.push(word.as_str());
                        unknown.len() - 1
                    });
                    (self.numbers.len() + at) as u32
                }
            })
            .collect()
    }
}

/// The pools, made at first use.
static POOLS: LazyLock<Pools> = LazyLock::new(Pools::new);

/// The examples of the pool of `lang`, `lesson` and `tier`.
pub fn pool(lang: Lang, lesson: Which, tier: Tier) -> &'static [Example] {
    &POOLS.pools[lang.index()][lesson as usize][tier as usize]
}

/// `reply`'s words numbered as the pools' examples hold theirs
/// ([`Example::copied_by`] of a pool's example takes these).
pub fn numbered(reply: &[CompactString]) -> Vec<u32> {
    POOLS.number(reply)
}

/// The sentences of `text`: up to each `.`, `!`, `?` or their wide forms.
fn sentences(text: &str) -> impl Iterator<Item = &str> {
    text.split_inclusive(['.', '!', '?', '。', '！', '？'])
}

/// How many words one of `a` and `b` has that the other lacks (counted
/// with repeats; the larger side). A lower bound of their
/// Damerau–Levenshtein distance: a substitution, an insertion or a deletion
/// takes at most one such word off each side, a transposition none. Cheaper
/// than the distance (which hashes and copies every word) and never larger.
fn unshared<W: PartialEq>(a: &[W], b: &[W]) -> usize {
    // Which of `b`'s words are taken: on the stack for an example's few.
    let (mut inline, mut heap) = ([false; 64], Vec::new());
    let used: &mut [bool] = match inline.get_mut(..b.len()) {
        Some(used) => used,
        None => {
            heap.resize(b.len(), false);
            &mut heap
        }
    };
    let shared = a
        .iter()
        .filter(|word| {
            let found = b
                .iter()
                .zip(used.iter_mut())
                .find(|(other, used)| !**used && other == word);
            found.map(|(_, used)| *used = true).is_some()
        })
        .count();
    a.len().max(b.len()) - shared
}

/// Whether `reply` holds the words of `part`, in a row.
fn holds<W: PartialEq>(reply: &[W], part: &[W]) -> bool {
    reply.windows(part.len()).any(|run| run == part)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = "A step back. Hold the weight steady and fine-tune the bias.";

    #[test]
    fn the_issues_copy_and_near_copies_are_caught() {
        for reply in [
            EXAMPLE,
            "A step back! Hold the weight steady and fine-tune the bias!",
            "\"A step back. Hold the weight steady and fine tune the bias.\"",
            // One word away.
            "A step back. Hold the weight steady and fine-tune the bias now.",
            "A step back. Keep the weight steady and fine-tune the bias.",
            "Step back. Hold the weight steady and fine-tune the bias.",
            "A step back. Hold the bias steady and fine-tune the weight.",
            // Two or three.
            "A small step back. Hold your weight steady and fine-tune the bias.",
            "A step back. Hold the weight steady, then fine-tune the bias slowly.",
            // The whole example inside more words.
            "Oh no! A step back. Hold the weight steady and fine-tune the bias. You can still do it, champion!",
            // One of its sentences (of six words or more) inside more words.
            "Careful now. Hold the weight steady and fine-tune the bias, you are close.",
        ] {
            assert!(copies(reply, EXAMPLE), "{reply}");
        }
        // Seen from a real model in lesson 2.
        assert!(copies(
            "You've done it! From thousands down to the island, by hand. You're right... that's a great way to tell it all.",
            "You did it! From thousands down to the island, by hand."
        ));
    }

    #[test]
    fn replies_in_the_same_spirit_are_no_copies() {
        for reply in [
            "A step back. Try the bias next.",
            "Hold the weight steady.",
            "Step back, breathe, and fine-tune the bias in small steps.",
            "The error went up: keep the weight and nudge the bias a little.",
            "Nice!",
            "",
        ] {
            assert!(!copies(reply, EXAMPLE), "{reply}");
        }
    }

    #[test]
    fn chinese_is_compared_character_by_character() {
        let example = "退了一步。先稳住权重，再微调偏置。";
        assert_eq!(
            words("退了一步。Go 2x!"),
            ["退", "了", "一", "步", "go", "2x"]
        );
        assert!(copies("退了一步。先稳住权重，再微调偏置。", example));
        assert!(copies("退了一步！先稳住权重，再微调一下偏置。", example));
        assert!(copies("退了一步，稳住权重，再微调偏置", example));
        assert!(!copies("退了一步，试试调高偏置。", example));
        assert!(!copies("加油！", example));
    }

    /// Every pool's examples.
    fn every_example() -> impl Iterator<Item = &'static Example> {
        Lang::ALL
            .iter()
            .flat_map(|&lang| Which::ALL.into_iter().map(move |lesson| (lang, lesson)))
            .flat_map(|(lang, lesson)| {
                [Tier::Far, Tier::Close, Tier::Goal]
                    .into_iter()
                    .flat_map(move |tier| pool(lang, lesson, tier))
            })
    }

    #[test]
    fn numbered_words_judge_as_the_words_do() {
        let all: Vec<&Example> = every_example().collect();
        // Each example's text, and the same with a word no example has,
        // twice (one number for both), and with its words reversed.
        let replies: Vec<String> = all
            .iter()
            .flat_map(|e| {
                let reversed: Vec<&str> = e.text.split(' ').rev().collect();
                [
                    e.text.to_string(),
                    format!("zorblax {} zorblax", e.text),
                    format!("{} quuxly", e.text.replacen(' ', " quuxly ", 1)),
                    reversed.join(" "),
                ]
            })
            .collect();
        let mut copies_found = 0;
        for example in all.iter().step_by(3) {
            for reply in &replies {
                let numbered = example.copied_by(&numbered(&words(reply)));
                assert_eq!(
                    numbered,
                    copies(reply, example.text),
                    "{reply:?} / {:?}",
                    example.text
                );
                copies_found += usize::from(numbered);
            }
        }
        assert!(copies_found > all.len() / 3, "{copies_found}");
    }

    #[test]
    fn the_words_one_side_lacks_never_exceed_the_distance() {
        let texts: Vec<&str> = every_example()
            .map(|e| e.text)
            .chain([EXAMPLE, "the the bias", "bias the the", "A B C", "B A C D"])
            .collect();
        let lists: Vec<Vec<CompactString>> = texts.iter().map(|t| words(t)).collect();
        for a in &lists {
            for b in &lists {
                assert!(
                    unshared(a, b) <= generic_damerau_levenshtein(a, b),
                    "{a:?} / {b:?}"
                );
            }
        }
        let w = |t| words(t);
        assert_eq!(unshared(&w("a b c"), &w("c b a")), 0);
        assert_eq!(unshared(&w("a a b"), &w("a b b")), 1);
        assert_eq!(unshared(&w("a b"), &w("a b c d")), 2);
    }
}
