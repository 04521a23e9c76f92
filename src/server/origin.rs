//! Cross-site writes are refused: a request that changes something (any
//! method but `GET`, `HEAD` and `OPTIONS`) answers `403` when the browser says
//! another site sent it. The page's own requests (`POST /api/comment`, its
//! beacons to `POST /insights/events`, a teacher's `POST /insights/rooms`)
//! are same-origin, also from inside a blog's iframe, whose document is this
//! site's; a third-party page that makes its visitors' browsers post here
//! (to forge visits or spend model calls from their addresses, or to ride a
//! teacher's saved password) is not. `GET /error` stays the public
//! cross-site API.
//!
//! The rule is Go's `net/http.CrossOriginProtection` (Go 1.25), after
//! Filippo Valsorda's "CSRF" (2025): `Sec-Fetch-Site`, which every current
//! browser sends, decides when present (`same-origin` or `none`, a request
//! the user made, pass; `same-site` and `cross-site` do not); without it, an
//! `Origin` must name this host (`Host`, or the `X-Forwarded-Host` of a proxy
//! the operator trusts); a request with neither header is not a browser's
//! cross-site request (`curl`, a server) and passes.

use axum::{
    extract::Request,
    http::{
        header::{ACCEPT, CONTENT_TYPE, HOST, ORIGIN},
        HeaderMap, HeaderValue, Method, StatusCode,
    },
    response::{IntoResponse, Response},
    Json,
};
use serde_json::json;

/// Why a write was refused, naming the header that showed it.
#[derive(Debug, PartialEq, Eq)]
pub struct CrossSite {
    pub field: &'static str,
}

/// Whether a request with `method` and `headers` may go on (see the module's
/// docs); `trusted_hops` proxies' `X-Forwarded-Host` counts as the host.
pub fn check(method: &Method, headers: &HeaderMap, trusted_hops: usize) -> Result<(), CrossSite> {
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return Ok(());
    }
    let text = |name| {
        headers
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
    };
    if let Some(site) = text("sec-fetch-site") {
        return match site.trim().to_ascii_lowercase().as_str() {
            "same-origin" | "none" => Ok(()),
            _ => Err(CrossSite {
                field: "sec-fetch-site",
            }),
        };
    }
    let Some(origin) = headers.get(ORIGIN) else {
        return Ok(());
    };
    let host_of = |origin: &str| {
        let rest = origin.split_once("://").map(|(_, rest)| rest)?;
        Some(rest.trim_end_matches('/').to_ascii_lowercase())
    };
    let given = origin.to_str().ok().and_then(host_of);
    let mut hosts = vec![text(HOST.as_str())];
    if trusted_hops > 0 {
        hosts.push(text("x-forwarded-host").and_then(|h| h.rsplit(',').next()));
    }
    let same = given.is_some_and(|given| {
        hosts
            .into_iter()
            .flatten()
            .any(|host| host.trim().eq_ignore_ascii_case(&given))
    });
    if same {
        Ok(())
    } else {
        Err(CrossSite { field: "origin" })
    }
}

/// The middleware (`axum::middleware::map_request`: no response of its own
/// to wait for): [`check`], and the `403` it asks for, as JSON
/// `{"error", "field"}` or, for a form or a text caller, one line of text.
pub async fn same_origin_writes(
    trusted_hops: usize,
    request: Request,
) -> Result<Request, Response> {
    let Err(refused) = check(request.method(), request.headers(), trusted_hops) else {
        return Ok(request);
    };
    let message = format!(
        "{}: a write from another site is refused; this endpoint takes the page's own requests",
        refused.field
    );
    let headers = request.headers();
    let json = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("json") || v.starts_with("text/plain"))
        || headers
            .get(ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("application/json"));
    Err(if json {
        let body = json!({ "error": message, "field": refused.field });
        (StatusCode::FORBIDDEN, Json(body)).into_response()
    } else {
        (
            StatusCode::FORBIDDEN,
            [(CONTENT_TYPE, "text/plain; charset=utf-8")],
            format!("{message}\n"),
        )
            .into_response()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(list: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in list {
            h.insert(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn the_pages_own_writes_pass_and_other_sites_do_not() {
        let post = Method::POST;
        let ok = |h: &[(&'static str, &'static str)]| check(&post, &headers(h), 0);
        assert_eq!(ok(&[("sec-fetch-site", "same-origin")]), Ok(()));
        assert_eq!(ok(&[("sec-fetch-site", "none")]), Ok(()));
        assert_eq!(ok(&[]), Ok(()), "curl, a server: no browser");
        assert_eq!(
            ok(&[("origin", "https://jay.example"), ("host", "jay.example")]),
            Ok(())
        );
        assert_eq!(
            ok(&[
                ("origin", "http://127.0.0.1:3000"),
                ("host", "127.0.0.1:3000")
            ]),
            Ok(())
        );
        for (h, field) in [
            (&[("sec-fetch-site", "cross-site")][..], "sec-fetch-site"),
            (&[("sec-fetch-site", "same-site")][..], "sec-fetch-site"),
            (
                &[
                    ("sec-fetch-site", "cross-site"),
                    ("origin", "https://jay.example"),
                    ("host", "jay.example"),
                ][..],
                "sec-fetch-site",
            ),
            (
                &[("origin", "https://blog.example"), ("host", "jay.example")][..],
                "origin",
            ),
            (&[("origin", "null"), ("host", "jay.example")][..], "origin"),
            (
                &[
                    ("origin", "https://jay.example.evil"),
                    ("host", "jay.example"),
                ][..],
                "origin",
            ),
        ] {
            assert_eq!(ok(h), Err(CrossSite { field }), "{h:?}");
        }
    }

    #[test]
    fn reads_always_pass_and_a_trusted_proxys_host_counts() {
        let cross = headers(&[("sec-fetch-site", "cross-site")]);
        assert_eq!(check(&Method::GET, &cross, 0), Ok(()));
        assert_eq!(check(&Method::OPTIONS, &cross, 0), Ok(()));
        let proxied = headers(&[
            ("origin", "https://jay.hf.space"),
            ("host", "10.0.0.7:7860"),
            ("x-forwarded-host", "jay.hf.space"),
        ]);
        assert_eq!(check(&Method::POST, &proxied, 1), Ok(()));
        assert!(
            check(&Method::POST, &proxied, 0).is_err(),
            "an untrusted header"
        );
    }
}
