//! Templates with `{name}` placeholders, the way every word table in every
//! language writes a sentence with a number in it.

/// `template` with each `{name}` replaced by its value, in one pass (a value
/// is never read as a template; an unknown `{name}` is left as it is).
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 16 * values.len());
    let mut rest = template;
    while let Some(open) = byte_at(rest, b'{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let value = byte_at(after, b'}').and_then(|close| {
            let name = &after[..close];
            let value = values.iter().find(|(n, _)| *n == name)?.1;
            Some((value, close))
        });
        match value {
            Some((value, close)) => {
                out.push_str(value);
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Where `byte`, an ASCII character (never part of a longer character, so
/// its index is a character boundary), first is in `text`. A plain loop: the
/// gaps between a template's braces are a few dozen bytes, where `str::find`
/// spends more readying its search than searching.
fn byte_at(text: &str, byte: u8) -> Option<usize> {
    text.bytes().position(|b| b == byte)
}

#[cfg(test)]
mod tests {
    use super::fill;

    #[test]
    fn fill_replaces_known_names_once_and_leaves_the_rest() {
        assert_eq!(
            fill("{a} and {b}, {a}!", &[("a", "1"), ("b", "{a}")]),
            "1 and {a}, 1!"
        );
        assert_eq!(fill("{unknown} {a", &[("a", "1")]), "{unknown} {a");
        assert_eq!(fill("约 {n}。", &[("n", "13")]), "约 13。");
        assert_eq!(fill("é}{a}ü{ {b}ç", &[("a", "à"), ("b", "1")]), "é}àü{ 1ç");
        assert_eq!(fill("", &[]), "");
    }
}
