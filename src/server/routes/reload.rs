//! `POST /models/reload`: the model registry re-read over HTTP, for an
//! operator who cannot send SIGHUP (a Hugging Face Space), as SIGHUP does it
//! (`Coach::reload`). Only for the holder of the `/models` token; with no
//! token configured the route refuses (403), because a reload ends every
//! misconfigured model's rest and anyone could otherwise have stopped models
//! called again. A registry file that does not load is refused (422, `field:
//! "registry"`) and the registry in use answers on. Never cached, and no
//! CORS: it is for the operator's own tools, not for other sites' pages.

use std::sync::Arc;

use axum::{
    http::{header::CACHE_CONTROL, HeaderMap, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
    Extension, Json,
};
use serde_json::json;

use super::ModelsAccess;
use coach::Coach;

/// The refusal when no `JAY_MODELS_TOKEN` is set.
const NO_TOKEN: &str =
    "reloading the registry over HTTP needs a token: set JAY_MODELS_TOKEN and send it as Authorization: Bearer";

pub(super) async fn reload(
    Extension(coach): Extension<Arc<Coach>>,
    Extension(access): Extension<ModelsAccess>,
    headers: HeaderMap,
) -> Response {
    let mut response = if access.0.is_none() {
        refusal(StatusCode::FORBIDDEN, NO_TOKEN.to_string(), "authorization")
    } else if let Err(e) = access.check(&headers) {
        e.into_response()
    } else {
        match coach.reload().await {
            Ok(models) => {
                tracing::info!("model registry reloaded over HTTP: {models} models");
                Json(json!({ "reloaded": models })).into_response()
            }
            Err(e) => {
                tracing::error!("model registry not reloaded, keeping the old one: {e}");
                let message = format!("{e} (the registry in use is kept)");
                refusal(StatusCode::UNPROCESSABLE_ENTITY, message, "registry")
            }
        }
    };
    response
        .headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn refusal(status: StatusCode, message: String, field: &str) -> Response {
    (status, Json(json!({ "error": message, "field": field }))).into_response()
}
