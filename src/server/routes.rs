//! The routes other sites, the page's requests and the operator call; every
//! route of the app is in one table, `startup::router`, which merges these.
//!
//! - `GET /error` and `POST /api/comment`: a comment ([`comment`]);
//! - `POST /api/feedback`: a visitor's vote on a comment ([`feedback`]);
//! - `GET /models`, `GET /metrics`, `POST /models/reload`: the operator's ([`models`]);
//! - `POST /insights/events`: the page's reports about its visit ([`events`]);
//! - `GET /test`: a liveness answer for the original Node server's callers.
//!
//! `/error` and `/models` answer cross-origin requests (CORS from
//! `server::headers`); writes from other sites are refused before anything
//! reads them (`server::origin`). No cache may keep an answer of these
//! routes (`no-store`); `/error`'s `Vary` names `Accept` and `Accept-Language`.

use axum::{
    http::HeaderValue,
    routing::{get, post},
    Json, Router,
};
use serde_json::json;
use tower::util::option_layer;
use tower_http::set_header::SetResponseHeaderLayer;

use super::{
    headers::{cors, no_store, varies_with_accept},
    state::AppState,
};

pub mod comment;
pub mod events;
pub mod feedback;
pub mod models;

/// The routes that answer a few hundred bytes, never a page: the comments,
/// the votes and the page's reports (`layers::around` neither compresses
/// them nor gives them an `ETag`, and no token is checked on them). `/error`
/// with CORS (GET, no credentials) from `cors_origins` (`None`: any origin).
pub fn small(cors_origins: Option<&[String]>) -> Router<AppState> {
    Router::new()
        .route("/api/comment", post(comment::post))
        .route("/api/feedback", post(feedback::post))
        .route(events::PATH, post(events::post))
        .layer(no_store())
        .merge(cross_origin(
            Router::new().route("/error", get(comment::get)),
            cors_origins,
            Some(varies_with_accept()),
        ))
}

/// The operator's routes, `/models` with CORS like `/error`, and `/test`.
pub fn operator(cors_origins: Option<&[String]>) -> Router<AppState> {
    Router::new()
        .route("/metrics", get(models::prometheus))
        .route("/models/reload", post(models::reload))
        .layer(no_store())
        .merge(cross_origin(
            Router::new().route("/models", get(models::models)),
            cors_origins,
            None,
        ))
        .route("/test", get(|| async { Json(json!({ "ok": true })) }))
}

/// `routes` answering other sites (CORS from `cors_origins`), kept by no
/// cache, with the `Vary` they need (if any); their layers as one (a boxed
/// service per layer is cloned per request).
fn cross_origin(
    routes: Router<AppState>,
    cors_origins: Option<&[String]>,
    vary: Option<SetResponseHeaderLayer<HeaderValue>>,
) -> Router<AppState> {
    routes.layer((no_store(), cors(cors_origins), option_layer(vary)))
}
