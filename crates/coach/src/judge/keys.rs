//! A list of claim keys read once ([`Keys`]): each key cut into its parts
//! (words, or Chinese characters) and found by its first part
//! ([`KeyIndex`]), so that finding them in a sentence looks at each token
//! once instead of trying every key at every place. The languages' lists
//! are read at first use and kept ([`Keys::of`]); what they find is what
//! trying every key finds. Pure.

use std::{collections::HashMap, sync::LazyLock};

use super::{directions::word_matches, key_index::KeyIndex, tokens::Token};
use crate::words::words_for;
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
                Token::Word(w) => Some(w.as_str()),
                Token::Number(_) => None,
            };
            for k in self.index.starting(first) {
                if let Some(n) = matches_at(tokens, at, self.index.parts(k)) {
                    out.push((at, n));
                }
            }
        }
        out
    }

    /// Whether a key matches the whole of `tokens`.
    pub fn is_whole(&self, tokens: &[Token]) -> bool {
        self.index
            .all()
            .any(|parts| matches_at(tokens, 0, parts) == Some(tokens.len()))
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
