//! The cleanup of a model's raw answer: the text before the first
//! [`END_MARKER`], without reasoning blocks, echoes of the prompt,
//! chat-template tokens, role tags, surrounding quotes and extra whitespace.
//! Linear in the answer (an upstream may send 64 KiB of tags). Pure.

use super::super::prompt::{Prompt, END_MARKER};

/// `raw` cleaned: what a model meant as its comment, maybe empty.
pub fn cleaned(raw: &str, prompt: &Prompt) -> String {
    let mut text = strip_reasoning(raw);
    // A text-generation server may echo the prompt (`return_full_text`): keep what
    // follows the last copy of the question.
    if let Some(at) = text.rfind(prompt.user.as_str()) {
        text = text[at + prompt.user.len()..].to_string();
    }
    let before_marker = text.split(END_MARKER).next().unwrap_or_default();
    clean(without_cut_marker(before_marker))
}

/// `text` without a marker cut short at its end: a model that runs out of
/// tokens writes "… 叫哪食美。 |fim" (SmolLM2-135M, docs/benchmarks/model.md).
/// Only a start of the marker of two characters or more, after the text: a
/// lone `|` may be the model's own.
fn without_cut_marker(text: &str) -> &str {
    let trimmed = text.trim_end();
    (2..END_MARKER.len())
        .rev()
        .find_map(|n| trimmed.strip_suffix(&END_MARKER[..n]))
        .unwrap_or(text)
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
pub(super) const ROLE_TAGS: [&str; 8] = [
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
pub(super) fn strip_role_tag<'a>(text: &'a str, tags: &[&str]) -> Option<&'a str> {
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
    pub(super) static PASSES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
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
