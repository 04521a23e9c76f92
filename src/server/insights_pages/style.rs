//! The insights pages' own stylesheet, `GET /insights/style.css`: the rules
//! of `style/insights/pages.css` and `style/insights/room.css`, compiled into
//! the server. The learner's page, whose stylesheet every visitor loads,
//! carries none of them; the insights pages link both (the site's for the
//! shared look, this one for theirs).
//!
//! Linked as [`href`], `?v=` the text's FNV-1a hash: that address is cached
//! for a year (a new build's rules have a new address), any other is
//! revalidated. Public: a stylesheet tells nothing, and a browser fetches it
//! before any password prompt.

use axum::{
    extract::RawQuery,
    http::{
        header::{CACHE_CONTROL, CONTENT_TYPE},
        HeaderValue,
    },
    response::{IntoResponse, Response},
    routing::get,
    Router,
};

/// The rules, overview first (the room's may build on them).
pub const CSS: &str = concat!(
    include_str!("../../../style/insights/pages.css"),
    "\n",
    include_str!("../../../style/insights/room.css"),
);

/// Where the stylesheet is served.
pub const PATH: &str = "/insights/style.css";

/// FNV-1a, 64 bits: a version for the address, not a secret.
const fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        i += 1;
    }
    hash
}

/// The rules' version.
pub const VERSION: u64 = fnv1a(CSS.as_bytes());

/// The versioned address the pages link.
pub fn href() -> String {
    format!("{PATH}?v={VERSION:016x}")
}

/// The route, outside the pages' access check.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new().route(PATH, get(stylesheet))
}

/// `GET /insights/style.css`.
async fn stylesheet(RawQuery(query): RawQuery) -> Response {
    let current = format!("v={VERSION:016x}");
    let cache = if query.as_deref() == Some(current.as_str()) {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    (
        [
            (
                CONTENT_TYPE,
                HeaderValue::from_static("text/css; charset=utf-8"),
            ),
            (CACHE_CONTROL, HeaderValue::from_static(cache)),
        ],
        CSS,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_address_changes_with_the_rules() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(
            fnv1a(b"a"),
            0xaf63_dc4c_8601_ec8c,
            "FNV-1a's published value"
        );
        assert_ne!(fnv1a(b".a{}"), fnv1a(b".b{}"));
        assert!(href().starts_with("/insights/style.css?v="));
        assert!(CSS.contains(".insights") && CSS.contains("room"));
    }
}
