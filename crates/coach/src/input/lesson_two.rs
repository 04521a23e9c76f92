//! A request about lesson 2 (`lesson=2`): its point is `w1`, `w2` and `b`,
//! all three or none, each within the lesson's sliders (negative values
//! too), and the error must be theirs.

use super::{agrees_with, check_param, plain_decimal, CoachInput};
use lesson::lessons::{Which, TWO};
use vocabulary::{FieldError, Lang};

impl CoachInput {
    /// A request about lesson 2, validated: its point's `w1`, `w2` and `b`
    /// within the lesson's sliders, and the error theirs.
    pub fn new_two(
        error: f64,
        attempts: Vec<f64>,
        point: Option<[f64; 3]>,
        model: Option<String>,
        lang: Lang,
    ) -> Result<Self, FieldError> {
        let mut input = Self::new(error, attempts, None, model, lang)?;
        if let Some(p) = point {
            for (spec, value) in TWO.params.iter().zip(p) {
                check_param(spec.key, value, spec.min, spec.max)?;
            }
            let exact = TWO.error(&p);
            if !agrees_with(error, exact) {
                return Err(FieldError::new(
                    "error",
                    format!("does not match w1, w2 and b (their error is {exact:.2})"),
                ));
            }
        }
        input.lesson = Which::Two;
        input.two = point;
        Ok(input)
    }

    /// Whether the error reaches the goal of the request's lesson.
    pub fn reaches_goal(&self) -> bool {
        self.lesson.reaches_goal(self.error)
    }
}

/// `lesson`: 1 (or absent) or 2.
pub fn parse_lesson(text: Option<&str>) -> Result<Which, FieldError> {
    match text.map(str::trim) {
        None => Ok(Which::One),
        Some(t) => t
            .parse::<u8>()
            .ok()
            .and_then(Which::from_number)
            .ok_or_else(|| FieldError::new("lesson", "must be 1 or 2")),
    }
}

/// Lesson 2's point: `w1`, `w2` and `b` come all three or none.
pub fn point_two(
    w1: Option<f64>,
    w2: Option<f64>,
    b: Option<f64>,
) -> Result<Option<[f64; 3]>, FieldError> {
    match (w1, w2, b) {
        (None, None, None) => Ok(None),
        (Some(w1), Some(w2), Some(b)) => Ok(Some([w1, w2, b])),
        _ => {
            let missing = [("w1", w1), ("w2", w2), ("b", b)]
                .into_iter()
                .find(|(_, v)| v.is_none())
                .map_or("b", |(k, _)| k);
            Err(FieldError::new(
                missing,
                "required with the other two of w1, w2 and b",
            ))
        }
    }
}

/// A plain decimal that may be negative (lesson 2's weights and bias).
pub fn parse_signed(field: &'static str, text: &str) -> Result<f64, FieldError> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    match plain_decimal(digits) {
        Some(v) => Ok(if negative { -v } else { v }),
        None => Err(FieldError::new(
            field,
            "must be a plain decimal number such as -10.5",
        )),
    }
}
