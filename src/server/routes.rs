//! The routes other sites call: `GET /error` (a comment), `GET /models` (the
//! router's state), `GET /test`. `/error` and `/models` answer cross-origin
//! requests (CORS from `server::headers`). A client over its rate limit gets
//! `429` with `Retry-After` from `/error` (a request it abandons before the
//! answer is not charged); `/models` may want a bearer token, which
//! `POST /models/reload` ([`reload`]) always wants.
//!
//! `/error` answers as the seed did, with the comment as plain text, unless the
//! caller asks for JSON (`format=json`, or an `Accept` that prefers it:
//! `super::negotiate`); its errors follow: one line of text, or
//! `{"error", "field"}`. No cache may keep an answer of these routes
//! (`no-store`); `/error`'s `Vary` names `Accept` and `Accept-Language`.

use std::sync::Arc;

use axum::{
    extract::RawQuery,
    http::{
        header::{
            ACCEPT, ACCEPT_LANGUAGE, AUTHORIZATION, CONTENT_TYPE, RETRY_AFTER, WWW_AUTHENTICATE,
        },
        HeaderMap, HeaderValue, StatusCode,
    },
    response::{IntoResponse, Response},
    routing::{get, post},
    Extension, Json, Router,
};
use serde_json::json;

use super::{
    config::Secret,
    headers::{cors, no_store, varies_with_accept},
    limits::{ClientIp, ClientLimiter},
    metrics::Metrics,
    negotiate::Format,
};
use coach::{
    text::input::{CoachInput, InputError},
    Coach, Comment,
};
use vocabulary::Lang;

mod events;
mod reload;

pub use events::{insights_events, MAX_EVENTS_BODY};

/// Longest query string accepted by `/error` (a history of hundreds of
/// attempts fits; only the latest 100 are kept).
const MAX_QUERY: usize = 16 * 1024;

/// A request the API refuses, with a JSON body `{"error": "...", "field": ...}`.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400: a parameter is missing or wrong (`field` names it).
    #[error("{}", .0.message)]
    Invalid(InputError),
    /// 429: this client asked too often; `Retry-After` says when to come back.
    #[error("too many comments requested from this address; retry in {0} s")]
    RateLimited(u64),
    /// 401: `/models` wants `Authorization: Bearer <JAY_MODELS_TOKEN>`.
    #[error("this endpoint wants an Authorization: Bearer token")]
    Unauthorized,
}

impl From<InputError> for ApiError {
    fn from(e: InputError) -> Self {
        Self::Invalid(e)
    }
}

impl ApiError {
    /// The same refusal as one line of text (status and headers unchanged).
    fn into_text_response(self) -> Response {
        let line = match &self {
            ApiError::Invalid(e) => format!("{e}\n"),
            other => format!("{other}\n"),
        };
        let mut response = self.into_response();
        *response.body_mut() = axum::body::Body::from(line);
        response.headers_mut().insert(
            CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=utf-8"),
        );
        response
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let message = self.to_string();
        match self {
            ApiError::Invalid(e) => (
                StatusCode::BAD_REQUEST,
                Json(json!({ "error": message, "field": e.field })),
            )
                .into_response(),
            ApiError::RateLimited(seconds) => (
                StatusCode::TOO_MANY_REQUESTS,
                [(RETRY_AFTER, HeaderValue::from(seconds))],
                Json(json!({ "error": message, "field": null, "retry_after_s": seconds })),
            )
                .into_response(),
            ApiError::Unauthorized => (
                StatusCode::UNAUTHORIZED,
                [(WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"))],
                Json(json!({ "error": message, "field": "authorization" })),
            )
                .into_response(),
        }
    }
}

/// Who may read `/models` and `/metrics`: anyone, or holders of the token.
#[derive(Clone)]
pub struct ModelsAccess(pub Option<Secret>);

impl ModelsAccess {
    fn check(&self, headers: &HeaderMap) -> Result<(), ApiError> {
        let Some(token) = &self.0 else {
            return Ok(());
        };
        let given = headers
            .get(AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split_once(' '))
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            .map_or("", |(_, token)| token);
        if token.matches(given.trim()) {
            Ok(())
        } else {
            Err(ApiError::Unauthorized)
        }
    }
}

/// The coach's language for a `/error` caller that names none (`JAY_DEFAULT_LANG`).
#[derive(Clone, Copy)]
pub struct DefaultLang(pub Lang);

/// The routes other sites call, with CORS (GET, no credentials) from
/// `cors_origins` (`None`: any origin).
pub fn api<S: Clone + Send + Sync + 'static>(
    coach: Arc<Coach>,
    limiter: Arc<ClientLimiter>,
    metrics: Arc<Metrics>,
    access: ModelsAccess,
    cors_origins: Option<&[String]>,
    default_lang: Lang,
) -> Router<S> {
    Router::new()
        .route("/error", get(comment).layer(varies_with_accept()))
        .route("/models", get(models))
        .layer(cors(cors_origins))
        .route("/metrics", get(prometheus))
        .route("/models/reload", post(reload::reload))
        .layer(no_store())
        .route("/test", get(|| async { Json(json!({ "ok": true })) }))
        .layer(Extension(coach))
        .layer(Extension(limiter))
        .layer(Extension(metrics))
        .layer(Extension(access))
        .layer(Extension(DefaultLang(default_lang)))
}

async fn comment(
    Extension(coach): Extension<Arc<Coach>>,
    Extension(limiter): Extension<Arc<ClientLimiter>>,
    Extension(DefaultLang(default_lang)): Extension<DefaultLang>,
    client: Option<Extension<ClientIp>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let header = |name| {
        headers
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
    };
    let query = query.unwrap_or_default();
    // Measured before any of it is decoded (its `format` is not read either:
    // the refusal takes the form `Accept` asks for).
    if query.len() > MAX_QUERY {
        let refusal = ApiError::from(InputError {
            field: "query".into(),
            message: format!("longer than {MAX_QUERY} bytes"),
        });
        return match Format::accepted(header(ACCEPT)) {
            Format::Json => refusal.into_response(),
            Format::Text => refusal.into_text_response(),
        };
    }
    let pairs: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect();
    let asked = pairs
        .iter()
        .find(|(k, _)| k == "format")
        .map(|(_, v)| v.as_str());
    let (format, answer) = match Format::choose(asked, header(ACCEPT)) {
        // A bad `format`: refused in the form the `Accept` header asks for.
        Err(e) => (Format::accepted(header(ACCEPT)), Err(e.into())),
        Ok(format) => {
            let answer = answer(&coach, &limiter, client, &pairs, &headers, default_lang);
            (format, answer.await)
        }
    };
    match (format, answer) {
        (Format::Json, Ok(comment)) => Json(comment).into_response(),
        (Format::Text, Ok(comment)) => (
            [(
                CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            )],
            comment.comment,
        )
            .into_response(),
        (Format::Json, Err(e)) => e.into_response(),
        (Format::Text, Err(e)) => e.into_text_response(),
    }
}

/// Validates the request, charges the client's allowance and asks the coach.
async fn answer(
    coach: &Coach,
    limiter: &ClientLimiter,
    client: Option<Extension<ClientIp>>,
    pairs: &[(String, String)],
    headers: &HeaderMap,
    default_lang: Lang,
) -> Result<Comment, ApiError> {
    let accept_language = headers.get(ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok());
    let input = CoachInput::from_query(pairs, accept_language, default_lang)?;
    coach.check_model(input.model.as_deref())?;
    // Given back if the client hangs up before the answer (this future is dropped).
    let charge = match client {
        Some(Extension(ClientIp(ip))) => Some(
            limiter
                .charge(ip)
                // Rounded up: coming back a little late always works.
                .map_err(|wait| ApiError::RateLimited(wait.as_secs_f64().ceil().max(1.0) as u64))?,
        ),
        None => None,
    };
    let comment = coach
        .comment(input, ClientIp::budget_key(client.map(|c| c.0)))
        .await;
    if let Some(charge) = charge {
        charge.keep();
    }
    Ok(comment)
}

async fn models(
    Extension(coach): Extension<Arc<Coach>>,
    Extension(access): Extension<ModelsAccess>,
    headers: HeaderMap,
) -> Result<Json<serde_json::Value>, ApiError> {
    access.check(&headers)?;
    Ok(Json(
        json!({ "models": *coach.cached_report(), "fallback": coach::service::OFFLINE }),
    ))
}

/// Prometheus metrics (`server::metrics`), behind the same token as `/models`.
async fn prometheus(
    Extension(metrics): Extension<Arc<Metrics>>,
    Extension(access): Extension<ModelsAccess>,
    headers: HeaderMap,
) -> Result<impl IntoResponse, ApiError> {
    access.check(&headers)?;
    Ok((
        [(CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")],
        metrics.render(),
    ))
}
