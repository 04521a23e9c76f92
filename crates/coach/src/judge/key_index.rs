//! Keys cut into their parts once, and found by their first part
//! ([`KeyIndex`]): what the claim checks' key lists (`keys`) and the
//! direction check's lexicon (`directions::lex`) both look words up in, so
//! that reading a sentence tries at each place only the keys that can start
//! there, instead of every key. A key whose first part is a stem (`rais*`)
//! is tried only at words that begin with the stem's first letter; one
//! whose first part is an ending (`*n't`), or that has no part at all, is
//! tried everywhere. Pure.

// foldhash: every token of a reply is looked up here, and SipHash would be
// a tenth of the claim checks' time.
use foldhash::HashMap;

/// Keys, each cut into its parts, in the order given.
#[derive(Debug, Default)]
pub struct KeyIndex {
    parts: Vec<Vec<&'static str>>,
    /// Keys by their first part, when it is a whole word.
    by_first: HashMap<&'static str, Vec<usize>>,
    /// By a stem's first letter: the keys whose first part is a stem with
    /// that letter, and every key of [`Self::anywhere`], in the order given.
    by_initial: HashMap<char, Vec<usize>>,
    /// Keys whose first part is an ending (or a bare `*`), and keys of no
    /// part at all (they match everywhere, with no token).
    anywhere: Vec<usize>,
}

impl KeyIndex {
    /// `keys` cut into their words, or (`by_characters`) their characters.
    pub fn new(keys: impl IntoIterator<Item = &'static str>, by_characters: bool) -> Self {
        let mut index = KeyIndex::default();
        for (i, key) in keys.into_iter().enumerate() {
            let parts: Vec<&'static str> = if by_characters {
                key.char_indices()
                    .filter(|(_, c)| !c.is_whitespace())
                    .map(|(at, c)| &key[at..at + c.len_utf8()])
                    .collect()
            } else {
                key.split(' ').collect()
            };
            match parts.first() {
                Some(first) if !first.starts_with('*') && !first.ends_with('*') => {
                    index.by_first.entry(first).or_default().push(i);
                }
                Some(first) if !first.starts_with('*') => {
                    let initial = first.chars().next().unwrap_or('*');
                    index.by_initial.entry(initial).or_default().push(i);
                }
                _ => index.anywhere.push(i),
            }
            index.parts.push(parts);
        }
        // Each letter's stems with the keys tried everywhere, in key order.
        for stems in index.by_initial.values_mut() {
            stems.extend(&index.anywhere);
            stems.sort_unstable();
        }
        index
    }

    /// The keys (their numbers) that may start at a word `first`, or at a
    /// number (`None`): the keys of that whole word, then those of a stem
    /// and those tried everywhere, each group in the order given.
    pub fn starting(&self, first: Option<&str>) -> impl Iterator<Item = usize> + '_ {
        let whole = first.and_then(|word| self.by_first.get(word));
        let rest = first
            .and_then(|word| word.chars().next())
            .and_then(|initial| self.by_initial.get(&initial))
            .unwrap_or(&self.anywhere);
        whole.into_iter().flatten().chain(rest).copied()
    }

    /// Key `k`'s parts.
    pub fn parts(&self, k: usize) -> &[&'static str] {
        &self.parts[k]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{judge::directions::word_matches, words::words_for};
    use vocabulary::Lang;

    /// Every key that can start at a word is among those [`KeyIndex::starting`]
    /// gives for it, each group in key order: reading with the index finds
    /// what trying every key at every word finds.
    #[test]
    fn a_word_is_offered_every_key_that_can_start_there() {
        let mut keys: Vec<&'static str> = vec!["rais*", "*n't", "*", "why not", "r*", "ra*"];
        for lang in Lang::ALL {
            let (d, c) = (&words_for(lang).directions, &words_for(lang).claims);
            for list in [d.up, d.down, d.negations, d.idioms, d.weight, d.bias] {
                keys.extend(list);
            }
            for list in [c.reached, c.alone, c.below, c.negations, c.aims, c.best] {
                keys.extend(list);
            }
        }
        let index = KeyIndex::new(keys.iter().copied(), false);
        let mut words: Vec<&str> = keys.iter().flat_map(|k| k.split(' ')).collect();
        words.extend([
            "raise", "raised", "don't", "r", "up", "upper", "x", "é", "ótimo",
        ]);
        words.extend(keys.iter().map(|k| k.trim_matches('*')));
        for word in words {
            let offered: Vec<usize> = index.starting(Some(word)).collect();
            let whole = index.by_first.get(word).map_or(0, Vec::len);
            assert!(offered[whole..].is_sorted(), "{word}: {offered:?}");
            for (k, parts) in index.parts.iter().enumerate() {
                let can = parts.first().is_none_or(|first| word_matches(first, word));
                assert!(!can || offered.contains(&k), "{word} / {:?}", keys[k]);
            }
        }
        let at_a_number: Vec<usize> = index.starting(None).collect();
        for (k, parts) in index.parts.iter().enumerate() {
            assert!(
                !parts.is_empty() || at_a_number.contains(&k),
                "{:?}",
                keys[k]
            );
        }
    }
}
