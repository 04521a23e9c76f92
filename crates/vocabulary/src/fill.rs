//! Templates with `{name}` placeholders, the way every word table in every
//! language writes a sentence with a number in it.

/// `template` with each `{name}` replaced by its value, in one pass (a value
/// is never read as a template; an unknown `{name}` is left as it is).
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 16 * values.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let value = after.find('}').and_then(|close| {
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
        assert_eq!(fill("", &[]), "");
    }
}
