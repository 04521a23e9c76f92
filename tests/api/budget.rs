//! Each client's share of the day's model calls: a request dropped before it
//! answers gets its rate-limit comment back but has spent its model call, so
//! one address that keeps hanging up spends its own share and nobody else's.

use std::time::Duration;

use coach::budget::UpstreamBudget;
use jay_trainer::server::config::Guard;
use reqwest::Client;
use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;
use wiremock::MockServer;

use crate::guard::{behind_proxy, slow_model, spawn};

/// Polls until the fake model has been asked `count` times; gives up after a
/// minute (a safety net against hanging, not a speed check).
async fn asked(upstream: &MockServer, count: usize) {
    for _ in 0..6000 {
        if upstream.received_requests().await.unwrap_or_default().len() >= count {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the model was never asked {count} times");
}

/// `GET /error` as `client`, hung up once the model has been asked (its
/// `count`th call): the visitor moved on, the browser cancelled.
async fn hang_up(base: &str, upstream: &MockServer, client: &str, count: usize) {
    let addr = base.trim_start_matches("http://");
    let mut socket = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "GET /error?error=900 HTTP/1.1\r\nhost: {addr}\r\nx-forwarded-for: {client}\r\n\r\n"
    );
    socket.write_all(request.as_bytes()).await.unwrap();
    asked(upstream, count).await;
    drop(socket);
}

/// The answer to `request` as `client`; panics if the model is asked instead
/// (it answers only after ten minutes).
async fn offline_answer(
    upstream: &MockServer,
    asked_so_far: usize,
    request: reqwest::RequestBuilder,
    client: &str,
) -> Value {
    let response = request
        .header("accept", "application/json")
        .header("x-forwarded-for", client)
        .send();
    tokio::select! {
        response = response => response.unwrap().json().await.unwrap(),
        () = asked(upstream, asked_so_far + 1) => panic!("the model was asked for {client}"),
    }
}

#[tokio::test]
async fn a_client_that_keeps_hanging_up_spends_its_share_of_the_day_and_no_more() {
    let (upstream, registry) = slow_model().await;
    // No rate limit in the way, and room for every call at once: only the
    // daily budget decides. 1000 a day gives each client 20 (2 %, at least 20).
    let guard = Guard {
        rate_per_min: 100_000,
        rate_burst: 100_000,
        ..behind_proxy()
    };
    let base = spawn(guard, &registry, UpstreamBudget::new(1000, 1000)).await;
    let greedy = "203.0.113.60";
    for i in 1..=20 {
        hang_up(&base, &upstream, greedy, i).await;
    }

    // Its share is spent: the offline commentator answers, flagged, on both routes.
    let client = Client::new();
    let over = offline_answer(
        &upstream,
        20,
        client.get(format!("{base}/error?error=900")),
        greedy,
    )
    .await;
    assert_eq!(
        (&over["limited"], &over["fallback"], &over["model"]),
        (&json!("daily_budget"), &json!(true), &json!("offline")),
        "{over}"
    );
    let page = offline_answer(
        &upstream,
        20,
        client
            .post(format!("{base}/api/comment"))
            .json(&json!({"error": 900.0, "attempts": [13359.08], "lang": "en"})),
        greedy,
    )
    .await;
    assert_eq!(page["limited"], "daily_budget", "{page}");

    // Another visitor's comment still goes to the model.
    hang_up(&base, &upstream, "203.0.113.61", 21).await;
}
