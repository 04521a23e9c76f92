//! What became of one model for one request, as a type: the providers
//! classify a call into an [`Outcome`], the router learns from it, and `tried`
//! (`GET /error`), `/models` and `/metrics` show its name.
//!
//! The names are the JSON values documented since the first release (`ok`,
//! `timeout`, `rejected: too long`, …); [`Outcome`] serialises to exactly those
//! strings and reads them back. A leaf: it imports nothing of the coach.

use std::{fmt, str::FromStr};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One model's fate in one request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A good answer, used (or beaten by a hedge's).
    Ok,
    /// An answer the reply checks refused, and why (`too long`, …).
    Rejected(String),
    /// 503: the provider is unavailable (an outage, or a model still loading).
    Unavailable,
    /// 429.
    RateLimited,
    /// 402: the account's credits are spent (every model on the account rests).
    Credits,
    /// 401: the key was refused (every model on the same key and host rests).
    Unauthorized,
    /// 403: this model refused to this key (a gated model's licence not
    /// accepted, a token without the permission).
    Forbidden,
    /// No provider serves the model: a 404, or a 400 saying it is not
    /// supported (`model_not_supported`, or a provider-pinned route's
    /// "Model not supported by provider …" without a code).
    ModelNotSupported,
    /// Another 4xx.
    BadRequest,
    /// 410.
    Gone,
    /// A 5xx other than 503.
    UpstreamError,
    /// No answer within the model's timeout.
    Timeout,
    /// The connection was refused or never made.
    ConnectionFailed,
    /// A 2xx whose body held no usable text.
    BadBody,
    /// The model needs a key that is not set.
    NoToken,
    /// Still running when another model's answer won.
    Cancelled,
    /// A forced model the registry does not have.
    Unknown,
    /// A forced model that is disabled.
    Disabled,
    /// A forced model whose breaker is open.
    BreakerOpen,
    /// A forced model resting after a 401, 403, 404, an unsupported model or
    /// a 410 (an hour or more, or until the registry is reloaded).
    Misconfigured,
    /// A forced model not called: too many calls at once.
    Busy,
    /// A forced model not called: the day's budget is spent.
    DailyBudget,
    /// Not called: the model already has its `max_concurrency` calls under
    /// way, or the calls ahead of this one would not let it finish in the
    /// time left (another model or the offline commentator answers at once).
    QueueFull,
    /// No answer within the time left, while waiting behind other calls to
    /// the same model, which it answered meanwhile: busy, not down (neither
    /// the breaker nor the learned record counts it).
    QueueTimeout,
    /// A forced model not called: the registry's `languages` (or, without
    /// them, its model card's) leave out the request's language.
    OtherLanguage,
    /// A forced model not called: its availability check found no live
    /// provider for it (`/models` says why).
    NotServed,
}

/// Every outcome without a payload (what [`Outcome::from_str`] looks through).
const PLAIN: [Outcome; 25] = [
    Outcome::Ok,
    Outcome::Unavailable,
    Outcome::RateLimited,
    Outcome::Credits,
    Outcome::Unauthorized,
    Outcome::Forbidden,
    Outcome::ModelNotSupported,
    Outcome::BadRequest,
    Outcome::Gone,
    Outcome::UpstreamError,
    Outcome::Timeout,
    Outcome::ConnectionFailed,
    Outcome::BadBody,
    Outcome::NoToken,
    Outcome::Cancelled,
    Outcome::Unknown,
    Outcome::Disabled,
    Outcome::BreakerOpen,
    Outcome::Misconfigured,
    Outcome::Busy,
    Outcome::DailyBudget,
    Outcome::QueueFull,
    Outcome::QueueTimeout,
    Outcome::OtherLanguage,
    Outcome::NotServed,
];

/// The prefix of a rejection's name (`rejected: too long`).
const REJECTED: &str = "rejected";

/// An older name still read back (from a saved snapshot): what is now
/// [`Outcome::Unavailable`] was called `loading`, after the retired
/// Inference API's 503 body.
const FORMERLY_UNAVAILABLE: &str = "loading";

impl Outcome {
    /// The short name: the key of `/models`' `outcomes` counts and of the
    /// `outcome` label in `/metrics`. All rejections share `rejected`.
    pub fn kind(&self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Rejected(_) => REJECTED,
            Outcome::Unavailable => "unavailable",
            Outcome::RateLimited => "rate_limited",
            Outcome::Credits => "credits",
            Outcome::Unauthorized => "unauthorized",
            Outcome::Forbidden => "forbidden",
            Outcome::ModelNotSupported => "model_not_supported",
            Outcome::BadRequest => "bad_request",
            Outcome::Gone => "gone",
            Outcome::UpstreamError => "upstream_error",
            Outcome::Timeout => "timeout",
            Outcome::ConnectionFailed => "connection_failed",
            Outcome::BadBody => "bad_body",
            Outcome::NoToken => "no_token",
            Outcome::Cancelled => "cancelled",
            Outcome::Unknown => "unknown",
            Outcome::Disabled => "disabled",
            Outcome::BreakerOpen => "breaker_open",
            Outcome::Misconfigured => "misconfigured",
            Outcome::Busy => "busy",
            Outcome::DailyBudget => "daily_budget",
            Outcome::QueueFull => "queue_full",
            Outcome::QueueTimeout => "queue_timeout",
            Outcome::OtherLanguage => "other_language",
            Outcome::NotServed => "not_served",
        }
    }
}

impl fmt::Display for Outcome {
    /// The kind, and a rejection's reason after a colon.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Rejected(why) => write!(f, "{REJECTED}: {why}"),
            other => f.write_str(other.kind()),
        }
    }
}

/// A name that is no outcome.
#[derive(Debug, thiserror::Error)]
#[error("not an outcome: {0:?}")]
pub struct UnknownOutcome(String);

impl FromStr for Outcome {
    type Err = UnknownOutcome;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        if let Some(why) = name
            .strip_prefix(REJECTED)
            .and_then(|rest| rest.strip_prefix(": "))
        {
            return Ok(Outcome::Rejected(why.to_string()));
        }
        if name == FORMERLY_UNAVAILABLE {
            return Ok(Outcome::Unavailable);
        }
        PLAIN
            .iter()
            .find(|o| o.kind() == name)
            .cloned()
            .ok_or_else(|| UnknownOutcome(name.to_string()))
    }
}

impl Serialize for Outcome {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Outcome {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_reads_back_as_itself() {
        let mut all = PLAIN.to_vec();
        all.push(Outcome::Rejected(
            "contradicts the facts: says to lower the bias".into(),
        ));
        for outcome in all {
            let json = serde_json::to_string(&outcome).unwrap();
            assert_eq!(serde_json::from_str::<Outcome>(&json).unwrap(), outcome);
            assert_eq!(outcome.to_string().parse::<Outcome>().unwrap(), outcome);
        }
    }

    #[test]
    fn names_are_the_documented_json_values() {
        assert_eq!(serde_json::to_string(&Outcome::Ok).unwrap(), r#""ok""#);
        assert_eq!(
            serde_json::to_string(&Outcome::RateLimited).unwrap(),
            r#""rate_limited""#
        );
        assert_eq!(
            serde_json::to_string(&Outcome::Rejected("too long".into())).unwrap(),
            r#""rejected: too long""#
        );
        assert_eq!(Outcome::Rejected("too long".into()).kind(), "rejected");
        assert_eq!(Outcome::DailyBudget.to_string(), "daily_budget");
        assert_eq!(Outcome::ConnectionFailed.kind(), "connection_failed");
        assert_eq!(Outcome::QueueFull.to_string(), "queue_full");
        assert_eq!(
            serde_json::to_string(&Outcome::QueueTimeout).unwrap(),
            r#""queue_timeout""#
        );
        assert_eq!("loading".parse::<Outcome>().unwrap(), Outcome::Unavailable);
        assert_eq!(Outcome::Unavailable.kind(), "unavailable");
        assert!("rejected".parse::<Outcome>().is_err());
        assert!("late".parse::<Outcome>().is_err());
    }
}
