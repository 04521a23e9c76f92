//! Prometheus metrics at `GET /metrics` (text exposition format).
//!
//! Counted as things happen:
//! - `jay_http_requests_total{route,status}` and `jay_http_request_duration_seconds{route}`
//!   (routes are grouped: `/`, `/embed`, `/error`, `/models`, `/api/comment`,
//!   `/pkg`, … so the label set stays small);
//! - `jay_upstream_call_duration_seconds{model}`: every model call's latency;
//! - `jay_comments_total{source,limited}`: comments by who wrote them (`model`
//!   or `offline`, the fallbacks) and the limit that kept the models out;
//! - `jay_rate_limited_total{route}`: requests over the per-client rate.
//!
//! Read from the router on each scrape (so they are never stale):
//! - `jay_upstream_calls_total{model,outcome}` (kept across restarts by the snapshot);
//! - `jay_breaker_state{model,state}` (1 for the current state);
//! - `jay_selection_probability{model}` and `jay_success_estimate{model}`;
//! - `jay_upstream_calls_today`;
//! - `jay_insights_written_total` and `jay_insights_dropped_total`: the
//!   insights' events committed, and lost (queue full, database refused,
//!   disk nearly full);
//! - `jay_insights_refused_total{reason}`: what the recording rules left out
//!   (`insights::Refusal`: `limited`, `attempt_number`, `no_visit`,
//!   `visits_per_hour`, `unknown_room`, `room_full`).

use std::{sync::Arc, time::Duration};

use axum::{extract::Request, http::StatusCode, middleware::Next, response::Response};
use prometheus_client::{
    collector::Collector,
    encoding::{DescriptorEncoder, EncodeLabelSet, EncodeMetric},
    metrics::{
        counter::{ConstCounter, Counter},
        family::Family,
        histogram::Histogram,
    },
    registry::Registry,
};
use tokio::time::Instant;

use coach::{
    service::{Coach, Observer},
    Comment, Limited,
};
use insights::{Recorder, Refusal};

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct HttpLabels {
    route: &'static str,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabel {
    route: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ModelLabel {
    model: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CommentLabels {
    source: &'static str,
    limited: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct VoteLabels {
    model: String,
    lang: &'static str,
    vote: &'static str,
}

fn histogram() -> Histogram {
    // 5 ms … about 41 s.
    Histogram::new(prometheus_client::metrics::histogram::exponential_buckets(
        0.005, 2.0, 14,
    ))
}

pub struct Metrics {
    registry: Registry,
    http_requests: Family<HttpLabels, Counter>,
    http_seconds: Family<RouteLabel, Histogram>,
    rate_limited: Family<RouteLabel, Counter>,
    upstream_seconds: Family<ModelLabel, Histogram>,
    comments: Family<CommentLabels, Counter>,
    votes: Family<VoteLabels, Counter>,
}

impl Metrics {
    /// The metrics, with the router's state read from `coach` on each scrape.
    pub fn new(coach: &Arc<Coach>) -> Self {
        let mut registry = Registry::default();
        let http_requests = Family::<HttpLabels, Counter>::default();
        let http_seconds =
            Family::<RouteLabel, Histogram>::new_with_constructor(histogram as fn() -> Histogram);
        let rate_limited = Family::<RouteLabel, Counter>::default();
        let upstream_seconds =
            Family::<ModelLabel, Histogram>::new_with_constructor(histogram as fn() -> Histogram);
        let comments = Family::<CommentLabels, Counter>::default();
        let votes = Family::<VoteLabels, Counter>::default();
        registry.register(
            "jay_http_requests",
            "HTTP requests by route and status",
            http_requests.clone(),
        );
        registry.register(
            "jay_http_request_duration_seconds",
            "HTTP request latency",
            http_seconds.clone(),
        );
        registry.register(
            "jay_rate_limited",
            "Requests over the per-client rate limit",
            rate_limited.clone(),
        );
        registry.register(
            "jay_upstream_call_duration_seconds",
            "Model call latency",
            upstream_seconds.clone(),
        );
        registry.register(
            "jay_comments",
            "Comments by writer (model or offline) and limit",
            comments.clone(),
        );
        registry.register(
            "jay_comment_votes",
            "Visitors' votes on comments, by the comment's writer and language (a changed vote counts again)",
            votes.clone(),
        );
        registry.register_collector(Box::new(RouterState(Arc::downgrade(coach))));
        Self {
            registry,
            http_requests,
            http_seconds,
            rate_limited,
            upstream_seconds,
            comments,
            votes,
        }
    }

    /// Counts a vote a visitor cast on a comment `model` wrote in `lang`.
    pub fn vote(&self, model: &str, lang: vocabulary::Lang, vote: coach::feedback::Vote) {
        self.votes
            .get_or_create(&VoteLabels {
                model: model.to_string(),
                lang: lang.code(),
                vote: vote.as_str(),
            })
            .inc();
    }

    /// Also shows the insights' counts, read from `recorder` on each scrape.
    pub fn with_insights(mut self, recorder: Recorder) -> Self {
        self.registry
            .register_collector(Box::new(InsightsCounts(recorder)));
        self
    }

    /// The text exposition of every metric.
    pub fn render(&self) -> String {
        let mut text = String::new();
        if let Err(e) = prometheus_client::encoding::text::encode(&mut text, &self.registry) {
            tracing::error!("cannot encode metrics: {e}");
        }
        text
    }

    fn record_http(&self, route: &'static str, status: StatusCode, took: Duration) {
        self.http_requests
            .get_or_create(&HttpLabels {
                route,
                status: status.as_u16(),
            })
            .inc();
        self.http_seconds
            .get_or_create(&RouteLabel { route })
            .observe(took.as_secs_f64());
        if status == StatusCode::TOO_MANY_REQUESTS {
            self.rate_limited.get_or_create(&RouteLabel { route }).inc();
        }
    }
}

impl Observer for Metrics {
    fn call(&self, model: &str, latency: Duration) {
        self.upstream_seconds
            .get_or_create(&ModelLabel {
                model: model.to_string(),
            })
            .observe(latency.as_secs_f64());
    }

    fn comment(&self, comment: &Comment) {
        let limited = match comment.limited {
            None => "none",
            Some(Limited::Client) => {
                // `POST /api/comment` answers these with a flagged comment.
                self.rate_limited
                    .get_or_create(&RouteLabel {
                        route: "/api/comment",
                    })
                    .inc();
                "client"
            }
            Some(Limited::Busy) => "busy",
            Some(Limited::DailyBudget) => "daily_budget",
        };
        let source = if comment.fallback { "offline" } else { "model" };
        self.comments
            .get_or_create(&CommentLabels { source, limited })
            .inc();
    }
}

/// The route label of a path: the app's own routes, else a group.
pub fn route_of(path: &str) -> &'static str {
    match path {
        "/" => "/",
        "/embed" => "/embed",
        "/error" => "/error",
        "/models" => "/models",
        "/metrics" => "/metrics",
        "/healthz" => "/healthz",
        "/test" => "/test",
        "/api/comment" => "/api/comment",
        "/api/feedback" => "/api/feedback",
        "/insights/events" => "/insights/events",
        "/insights/rooms" => "/insights/rooms",
        p if p.starts_with("/insights/room/") => "/insights/room",
        p if p == "/insights" || p.starts_with("/insights/") => "/insights",
        p if p.starts_with("/pkg/") => "/pkg",
        _ => "other",
    }
}

/// Middleware: counts and times every request.
pub async fn track(metrics: Arc<Metrics>, request: Request, next: Next) -> Response {
    let route = route_of(request.uri().path());
    let started = Instant::now();
    let response = next.run(request).await;
    metrics.record_http(route, response.status(), started.elapsed());
    response
}

/// Reads the insights' writer counts at scrape time.
#[derive(Debug)]
struct InsightsCounts(Recorder);

impl Collector for InsightsCounts {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let stats = self.0.stats();
        for (name, help, n) in [
            (
                "jay_insights_written",
                "Insights events committed",
                stats.written,
            ),
            (
                "jay_insights_dropped",
                "Insights events lost (queue full, database refused or disk nearly full)",
                stats.dropped(),
            ),
        ] {
            let counter = ConstCounter::new(n);
            let metric = encoder.encode_descriptor(name, help, None, counter.metric_type())?;
            counter.encode(metric)?;
        }
        let counter = ConstCounter::new(0u64);
        let mut family = encoder.encode_descriptor(
            "jay_insights_refused",
            "Insights events the recording rules left out, by reason",
            None,
            counter.metric_type(),
        )?;
        for why in Refusal::ALL {
            let labels = [("reason", why.code())];
            ConstCounter::new(stats.refused(why)).encode(family.encode_family(&labels)?)?;
        }
        Ok(())
    }
}

mod router_state;
use router_state::RouterState;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_are_grouped_so_labels_stay_few() {
        assert_eq!(route_of("/error"), "/error");
        assert_eq!(route_of("/pkg/jay-trainer.wasm"), "/pkg");
        assert_eq!(route_of("/wp-admin/../../etc/passwd"), "other");
        assert_eq!(
            route_of("/insights/room/abcd-2345/now.json"),
            "/insights/room"
        );
        assert_eq!(route_of("/insights/funnel.csv"), "/insights");
        assert_eq!(route_of("/insightsX"), "other");
    }
}
