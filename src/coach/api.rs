//! The page's server function: a thin wrapper over the same service as `GET /error`.

use leptos::{prelude::*, server_fn};

use super::{Comment, Lang};

/// A comment on the current attempt. `attempts` holds the earlier errors, oldest
/// first; `weight` and `bias` (both or neither) the current point; without
/// `lang` the browser's `Accept-Language` decides. Validation is
/// the one `GET /error` uses, and a rejected input answers 400. A visitor over
/// the per-client rate limit still gets a comment: the offline commentator's,
/// flagged `limited: "client"`. A call the browser abandons (a newer attempt
/// superseded it, so the connection closed and this future was dropped) is
/// not charged to the visitor's allowance.
// JSON, not the default form encoding: a form cannot carry an empty list.
#[server(prefix = "/api", endpoint = "comment", input = server_fn::codec::Json)]
pub async fn get_comment(
    error: f64,
    attempts: Vec<f64>,
    #[server(default)] weight: Option<f64>,
    #[server(default)] bias: Option<f64>,
    lang: Option<Lang>,
) -> Result<Comment, ServerFnError> {
    use super::{input::CoachInput, service::Coach, Limited};
    use crate::server::limits::{ClientIp, ClientLimiter};
    use axum::{
        http::{header::ACCEPT_LANGUAGE, HeaderMap, StatusCode},
        Extension,
    };
    use std::sync::Arc;

    let coach = use_context::<Arc<Coach>>()
        .ok_or_else(|| ServerFnError::new("the coach is not running"))?;
    let lang = match lang {
        Some(lang) => lang,
        None => leptos_axum::extract::<HeaderMap>()
            .await
            .ok()
            .and_then(|headers| {
                let value = headers.get(ACCEPT_LANGUAGE)?.to_str().ok()?;
                Lang::from_accept_language(value)
            })
            .unwrap_or_default(),
    };
    let refuse = |e: super::input::InputError| {
        if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
            response.set_status(StatusCode::BAD_REQUEST);
        }
        ServerFnError::new(e.to_string())
    };
    let params = match (weight, bias) {
        (Some(w), Some(b)) => Some(crate::neuron::Params::new(w, b)),
        (None, None) => None,
        (Some(_), None) => {
            return Err(refuse(super::input::InputError::required("bias", "weight")))
        }
        (None, Some(_)) => {
            return Err(refuse(super::input::InputError::required("weight", "bias")))
        }
    };
    let input = CoachInput::new(error, attempts, params, None, lang).map_err(refuse)?;
    let client = leptos_axum::extract::<Extension<ClientIp>>().await.ok();
    let limiter = use_context::<Arc<ClientLimiter>>();
    // Dropped uncommitted if this future is dropped first: see `ClientLimiter`.
    let charge = match (&limiter, client) {
        (Some(limiter), Some(Extension(ClientIp(ip)))) => match limiter.charge(ip) {
            Ok(charge) => Some(charge),
            Err(_) => return Ok(coach.limited(&input, Limited::Client)),
        },
        _ => None,
    };
    let comment = coach.comment(input).await;
    if let Some(charge) = charge {
        charge.keep();
    }
    Ok(comment)
}
