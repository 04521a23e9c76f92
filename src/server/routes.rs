//! The JSON routes: `GET /error` (a comment), `GET /models` (the router's state),
//! `GET /test`. `/error` and `/models` answer cross-origin requests from any site.

use std::sync::Arc;

use axum::{
    extract::RawQuery,
    http::{header::ACCEPT_LANGUAGE, HeaderMap, Method, StatusCode},
    response::{IntoResponse, Response},
    routing::get,
    Extension, Json, Router,
};
use serde_json::json;
use tower_http::cors::{Any, CorsLayer};

use crate::coach::{
    input::{CoachInput, InputError},
    service::Coach,
    Comment,
};

/// Longest query string accepted by `/error` (100 attempts fit easily).
const MAX_QUERY: usize = 4096;

/// A request the API refuses: 400 with `{"error": "...", "field": "..."}`.
#[derive(Debug)]
pub struct ApiError(InputError);

impl From<InputError> for ApiError {
    fn from(e: InputError) -> Self {
        Self(e)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({ "error": self.0.message, "field": self.0.field });
        (StatusCode::BAD_REQUEST, Json(body)).into_response()
    }
}

/// The routes other sites call, with CORS (any origin, GET, no credentials).
pub fn api<S: Clone + Send + Sync + 'static>(coach: Arc<Coach>) -> Router<S> {
    let cors = CorsLayer::new()
        .allow_origin(Any)
        .allow_methods([Method::GET])
        .allow_headers(Any);
    Router::new()
        .route("/error", get(comment))
        .route("/models", get(models))
        .layer(cors)
        .route("/test", get(|| async { Json(json!({ "ok": true })) }))
        .layer(Extension(coach))
}

async fn comment(
    Extension(coach): Extension<Arc<Coach>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<Json<Comment>, ApiError> {
    let query = query.unwrap_or_default();
    if query.len() > MAX_QUERY {
        return Err(InputError {
            field: "query".into(),
            message: format!("longer than {MAX_QUERY} bytes"),
        }
        .into());
    }
    let pairs: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect();
    let accept_language = headers.get(ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok());
    let input = CoachInput::from_query(&pairs, accept_language)?;
    coach.check_model(input.model.as_deref())?;
    Ok(Json(coach.comment(input).await))
}

async fn models(Extension(coach): Extension<Arc<Coach>>) -> Json<serde_json::Value> {
    Json(json!({ "models": coach.report(), "fallback": crate::coach::service::OFFLINE }))
}
