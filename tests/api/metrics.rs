//! `/metrics`: requests, limits and model calls counted, and the router shown.

use crate::guard::{behind_proxy, error_as, spawn};

#[tokio::test]
async fn metrics_count_requests_limits_calls_and_show_the_router() {
    let registry = "[[models]]\nalias = \"m\"\nmodel = \"org/m\"\napi = \"chat\"\nbase_url = \"http://127.0.0.1:9/v1\"\n";
    let base = spawn(behind_proxy(), registry, crate::helpers::roomy()).await;
    for _ in 0..6 {
        let response = error_as(&base, "203.0.113.77").await;
        assert!(
            response.headers().contains_key("x-request-id"),
            "every response has an id"
        );
    }
    let text = reqwest::get(format!("{base}/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for expected in [
        "jay_http_requests_total{route=\"/error\",status=\"200\"} 5",
        "jay_http_requests_total{route=\"/error\",status=\"429\"} 1",
        "jay_rate_limited_total{route=\"/error\"} 1",
        "jay_comments_total{source=\"offline\",limited=\"none\"} 5",
        "jay_upstream_calls_total{model=\"m\",outcome=\"connection_failed\"} 5",
        "jay_upstream_call_duration_seconds_count{model=\"m\"} 5",
        "jay_breaker_state{model=\"m\",state=\"open\"} 1",
        "jay_selection_probability{model=\"m\"} 0",
        // Refused connections cost nothing: refunded to the daily budget.
        "jay_upstream_calls_today 0",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
}
