//! What an upstream says of itself beside its text, as values: the name of
//! the inference provider that took a call ([`ProviderName`], Hugging Face's
//! `x-inference-provider` header) and the tokens it billed ([`Usage`]).
//! Untrusted: a name is kept only if it looks like one, counts are bounded.
//! A leaf: it imports nothing of the coach.

use serde::{Deserialize, Serialize};

/// Most characters of a provider's name kept (Hugging Face's are at most
/// 14: `featherless-ai`).
const MAX_NAME: usize = 32;

/// An inference provider's name as an upstream gave it: 1 to 32 of
/// `a-z 0-9 - _ .`, lower-cased. Anything else is no name at all.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct ProviderName(String);

impl ProviderName {
    pub fn parse(raw: &str) -> Option<Self> {
        let name = raw.trim().to_ascii_lowercase();
        let ok = !name.is_empty()
            && name.len() <= MAX_NAME
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
        ok.then_some(Self(name))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for ProviderName {
    type Error = String;

    fn try_from(raw: String) -> Result<Self, Self::Error> {
        Self::parse(&raw).ok_or_else(|| format!("not a provider name: {raw:?}"))
    }
}

impl From<ProviderName> for String {
    fn from(name: ProviderName) -> Self {
        name.0
    }
}

impl std::fmt::Display for ProviderName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Most tokens one call is believed to have used, each way: a 70-token
/// comment after a prompt of a few hundred needs far less; a bigger number
/// is an upstream's nonsense and is not counted.
pub const MAX_TOKENS_PER_CALL: u64 = 1_000_000;

/// The tokens one call billed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
}

impl Usage {
    /// The counts an answer gave, if both are there and believable.
    pub fn new(prompt_tokens: Option<u64>, completion_tokens: Option<u64>) -> Option<Self> {
        let (prompt_tokens, completion_tokens) = (prompt_tokens?, completion_tokens?);
        (prompt_tokens <= MAX_TOKENS_PER_CALL && completion_tokens <= MAX_TOKENS_PER_CALL)
            .then_some(Self {
                prompt_tokens,
                completion_tokens,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provider_names_are_kept_only_when_they_look_like_names() {
        assert_eq!(ProviderName::parse(" Nscale ").unwrap().as_str(), "nscale");
        assert_eq!(
            ProviderName::parse("featherless-ai").unwrap().as_str(),
            "featherless-ai"
        );
        for bad in ["", "a b", "<script>", &"x".repeat(33), "ünï"] {
            assert_eq!(ProviderName::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn usage_needs_both_counts_and_believable_ones() {
        assert_eq!(
            Usage::new(Some(412), Some(23)),
            Some(Usage {
                prompt_tokens: 412,
                completion_tokens: 23
            })
        );
        assert_eq!(Usage::new(Some(412), None), None);
        assert_eq!(Usage::new(Some(u64::MAX), Some(1)), None);
    }
}
