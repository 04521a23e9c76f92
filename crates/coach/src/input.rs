//! Parsing and validating a request for a comment (`GET /error`'s query or
//! `POST /api/comment`'s body) into a [`CoachInput`]. Only the parsed numbers ever reach a
//! prompt, never text from the request: the original server's guard against prompt injection.
//! Pure: no I/O, and knows nothing of models.

use serde::{Deserialize, Serialize};
use vocabulary::FieldError;

use lesson::{
    lessons::Which,
    neuron::{Params, BIAS_SLIDER, WEIGHT_SLIDER},
};
use vocabulary::Lang;

/// The largest bias a caller may send: 500, the page's bias slider's end before
/// it took Jay's 0–460, so that a caller that worked then still works. (The
/// weight's range only grew, 0–0.3 to 0–0.4.)
pub const BIAS_MAX_ACCEPTED: f64 = 500.0;

/// How far a given `error` may be from the error of the given weight and bias:
/// 0.01 plus 0.5 % (a caller that rounds the weight to 4 decimals moves the
/// error by up to ~0.3 %).
pub fn agrees(error: f64, params: Params) -> bool {
    agrees_with(error, params.error())
}

/// Whether a given `error` agrees with `exact`, the error of the point given
/// (in any lesson), as [`agrees`] says.
pub fn agrees_with(error: f64, exact: f64) -> bool {
    (error - exact).abs() <= 0.01 + 0.005 * exact
}

/// Larger errors are rejected. The sliders' worst corner gives about 560 000.
pub const MAX_ERROR: f64 = 10_000_000.0;
/// At most this many earlier attempts are kept per request: the most recent
/// ones (a longer history is cut, never refused: the page's 102nd attempt
/// must get its comment like the first).
pub const MAX_ATTEMPTS: usize = 100;
/// Longest model alias accepted.
const MAX_ALIAS: usize = 40;

/// A validated request for a comment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CoachInput {
    /// The current error.
    pub error: f64,
    /// Earlier attempts' errors, oldest first (not including the current one).
    pub attempts: Vec<f64>,
    /// The current weight and bias, when the caller gives them: the coach
    /// then states facts about the point ([`lesson::advice`]) and holds the
    /// model's answer to them.
    #[serde(default)]
    pub params: Option<Params>,
    /// The lesson the attempt is in (1 unless the caller says `lesson=2`).
    #[serde(default)]
    pub lesson: Which,
    /// Lesson 2's point (`w1`, `w2`, `b`), when the caller gives it: the
    /// coach states its facts ([`lesson::moves`]).
    #[serde(default)]
    pub two: Option<[f64; 3]>,
    /// Forces one model by alias.
    pub model: Option<String>,
    pub lang: Lang,
}

impl CoachInput {
    /// A visitor in the close tier (812, after 900), in English, with no point
    /// and no forced model: the unit tests' usual request.
    #[cfg(test)]
    pub fn sample() -> Self {
        Self::at(812.0, &[900.0], Lang::En)
    }

    /// A lesson 1 request at `error` after `attempts`, in `lang`, with no
    /// point and no forced model (tests).
    #[cfg(test)]
    pub fn at(error: f64, attempts: &[f64], lang: Lang) -> Self {
        Self {
            error,
            attempts: attempts.to_vec(),
            params: None,
            lesson: Which::One,
            two: None,
            model: None,
            lang,
        }
    }

    /// Validates already-typed values (a JSON body's).
    pub fn new(
        error: f64,
        attempts: Vec<f64>,
        params: Option<Params>,
        model: Option<String>,
        lang: Lang,
    ) -> Result<Self, FieldError> {
        check_error("error", error)?;
        if let Some(p) = params {
            check_param("weight", p.weight, WEIGHT_SLIDER.min, WEIGHT_SLIDER.max)?;
            check_param("bias", p.bias, BIAS_SLIDER.min, BIAS_MAX_ACCEPTED)?;
            if !agrees(error, p) {
                return Err(FieldError::new(
                    "error",
                    format!(
                        "does not match the weight and bias given (their error is {:.2})",
                        p.error()
                    ),
                ));
            }
        }
        for value in &attempts {
            check_error("attempts", *value)?;
        }
        let attempts = most_recent(attempts);
        if let Some(alias) = &model {
            check_alias(alias)?;
        }
        Ok(Self {
            error,
            attempts,
            params,
            lesson: Which::One,
            two: None,
            model,
            lang,
        })
    }

    /// Parses the decoded query pairs of `GET /error`.
    ///
    /// Fields: `error` (required), `tentativas` or `attempts`, `weight` and
    /// `bias` (both or neither), `model`, `lang` (and `format`, which the route
    /// reads). A documented field given twice or
    /// with a bad value is an error naming it; any other parameter (a browser's
    /// or a cache-buster's `_`, `t`, `v`…) is ignored, as the original server did. Without
    /// `lang`, the language comes from `Accept-Language`, else `default_lang`.
    pub fn from_query(
        pairs: &[(impl AsRef<str>, impl AsRef<str>)],
        accept_language: Option<&str>,
        default_lang: Lang,
    ) -> Result<Self, FieldError> {
        let mut error = None;
        let mut attempts = None;
        let mut model = None;
        let mut lang = None;
        let mut format = None;
        let mut weight = None;
        let mut bias = None;
        let (mut lesson, mut w1, mut w2, mut b) = (None, None, None, None);
        for (key, value) in pairs {
            let (field, slot): (&str, &mut Option<&str>) = match key.as_ref() {
                "error" => ("error", &mut error),
                "tentativas" | "attempts" => ("tentativas", &mut attempts),
                "model" => ("model", &mut model),
                "lang" => ("lang", &mut lang),
                "format" => ("format", &mut format),
                "weight" => ("weight", &mut weight),
                "bias" => ("bias", &mut bias),
                "lesson" => ("lesson", &mut lesson),
                "w1" => ("w1", &mut w1),
                "w2" => ("w2", &mut w2),
                "b" => ("b", &mut b),
                _ => continue,
            };
            if slot.replace(value.as_ref()).is_some() {
                return Err(FieldError::new(field, "given more than once"));
            }
        }
        let error = parse_number(
            "error",
            error.ok_or_else(|| FieldError::new("error", "required"))?,
        )?;
        let attempts = match attempts.map(str::trim) {
            None | Some("") => Vec::new(),
            Some(list) => parse_list("tentativas", list)?,
        };
        let model = model.map(str::to_string);
        let lang = choose_lang(lang, accept_language, default_lang)?;
        let built = match parse_lesson(lesson)? {
            Which::One => {
                if let Some(key) = [("w1", w1), ("w2", w2), ("b", b)]
                    .iter()
                    .find_map(|(k, v)| v.map(|_| *k))
                {
                    return Err(FieldError::new(key, "belongs to lesson=2"));
                }
                let weight = weight.map(|w| parse_number("weight", w)).transpose()?;
                let bias = bias.map(|b| parse_number("bias", b)).transpose()?;
                let params = point(weight, bias)?;
                Self::new(error, attempts, params, model, lang)
            }
            Which::Two => {
                if let Some(key) = [("weight", weight), ("bias", bias)]
                    .iter()
                    .find_map(|(k, v)| v.map(|_| *k))
                {
                    return Err(FieldError::new(
                        key,
                        "belongs to lesson 1: lesson 2 takes w1, w2 and b",
                    ));
                }
                let [w1, w2, b] = [("w1", w1), ("w2", w2), ("b", b)]
                    .map(|(k, v)| v.map(|v| parse_signed(k, v)).transpose());
                let point = point_two(w1?, w2?, b?)?;
                Self::new_two(error, attempts, point, model, lang)
            }
        };
        built.map_err(|e| {
            // `new` names typed fields; the query calls the list `tentativas`.
            if e.field == "attempts" {
                FieldError::new("tentativas", e.message)
            } else {
                e
            }
        })
    }
}

/// The point of a request: `weight` and `bias` come both or neither.
pub fn point(weight: Option<f64>, bias: Option<f64>) -> Result<Option<Params>, FieldError> {
    match (weight, bias) {
        (None, None) => Ok(None),
        (Some(w), Some(b)) => Ok(Some(Params::new(w, b))),
        (Some(_), None) => Err(FieldError::required_with("bias", "weight")),
        (None, Some(_)) => Err(FieldError::required_with("weight", "bias")),
    }
}

/// The language a comment is written in, the same for every caller: the
/// request's `lang` (refused if it names none we speak), else the best of
/// its `Accept-Language`, else `default_lang` (`JAY_DEFAULT_LANG`).
pub fn choose_lang(
    lang: Option<&str>,
    accept_language: Option<&str>,
    default_lang: Lang,
) -> Result<Lang, FieldError> {
    match lang {
        Some(tag) => parse_lang(tag),
        None => Ok(accept_language
            .and_then(Lang::from_accept_language)
            .unwrap_or(default_lang)),
    }
}

/// A `lang` as a caller writes it: `en`, `pt` or `zh`, any case, with a
/// region or not (`pt-BR`, `zh_CN`, `EN-us`).
pub fn parse_lang(tag: &str) -> Result<Lang, FieldError> {
    Lang::parse(tag)
        .filter(|_| tag.len() <= 16)
        .ok_or_else(|| FieldError::new("lang", "must be en, pt or zh"))
}

/// A plain decimal: digits with at most one `.`; no sign, exponent, hex, spaces,
/// `inf` or `NaN`.
pub fn parse_number(field: &'static str, text: &str) -> Result<f64, FieldError> {
    let value = plain_decimal(text).ok_or_else(|| {
        FieldError::new(
            field,
            "must be a plain non-negative decimal number such as 1234.56",
        )
    })?;
    check_error(field, value)?;
    Ok(value)
}

/// `text` as a number when it is digits with at most one `.` (and a digit),
/// at most 32 bytes.
pub(crate) fn plain_decimal(text: &str) -> Option<f64> {
    let plain = !text.is_empty()
        && text.len() <= 32
        && text.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && text.bytes().filter(|&b| b == b'.').count() <= 1
        && text.bytes().any(|b| b.is_ascii_digit());
    plain.then(|| text.parse().ok()).flatten()
}

/// A comma-separated list of numbers; a trailing comma (`1,2,`: a caller that
/// joins with a separator after each item) is tolerated, an empty item inside
/// is not.
fn parse_list(field: &'static str, text: &str) -> Result<Vec<f64>, FieldError> {
    let text = text.strip_suffix(',').unwrap_or(text);
    let values = text
        .split(',')
        .map(|item| parse_number(field, item.trim()))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(most_recent(values))
}

/// The last [`MAX_ATTEMPTS`] of a history, oldest first.
fn most_recent(mut attempts: Vec<f64>) -> Vec<f64> {
    let extra = attempts.len().saturating_sub(MAX_ATTEMPTS);
    attempts.drain(..extra);
    attempts
}

fn check_error(field: &'static str, value: f64) -> Result<(), FieldError> {
    if !value.is_finite() || value < 0.0 {
        return Err(FieldError::new(field, "must be a finite number ≥ 0"));
    }
    if value > MAX_ERROR {
        return Err(FieldError::new(
            field,
            format!("must be at most {MAX_ERROR}"),
        ));
    }
    Ok(())
}

pub(crate) fn check_param(
    field: &'static str,
    value: f64,
    min: f64,
    max: f64,
) -> Result<(), FieldError> {
    if value.is_finite() && (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(FieldError::new(
            field,
            format!("must be from {min} to {max}"),
        ))
    }
}

fn check_alias(alias: &str) -> Result<(), FieldError> {
    let ok = !alias.is_empty()
        && alias.len() <= MAX_ALIAS
        && alias
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.');
    if ok {
        Ok(())
    } else {
        Err(FieldError::new(
            "model",
            "must be a model alias (letters, digits, - _ .)",
        ))
    }
}

mod lesson_two;

pub use lesson_two::{parse_lesson, parse_signed, point_two};

#[cfg(test)]
mod tests;
