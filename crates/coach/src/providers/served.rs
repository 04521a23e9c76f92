//! A finished call as a provider hands it to the service ([`Called`]): its
//! text or why there is none, and what the upstream said of it ([`Served`]:
//! which inference provider took it, from `x-inference-provider`, which
//! Hugging Face's own chat-ui reads, and the `usage` it billed).

use super::ProviderError;
pub use crate::upstream::{ProviderName, Usage};

/// Who served a call and what it cost, as far as the upstream said.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Served {
    /// The inference provider that took it (`None`: the upstream did not say).
    pub by: Option<ProviderName>,
    /// Its tokens (`None`: not said, or a failure).
    pub usage: Option<Usage>,
}

/// One finished call: its text or why there is none, and [`Served`].
#[derive(Clone, Debug, PartialEq)]
pub struct Called {
    pub result: Result<String, ProviderError>,
    pub served: Served,
}

impl From<Result<String, ProviderError>> for Called {
    /// A call whose upstream said nothing of who served it.
    fn from(result: Result<String, ProviderError>) -> Self {
        Self {
            result,
            served: Served::default(),
        }
    }
}
