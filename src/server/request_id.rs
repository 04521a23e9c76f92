//! The `x-request-id` a request is logged and answered under. A client's own
//! id is kept only when it is a plain token, `[A-Za-z0-9._-]{1,64}`: anything
//! else (spaces, quotes, `=`) could forge fields in a text log line
//! (`x-request-id: a method=POST path=/admin`), so it is dropped and the
//! request gets a fresh UUID like one that came without an id.

use axum::{extract::Request, http::HeaderValue};

/// The header's name.
pub const HEADER: &str = "x-request-id";

/// Longest client id kept.
const MAX_ID: usize = 64;

/// Whether a client's id may be kept: 1 to 64 of `A-Z a-z 0-9 . _ -`.
pub fn is_plain(id: &HeaderValue) -> bool {
    let bytes = id.as_bytes();
    (1..=MAX_ID).contains(&bytes.len())
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// Drops a client's id unless it is [`is_plain`] (and the only one), so
/// that tower-http's `SetRequestIdLayer`, next, makes a new one.
pub fn drop_unplain(mut request: Request) -> Request {
    let headers = request.headers_mut();
    let mut ids = headers.get_all(HEADER).iter();
    let kept = match (ids.next(), ids.next()) {
        (Some(id), None) => is_plain(id),
        (None, _) => true,
        (Some(_), Some(_)) => false,
    };
    if !kept {
        headers.remove(HEADER);
    }
    request
}

/// The span around a request: its id, method and path (the query holds only
/// numbers, but is left out anyway; headers never go to the log).
pub fn span(request: &Request) -> tracing::Span {
    let id = request
        .headers()
        .get(HEADER)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("-");
    tracing::info_span!(
        "request",
        id = %id,
        method = %request.method(),
        path = %request.uri().path()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_tokens_only() {
        let plain = |id: &str| is_plain(&HeaderValue::from_str(id).unwrap());
        for kept in [
            "abc-123.X_y",
            "0",
            &"a".repeat(64),
            "1a2b3c4d-0000-4000-8000-000000000000",
        ] {
            assert!(plain(kept), "{kept}");
        }
        for dropped in [
            "",
            "a method=POST path=/admin",
            "a\"b",
            "a=b",
            "a/b",
            &"a".repeat(65),
        ] {
            assert!(!plain(dropped), "{dropped}");
        }
        assert!(!is_plain(&HeaderValue::from_bytes(b"caf\xc3\xa9").unwrap()));
    }

    #[test]
    fn an_unplain_id_or_two_ids_are_dropped() {
        let with = |ids: &[&'static str]| {
            let mut request = Request::new(axum::body::Body::empty());
            for id in ids {
                request
                    .headers_mut()
                    .append(HEADER, HeaderValue::from_static(id));
            }
            request
        };
        let left = |request: Request| {
            request
                .headers()
                .get_all(HEADER)
                .iter()
                .map(|v| v.to_str().unwrap().to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(left(drop_unplain(with(&["ok-1"]))), ["ok-1"]);
        assert!(left(drop_unplain(with(&["a b"]))).is_empty());
        assert!(left(drop_unplain(with(&["ok-1", "ok-2"]))).is_empty());
        assert!(left(drop_unplain(with(&[]))).is_empty());
    }
}
