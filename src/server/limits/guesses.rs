//! Wrong tokens are slowed: every `401` to a request that carried an
//! `Authorization` header (a wrong `JAY_INSIGHTS_TOKEN` or `JAY_MODELS_TOKEN`)
//! is a failure charged to its client, and a client with [`PER_MINUTE`]
//! failures in the last minute gets `429` with `Retry-After` for whatever it
//! asks with a token, right or wrong, until one is free again: a guesser
//! gets 10 tries a minute instead of thousands a second. Each failure is
//! logged (the route, never the token).

use std::sync::Arc;

use axum::{
    extract::Request,
    http::{
        header::{AUTHORIZATION, CACHE_CONTROL, CONTENT_TYPE, RETRY_AFTER},
        HeaderValue, StatusCode,
    },
    middleware::Next,
    response::{IntoResponse, Response},
};

use super::{ClientIp, ClientLimiter};
use crate::server::metrics::route_of;

/// Failures a client may have in a minute.
pub const PER_MINUTE: u32 = 10;

/// The failures' limiter: [`PER_MINUTE`] a minute, all of them at once.
pub fn limiter() -> Arc<ClientLimiter> {
    Arc::new(ClientLimiter::new(PER_MINUTE, PER_MINUTE))
}

/// The middleware (inside `tag_client`, which names the client).
pub async fn slow_guessing(failures: Arc<ClientLimiter>, request: Request, next: Next) -> Response {
    let client = request.extensions().get::<ClientIp>().map(|c| c.0);
    let carries = request.headers().contains_key(AUTHORIZATION);
    let (Some(ip), true) = (client, carries) else {
        return next.run(request).await;
    };
    if failures.remaining(ip) == 0 {
        let seconds = failures.until_free(ip).as_secs_f64().ceil().max(1.0) as u64;
        return (
            StatusCode::TOO_MANY_REQUESTS,
            [
                (RETRY_AFTER, HeaderValue::from(seconds)),
                (
                    CONTENT_TYPE,
                    HeaderValue::from_static("text/plain; charset=utf-8"),
                ),
                (CACHE_CONTROL, HeaderValue::from_static("no-store")),
            ],
            format!("too many wrong tokens from this address; retry in {seconds} s\n"),
        )
            .into_response();
    }
    let route = route_of(request.uri().path());
    let response = next.run(request).await;
    if response.status() == StatusCode::UNAUTHORIZED {
        if let Ok(charge) = failures.charge(ip) {
            charge.keep();
        }
        tracing::warn!(
            "a wrong token for {route} ({} more tries this minute)",
            failures.remaining(ip)
        );
    }
    response
}
