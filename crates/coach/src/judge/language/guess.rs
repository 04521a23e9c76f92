//! whatlang's guess between languages written in Latin letters, computed the
//! same way in a fraction of the time.
//!
//! whatlang (0.18, `Method::Combined`) scores each allowed language twice and
//! mixes the two by the text's length: by alphabet, how many of the text's
//! letters the language's alphabet holds; by trigrams, the out-of-place
//! distance of Cavnar and Trenkle ("N-Gram-Based Text Categorization", 1994)
//! between the text's trigrams ranked by frequency and the language's 300
//! most frequent. whatlang sums that distance over each language's 300
//! trigrams, looking each up in a hash map of the text's; a reply has a few
//! dozen trigrams, so here each of the text's is looked up once in one table
//! of every held language's ranks, and each language's sum is taken as
//! 300 × 300 less what the matches save. The integers are the same, and so
//! are the floating-point operations and their order, so the [`Info`] is
//! too, bit for bit: `guess_tests` compares the two on every phrase the
//! judge's tests hold and on random text. Text that whatlang would not read
//! as Latin script, and an allowlist with a Latin-script language that
//! [`profiles`] lacks, go to whatlang itself. Pure.

use std::cmp::{Ordering, Reverse};

use foldhash::{HashMap, HashMapExt};
use whatlang::{Detector, Info, Lang, Script};

use super::profiles::{self, Profile};

/// What a trigram of the text far from its place in a profile costs, and
/// what one absent costs.
const MAX_TRIGRAM_DISTANCE: u32 = 300;
const MAX_TOTAL_DISTANCE: u32 = MAX_TRIGRAM_DISTANCE * MAX_TRIGRAM_DISTANCE;
/// How many of the text's trigrams, most frequent first, are compared.
const TEXT_TRIGRAMS_SIZE: usize = 600;

/// A trigram in one integer (21 bits a character), ordered as its three
/// characters are.
type Packed = u64;

fn pack(a: char, b: char, c: char) -> Packed {
    (u64::from(a) << 42) | (u64::from(b) << 21) | u64::from(c)
}

/// whatlang's stop characters: ASCII spaces, digits and punctuation.
fn is_stop_char(c: char) -> bool {
    matches!(c, '\u{0000}'..='\u{0040}' | '\u{005B}'..='\u{0060}' | '\u{007B}'..='\u{007E}')
}

/// whatlang's Latin script (`scripts::chars::is_latin`, 0.18.0) less its
/// phonetic extensions (U+1D00–U+1DBF), where two characters are Cyrillic
/// too: a character here counts as Latin and as nothing else.
fn only_latin(c: char) -> bool {
    matches!(c,
        'a'..='z'
        | 'A'..='Z'
        | '\u{0080}'..='\u{02AF}'
        | '\u{1E00}'..='\u{1EFF}'
        | '\u{2100}'..='\u{214F}'
        | '\u{2C60}'..='\u{2C7F}'
        | '\u{A720}'..='\u{A7FF}'
        | '\u{AB30}'..='\u{AB6F}')
}

/// Whether whatlang's `detect_script` finds `text` in Latin script. It counts
/// each character that is no stop character by its script and takes the
/// most counted: when every one it counts is only Latin, that is Latin if
/// there is one at all, without counting; any other text is asked of
/// whatlang.
pub(super) fn is_latin_script(text: &str) -> bool {
    let mut latin = false;
    for c in text.chars().filter(|&c| !is_stop_char(c)) {
        if !only_latin(c) {
            return whatlang::detect_script(text) == Some(Script::Latin);
        }
        latin = true;
    }
    latin
}

/// A rank no profile gives: the trigram is not in that language's.
const ABSENT: u32 = u32::MAX;

/// A language's alphabet: its ASCII letters as bits, the rest sorted.
struct Alphabet {
    ascii: u128,
    others: Vec<char>,
}

impl Alphabet {
    fn new(letters: &str) -> Self {
        let ascii = letters
            .chars()
            .filter(char::is_ascii)
            .fold(0, |bits, c| bits | 1 << (c as u32));
        let mut others: Vec<char> = letters.chars().filter(|c| !c.is_ascii()).collect();
        others.sort_unstable();
        Self { ascii, others }
    }

    fn has(&self, c: char) -> bool {
        if c.is_ascii() {
            self.ascii >> (c as u32) & 1 == 1
        } else {
            self.others.binary_search(&c).is_ok()
        }
    }
}

/// The held languages' profiles, made ready to look up together.
struct Held {
    /// The languages, in whatlang's order.
    langs: Vec<Lang>,
    /// Each language's alphabet.
    alphabets: Vec<Alphabet>,
    /// Each trigram some language's profile holds, to its row of `ranks`
    /// (foldhash: fast on integers; it holds only the profiles' trigrams,
    /// fixed at start, so no text can crowd it).
    rows: HashMap<Packed, usize>,
    /// A row per trigram, a column per language: its rank there, or [`ABSENT`].
    ranks: Vec<u32>,
}

impl Held {
    fn new(profiles: &[&Profile]) -> Self {
        let n = profiles.len();
        let mut rows = HashMap::new();
        let mut ranks = Vec::new();
        for (column, profile) in profiles.iter().enumerate() {
            for ([a, b, c], rank) in trigrams(profile).zip(0..) {
                let row = *rows.entry(pack(a, b, c)).or_insert_with(|| {
                    ranks.extend(std::iter::repeat_n(ABSENT, n));
                    ranks.len() / n - 1
                });
                ranks[row * n + column] = rank;
            }
        }
        let alphabets = profiles.iter().map(|p| Alphabet::new(p.alphabet)).collect();
        Self {
            langs: profiles.iter().map(|p| p.lang).collect(),
            alphabets,
            rows,
            ranks,
        }
    }

    /// Each language's out-of-place distance from the text's ranked
    /// trigrams: each of its profile's trigrams costs how far its rank is
    /// from its position in the text, or the most if the text lacks it.
    fn distances(&self, ranked: &[(u32, Packed)]) -> Vec<u32> {
        let n = self.langs.len();
        let mut totals = vec![MAX_TOTAL_DISTANCE; n];
        for (&(_, trigram), position) in ranked.iter().zip(0u32..) {
            let Some(&row) = self.rows.get(&trigram) else {
                continue;
            };
            for (total, &rank) in totals.iter_mut().zip(&self.ranks[row * n..][..n]) {
                if rank != ABSENT {
                    *total = *total - MAX_TRIGRAM_DISTANCE + position.abs_diff(rank);
                }
            }
        }
        let count = ranked.len() as u32;
        for total in &mut totals {
            if MAX_TRIGRAM_DISTANCE > count {
                *total -= (MAX_TRIGRAM_DISTANCE - count) * MAX_TRIGRAM_DISTANCE;
            }
            *total = (*total).min(MAX_TOTAL_DISTANCE);
        }
        totals
    }
}

/// A profile's trigrams, most frequent first.
pub(super) fn trigrams(profile: &Profile) -> impl Iterator<Item = [char; 3]> + '_ {
    profile
        .trigrams
        .split_terminator('|')
        .filter_map(|t| <[char; 3]>::try_from(t.chars().collect::<Vec<_>>()).ok())
}

/// The text's distinct trigrams with their counts, most frequent first
/// (ties: the greater trigram first), at most [`TEXT_TRIGRAMS_SIZE`].
fn ranked_trigrams(lower: &str) -> Vec<(u32, Packed)> {
    let mut all = Vec::with_capacity(lower.len());
    let mut chars = lower
        .chars()
        .map(|c| if is_stop_char(c) { ' ' } else { c })
        .chain(Some(' '));
    let mut c1 = ' ';
    let mut c2 = chars.next().unwrap_or(' ');
    for c3 in chars {
        if !(c2 == ' ' && (c1 == ' ' || c3 == ' ')) {
            all.push(pack(c1, c2, c3));
        }
        c1 = c2;
        c2 = c3;
    }
    all.sort_unstable();
    // Counted from the greatest trigram down, then ordered by count alone,
    // stably: the ties keep that order, and a short text's trigrams, most
    // of them once each, are already in it.
    let mut counted: Vec<(u32, Packed)> = Vec::with_capacity(all.len());
    for trigram in all.into_iter().rev() {
        match counted.last_mut() {
            Some((n, last)) if *last == trigram => *n += 1,
            _ => counted.push((1, trigram)),
        }
    }
    counted.sort_by_key(|&(n, _)| Reverse(n));
    counted.truncate(TEXT_TRIGRAMS_SIZE);
    counted
}

/// whatlang's confidence that the best-scored language is the right one.
fn confidence(highest: f64, second: f64, count: usize) -> f64 {
    if highest == 0.0 {
        return 0.0;
    }
    if second == 0.0 {
        return highest;
    }
    let confident_rate = (3.0 / count as f64) + 0.015;
    let rate = (highest - second) / second;
    if rate > confident_rate {
        1.0
    } else {
        rate / confident_rate
    }
}

/// Picks a language among an allowlist, as whatlang's [`Detector`] does.
pub struct Guesser {
    whatlang: Detector,
    /// The allowed Latin-script languages, in whatlang's order, when every
    /// one of them has a profile.
    latin: Option<Held>,
}

impl Guesser {
    pub fn with_allowlist(langs: Vec<Lang>) -> Self {
        let latin: Option<Vec<&Profile>> = Script::Latin
            .langs()
            .iter()
            .filter(|lang| langs.contains(lang))
            .map(|&lang| profiles::ALL.iter().find(|p| p.lang == lang))
            .collect();
        Self {
            whatlang: Detector::with_allowlist(langs),
            latin: latin.map(|profiles| Held::new(&profiles)),
        }
    }

    /// What whatlang's [`Detector::detect`] would say of `text`.
    pub fn detect(&self, text: &str) -> Option<Info> {
        match &self.latin {
            Some(held) if is_latin_script(text) => combined(held, text),
            _ => self.whatlang.detect(text),
        }
    }
}

/// whatlang's combined method over Latin-script text.
fn combined(held: &Held, text: &str) -> Option<Info> {
    let lower = text.to_lowercase();
    let ranked = ranked_trigrams(&lower);
    let mut letters = 0;
    let mut known = vec![0usize; held.langs.len()];
    for c in lower.chars().filter(|&c| !is_stop_char(c)) {
        letters += 1;
        for (known, alphabet) in known.iter_mut().zip(&held.alphabets) {
            *known += usize::from(alphabet.has(c));
        }
    }

    let mut by_alphabet: Vec<(Lang, usize)> = held
        .langs
        .iter()
        .zip(known)
        .map(|(&lang, known)| (lang, (2 * known).saturating_sub(letters)))
        .collect();
    by_alphabet.sort_unstable_by_key(|&(_, score)| Reverse(score));

    let alphabet_weight = (-(letters as f64 / 300.0) + 2.0 / 3.0).clamp(1.0 / 3.0, 2.0 / 3.0);
    let trigram_weight = 1.0 - alphabet_weight;
    let max_distance = ranked.len() as u32 * MAX_TRIGRAM_DISTANCE;
    let distances = held.distances(&ranked);

    let mut scores: Vec<(Lang, f64)> = by_alphabet
        .iter()
        .filter_map(|&(lang, raw)| {
            let column = held.langs.iter().position(|&l| l == lang)?;
            let a = raw as f64 / letters as f64;
            let t = (max_distance - distances[column]) as f64 / max_distance as f64;
            Some((lang, a * alphabet_weight + t * trigram_weight))
        })
        .collect();
    scores.sort_unstable_by(|a, b| b.1.partial_cmp(&a.1).unwrap_or(Ordering::Less));

    let mut scores = scores.into_iter();
    let (lang, first) = scores.next()?;
    let sure = scores
        .next()
        .map_or(1.0, |(_, second)| confidence(first, second, ranked.len()));
    Some(Info::new(Script::Latin, lang, sure))
}
