//! The Hugging Face settings: `HF_TOKEN`, `JAY_HF_BILL_TO` (the organisation
//! billed, `X-HF-Bill-To`) and `JAY_HF_HUB_URL` (where model cards are read),
//! each sent to Hugging Face hosts only (`coach::providers::http`).

use url::Url;

use super::{ConfigError, Secret};
use coach::providers::http::{BillTo, Hub};

/// What the coach needs of Hugging Face, validated.
#[derive(Clone, Debug, Default)]
pub struct HuggingFace {
    /// Token for Hugging Face hosts (never printed: see [`Secret`]).
    pub token: Option<Secret>,
    /// The organisation whose credits pay (`None`: the token's owner).
    pub bill_to: Option<BillTo>,
    /// Where model cards are read.
    pub hub: Hub,
}

impl HuggingFace {
    /// Reads `HF_TOKEN`, `JAY_HF_BILL_TO` and `JAY_HF_HUB_URL` through `var`.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let bill_to =
            match var("JAY_HF_BILL_TO").filter(|v| !v.trim().is_empty()) {
                None => None,
                Some(org) => Some(BillTo::parse(&org).ok_or_else(|| {
                    ConfigError::Invalid {
                name: "JAY_HF_BILL_TO",
                value: org.clone(),
                expected: "a Hugging Face organisation's name (1 to 96 letters, digits, -, _ or .)"
                    .into(),
            }
                })?),
            };
        let hub = match var("JAY_HF_HUB_URL").filter(|v| !v.trim().is_empty()) {
            None => Hub::default(),
            Some(raw) => Hub {
                url: Url::parse(raw.trim())
                    .ok()
                    .filter(|u| matches!(u.scheme(), "http" | "https") && u.has_host())
                    .ok_or_else(|| ConfigError::Invalid {
                        name: "JAY_HF_HUB_URL",
                        value: raw.clone(),
                        expected: "an http(s) URL such as https://huggingface.co".into(),
                    })?,
                everywhere: true,
            },
        };
        Ok(Self {
            token: hf_token_from(var("HF_TOKEN"))?,
            bill_to,
            hub,
        })
    }
}

/// `HF_TOKEN`, if set (blank is unset); one shorter than
/// [`coach::secret::MIN_KEY_CHARS`] is refused (it would be blanked
/// out of every answer).
pub(super) fn hf_token_from(value: Option<String>) -> Result<Option<Secret>, ConfigError> {
    match value.and_then(Secret::new) {
        Some(token) if token.too_short_for_a_key() => Err(ConfigError::ShortKey("HF_TOKEN")),
        token => Ok(token),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(pairs: &[(&str, &str)]) -> Result<HuggingFace, ConfigError> {
        HuggingFace::from_vars(|name| {
            pairs
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        })
    }

    #[test]
    fn the_organisation_billed_and_the_hub_are_checked_at_start_up() {
        let d = read(&[]).unwrap();
        assert_eq!((d.bill_to, d.hub), (None, Hub::default()));
        let set = read(&[
            ("JAY_HF_BILL_TO", " my-school "),
            ("JAY_HF_HUB_URL", "http://127.0.0.1:9"),
        ])
        .unwrap();
        assert_eq!(set.bill_to.unwrap().as_str(), "my-school");
        assert!(set.hub.everywhere && set.hub.url.as_str() == "http://127.0.0.1:9/");
        for (name, bad) in [
            ("JAY_HF_BILL_TO", "a b"),
            ("JAY_HF_BILL_TO", "x\ny"),
            ("JAY_HF_HUB_URL", "huggingface.co"),
        ] {
            let e = read(&[(name, bad)]).unwrap_err().to_string();
            assert!(e.contains(name), "{e}");
        }
    }
}
