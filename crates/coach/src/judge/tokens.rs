//! A normalised sentence as the claim checks read it: its words and its
//! numbers, in order ([`tokens`]). Pure.

use compact_str::CompactString;

use super::numbers;

/// One place of a sentence.
#[derive(Debug)]
pub(crate) enum Token {
    /// Kept inline (a reply's words are short): no allocation a word.
    Word(CompactString),
    /// A number, as its readings' values.
    Number(Vec<f64>),
}

/// The words and numbers of a normalised sentence: runs of letters, and
/// each Chinese character alone (a run of Latin letters in Chinese stays a
/// word). Every round takes at least one character.
pub(crate) fn tokens(text: &str) -> Vec<Token> {
    // Room for every word at once: most take three bytes or more with
    // their space.
    let mut out = Vec::with_capacity(text.len() / 3 + 1);
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let taken = if c.is_ascii_digit() {
            let len = run(rest, |c, next| {
                c.is_ascii_digit()
                    || (matches!(c, '.' | ',') && next.is_some_and(|n| n.is_ascii_digit()))
            });
            out.extend(
                numbers::numbers(&rest[..len])
                    .into_iter()
                    .map(|rs| Token::Number(rs.into_iter().map(|r| r.value).collect())),
            );
            len
        } else if c >= '\u{2E80}' && c.is_alphanumeric() {
            // A Han character (or kana, Hangul) is a word of its own, in
            // any language's reply.
            out.push(Token::Word(CompactString::new(c.encode_utf8(&mut [0; 4]))));
            c.len_utf8()
        } else if c.is_alphabetic() {
            let len = run(rest, |c, next| {
                c.is_alphanumeric() && c < '\u{2E80}'
                    || c == '\'' && next.is_some_and(char::is_alphabetic)
            });
            out.push(Token::Word(CompactString::new(&rest[..len])));
            len
        } else {
            c.len_utf8()
        };
        rest = &rest[taken..];
    }
    out
}

/// The length in bytes of `text`'s longest start whose every character
/// `keeps`, given the character after it.
fn run(text: &str, keeps: impl Fn(char, Option<char>) -> bool) -> usize {
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if !keeps(c, chars.peek().map(|&(_, next)| next)) {
            return at;
        }
    }
    text.len()
}
