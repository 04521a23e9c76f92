//! Keys cut into their parts once, and found by their first part
//! ([`KeyIndex`]): what the claim checks' key lists (`keys`) and the
//! direction check's lexicon (`directions::lex`) both look words up in, so
//! that reading a sentence tries at each place only the keys that can start
//! there, instead of every key. A first part that is a stem or an ending
//! (`rais*`, `*n't`) can start anywhere: those keys are tried everywhere.
//! Pure.

// foldhash: every token of a reply is looked up here, and SipHash would be
// a tenth of the claim checks' time.
use foldhash::HashMap;

/// Keys, each cut into its parts, in the order given.
#[derive(Debug, Default)]
pub struct KeyIndex {
    parts: Vec<Vec<&'static str>>,
    /// Keys by their first part, when it is a whole word.
    by_first: HashMap<&'static str, Vec<usize>>,
    /// Keys whose first part is a stem or an ending, and keys of no part at
    /// all (they match everywhere, with no token).
    others: Vec<usize>,
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
                _ => index.others.push(i),
            }
            index.parts.push(parts);
        }
        index
    }

    /// The keys (their numbers, in the order given) that may start at a
    /// word `first`, or at a number (`None`).
    pub fn starting(&self, first: Option<&str>) -> impl Iterator<Item = usize> + '_ {
        first
            .and_then(|word| self.by_first.get(word))
            .into_iter()
            .flatten()
            .chain(&self.others)
            .copied()
    }

    /// Key `k`'s parts.
    pub fn parts(&self, k: usize) -> &[&'static str] {
        &self.parts[k]
    }

    /// Every key's parts, in the order given.
    pub fn all(&self) -> impl Iterator<Item = &[&'static str]> {
        self.parts.iter().map(Vec::as_slice)
    }
}
