//! Who may read the insights pages (`/insights`, its CSV files, a room's live
//! view): anyone, unless the operator sets `JAY_INSIGHTS_TOKEN` (as
//! `JAY_MODELS_TOKEN` guards `/models`). Then a request must carry the token,
//! either as `Authorization: Bearer <token>` (scripts, `curl`) or as HTTP
//! Basic with any user name and the token as the password: a browser cannot
//! send a bearer token from its address bar, but it asks for a password when a
//! `401` says `WWW-Authenticate: Basic` ([`REALM`]), and sends it on every
//! later request to the site.
//!
//! The token is a [`Secret`]: never printed, compared in constant time.

use axum::{
    extract::{Request, State},
    http::{
        header::{AUTHORIZATION, CACHE_CONTROL, CONTENT_TYPE, WWW_AUTHENTICATE},
        HeaderMap, HeaderValue, StatusCode,
    },
    middleware::Next,
    response::{IntoResponse, Response},
    Router,
};
use base64::{engine::general_purpose::STANDARD, Engine};

use crate::coach::secret::Secret;

/// The `WWW-Authenticate` challenge of a refusal: the browser's password
/// prompt, which names the realm; the password is sent as UTF-8.
pub const REALM: &str = r#"Basic realm="Jay Trainer insights", charset="UTF-8""#;

/// Who may read the insights pages: anyone (`None`), or holders of the token.
#[derive(Clone, Debug, Default)]
pub struct Access(Option<Secret>);

impl Access {
    /// Open to anyone.
    pub fn open() -> Self {
        Self(None)
    }

    /// Guarded by `token` when there is one (`JAY_INSIGHTS_TOKEN`).
    pub fn new(token: Option<Secret>) -> Self {
        Self(token)
    }

    /// Whether a token is wanted.
    pub fn guarded(&self) -> bool {
        self.0.is_some()
    }

    /// Whether a request with `headers` may read the pages.
    pub fn allows(&self, headers: &HeaderMap) -> bool {
        let Some(token) = &self.0 else {
            return true;
        };
        given_token(headers).is_some_and(|given| token.matches(&given))
    }

    /// `router` with every route behind this access (a middleware that
    /// answers [`refusal`] without the token).
    pub fn protect<S: Clone + Send + Sync + 'static>(self, router: Router<S>) -> Router<S> {
        router.route_layer(axum::middleware::from_fn_with_state(self, require))
    }
}

/// The token a request carries: a bearer token, or a Basic password (any user
/// name). `None` without one, or when the header is not one of those shapes.
fn given_token(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(AUTHORIZATION)?.to_str().ok()?.trim();
    let (scheme, credentials) = value.split_once(' ')?;
    let credentials = credentials.trim();
    if scheme.eq_ignore_ascii_case("bearer") {
        Some(credentials.to_string())
    } else if scheme.eq_ignore_ascii_case("basic") {
        let decoded = STANDARD.decode(credentials).ok()?;
        let pair = String::from_utf8(decoded).ok()?;
        // RFC 7617: the user name ends at the first colon; the password may hold more.
        let (_user, password) = pair.split_once(':')?;
        Some(password.trim().to_string())
    } else {
        None
    }
}

/// The middleware of [`Access::protect`].
pub async fn require(State(access): State<Access>, request: Request, next: Next) -> Response {
    if access.allows(request.headers()) {
        next.run(request).await
    } else {
        refusal()
    }
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
    fn open_without_a_token() {
        assert!(Access::open().allows(&HeaderMap::new()));
        assert!(Access::new(None).allows(&with("Bearer anything")));
        assert!(!Access::open().guarded());
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
