//! A value the caller sent that was refused: which field, and why. Every
//! boundary that parses input (a query, a JSON body, a link, a filter) gives
//! this one type; the app turns it into a `400` naming the field, as JSON
//! (`{"error", "field"}`) or one line of text.

use std::{borrow::Cow, fmt};

/// A refused field and the reason, in a sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// The field as the caller named it (`error`, `tentativas`, `visit`, `body`, …).
    pub field: Cow<'static, str>,
    pub message: String,
}

impl FieldError {
    #[inline]
    pub fn new(field: impl Into<Cow<'static, str>>, message: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            message: message.into(),
        }
    }

    /// `field` is missing although `with` was given (values that come in pairs).
    #[inline]
    pub fn required_with(field: &'static str, with: &str) -> Self {
        Self::new(field, format!("required with {with}"))
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for FieldError {}

#[cfg(test)]
mod tests {
    use super::FieldError;

    #[test]
    fn it_reads_as_the_field_then_the_reason() {
        let e = FieldError::required_with("bias", "weight");
        assert_eq!(e.to_string(), "bias: required with weight");
        assert_eq!(e.field, "bias");
    }
}
