//! Checks on a model's answer, which is untrusted text.
//!
//! Keep only what comes before the first [`END_MARKER`]; drop reasoning blocks,
//! echoes of the prompt, chat-template tokens, role tags and surrounding quotes;
//! then reject an empty answer, one longer than [`max_chars`] (the seed's rule:
//! 20 words × 8 characters), or one that tells the visitor to move a parameter
//! the wrong way for the facts in the prompt ([`super::directions`]). A rejected
//! answer counts against the model.
//! Pure: it judges text, and leaves the counting to the router.

use super::{
    directions,
    prompt::{Prompt, END_MARKER},
    words_for,
};
use crate::{advice::Way, coach::lang::Lang};

/// Why an answer was not used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    #[error("empty")]
    Empty,
    #[error("too long ({chars} > {max} characters)")]
    TooLong { chars: usize, max: usize },
    /// It tells the visitor to move a parameter the way that raises the error.
    #[error("contradicts the facts: says to {0}")]
    Contradicts(String),
}

/// Longest accepted comment: 20 words × 8 characters, or 60 characters for
/// Chinese, where a word is one or two characters (each language's file).
pub fn max_chars(lang: Lang) -> usize {
    words_for(lang).max_chars
}

/// The comment in `raw`, cleaned, or why there is none.
pub fn check(raw: &str, prompt: &Prompt) -> Result<String, Rejection> {
    let mut text = strip_reasoning(raw);
    // A text-generation server may echo the prompt (`return_full_text`): keep what
    // follows the last copy of the question.
    if let Some(at) = text.rfind(prompt.user.as_str()) {
        text = text[at + prompt.user.len()..].to_string();
    }
    let before_marker = text.split(END_MARKER).next().unwrap_or_default();
    let cleaned = clean(before_marker);
    let chars = cleaned.chars().count();
    let max = max_chars(prompt.lang);
    if chars == 0 {
        Err(Rejection::Empty)
    } else if chars > max {
        Err(Rejection::TooLong { chars, max })
    } else if let Some((param, way)) = prompt.facts.and_then(|facts| {
        directions::advised(&cleaned, prompt.lang)
            .into_iter()
            .find(|&(param, way)| facts.contradicts(param, way))
    }) {
        let way = match way {
            Way::Up => "raise",
            Way::Down => "lower",
        };
        Err(Rejection::Contradicts(
            format!("{way} the {param:?}").to_lowercase(),
        ))
    } else {
        Ok(cleaned)
    }
}

/// Removes `<think>…</think>` blocks (an unclosed one swallows the rest).
fn strip_reasoning(raw: &str) -> String {
    remove_spans(raw, "<think>", "</think>")
}

/// Removes every span from `open` to the next `close` (both included); an
/// unclosed span swallows the rest of the text.
fn remove_spans(text: &str, open: &str, close: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(open) {
        out.push_str(&rest[..start]);
        rest = match rest[start..].find(close) {
            Some(end) => &rest[start + end + close.len()..],
            None => "",
        };
    }
    out.push_str(rest);
    out
}

/// Role tags a model may put before its answer, matched ignoring ASCII case.
const ROLE_TAGS: [&str; 8] = [
    "assistant:",
    "coach:",
    "answer:",
    "response:",
    "treinador:",
    "resposta:",
    "教练：",
    "回答：",
];

/// `text` after the first of `tags` it starts with (ignoring ASCII case), or
/// `None`. Both are compared byte for byte over the tag's length, on `text`
/// itself: no offset measured on another string (such as a lower-cased copy,
/// whose length can differ: `İ` is 2 bytes, its lower case 3) is used to slice.
fn strip_role_tag<'a>(text: &'a str, tags: &[&str]) -> Option<&'a str> {
    tags.iter().find_map(|tag| {
        let head = text.get(..tag.len())?;
        head.eq_ignore_ascii_case(tag)
            .then(|| text.get(tag.len()..))
            .flatten()
    })
}

#[cfg(test)]
thread_local! {
    /// Passes over the whole answer ([`clean`]'s copies), counted for tests.
    static PASSES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Counts one pass over the whole answer (tests only).
fn pass() {
    #[cfg(test)]
    PASSES.set(PASSES.get() + 1);
}

/// Template tokens, role tags, quotes and extra whitespace out. Linear in
/// the answer: the tags and quotes are peeled off a slice (each round costs
/// only what it removes), and the text is copied a fixed number of times.
fn clean(text: &str) -> String {
    let text = remove_template_tokens(text);
    let mut rest = text.as_str();
    loop {
        let trimmed = rest
            .trim()
            .trim_matches(|c: char| {
                matches!(
                    c,
                    '"' | '\'' | '“' | '”' | '‘' | '’' | '«' | '»' | '「' | '」' | '`'
                )
            })
            .trim();
        let next = strip_role_tag(trimmed, &ROLE_TAGS).unwrap_or(trimmed);
        // `next` is a slice of `rest`: the same length is the same text.
        if next.len() == rest.len() {
            break;
        }
        rest = next;
    }
    pass();
    rest.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `<|…|>` tokens, `<s>`, `</s>`, `[INST]`, `[/INST]` out.
fn remove_template_tokens(text: &str) -> String {
    pass();
    let mut out = remove_spans(text, "<|", "|>");
    for token in ["<s>", "</s>", "[INST]", "[/INST]"] {
        pass();
        out = out.replace(token, " ");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coach::text::{input::CoachInput, prompt::build};

    fn prompt(lang: Lang) -> Prompt {
        build(&CoachInput {
            error: 812.0,
            attempts: vec![900.0],
            params: None,
            model: None,
            lang,
        })
    }

    #[test]
    fn keeps_the_text_before_the_first_marker() {
        let p = prompt(Lang::En);
        assert_eq!(
            check("Nudge the bias! |fim| and then more |fim|", &p).unwrap(),
            "Nudge the bias!"
        );
        assert_eq!(
            check("  Nudge the bias!  ", &p).unwrap(),
            "Nudge the bias!",
            "no marker"
        );
        assert_eq!(check("|fim| late text", &p), Err(Rejection::Empty));
    }

    #[test]
    fn strips_quotes_tags_echoes_and_reasoning() {
        let p = prompt(Lang::En);
        assert_eq!(
            check("\"Almost there!\"|fim|", &p).unwrap(),
            "Almost there!"
        );
        assert_eq!(
            check("Assistant: “Almost there!” |fim|", &p).unwrap(),
            "Almost there!"
        );
        assert_eq!(
            check("<|assistant|>\nAlmost there!<|end|>", &p).unwrap(),
            "Almost there!"
        );
        assert_eq!(
            check("<think>the user wants…</think> Almost there! |fim|", &p).unwrap(),
            "Almost there!"
        );
        assert_eq!(
            check("<think>never closed, rambling", &p),
            Err(Rejection::Empty)
        );
        let echoed = format!(
            "<|user|>\n{}<|end|>\n<|assistant|>\nKeep going! |fim|",
            p.user
        );
        assert_eq!(check(&echoed, &p).unwrap(), "Keep going!");
        assert_eq!(
            check("Line one\n\nline two |fim|", &p).unwrap(),
            "Line one line two"
        );
    }

    #[test]
    fn role_tags_are_stripped_in_any_ascii_case_and_any_script() {
        let p = prompt(Lang::En);
        for raw in ["ASSISTANT: Almost!", "Coach:Almost!", "ReSpOnSe: 'Almost!'"] {
            assert_eq!(check(raw, &p).unwrap(), "Almost!", "{raw}");
        }
        let pt = prompt(Lang::Pt);
        assert_eq!(
            check("Treinador: Ação, quase lá!", &pt).unwrap(),
            "Ação, quase lá!"
        );
        let zh = prompt(Lang::Zh);
        assert_eq!(check("教练：「快到了！」", &zh).unwrap(), "快到了！");
        assert_eq!(check("回答：教练：加油", &zh).unwrap(), "加油");
        // Not a tag: kept whole.
        assert_eq!(
            check("İstanbul: assistant: go", &p).unwrap(),
            "İstanbul: assistant: go"
        );
    }

    /// The old rule lower-cased the text, matched the tag there, and sliced the
    /// original at the tag's length. With a tag holding a `k`, the Kelvin sign
    /// `K` (3 bytes, lower case `k`, 1 byte) put that offset inside a
    /// character: `"a\u{212A}: hi"` with the tag `"ak:"` panicked there.
    #[test]
    fn tag_matching_never_slices_inside_a_character() {
        assert_eq!(strip_role_tag("a\u{212A}: hi", &["ak:"]), None);
        assert_eq!(strip_role_tag("AK: hi", &["ak:"]), Some(" hi"));
        assert_eq!(strip_role_tag("İ: hi", &["i:", "i\u{307}:"]), None);
        assert_eq!(
            strip_role_tag("教", &["教练："]),
            None,
            "shorter than the tag"
        );
        assert_eq!(
            strip_role_tag("教练", &["教x"]),
            None,
            "the tag's end inside a character"
        );
        assert_eq!(strip_role_tag("", &ROLE_TAGS), None);
    }

    #[test]
    fn rejects_empty_and_long_answers() {
        let p = prompt(Lang::En);
        assert_eq!(check("", &p), Err(Rejection::Empty));
        assert_eq!(check("  \"\"  |fim|", &p), Err(Rejection::Empty));
        let long = "word ".repeat(40);
        assert!(matches!(
            check(&long, &p),
            Err(Rejection::TooLong { max: 160, .. })
        ));
        let exactly = "a".repeat(160);
        assert!(check(&exactly, &p).is_ok());
        let zh = prompt(Lang::Zh);
        assert!(matches!(
            check(&"好".repeat(61), &zh),
            Err(Rejection::TooLong { max: 60, .. })
        ));
        assert!(check(&"好".repeat(60), &zh).is_ok());
    }

    /// An upstream may send 64 KiB of role tags (`coach:coach:…`): the
    /// cleanup takes a bounded number of passes over it, not one per tag.
    #[test]
    fn cleaning_64_kib_of_tags_takes_a_few_passes_not_one_per_tag() {
        let p = prompt(Lang::En);
        let tags = "coach:".repeat(64 * 1024 / 6);
        let passes = |raw: &str| {
            PASSES.set(0);
            let result = check(raw, &p);
            (result, PASSES.get())
        };
        let (result, n) = passes(&tags);
        assert_eq!(result, Err(Rejection::Empty));
        assert!(n <= 8, "{n} passes over a 64 KiB answer");
        let (result, n) = passes(&format!("{tags} Almost there! |fim|"));
        assert_eq!(result.as_deref(), Ok("Almost there!"));
        assert!(n <= 8, "{n} passes");
        let mixed = format!("{}Go!", "\"Coach: 'assistant: «".repeat(2000));
        let (result, n) = passes(&mixed);
        assert_eq!(result.as_deref(), Ok("Go!"));
        assert!(n <= 8, "{n} passes");
    }
}
