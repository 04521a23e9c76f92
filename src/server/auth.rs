//! The one token guard: `/models`, `/metrics` and `POST /models/reload`
//! (`JAY_MODELS_TOKEN`), and `/insights` with its room views
//! (`JAY_INSIGHTS_TOKEN`, see `insights_pages::access`) are each behind a
//! [`TokenGuard`]. A request carries the token either as
//! `Authorization: Bearer <token>` (scripts, `curl`) or as HTTP Basic with
//! any user name and the token as the password (a browser cannot send a
//! bearer token from its address bar, but it asks for a password when a
//! `401` says `WWW-Authenticate: Basic`). The token is a [`Secret`]: never
//! printed, compared in constant time. (Wrong tokens cost their client:
//! `limits::guesses`.)

use axum::http::{header::AUTHORIZATION, HeaderMap};
use base64::{engine::general_purpose::STANDARD, Engine};

use super::error::ApiError;
use coach::secret::Secret;

/// A route's token, or none (then the route decides: `/models` is open,
/// reloading is closed, `/insights` is private to this machine).
#[derive(Clone, Debug, Default)]
pub struct TokenGuard(Option<Secret>);

impl TokenGuard {
    pub fn new(token: Option<Secret>) -> Self {
        Self(token)
    }

    /// Whether a token is set.
    pub fn guarded(&self) -> bool {
        self.0.is_some()
    }

    /// Whether `headers` carry the token (always false without one).
    pub fn allows(&self, headers: &HeaderMap) -> bool {
        self.0
            .as_ref()
            .is_some_and(|token| given_token(headers).is_some_and(|given| token.matches(&given)))
    }

    /// Open without a token; with one, only to its holders (`401` else).
    pub fn check(&self, headers: &HeaderMap) -> Result<(), ApiError> {
        if !self.guarded() || self.allows(headers) {
            Ok(())
        } else {
            Err(ApiError::Unauthorized)
        }
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

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn with(authorization: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(AUTHORIZATION, HeaderValue::from_str(authorization).unwrap());
        headers
    }

    #[test]
    fn a_bearer_token_or_a_basic_password_opens_it_and_nothing_else_does() {
        let guard = TokenGuard::new(Secret::new("s3cret:x"));
        let basic = format!("Basic {}", STANDARD.encode("anyone:s3cret:x"));
        assert!(guard.allows(&with("Bearer s3cret:x")));
        assert!(guard.allows(&with("bearer  s3cret:x ")));
        assert!(guard.allows(&with(&basic)));
        for wrong in ["Bearer s3cret", "Token s3cret:x", "Basic !!", "s3cret:x"] {
            assert!(!guard.allows(&with(wrong)), "{wrong}");
            assert_eq!(guard.check(&with(wrong)), Err(ApiError::Unauthorized));
        }
        assert!(guard.check(&HeaderMap::new()).is_err());
        let open = TokenGuard::default();
        assert!(open.check(&HeaderMap::new()).is_ok());
        assert!(!open.allows(&with("Bearer anything")));
    }
}
