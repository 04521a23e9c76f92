//! The one error type of the HTTP boundary: every refusal a route gives, with
//! its status, the field it names and its headers decided here and nowhere
//! else. A JSON caller gets `{"error", "field"}` (and `retry_after_s` when
//! it is told to wait); a text caller of `GET /error` gets the same refusal
//! as one line (`field: reason`). Nothing internal is ever in the message.

use axum::{
    http::{
        header::{CONTENT_TYPE, RETRY_AFTER, WWW_AUTHENTICATE},
        HeaderValue, StatusCode,
    },
    response::{IntoResponse, Response},
    Json,
};
use serde_json::json;
use vocabulary::FieldError;

use super::negotiate::Format;

/// A request the app refuses.
#[derive(Clone, Debug, PartialEq)]
pub enum ApiError {
    /// 400: a value is missing or wrong (the field names it).
    Invalid(FieldError),
    /// 413: the body is larger than the route reads.
    TooLarge { limit: usize },
    /// 415: the body's type is not one the route reads.
    UnsupportedMediaType(&'static str),
    /// 429: this client asked too often (`what`, in a phrase); `Retry-After` says when to come back.
    RateLimited {
        what: &'static str,
        retry_after_s: u64,
    },
    /// 401: the route wants `Authorization` with the operator's token.
    Unauthorized,
    /// 403: the route is closed to everyone as configured (the reason says how to open it).
    Forbidden(&'static str),
    /// 422: the model registry did not load (the one in use answers on).
    RegistryRefused(String),
}

impl From<FieldError> for ApiError {
    fn from(e: FieldError) -> Self {
        Self::Invalid(e)
    }
}

impl ApiError {
    /// Told to wait `wait` (rounded up to whole seconds, at least 1: coming
    /// back a little late always works).
    pub fn rate_limited(what: &'static str, wait: std::time::Duration) -> Self {
        let retry_after_s = wait.as_secs_f64().ceil().max(1.0) as u64;
        Self::RateLimited {
            what,
            retry_after_s,
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            Self::Invalid(_) => StatusCode::BAD_REQUEST,
            Self::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            Self::Unauthorized => StatusCode::UNAUTHORIZED,
            Self::Forbidden(_) => StatusCode::FORBIDDEN,
            Self::RegistryRefused(_) => StatusCode::UNPROCESSABLE_ENTITY,
        }
    }

    /// The field the refusal names, if one.
    pub fn field(&self) -> Option<&str> {
        match self {
            Self::Invalid(e) => Some(&e.field),
            Self::TooLarge { .. } => Some("body"),
            Self::UnsupportedMediaType(_) => Some("content-type"),
            Self::RateLimited { .. } => None,
            Self::Unauthorized | Self::Forbidden(_) => Some("authorization"),
            Self::RegistryRefused(_) => Some("registry"),
        }
    }

    /// The reason, in a sentence (without the field).
    pub fn message(&self) -> String {
        match self {
            Self::Invalid(e) => e.message.clone(),
            Self::TooLarge { limit } => format!("the body is larger than {limit} bytes"),
            Self::UnsupportedMediaType(wanted) => format!("must be {wanted}"),
            Self::RateLimited {
                what,
                retry_after_s,
            } => format!("too many {what} from this address; retry in {retry_after_s} s"),
            Self::Unauthorized => "this endpoint wants an Authorization: Bearer token".into(),
            Self::Forbidden(why) => (*why).into(),
            Self::RegistryRefused(why) => format!("{why} (the registry in use is kept)"),
        }
    }

    /// The refusal in the form `format` names: JSON, or one line of text.
    pub fn respond(self, format: Format) -> Response {
        match format {
            Format::Json => self.into_response(),
            Format::Text => {
                let line = match self.field() {
                    Some(field) => format!("{field}: {}\n", self.message()),
                    None => format!("{}\n", self.message()),
                };
                let mut response = (
                    [(
                        CONTENT_TYPE,
                        HeaderValue::from_static("text/plain; charset=utf-8"),
                    )],
                    line,
                )
                    .into_response();
                *response.status_mut() = self.status();
                self.add_headers(&mut response);
                response
            }
        }
    }

    fn add_headers(&self, response: &mut Response) {
        let headers = response.headers_mut();
        match self {
            Self::RateLimited { retry_after_s, .. } => {
                headers.insert(RETRY_AFTER, HeaderValue::from(*retry_after_s));
            }
            Self::Unauthorized => {
                headers.insert(WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
            }
            _ => {}
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = json!({ "error": self.message(), "field": self.field() });
        if let Self::RateLimited { retry_after_s, .. } = &self {
            body["retry_after_s"] = json!(retry_after_s);
        }
        let mut response = (self.status(), Json(body)).into_response();
        self.add_headers(&mut response);
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_refusal_has_its_status_field_and_headers_in_both_forms() {
        let invalid = ApiError::from(FieldError::new("bias", "must be from 0 to 500"));
        assert_eq!(invalid.status(), StatusCode::BAD_REQUEST);
        assert_eq!(invalid.field(), Some("bias"));
        let waiting =
            ApiError::rate_limited("comments requested", std::time::Duration::from_millis(1200));
        assert_eq!(
            waiting,
            ApiError::RateLimited {
                what: "comments requested",
                retry_after_s: 2
            }
        );
        for format in [Format::Json, Format::Text] {
            let response = waiting.clone().respond(format);
            assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
            assert_eq!(response.headers()[RETRY_AFTER], "2");
            let response = ApiError::Unauthorized.respond(format);
            assert_eq!(response.headers()[WWW_AUTHENTICATE], "Bearer");
        }
    }
}
