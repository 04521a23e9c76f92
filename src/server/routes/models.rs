//! The operator's routes: `GET /models` (the router's state: which models
//! speak, which provider answered, what they cost, why others are refused),
//! `GET /metrics` (Prometheus, `server::metrics`) and `POST /models/reload`.
//! The first two are open unless `JAY_MODELS_TOKEN` is set; reloading always
//! wants that token: with none configured it is refused (403), because a
//! reload ends every misconfigured model's rest and anyone could otherwise
//! have stopped models called again.
//!
//! Reloading re-reads the model registry over HTTP, for an operator who
//! cannot send SIGHUP (a Hugging Face Space), as SIGHUP does it
//! (`Coach::reload`). A registry file that does not load is refused (422,
//! `field: "registry"`) and the registry in use answers on.

use axum::{
    extract::State,
    http::{header::CONTENT_TYPE, HeaderMap},
    response::{IntoResponse, Response},
    Json,
};
use coach::service::ModelReport;
use serde::Serialize;
use serde_json::json;

use crate::server::{error::ApiError, state::AppState};

/// The refusal when no `JAY_MODELS_TOKEN` is set.
const NO_TOKEN: &str =
    "reloading the registry over HTTP needs a token: set JAY_MODELS_TOKEN and send it as Authorization: Bearer";

/// `GET /models`' answer, written straight from the report: a JSON tree
/// in between would take most of the route's time (13 KB for eight models).
#[derive(Serialize)]
struct Models<'a> {
    fallback: &'static str,
    models: &'a [ModelReport],
}

pub async fn models(State(app): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    app.models_guard.check(&headers)?;
    let report = app.coach.cached_report();
    let models = Models {
        fallback: coach::service::OFFLINE,
        models: &report,
    };
    Ok(Json(models).into_response())
}

pub async fn prometheus(
    State(app): State<AppState>,
    headers: HeaderMap,
) -> Result<impl IntoResponse, ApiError> {
    app.models_guard.check(&headers)?;
    Ok((
        [(CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")],
        app.metrics.render(),
    ))
}

pub async fn reload(
    State(app): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<serde_json::Value>, ApiError> {
    if !app.models_guard.guarded() {
        return Err(ApiError::Forbidden(NO_TOKEN));
    }
    app.models_guard.check(&headers)?;
    match app.coach.reload().await {
        Ok(models) => {
            tracing::info!("model registry reloaded over HTTP: {models} models");
            Ok(Json(json!({ "reloaded": models })))
        }
        Err(e) => {
            tracing::error!("model registry not reloaded, keeping the old one: {e}");
            Err(ApiError::RegistryRefused(e.to_string()))
        }
    }
}
