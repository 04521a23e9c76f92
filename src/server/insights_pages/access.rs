//! Who may read the insights pages (`/insights`, its CSV files, a room's live
//! view) and create rooms: with `JAY_INSIGHTS_TOKEN` set, whoever carries the
//! token (`server::auth`'s guard: a bearer token, or a Basic password, which
//! a browser asks for when a `401` says `WWW-Authenticate: Basic` ([`REALM`])
//! and sends on every later request to the site).
//!
//! Without a token they are private: only a client on this machine may read
//! them ([`is_local`]: a loopback peer, and no proxy's forwarding header, as
//! a request through a proxy on the same machine would carry), and anyone
//! else gets a `403` page saying how to set the token. (The server counts
//! wrong tokens per client and slows a guesser: `server::limits::guesses`.)

use std::{net::SocketAddr, sync::Arc};

use axum::{
    extract::{ConnectInfo, Request, State},
    http::{
        header::{CACHE_CONTROL, CONTENT_TYPE, WWW_AUTHENTICATE},
        HeaderMap, HeaderValue, StatusCode,
    },
    middleware::Next,
    response::{IntoResponse, Response},
    Router,
};

use super::{notice, shell, words::language};
use crate::server::auth::TokenGuard;
use coach::secret::Secret;

/// Headers a proxy adds when it forwards a request.
const FORWARDED: [&str; 4] = [
    "forwarded",
    "x-forwarded-for",
    "x-real-ip",
    "x-forwarded-host",
];

/// The `WWW-Authenticate` challenge of a refusal: the browser's password
/// prompt, which names the realm; the password is sent as UTF-8.
pub const REALM: &str = r#"Basic realm="Jay Trainer insights", charset="UTF-8""#;

/// Who may read the insights pages: this machine only (`None`), or
/// holders of the token.
#[derive(Clone, Debug, Default)]
pub struct Access(TokenGuard);

impl Access {
    /// Guarded by `token` when there is one (`JAY_INSIGHTS_TOKEN`), else
    /// private to this machine.
    pub fn new(token: Option<Secret>) -> Self {
        Self(TokenGuard::new(token))
    }

    /// Whether a token is wanted.
    pub fn guarded(&self) -> bool {
        self.0.guarded()
    }

    /// Whether a request with `headers` carries the token (always false
    /// without one: see [`is_local`]).
    pub fn allows(&self, headers: &HeaderMap) -> bool {
        self.0.allows(headers)
    }

    /// `router` with every route behind this access (a middleware that
    /// answers [`refusal`] without the token, or [`private`] without one set
    /// to a client elsewhere); `stylesheet` for the latter's page.
    pub fn protect<S: Clone + Send + Sync + 'static>(
        self,
        router: Router<S>,
        stylesheet: Arc<str>,
    ) -> Router<S> {
        router.route_layer(axum::middleware::from_fn_with_state(
            (self, stylesheet),
            require,
        ))
    }
}

/// Whether the request comes from this machine itself: its peer is a
/// loopback address and no proxy forwarded it.
pub fn is_local(request: &Request) -> bool {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    let headers = request.headers();
    peer.is_some_and(|ip| ip.to_canonical().is_loopback())
        && FORWARDED.iter().all(|name| !headers.contains_key(*name))
}

/// The middleware of [`Access::protect`].
pub async fn require(
    State((access, stylesheet)): State<(Access, Arc<str>)>,
    request: Request,
    next: Next,
) -> Response {
    let allowed = if access.guarded() {
        access.allows(request.headers())
    } else if is_local(&request) {
        true
    } else {
        return private(&request, &stylesheet);
    };
    if allowed {
        next.run(request).await
    } else {
        refusal()
    }
}

/// The `403` page for a client elsewhere when no token is set: what to set.
fn private(request: &Request, stylesheet: &str) -> Response {
    let lang = shell::page_lang(None, request.headers());
    let w = language(lang).notice;
    let page = notice::Notice {
        lang,
        title: w.private_title,
        heading: w.private_title,
        lines: &[w.private, w.private_how],
        stylesheet,
    };
    let mut response = page.response(StatusCode::FORBIDDEN);
    response
        .headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// `401` with the Basic challenge (so a browser asks for the password) and
/// one line of text saying what is wanted.
pub fn refusal() -> Response {
    (
        StatusCode::UNAUTHORIZED,
        [
            (WWW_AUTHENTICATE, HeaderValue::from_static(REALM)),
            (
                CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            ),
            (CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        "the insights want the token set in JAY_INSIGHTS_TOKEN: as the password \
         (any user name), or as Authorization: Bearer <token>\n",
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::header::AUTHORIZATION;
    use base64::{engine::general_purpose::STANDARD, Engine};

    fn with(authorization: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(
            AUTHORIZATION,
            HeaderValue::from_str(authorization).expect("a header"),
        );
        headers
    }

    fn basic(pair: &str) -> HeaderMap {
        with(&format!("Basic {}", STANDARD.encode(pair)))
    }

    #[test]
    fn without_a_token_no_header_opens_it() {
        assert!(!Access::new(None).allows(&HeaderMap::new()));
        assert!(!Access::new(None).allows(&with("Bearer anything")));
        assert!(!Access::new(None).guarded());
    }

    fn request(peer: &str, headers: &[(&str, &str)]) -> Request {
        let mut r = Request::new(axum::body::Body::empty());
        let addr: SocketAddr = peer.parse().expect("an address");
        r.extensions_mut().insert(ConnectInfo(addr));
        for (k, v) in headers {
            r.headers_mut().insert(
                axum::http::HeaderName::from_bytes(k.as_bytes()).expect("a name"),
                HeaderValue::from_str(v).expect("a value"),
            );
        }
        r
    }

    #[test]
    fn only_this_machine_unforwarded_is_local() {
        assert!(is_local(&request("127.0.0.1:5000", &[])));
        assert!(is_local(&request("[::1]:5000", &[])));
        assert!(is_local(&request("[::ffff:127.0.0.1]:5000", &[])));
        assert!(!is_local(&request("203.0.113.9:5000", &[])));
        assert!(!is_local(&request("10.0.0.2:5000", &[])));
        for forwarded in FORWARDED {
            let r = request("127.0.0.1:5000", &[(forwarded, "203.0.113.9")]);
            assert!(!is_local(&r), "{forwarded}");
        }
        assert!(
            !is_local(&Request::new(axum::body::Body::empty())),
            "no peer known"
        );
    }

    #[test]
    fn the_token_as_a_bearer_or_as_a_basic_password() {
        let access = Access::new(Secret::new("teach-3rd-grade"));
        assert!(access.guarded());
        for ok in [
            with("Bearer teach-3rd-grade"),
            with("bearer  teach-3rd-grade "),
            basic("teacher:teach-3rd-grade"),
            basic(":teach-3rd-grade"),
            with(&format!("BASIC {}", STANDARD.encode("x:teach-3rd-grade"))),
        ] {
            assert!(access.allows(&ok), "{ok:?}");
        }
        for refused in [
            HeaderMap::new(),
            with("Bearer teach-3rd-grad"),
            with("Bearer"),
            with("Token teach-3rd-grade"),
            with("teach-3rd-grade"),
            basic("teach-3rd-grade"),
            basic("teach-3rd-grade:"),
            basic("teacher:teach-3rd-grade-and-more"),
            with("Basic not*base64"),
            with(&format!("Basic {}", STANDARD.encode([0xff, b':', b'x']))),
        ] {
            assert!(!access.allows(&refused), "{refused:?}");
        }
        // A password with a colon in it: only the user name ends at the first.
        let colon = Access::new(Secret::new("a:b:c-token"));
        assert!(colon.allows(&basic("me:a:b:c-token")));
    }

    #[test]
    fn a_refusal_asks_the_browser_for_a_password() {
        let r = refusal();
        assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
        let challenge = r.headers()[WWW_AUTHENTICATE].to_str().expect("ascii");
        assert!(challenge.starts_with(r#"Basic realm="Jay Trainer insights""#));
        assert_eq!(r.headers()[CACHE_CONTROL], "no-store");
    }
}
