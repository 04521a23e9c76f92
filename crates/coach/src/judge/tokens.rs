//! A normalised sentence as the claim checks read it: its words and its
//! numbers, in order ([`tokens`]). Pure.

use super::numbers;

/// One place of a sentence.
#[derive(Debug)]
pub(crate) enum Token {
    Word(String),
    /// A number, as its readings' values.
    Number(Vec<f64>),
}

/// The words and numbers of a normalised sentence: runs of letters, and
/// each Chinese character alone (a run of Latin letters in Chinese stays a
/// word). Every round takes at least one character.
pub(crate) fn tokens(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        if c.is_ascii_digit() {
            while i < chars.len()
                && (chars[i].is_ascii_digit()
                    || (matches!(chars[i], '.' | ',')
                        && chars.get(i + 1).is_some_and(char::is_ascii_digit)))
            {
                i += 1;
            }
            let written: String = chars[start..i].iter().collect();
            out.extend(
                numbers::numbers(&written)
                    .into_iter()
                    .map(|rs| Token::Number(rs.into_iter().map(|r| r.value).collect())),
            );
        } else if c >= '\u{2E80}' && c.is_alphanumeric() {
            // A Han character (or kana, Hangul) is a word of its own, in
            // any language's reply.
            out.push(Token::Word(c.to_string()));
            i += 1;
        } else if c.is_alphabetic() {
            while i < chars.len()
                && (chars[i].is_alphanumeric() && chars[i] < '\u{2E80}'
                    || chars[i] == '\'' && chars.get(i + 1).is_some_and(|c| c.is_alphabetic()))
            {
                i += 1;
            }
            out.push(Token::Word(chars[start..i].iter().collect()));
        } else {
            i += 1;
        }
    }
    out
}
