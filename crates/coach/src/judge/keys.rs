//! A list of claim keys read once ([`Keys`]): each key cut into its parts
//! (words, or Chinese characters), and the keys found by their first part,
//! so that finding them in a sentence looks at each token once instead of
//! trying every key at every place. The languages' lists are read at first
//! use and kept ([`Keys::of`]); what they find is what trying every key
//! finds. Pure.

use std::{collections::HashMap, sync::LazyLock};

use super::{directions::word_matches, tokens::Token};
use crate::words::words_for;
use vocabulary::Lang;

/// One key, cut into its parts.
#[derive(Debug)]
struct Key {
    parts: Vec<&'static str>,
}

/// A key list, read.
#[derive(Debug, Default)]
pub struct Keys {
    keys: Vec<Key>,
    /// Keys by their first part, when it is a whole word.
    by_first: HashMap<&'static str, Vec<usize>>,
    /// Keys whose first part is a stem or an ending (`rais*`, `*n't`), and
    /// keys of no part at all (they match everywhere, with no token).
    others: Vec<usize>,
}

impl Keys {
    /// `list` read: its keys' words, or (`by_characters`) their characters.
    pub fn new(list: &'static [&'static str], by_characters: bool) -> Self {
        let mut keys = Keys::default();
        for (i, key) in list.iter().enumerate() {
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
                    keys.by_first.entry(first).or_default().push(i);
                }
                _ => keys.others.push(i),
            }
            keys.keys.push(Key { parts });
        }
        keys
    }

    /// `list`, one of the languages' claim lists, read once; another list
    /// (a test's) is read now.
    pub fn of(list: &'static [&'static str], by_characters: bool) -> Cached {
        match READ.get(&(list.as_ptr() as usize, list.len(), by_characters)) {
            Some(keys) => Cached::Kept(keys),
            None => Cached::Now(Keys::new(list, by_characters)),
        }
    }

    /// Where a key matches in `tokens`: (start, length) of each, in the
    /// order of their starts.
    pub fn find(&self, tokens: &[Token]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for at in 0..tokens.len() {
            let first = match &tokens[at] {
                Token::Word(w) => self.by_first.get(w.as_str()),
                Token::Number(_) => None,
            };
            for &k in first.into_iter().flatten().chain(&self.others) {
                if let Some(n) = matches_at(tokens, at, &self.keys[k].parts) {
                    out.push((at, n));
                }
            }
        }
        out
    }

    /// Whether a key matches the whole of `tokens`.
    pub fn is_whole(&self, tokens: &[Token]) -> bool {
        self.keys
            .iter()
            .any(|key| matches_at(tokens, 0, &key.parts) == Some(tokens.len()))
    }
}

/// How many tokens `parts` match from `at` on, if they match there.
fn matches_at(tokens: &[Token], at: usize, parts: &[&str]) -> Option<usize> {
    let run = tokens.get(at..at + parts.len())?;
    run.iter()
        .zip(parts)
        .all(|(t, p)| matches!(t, Token::Word(w) if word_matches(p, w)))
        .then_some(parts.len())
}

/// A list read once and kept, or read for this call.
pub enum Cached {
    Kept(&'static Keys),
    Now(Keys),
}

impl std::ops::Deref for Cached {
    type Target = Keys;
    fn deref(&self) -> &Keys {
        match self {
            Cached::Kept(keys) => keys,
            Cached::Now(keys) => keys,
        }
    }
}

/// Every language's claim lists, by their address, length and reading.
static READ: LazyLock<HashMap<(usize, usize, bool), Keys>> = LazyLock::new(|| {
    let mut read = HashMap::new();
    for lang in Lang::ALL {
        let words = words_for(lang);
        let c = &words.claims;
        let by_characters = words.directions.by_characters;
        for list in [
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
        ] {
            let key = (list.as_ptr() as usize, list.len(), by_characters);
            read.entry(key)
                .or_insert_with(|| Keys::new(list, by_characters));
        }
    }
    read
});
