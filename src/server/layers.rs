//! The layers every request passes through, outermost first, composed into
//! one (tower's `ServiceBuilder`) and put around the whole route table as a
//! single service.
//!
//! axum clones a route's service for each request. `Router::layer` would put
//! these layers inside every route, boxed, so each request cloned the stack
//! box by box (about 35 allocations a comment); around the table they are one
//! box, cloned once, with the table's own route behind it
//! (`docs/benchmarks/load.md`).

use std::sync::Arc;

use axum::{extract::DefaultBodyLimit, middleware, response::Response, Router};
use tower::ServiceBuilder;
use tower_http::{
    compression::{
        predicate::{DefaultPredicate, Predicate, SizeAbove},
        CompressionLayer,
    },
    request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer},
    trace::TraceLayer,
};

use super::{
    headers::hardening,
    limits::{guesses, tag_client},
    metrics::{track, Metrics},
    origin::same_origin_writes,
    request_id,
    revalidate::revalidate,
    routes::comment::MAX_BODY,
};

/// Smaller answers (a comment, an error) are sent as they are: compressing
/// them would cost more than it saves.
const COMPRESS_ABOVE: u16 = 1024;

/// `small` and `table` inside every layer; only `table` has routes that
/// check a token, answers that are worth compressing and pages to
/// revalidate (`small`'s answers are a few hundred bytes);
/// `hops`: the proxies in front whose `X-Forwarded-For` is trusted (the
/// client's address, for the limits).
pub fn around(small: Router, table: Router, hops: usize, metrics: Arc<Metrics>) -> Router {
    let failures = guesses::limiter();
    let pages = ServiceBuilder::new()
        // Wrong tokens cost their client (named by `tag_client`, outside).
        .layer(middleware::from_fn(move |request, next| {
            guesses::slow_guessing(failures.clone(), request, next)
        }))
        // Pages and other answers over 1 KiB, compressed as they go
        // (brotli at quality 4, or gzip); `/pkg` is compressed already
        // (`assets`).
        .layer(
            CompressionLayer::new()
                .compress_when(DefaultPredicate::new().and(SizeAbove::new(COMPRESS_ABOVE))),
        )
        // The pages' ETag and 304s (outside the page handlers, which set
        // the policy a 304 must not carry).
        .layer(middleware::from_fn(revalidate))
        .service(table);
    let stack = ServiceBuilder::new()
        // A client's id is kept only if it is a plain token (tower's
        // `map_request`: a plain function, no boxed future).
        .map_request(request_id::drop_unplain)
        .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
        .layer(PropagateRequestIdLayer::x_request_id())
        // Every log line of a request carries its id.
        .layer(TraceLayer::new_for_http().make_span_with(request_id::span))
        .layer(hardening())
        .layer(middleware::from_fn(move |request, next| {
            track(metrics.clone(), request, next)
        }))
        // Every route reads its body within its own limit and refuses a
        // larger one as its callers read refusals (`json::JsonBody::LIMIT`:
        // a JSON 413 naming `body`); axum's own extractors stop at this one.
        .layer(DefaultBodyLimit::max(MAX_BODY))
        // Writes from other sites are refused before anything reads them;
        // then the client is named, for the limits.
        .layer(middleware::map_request(move |request| async move {
            let request = same_origin_writes(hops, request).await?;
            Ok::<_, Response>(tag_client(hops, request).await)
        }))
        .service(small.fallback_service(pages));
    // Every path and method is the table's: an empty router's fallback.
    Router::new().fallback_service(stack)
}
