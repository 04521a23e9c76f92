//! A failed call read as Hugging Face's router means it
//! (`reference/hf-protocol-2026.md`, "Errors, as they come back"), by status
//! first: bodies vary, or are HTML.
//!
//! | status | read as |
//! |---|---|
//! | 503 | [`ProviderError::Unavailable`]: a provider outage (the retired Inference API's "loading" body is still read for its `estimated_time`) |
//! | 429 | [`ProviderError::RateLimited`], waiting as long as `Retry-After` says or, without it, `RateLimit`'s `t=` |
//! | 402 | [`ProviderError::Credits`]: the account's credits are spent |
//! | 401, 403 | [`ProviderError::Unauthorized`]: the key refused (401), this model refused to it (403) |
//! | 404, a 400 saying "not supported" | [`ProviderError::ModelNotSupported`]: no provider serves the model, with or without `code` |
//! | 410 | [`ProviderError::Gone`]: the retired `api-inference` host |
//! | another 4xx | [`ProviderError::BadRequest`] |
//! | 5xx, 3xx | [`ProviderError::Upstream`] (a redirect is never followed) |

use std::time::{Duration, SystemTime};

use reqwest::{header::HeaderMap, StatusCode};
use serde_json::Value;

use crate::providers::ProviderError;

/// Classifies a non-2xx answer (see the module docs).
pub fn classify(status: StatusCode, headers: &HeaderMap, body: &str) -> ProviderError {
    let now = SystemTime::now();
    match status.as_u16() {
        503 => ProviderError::Unavailable {
            retry_after: retry_after(headers, now).or_else(|| estimated_time(body)),
        },
        429 => ProviderError::RateLimited {
            retry_after: retry_after(headers, now).or_else(|| rate_limit_reset(headers)),
        },
        402 => ProviderError::Credits,
        code @ (401 | 403) => ProviderError::Unauthorized(code),
        410 => ProviderError::Gone,
        404 => ProviderError::ModelNotSupported,
        400 if says_not_supported(body) => ProviderError::ModelNotSupported,
        code @ (400..=499) => ProviderError::BadRequest(code),
        code => ProviderError::Upstream(code),
    }
}

/// Whether a 400 says that no provider serves the model: the router's
/// `model_not_supported` (its message "… is not supported by any provider
/// you have enabled"), a provider-pinned route's `{"error": "Model not
/// supported by provider together"}` (no code), or `model_not_found`.
fn says_not_supported(body: &str) -> bool {
    let body = body.to_ascii_lowercase();
    ["not supported", "model_not_supported", "model_not_found"]
        .iter()
        .any(|words| body.contains(words))
}

/// Longest wait read from an upstream (the breaker honours at most an hour).
pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(86_400);

/// `Retry-After` as a wait from `now`, in either of its forms (RFC 9110
/// §10.2.3): delta-seconds (`120`) or an HTTP date (`Fri, 31 Dec 2026 23:59:59
/// GMT`, and the two obsolete date formats). A date already past, or a value
/// that is neither, is no hint: the breaker's own back-off applies.
pub fn retry_after(headers: &HeaderMap, now: SystemTime) -> Option<Duration> {
    let value = headers
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim();
    let wait = match value.parse::<u64>() {
        Ok(seconds) => Duration::from_secs(seconds),
        Err(_) => {
            let date = httpdate::parse_http_date(value).ok()?;
            date.duration_since(now).ok().filter(|d| !d.is_zero())?
        }
    };
    Some(wait.min(MAX_RETRY_AFTER))
}

/// The seconds until the limit resets, from the IETF `RateLimit` header that
/// Hugging Face's Hub sends (`RateLimit: "api";r=0;t=55`: `t` in seconds).
/// Several limits in one header (comma-separated) wait for the latest.
pub fn rate_limit_reset(headers: &HeaderMap) -> Option<Duration> {
    let value = headers.get("ratelimit")?.to_str().ok()?;
    value
        .split(',')
        .filter_map(|limit| {
            limit
                .split(';')
                .filter_map(|param| param.trim().strip_prefix("t="))
                .find_map(|t| t.trim().parse::<u64>().ok())
        })
        .max()
        .map(|seconds| Duration::from_secs(seconds).min(MAX_RETRY_AFTER))
}

/// A loading model's `estimated_time` (seconds), from the retired Inference
/// API's 503 body, which self-hosted servers copying it may still send.
fn estimated_time(body: &str) -> Option<Duration> {
    let json: Value = serde_json::from_str(body).ok()?;
    json.get("estimated_time")
        .and_then(Value::as_f64)
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(|s| Duration::from_secs_f64(s.min(MAX_RETRY_AFTER.as_secs_f64())))
}

/// The upstream's error message, for logs only: `error`, `error.message`,
/// `detail` or `message`, whole (the log cuts it after redaction).
pub fn upstream_message(body: &str) -> String {
    let json: Option<Value> = serde_json::from_str(body).ok();
    let message = json.as_ref().and_then(|j| {
        j.get("error")
            .and_then(|e| {
                e.as_str()
                    .or_else(|| e.get("message").and_then(Value::as_str))
            })
            .or_else(|| j.get("detail").and_then(Value::as_str))
            .or_else(|| j.get("message").and_then(Value::as_str))
    });
    message.unwrap_or(body).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    fn read(status: u16, headers: &[(&'static str, &'static str)], body: &str) -> ProviderError {
        let mut map = HeaderMap::new();
        for (name, value) in headers {
            map.insert(*name, HeaderValue::from_static(value));
        }
        classify(StatusCode::from_u16(status).unwrap(), &map, body)
    }

    #[test]
    fn no_provider_serving_the_model_is_configuration_with_or_without_a_code() {
        let coded = r#"{"error": {"message": "The requested model 'Qwen/Qwen2.5-7B-Instruct' is not supported by any provider you have enabled.", "type": "invalid_request_error", "param": "model", "code": "model_not_supported"}}"#;
        let uncoded = r#"{"error": "Model not supported by provider together"}"#;
        let not_found = r#"{"error": {"message": "model not found", "code": "model_not_found"}}"#;
        for body in [coded, uncoded, not_found] {
            assert_eq!(
                read(400, &[], body),
                ProviderError::ModelNotSupported,
                "{body}"
            );
        }
        assert_eq!(
            read(404, &[], "Not Found"),
            ProviderError::ModelNotSupported
        );
        assert_eq!(
            read(
                404,
                &[],
                r#"{"error": "Model meta-llama/x does not exist"}"#
            ),
            ProviderError::ModelNotSupported
        );
        // Another 400 is still the request's fault, passing.
        assert_eq!(
            read(400, &[], r#"{"error": "max_tokens must be at least 1"}"#),
            ProviderError::BadRequest(400)
        );
    }

    #[test]
    fn a_429_without_retry_after_waits_for_the_ratelimit_headers_reset() {
        assert_eq!(
            read(429, &[("ratelimit", "\"api\";r=0;t=55")], ""),
            ProviderError::RateLimited {
                retry_after: Some(Duration::from_secs(55))
            }
        );
        // Retry-After wins when both are there; several limits wait for the latest.
        assert_eq!(
            read(
                429,
                &[("retry-after", "7"), ("ratelimit", "\"api\";r=0;t=55")],
                ""
            )
            .wait(),
            Some(Duration::from_secs(7))
        );
        assert_eq!(
            read(
                429,
                &[("ratelimit", "\"api\";r=0;t=5, \"pages\";r=0;t=30")],
                ""
            )
            .wait(),
            Some(Duration::from_secs(30))
        );
        // Neither: the breaker's own back-off.
        assert_eq!(read(429, &[], "Too Many Requests").wait(), None);
        assert_eq!(read(429, &[("ratelimit", "\"api\";r=0")], "").wait(), None);
    }

    #[test]
    fn the_router_era_503_is_an_outage_and_the_rest_as_before() {
        assert_eq!(
            read(
                503,
                &[],
                "<html><body>Service Temporarily Unavailable</body></html>"
            ),
            ProviderError::Unavailable { retry_after: None }
        );
        assert_eq!(
            read(503, &[("retry-after", "20")], "").wait(),
            Some(Duration::from_secs(20))
        );
        let credits = "You have depleted your monthly included credits. Purchase pre-paid credits to continue using Inference Providers.";
        assert_eq!(read(402, &[], credits), ProviderError::Credits);
        assert_eq!(
            read(
                401,
                &[],
                r#"{"error": "Invalid credentials in Authorization header"}"#
            ),
            ProviderError::Unauthorized(401)
        );
        let gone = r#"{"error": "https://api-inference.huggingface.co is no longer supported. Please use https://router.huggingface.co instead."}"#;
        assert_eq!(read(410, &[], gone), ProviderError::Gone);
    }
}
