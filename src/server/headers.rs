//! Response headers for the open internet: CORS on the JSON routes, a
//! Content-Security-Policy on the page, the usual hardening on everything, and
//! no caching of the routes' answers (`no-store`; the page's and `/pkg`'s cache
//! policies are in `super::revalidate` and `super::assets`).
//!
//! The page's policy allows only the app's own scripts and its WASM. Leptos
//! writes its hydration script inline, so each page render gets a fresh nonce
//! (leptos_axum provides one per render; [`page_policy`] reads it back) that
//! only those inline scripts carry. `frame-ancestors` comes from
//! `JAY_FRAME_ANCESTORS` (default `*`: any blog may embed the page), and no
//! `X-Frame-Options` is sent, since it cannot express "anyone".

use axum::http::{
    header::{
        CACHE_CONTROL, CONTENT_SECURITY_POLICY, REFERRER_POLICY, VARY, X_CONTENT_TYPE_OPTIONS,
    },
    HeaderValue, Method,
};
use leptos::prelude::use_context;
use leptos_axum::ResponseOptions;
use tower_http::{
    cors::{AllowOrigin, CorsLayer},
    set_header::SetResponseHeaderLayer,
};

/// CORS for `GET /error` and `GET /models`: any origin, or only `origins`; GET
/// (and its preflight) only; never credentials.
pub fn cors(origins: Option<&[String]>) -> CorsLayer {
    let allow = match origins {
        None => AllowOrigin::any(),
        Some(list) => AllowOrigin::list(
            list.iter()
                .filter_map(|o| HeaderValue::from_str(o).ok())
                .collect::<Vec<_>>(),
        ),
    };
    CorsLayer::new()
        .allow_origin(allow)
        .allow_methods([Method::GET])
        .allow_headers([
            axum::http::header::AUTHORIZATION,
            axum::http::header::ACCEPT_LANGUAGE,
        ])
        .allow_credentials(false)
}

/// The page's Content-Security-Policy for one render with `nonce`.
pub fn page_policy(nonce: &str, frame_ancestors: &str, live_reload: bool) -> String {
    // `cargo leptos watch` reloads the page over a websocket on another port.
    let connect = if live_reload { "'self' ws:" } else { "'self'" };
    format!(
        "default-src 'self'; script-src 'self' 'nonce-{nonce}' 'wasm-unsafe-eval'; \
         style-src 'self'; img-src 'self' data:; connect-src {connect}; \
         object-src 'none'; base-uri 'none'; form-action 'self'; \
         frame-ancestors {frame_ancestors}"
    )
}

/// In a page render's context: puts the policy with this render's nonce on
/// the response. (Server functions and static files have no nonce: nothing.)
/// `live_reload`: under `cargo leptos watch` (see [`live_reload`]).
pub fn provide_page_policy(frame_ancestors: &str, live_reload: bool) {
    let (Some(nonce), Some(response)) =
        (leptos::nonce::use_nonce(), use_context::<ResponseOptions>())
    else {
        return;
    };
    let policy = page_policy(&nonce.to_string(), frame_ancestors, live_reload);
    match HeaderValue::from_str(&policy) {
        Ok(value) => response.insert_header(CONTENT_SECURITY_POLICY, value),
        Err(e) => tracing::error!("bad Content-Security-Policy, not sent: {e}"),
    }
}

/// Whether the server runs under `cargo leptos watch` (read once, at start).
pub fn live_reload() -> bool {
    std::env::var_os("LEPTOS_WATCH").is_some()
}

/// `Cache-Control: no-store`, for answers no cache may keep or reuse: a comment
/// is new every time (and the router's drawing is random), and `/models` and
/// `/metrics` are live.
pub fn no_store() -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::overriding(CACHE_CONTROL, HeaderValue::from_static("no-store"))
}

/// `Vary: accept, accept-language` (appended to any other `Vary`): `/error`'s
/// form follows `Accept`, its language `Accept-Language`.
pub fn varies_with_accept() -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::appending(VARY, HeaderValue::from_static("accept, accept-language"))
}

/// `X-Content-Type-Options: nosniff` and a `Referrer-Policy`, on every response.
pub fn hardening() -> (
    SetResponseHeaderLayer<HeaderValue>,
    SetResponseHeaderLayer<HeaderValue>,
) {
    (
        SetResponseHeaderLayer::if_not_present(
            X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ),
        SetResponseHeaderLayer::if_not_present(
            REFERRER_POLICY,
            HeaderValue::from_static("strict-origin-when-cross-origin"),
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_allows_own_scripts_wasm_and_the_nonce_only() {
        let p = page_policy("abc123", "*", false);
        assert!(p.contains("script-src 'self' 'nonce-abc123' 'wasm-unsafe-eval';"));
        assert!(!p.contains("unsafe-inline") && !p.contains("'unsafe-eval'"));
        assert!(p.ends_with("frame-ancestors *"));
        assert!(page_policy("n", "'self' https://blog.example", true)
            .contains("connect-src 'self' ws:;"));
    }
}
