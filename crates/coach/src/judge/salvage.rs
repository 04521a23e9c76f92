//! Sentences in a reply: where one ends, and an over-long answer cut back to
//! the whole sentences that fit. Small models often write a fine first
//! sentence and then ramble past the limit; the first part is kept rather
//! than the whole thrown away. Works on characters, never on bytes alone: a
//! cut never splits a character (Chinese, emoji). Pure.

/// Characters that end a sentence wherever they stand.
const WIDE_ENDS: [char; 4] = ['。', '！', '？', '…'];
/// Characters that end a sentence when a space or the text's end follows
/// (after any closing quotes or brackets): not the point in `799.09`, nor the
/// one in `e.g.x`.
const ENDS: [char; 3] = ['.', '!', '?'];
/// Closing quotes and brackets a sentence end may carry: `"Go!"`, `(Go!)`.
const CLOSERS: [char; 8] = ['"', '\'', '”', '’', ')', '」', '』', '»'];

/// Byte offsets just after each sentence end in `text`, in order (an end's
/// closing quotes and a run such as `?!` or `...` included).
pub fn sentence_ends(text: &str) -> Vec<usize> {
    let mut chars = Vec::with_capacity(text.chars().count());
    chars.extend(text.char_indices());
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i].1;
        if !WIDE_ENDS.contains(&c) && !ENDS.contains(&c) {
            i += 1;
            continue;
        }
        // The whole run of ends and closers: `?!`, `...`, `!"`, `。」`.
        let mut j = i + 1;
        while j < chars.len()
            && (WIDE_ENDS.contains(&chars[j].1)
                || ENDS.contains(&chars[j].1)
                || CLOSERS.contains(&chars[j].1))
        {
            j += 1;
        }
        let wide = chars[i..j].iter().any(|(_, c)| WIDE_ENDS.contains(c));
        let then = chars.get(j).map(|&(_, c)| c);
        if wide || then.is_none_or(char::is_whitespace) {
            out.push(chars.get(j).map_or(text.len(), |&(at, _)| at));
        }
        i = j;
    }
    out
}

/// The sentences of `text`, each without the spaces around it.
pub fn sentences(text: &str) -> Vec<&str> {
    let mut start = 0;
    let mut out = Vec::new();
    for end in sentence_ends(text) {
        out.push(text[start..end].trim());
        start = end;
    }
    out.push(text[start..].trim());
    out.retain(|s| !s.is_empty());
    out
}

/// The longest run of whole sentences from the start of `text` that fits in
/// `max` characters, or `None` when not even the first one fits (or what
/// fits holds no letter or digit: `!!!` is no comment).
pub fn salvage(text: &str, max: usize) -> Option<&str> {
    sentence_ends(text)
        .into_iter()
        .map(|end| text[..end].trim_end())
        .take_while(|kept| kept.chars().count() <= max)
        .last()
        .filter(|kept| kept.chars().any(char::is_alphanumeric))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_issues_answer_keeps_its_first_sentences() {
        let first = "The error is 799.09. The next move is to raise the bias by 13.";
        let long = format!(
            "{first} Then you should look at the weight too, because the line is still \
             far from the houses on the right. Keep an eye on the red gaps, they show \
             where the line misses most, and try again after each small change!"
        );
        assert!(long.chars().count() > 200);
        assert_eq!(salvage(&long, 160), Some(first));
        assert_eq!(salvage(&long, 25), Some("The error is 799.09."));
        assert_eq!(salvage(&long, 19), None, "not even one sentence fits");
    }

    #[test]
    fn a_decimal_point_ends_no_sentence() {
        assert_eq!(sentence_ends("Error 799.09 now"), Vec::<usize>::new());
        assert_eq!(
            sentences("Error 1.234,56. Go! Really?! Yes... \"Done.\" Next"),
            [
                "Error 1.234,56.",
                "Go!",
                "Really?!",
                "Yes...",
                "\"Done.\"",
                "Next"
            ]
        );
    }

    #[test]
    fn chinese_and_emoji_are_cut_between_characters() {
        let zh = format!("低于目标还差一点。{}", "继续加油".repeat(20));
        assert_eq!(salvage(&zh, 60), Some("低于目标还差一点。"));
        let zh = "太棒了！再来一次？好的……然后呢";
        assert_eq!(
            sentences(zh),
            ["太棒了！", "再来一次？", "好的……", "然后呢"]
        );
        assert_eq!(salvage(zh, 13), Some("太棒了！再来一次？好的……"));
        assert_eq!(salvage(zh, 12), Some("太棒了！再来一次？"));
        assert_eq!(salvage(zh, 9), Some("太棒了！再来一次？"));
        let emoji = "🎉🎉 Great! 🚀🚀🚀 more and more";
        assert_eq!(salvage(emoji, 12), Some("🎉🎉 Great!"));
        // Every cut point of every text is a character boundary.
        for text in [zh, emoji, "Ação! É já. Três?"] {
            for end in sentence_ends(text) {
                assert!(text.is_char_boundary(end), "{text}: {end}");
            }
            for max in 0..40 {
                let _ = salvage(text, max);
            }
        }
    }

    #[test]
    fn without_a_sentence_end_nothing_is_salvaged() {
        assert_eq!(salvage(&"blah ".repeat(50), 160), None);
        assert_eq!(salvage("", 160), None);
        assert_eq!(salvage("!!! and on and on", 160), None);
    }
}
