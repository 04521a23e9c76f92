//! How `GET /error` answers a caller: the original server's plain text, or JSON. A caller
//! gets JSON when it says `format=json`, or when its `Accept` header ranks
//! `application/json` strictly above `text/plain`. So the original server's callers keep
//! their text: `curl` and `fetch` (`*/*`), jQuery, and axios, whose default
//! `application/json, text/plain, */*` ranks both alike (a page written for the original server that
//! shows axios's `res.data` would otherwise print `[object Object]`), while a
//! client that names only JSON, or prefers it by `q`, gets JSON.

use vocabulary::FieldError;

/// How `/error` answers: the original server's plain text, or JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

impl Format {
    /// `format=json|text` wins; else what `Accept` asks for ([`Self::accepted`]).
    pub fn choose(format: Option<&str>, accept: Option<&str>) -> Result<Self, FieldError> {
        Ok(Self::asked(format)?.unwrap_or_else(|| Self::accepted(accept)))
    }

    /// The form a `format` parameter names, if any.
    fn asked(format: Option<&str>) -> Result<Option<Self>, FieldError> {
        match format.map(str::trim) {
            None => Ok(None),
            Some(f) if f.eq_ignore_ascii_case("json") => Ok(Some(Self::Json)),
            Some(f) if f.eq_ignore_ascii_case("text") => Ok(Some(Self::Text)),
            Some(_) => Err(FieldError::new("format", "must be json or text")),
        }
    }

    /// JSON when `Accept` ranks `application/json` strictly above
    /// `text/plain`; else text (no header, `*/*`, axios's default).
    pub fn accepted(accept: Option<&str>) -> Self {
        match accept {
            Some(accept)
                if quality(accept, "application", "json") > quality(accept, "text", "plain") =>
            {
                Self::Json
            }
            _ => Self::Text,
        }
    }
}

/// The weight `accept` gives `kind/sub`: the `q` of the most specific range
/// that matches it (`kind/sub`, else `kind/*`, else `*/*`; RFC 9110 §12.5.1),
/// 0 when none does. Names and the `q` parameter in any case; a `q` that is
/// not a number counts as 1, and weights are held to 0–1.
fn quality(accept: &str, kind: &str, sub: &str) -> f32 {
    let mut best: Option<(u8, f32)> = None;
    for range in accept.split(',') {
        let mut parts = range.split(';');
        let Some((k, s)) = parts.next().and_then(|media| media.trim().split_once('/')) else {
            continue;
        };
        let (k, s) = (k.trim(), s.trim());
        let specificity = match (k.eq_ignore_ascii_case(kind), s) {
            (true, s) if s.eq_ignore_ascii_case(sub) => 2,
            (true, "*") => 1,
            (false, "*") if k == "*" => 0,
            _ => continue,
        };
        let q = parts
            .find_map(|p| {
                let (name, value) = p.split_once('=')?;
                name.trim().eq_ignore_ascii_case("q").then_some(value)
            })
            .and_then(|q| q.trim().parse::<f32>().ok())
            .filter(|q| q.is_finite())
            .map_or(1.0, |q| q.clamp(0.0, 1.0));
        if best.is_none_or(|(known, _)| specificity > known) {
            best = Some((specificity, q));
        }
    }
    best.map_or(0.0, |(_, q)| q)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_unless_json_is_preferred() {
        let accepted = |accept| Format::accepted(Some(accept));
        for (accept, expected) in [
            ("application/json, text/plain, */*", Format::Text), // axios
            ("*/*", Format::Text),                               // curl, fetch
            ("text/html,application/xhtml+xml,*/*;q=0.8", Format::Text),
            ("text/plain, application/json", Format::Text),
            ("text/plain, Application/JSON; q=0.5", Format::Text),
            ("application/json;q=0", Format::Text),
            ("application/json;Q=0", Format::Text),
            ("application/json; q = 0", Format::Text),
            ("text/*, application/json", Format::Text),
            ("application/json", Format::Json),
            ("Application/JSON", Format::Json),
            ("application/json; charset=utf-8", Format::Json),
            ("application/json, text/plain;q=0.5", Format::Json),
            ("application/json, text/plain;Q=0.5", Format::Json),
            ("application/json;q=0.5, */*;q=0.1", Format::Json),
            ("application/json, text/*;q=0.9", Format::Json),
            ("application/*", Format::Json),
            ("application/json;q=2, text/plain", Format::Text),
            ("application/json;q=abc, text/plain;q=0.9", Format::Json),
            ("", Format::Text),
            ("nonsense, ;;, /", Format::Text),
        ] {
            assert_eq!(accepted(accept), expected, "{accept}");
        }
        assert_eq!(Format::accepted(None), Format::Text);
    }

    #[test]
    fn a_format_parameter_wins() {
        let choose = |format, accept| Format::choose(format, accept).unwrap();
        assert_eq!(choose(None, None), Format::Text);
        assert_eq!(choose(Some("json"), Some("*/*")), Format::Json);
        assert_eq!(choose(Some(" JSON "), None), Format::Json);
        assert_eq!(choose(Some("text"), Some("application/json")), Format::Text);
        assert_eq!(
            Format::choose(Some("xml"), None).unwrap_err().field,
            "format"
        );
    }
}
