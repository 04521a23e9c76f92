//! The cleanup of a model's raw answer: the text before the first
//! [`END_MARKER`], without reasoning blocks, echoes of the prompt,
//! chat-template tokens, Markdown markup (the bubble shows plain text:
//! `**bold**`, `` `code` ``, headings, bullets, quotes and links keep only
//! their words), role tags, surrounding quotes and extra whitespace.
//! Linear in the answer (an upstream may send 64 KiB of tags). Pure.

use super::super::prompt::{Prompt, END_MARKER};

/// `raw` cleaned: what a model meant as its comment, maybe empty.
pub fn cleaned(raw: &str, prompt: &Prompt) -> String {
    let mut text = strip_reasoning(raw);
    // A text-generation server may echo the prompt (`return_full_text`): keep what
    // follows the last copy of the question. (A shorter text cannot hold
    // one: not searched, since readying the search reads the whole question.)
    if let Some(at) = (text.len() >= prompt.user.len())
        .then(|| text.rfind(prompt.user.as_str()))
        .flatten()
    {
        text = text[at + prompt.user.len()..].to_string();
    }
    let before_marker = if may_hold(&text, END_MARKER) {
        text.split(END_MARKER).next().unwrap_or_default()
    } else {
        &text
    };
    clean(without_cut_marker(before_marker))
}

/// Whether `text` may hold `pattern`: it holds the pattern's first byte.
/// That look is a `memchr`; readying a substring search costs more than
/// most replies are long, and most hold no tag or marker.
fn may_hold(text: &str, pattern: &str) -> bool {
    pattern
        .as_bytes()
        .first()
        .is_none_or(|first| text.as_bytes().contains(first))
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
    if !may_hold(text, open) {
        return text.to_string();
    }
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
    let text = strip_markdown(&remove_template_tokens(text));
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
    let mut joined = String::with_capacity(rest.len());
    for word in rest.split_whitespace() {
        if !joined.is_empty() {
            joined.push(' ');
        }
        joined.push_str(word);
    }
    joined
}

/// Markdown's markup out, its words kept: a line's heading, bullet or quote
/// marker; `**`, `__`, `~~` and backticks anywhere; a `*` or `_` that opens
/// or closes a word (not one between two spaces, `2 * 3`, nor inside a
/// word, `snake_case`); a link or image `[words](address)` becomes its words.
fn strip_markdown(text: &str) -> String {
    pass();
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&inline_markup_out(line_marker_out(line)));
    }
    out
}

/// `line` without a leading `#`…`######`, `-`, `*`, `+` or `>` and its space.
fn line_marker_out(line: &str) -> &str {
    let trimmed = line.trim_start();
    let hashes = trimmed.chars().take_while(|&c| c == '#').count();
    let marker = match trimmed.chars().next() {
        Some('#') if hashes <= 6 => hashes,
        Some('-' | '*' | '+' | '>') => 1,
        _ => return line,
    };
    match trimmed[marker..].strip_prefix([' ', '\t']) {
        Some(rest) => rest,
        None => line,
    }
}

/// The inline markup of one line out (see [`strip_markdown`]).
fn inline_markup_out(line: &str) -> String {
    // Every rule below starts at one of these ('!' only before '[').
    if !line.contains(['`', '*', '_', '~', '[']) {
        return line.to_string();
    }
    let chars: Vec<char> = line.chars().collect();
    let word = |i: Option<usize>| {
        i.and_then(|i| chars.get(i))
            .is_some_and(|c| c.is_alphanumeric())
    };
    let mut out = String::with_capacity(line.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let pair = chars.get(i + 1) == Some(&c);
        match c {
            '`' => i += 1,
            '*' | '_' | '~' if pair => i += 2,
            '*' | '_' if word(i.checked_sub(1)) != word(Some(i + 1)) => i += 1,
            '!' if chars.get(i + 1) == Some(&'[') => i += 1,
            '[' => match link_end(&chars, i) {
                Some((words_end, end)) => {
                    out.extend(&chars[i + 1..words_end]);
                    i = end;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            },
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// For `[words](address)` starting at `open`: where the words end (the
/// `]`) and the index after the `)`. No nesting; the words and the address
/// hold no bracket of their kind.
fn link_end(chars: &[char], open: usize) -> Option<(usize, usize)> {
    let close = open
        + 1
        + chars[open + 1..]
            .iter()
            .position(|&c| c == ']' || c == '[')?;
    if chars[close] != ']' || chars.get(close + 1) != Some(&'(') {
        return None;
    }
    let paren = close
        + 2
        + chars[close + 2..]
            .iter()
            .position(|&c| c == ')' || c == '(')?;
    (chars[paren] == ')').then_some((close, paren + 1))
}

/// `<|…|>` tokens, `<s>`, `</s>`, `[INST]`, `[/INST]` out.
fn remove_template_tokens(text: &str) -> String {
    pass();
    let mut out = remove_spans(text, "<|", "|>");
    for token in ["<s>", "</s>", "[INST]", "[/INST]"] {
        pass();
        if may_hold(&out, token) && out.contains(token) {
            out = out.replace(token, " ");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        input::CoachInput,
        judge::{check, Rejection},
        prompt::build,
    };
    use vocabulary::Lang;

    #[test]
    fn markdown_keeps_only_its_words() {
        for (raw, plain) in [
            ("**Raise** the bias, __gently__.", "Raise the bias, gently."),
            ("*Nice* move, _really_.", "Nice move, really."),
            (
                "# Great job\n- keep going\n> steady",
                "Great job keep going steady",
            ),
            ("`bias` up ~~down~~", "bias up down"),
            (
                "[Click here](https://example.com/x) to win",
                "Click here to win",
            ),
            ("![a chart](chart.png) Look.", "a chart Look."),
            ("做得好，**继续**！", "做得好，继续！"),
            // Not markup: arithmetic, words with underscores, brackets alone.
            ("2 * 3 is six", "2 * 3 is six"),
            ("snake_case stays", "snake_case stays"),
            ("[sic] and (so)", "[sic] and (so)"),
            ("#1 move", "#1 move"),
        ] {
            assert_eq!(clean(raw), plain, "{raw:?}");
        }
    }

    /// Found by the offline words' property test: 450 was the bias's move.
    #[test]
    fn a_move_of_about_450_is_not_the_goal() {
        let params = lesson::neuron::Params::new(0.15882029124341354, 494.6477539800652);
        let input = CoachInput::new(205_422.28489585084, vec![], Some(params), None, Lang::Pt)
            .expect("a point the sliders reach");
        let text = "Abertura corajosa. Dica: diminua o viés em cerca de 450.";
        assert_eq!(check(text, &build(&input)).as_deref(), Ok(text));
    }

    #[test]
    fn bold_around_the_goal_does_not_hide_it() {
        // Served by SmolLM2-135M at error 480.5 (modelbench, 3 December).
        let prompt = build(&CoachInput {
            error: 480.5,
            attempts: vec![],
            params: None,
            lesson: lesson::lessons::Which::One,
            two: None,
            model: None,
            lang: Lang::Zh,
        });
        assert_eq!(
            check("这是目前最差的**低于 450**…", &prompt),
            Err(Rejection::ClaimsGoal)
        );
    }
}
