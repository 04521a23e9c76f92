//! The page is revalidated on every visit and carries an `ETag`, so a repeat
//! visit costs a `304 Not Modified` and no body. It is the visitor's own
//! (`Cache-Control: private, no-cache`): a shared cache (a CDN, Varnish) must
//! not keep it, since the tag leaves out the CSP nonce and every revalidation
//! would hand its one stored copy, nonce and all, to every visitor. Its words
//! follow `Accept-Language` when `?lang=` is not given, and it is compressed
//! by `Accept-Encoding`: `Vary` names both, on the `304` too.
//!
//! The tag is a hash of the rendered HTML with this render's CSP nonce left
//! out: the nonce is new on every render (it is what lets the page's inline
//! hydration script run), the rest depends only on the build, the address and
//! the language. A `304` carries no `Content-Security-Policy`: the browser
//! keeps the one it stored with the body, whose nonce matches that body's
//! script (a fresh nonce there would block it).
//!
//! The render still happens (the HTML is its own source of truth; it takes
//! about half a millisecond), what a `304` saves is the transfer. See RFC 9110
//! §8.8.3 (`ETag`), §13.1.2 (`If-None-Match`), §15.4.5 (`304`).
//!
//! Two kinds of page pass through as they are, untagged: one that says
//! `no-store` already (a class room's live view: no cache may keep it, not
//! even the visitor's), and one larger than [`MAX_PAGE`], which is streamed on
//! from the bytes read so far rather than held whole.

use std::hash::{Hash, Hasher};

use axum::{
    body::{Body, Bytes},
    extract::Request,
    http::{header, HeaderMap, HeaderValue, StatusCode},
    middleware::Next,
    response::{IntoResponse, Response},
};
use futures::StreamExt;
use http_body_util::BodyExt;

/// A page larger than this is passed through untagged (ours is about 60 KB).
const MAX_PAGE: usize = 4 * 1024 * 1024;

/// Tags every `200 text/html` response and answers `304` when the visitor's
/// copy is current.
pub async fn revalidate(request: Request, next: Next) -> Response {
    let known = request.headers().get(header::IF_NONE_MATCH).cloned();
    let response = next.run(request).await;
    if response.status() != StatusCode::OK
        || !is_html(response.headers())
        || unstored(response.headers())
    {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let bytes = match read_up_to(body, MAX_PAGE).await {
        Ok(Whole(bytes)) => bytes,
        Ok(Larger(body)) => return Response::from_parts(parts, body),
        Err(e) => {
            tracing::error!("page body unreadable: {e}");
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        }
    };
    let nonce = nonce_of(&parts.headers);
    let tag = etag(&bytes, nonce.as_deref());
    parts.headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-cache"),
    );
    // Appended: the compression layer then sees `accept-encoding` named and
    // adds nothing.
    parts.headers.append(
        header::VARY,
        HeaderValue::from_static("accept-encoding, accept-language"),
    );
    if let Ok(value) = HeaderValue::from_str(&tag) {
        parts.headers.insert(header::ETAG, value);
    }
    if known.as_ref().is_some_and(|k| matches(k, &tag)) {
        parts.status = StatusCode::NOT_MODIFIED;
        for stale in [
            header::CONTENT_SECURITY_POLICY,
            header::CONTENT_LENGTH,
            header::CONTENT_TYPE,
        ] {
            parts.headers.remove(stale);
        }
        return Response::from_parts(parts, Body::empty());
    }
    Response::from_parts(parts, Body::from(bytes))
}

/// A body read whole, or, past the limit, the same body to stream on.
enum Read {
    Whole(Bytes),
    Larger(Body),
}
use Read::{Larger, Whole};

/// Reads `body` up to `limit` bytes.
async fn read_up_to(mut body: Body, limit: usize) -> Result<Read, axum::Error> {
    let mut read: Vec<u8> = Vec::new();
    while let Some(frame) = body.frame().await {
        let Ok(data) = frame?.into_data() else {
            continue;
        };
        read.extend_from_slice(&data);
        if read.len() > limit {
            let head =
                futures::stream::once(async move { Ok::<_, axum::Error>(Bytes::from(read)) });
            return Ok(Larger(Body::from_stream(
                head.chain(body.into_data_stream()),
            )));
        }
    }
    Ok(Whole(Bytes::from(read)))
}

/// Whether the answer says no cache may keep it.
fn unstored(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::CACHE_CONTROL)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| {
            v.split(',')
                .any(|d| d.trim().eq_ignore_ascii_case("no-store"))
        })
}

fn is_html(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"))
}

/// The render's nonce, from its policy's `'nonce-…'` source.
fn nonce_of(headers: &HeaderMap) -> Option<String> {
    let policy = headers
        .get(header::CONTENT_SECURITY_POLICY)?
        .to_str()
        .ok()?;
    let start = policy.find("'nonce-")? + "'nonce-".len();
    let len = policy[start..].find('\'')?;
    Some(policy[start..start + len].to_string())
}

/// A weak tag (the same page, not necessarily the same bytes: the nonce
/// differs) from the body with every occurrence of `nonce` left out.
fn etag(body: &[u8], nonce: Option<&str>) -> String {
    // std's SipHash with its fixed keys: the same on every run of a build.
    let mut hasher = std::hash::DefaultHasher::new();
    match (nonce.filter(|n| !n.is_empty()), std::str::from_utf8(body)) {
        (Some(nonce), Ok(text)) => text.split(nonce).for_each(|part| part.hash(&mut hasher)),
        _ => body.hash(&mut hasher),
    }
    format!("W/\"{:016x}\"", hasher.finish())
}

/// Whether an `If-None-Match` value names `tag` (weak comparison, any of a list, or `*`).
fn matches(known: &HeaderValue, tag: &str) -> bool {
    let Ok(known) = known.to_str() else {
        return false;
    };
    let opaque = |t: &str| t.trim().trim_start_matches("W/").to_string();
    known
        .split(',')
        .any(|k| k.trim() == "*" || opaque(k) == opaque(tag))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tag_ignores_the_nonce_and_nothing_else() {
        let page = |nonce: &str, error: &str| {
            format!(r#"<script nonce="{nonce}">x</script><p>{error}</p><link nonce="{nonce}">"#)
        };
        let a = etag(page("abc123", "799.09").as_bytes(), Some("abc123"));
        let b = etag(page("zz9xy", "799.09").as_bytes(), Some("zz9xy"));
        let c = etag(page("zz9xy", "447.29").as_bytes(), Some("zz9xy"));
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert!(a.starts_with("W/\"") && a.ends_with('"'), "{a}");
    }

    #[test]
    fn reads_the_nonce_from_the_policy() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(
                "default-src 'self'; script-src 'self' 'nonce-Ab_9' 'wasm-unsafe-eval'",
            ),
        );
        assert_eq!(nonce_of(&headers).as_deref(), Some("Ab_9"));
        assert_eq!(nonce_of(&HeaderMap::new()), None);
    }

    #[tokio::test]
    async fn a_page_past_the_limit_is_streamed_on_whole() {
        let page: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
        let Ok(Larger(body)) = read_up_to(Body::from(page.clone()), 1024).await else {
            panic!("not passed on");
        };
        let got = axum::body::to_bytes(body, usize::MAX).await.expect("bytes");
        assert_eq!(got.as_ref(), page.as_slice());
        let Ok(Whole(small)) = read_up_to(Body::from("<p>hi</p>"), 1024).await else {
            panic!("not read whole");
        };
        assert_eq!(small.as_ref(), b"<p>hi</p>");
    }

    #[test]
    fn a_page_that_says_no_store_is_left_alone() {
        let mut headers = HeaderMap::new();
        assert!(!unstored(&headers));
        headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("private, No-Store"),
        );
        assert!(unstored(&headers));
    }

    #[test]
    fn if_none_match_compares_weakly_and_takes_lists() {
        let tag = "W/\"00ff\"";
        for known in ["W/\"00ff\"", "\"00ff\"", "\"x\", W/\"00ff\"", "*"] {
            assert!(matches(&HeaderValue::from_static(known), tag), "{known}");
        }
        for known in ["W/\"00fe\"", "", "00ff"] {
            assert!(!matches(&HeaderValue::from_static(known), tag), "{known}");
        }
    }
}
