//! Claim keys read ([`Keys`]): each key cut into its parts (words, or
//! Chinese characters) and found by its first part ([`KeyIndex`]), so that
//! finding them in a sentence looks at each token once instead of trying
//! every key at every place. A language's ten claim lists are read once, at
//! first use, as one ([`Claims`]): each key tagged with its list, and a
//! sentence read for all ten in one pass. What they find is what trying
//! every key finds. Pure.

use std::sync::LazyLock;

use super::{directions::word_matches, key_index::KeyIndex, tokens::Token};
use crate::words::{words_for, ClaimWords};
use vocabulary::Lang;

/// A key list, read.
#[derive(Debug, Default)]
pub struct Keys {
    index: KeyIndex,
}

impl Keys {
    /// `list` read: its keys' words, or (`by_characters`) their characters.
    pub fn new(list: &'static [&'static str], by_characters: bool) -> Self {
        Self {
            index: KeyIndex::new(list.iter().copied(), by_characters),
        }
    }

    /// Where a key matches in `tokens`: (start, length) of each, in the
    /// order of their starts.
    pub fn find(&self, tokens: &[Token]) -> Vec<(usize, usize)> {
        matches(&self.index, tokens)
            .map(|(_, at, n)| (at, n))
            .collect()
    }
}

/// Each key of `index` that matches in `tokens`: (key, start, length), in
/// the order of their starts, and at one start in [`KeyIndex::starting`]'s.
fn matches<'a>(
    index: &'a KeyIndex,
    tokens: &'a [Token],
) -> impl Iterator<Item = (usize, usize, usize)> + 'a {
    tokens.iter().enumerate().flat_map(move |(at, token)| {
        let first = match token {
            Token::Word(w) => Some(w.as_str()),
            Token::Number(_) => None,
        };
        (index.starting(first))
            .filter_map(move |k| Some((k, at, matches_at(tokens, at, index.parts(k))?)))
    })
}

/// How many tokens `parts` match from `at` on, if they match there.
fn matches_at(tokens: &[Token], at: usize, parts: &[&str]) -> Option<usize> {
    let run = tokens.get(at..at + parts.len())?;
    run.iter()
        .zip(parts)
        .all(|(t, p)| matches!(t, Token::Word(w) if word_matches(p, w)))
        .then_some(parts.len())
}

/// A language's ten claim lists ([`ClaimWords`]), in order.
fn claim_lists(c: &'static ClaimWords) -> [&'static [&'static str]; 10] {
    [
        c.reached,
        c.alone,
        c.below,
        c.below_after,
        c.negations,
        c.aims,
        c.best,
        c.better,
        c.error_is,
        c.relative,
    ]
}

/// Where a key of a language's claim lists matched: its list's place among
/// the ten, its start and its length.
pub type Found = (u8, usize, usize);

/// A language's claim lists read as one, each key tagged with its list: a
/// sentence is read once for all ten ([`Claims::find_all`]) instead of once
/// a list.
#[derive(Debug)]
pub struct Claims {
    index: KeyIndex,
    /// Each key's list, by its place among the ten.
    list_of: Vec<u8>,
    /// Each list's address and length, to know it by.
    lists: [(usize, usize); 10],
}

impl Claims {
    fn new(words: &'static ClaimWords, by_characters: bool) -> Self {
        let lists = claim_lists(words);
        let keys = (0u8..)
            .zip(lists)
            .flat_map(|(l, list)| list.iter().map(move |&k| (l, k)));
        Self {
            index: KeyIndex::new(keys.clone().map(|(_, k)| k), by_characters),
            list_of: keys.map(|(l, _)| l).collect(),
            lists: lists.map(|list| (list.as_ptr() as usize, list.len())),
        }
    }

    /// The claim lists of `lang`, read once.
    pub fn of(lang: Lang) -> &'static Claims {
        static ALL: LazyLock<Vec<Claims>> = LazyLock::new(|| {
            Lang::ALL
                .iter()
                .map(|&lang| {
                    let words = words_for(lang);
                    Claims::new(&words.claims, words.directions.by_characters)
                })
                .collect()
        });
        &ALL[lang.index()]
    }

    /// `list`'s place among the ten, when it is one of them.
    pub fn list(&self, list: &'static [&'static str]) -> Option<u8> {
        let key = (list.as_ptr() as usize, list.len());
        (0u8..)
            .zip(&self.lists)
            .find(|(_, l)| **l == key)
            .map(|(n, _)| n)
    }

    /// Whether a key of list `list` matches the whole of `tokens`.
    pub fn is_whole(&self, list: u8, tokens: &[Token]) -> bool {
        // The keys are numbered list after list: this list's follow the
        // lists before it.
        let list = usize::from(list);
        let start: usize = self.lists[..list].iter().map(|&(_, len)| len).sum();
        (start..start + self.lists[list].1)
            .any(|k| matches_at(tokens, 0, self.index.parts(k)) == Some(tokens.len()))
    }

    /// Where a key of any list matches in `tokens`, in the order of their
    /// starts (and, at one start, as [`Keys::find`] gives a list's).
    pub fn find_all(&self, tokens: &[Token]) -> Vec<Found> {
        matches(&self.index, tokens)
            .map(|(k, at, n)| (self.list_of[k], at, n))
            .collect()
    }
}
