//! A secret value (`HF_TOKEN`, a model's own key, the `/models` token): held
//! in `secrecy`'s `SecretString`, so it never shows in logs or debug output,
//! and compared in constant time (`subtle`). One type for the server's
//! configuration and the coach's model keys alike.

use std::fmt;

use secrecy::{ExposeSecret, SecretString};
use subtle::ConstantTimeEq;

/// Shortest key accepted for an upstream (`HF_TOKEN`, a model's `token_env`):
/// every answer is searched for the key and it is blanked out where found,
/// so a short one (vLLM's documented `EMPTY`, a dummy `1`) would corrupt
/// ordinary answers. Real tokens are far longer.
pub const MIN_KEY_CHARS: usize = 8;

/// A trimmed, non-empty secret.
#[derive(Clone)]
pub struct Secret(SecretString);

impl Secret {
    /// `None` for an empty or blank value.
    pub fn new(value: impl AsRef<str>) -> Option<Self> {
        let value = value.as_ref().trim();
        (!value.is_empty()).then(|| Self(SecretString::from(value)))
    }

    pub fn expose(&self) -> &str {
        self.0.expose_secret()
    }

    /// Shorter than [`MIN_KEY_CHARS`]: not to be used as an upstream key.
    pub fn too_short_for_a_key(&self) -> bool {
        self.expose().chars().count() < MIN_KEY_CHARS
    }

    /// Compares in time that does not depend on where the first difference is.
    pub fn matches(&self, given: &str) -> bool {
        self.expose().as_bytes().ct_eq(given.as_bytes()).into()
    }
}

impl PartialEq for Secret {
    fn eq(&self, other: &Self) -> bool {
        self.matches(other.expose())
    }
}

impl Eq for Secret {}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Secret({:?})", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_trimmed_never_printed_and_compared_whole() {
        let s = Secret::new(" hf_abc123 ").unwrap();
        assert_eq!(s.expose(), "hf_abc123");
        assert!(!format!("{s:?}").contains("abc"));
        assert!(Secret::new("  ").is_none());
        assert!(s.matches("hf_abc123"));
        assert!(!s.matches("hf_abc124"));
        assert!(!s.matches("hf_abc12"));
        assert_eq!(Secret::new("hf_abc123"), Some(s));
    }
}
