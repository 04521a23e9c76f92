//! Ready for the open internet: per-client rate limits, the upstream budget,
//! CORS, the page's security headers, the `/models` token, body size limits.
//!
//! The per-client limiter runs on a [`ManualClock`]: time stands still unless a
//! test moves it, so "N requests in a row" never depends on the machine's speed.

use std::{future::IntoFuture, net::SocketAddr, sync::Arc, time::Duration};

use coach::{budget::UpstreamBudget, providers::HttpProvider, registry::Registry, Coach};
use jay_trainer::server::{
    config::{Guard, Secret},
    limits::{ClientLimiter, ManualClock},
    startup::{router, AppParts},
};
use leptos::config::LeptosOptions;
use reqwest::{Client, Method, StatusCode};
use serde_json::{json, Value};
use tokio::{io::AsyncWriteExt, net::TcpListener};
use wiremock::{matchers::method, Mock, MockServer, ResponseTemplate};

/// The app under test: its base URL, the limiter's clock and the limiter.
struct App {
    base: String,
    clock: ManualClock,
    limiter: Arc<ClientLimiter>,
}

/// The app with `guard`, the models of `registry` (TOML) and `budget`, on
/// 127.0.0.1, port 0.
async fn spawn_app(guard: Guard, registry: &str, budget: UpstreamBudget) -> App {
    let registry = Registry::parse(registry).expect("registry");
    let coach =
        Coach::new(registry, None, Arc::new(HttpProvider::new(None)), Some(3)).with_budget(budget);
    let clock = ManualClock::default();
    let limiter = Arc::new(ClientLimiter::with_clock(
        guard.rate_per_min,
        guard.rate_burst,
        clock.clone(),
    ));
    let options = LeptosOptions::builder()
        .output_name("jay-trainer")
        .site_addr(SocketAddr::from(([127, 0, 0, 1], 0)))
        .build();
    let parts = AppParts {
        limiter: Some(limiter.clone()),
        ..AppParts::new(options, Arc::new(coach), guard)
    };
    let app = router(&parts).into_make_service_with_connect_info::<SocketAddr>();
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("address");
    tokio::spawn(axum::serve(listener, app).into_future());
    App {
        base: format!("http://{addr}"),
        clock,
        limiter,
    }
}

/// [`spawn_app`]'s base URL only.
pub(crate) async fn spawn(guard: Guard, registry: &str, budget: UpstreamBudget) -> String {
    spawn_app(guard, registry, budget).await.base
}

/// Behind one trusted proxy, so tests can speak for several clients.
pub(crate) fn behind_proxy() -> Guard {
    Guard {
        trusted_proxy_hops: 1,
        ..Guard::default()
    }
}

/// A JSON caller's `GET /error`, as the client `client_ip` behind the proxy.
pub(crate) async fn error_as(base: &str, client_ip: &str) -> reqwest::Response {
    Client::new()
        .get(format!("{base}/error?error=900"))
        .header("accept", "application/json")
        .header("x-forwarded-for", format!("6.6.6.6, {client_ip}"))
        .send()
        .await
        .expect("request")
}

#[tokio::test]
async fn one_client_flooding_error_is_limited_after_its_burst_while_another_is_not() {
    let App { base, clock, .. } = spawn_app(behind_proxy(), "", crate::helpers::roomy()).await;
    for _ in 0..5 {
        assert_eq!(
            error_as(&base, "203.0.113.1").await.status(),
            StatusCode::OK
        );
    }
    let limited = error_as(&base, "203.0.113.1").await;
    assert_eq!(limited.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry: u64 = limited.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(retry, 3, "20 a minute: one every 3 s");
    let body: Value = limited.json().await.unwrap();
    assert_eq!(body["retry_after_s"], retry);
    assert!(body["error"].as_str().unwrap().contains("retry"));

    // Another visitor behind the same proxy is served.
    assert_eq!(
        error_as(&base, "203.0.113.2").await.status(),
        StatusCode::OK
    );
    // The forged leftmost entry (6.6.6.6) was never the key.

    // Coming back after Retry-After works, once.
    clock.advance(Duration::from_secs(retry));
    assert_eq!(
        error_as(&base, "203.0.113.1").await.status(),
        StatusCode::OK
    );
    assert_eq!(
        error_as(&base, "203.0.113.1").await.status(),
        StatusCode::TOO_MANY_REQUESTS
    );
}

#[tokio::test]
async fn the_page_keeps_working_over_the_limit_with_a_flagged_offline_comment() {
    let base = spawn(behind_proxy(), "", crate::helpers::roomy()).await;
    let ask = || async {
        let response = Client::new()
            .post(format!("{base}/api/comment"))
            .header("x-forwarded-for", "198.51.100.9")
            .json(&json!({"error": 900.0, "attempts": [13359.08], "lang": "en"}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        response.json::<Value>().await.unwrap()
    };
    for _ in 0..5 {
        assert!(ask().await.get("limited").is_none());
    }
    let over = ask().await;
    assert_eq!(over["limited"], "client");
    assert_eq!(
        (over["fallback"].as_bool(), over["model"].as_str()),
        (Some(true), Some("offline"))
    );
    assert!(!over["comment"].as_str().unwrap().is_empty());
}

/// A fake model that answers only after ten minutes: requests to it stay
/// under way until the test hangs up. Its server and a registry naming it.
pub(crate) async fn slow_model() -> (MockServer, String) {
    let upstream = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_delay(Duration::from_secs(600))
                .set_body_json(
                    json!({"choices": [{"message": {"role": "assistant", "content": "Hi |fim|"}}]}),
                ),
        )
        .mount(&upstream)
        .await;
    let registry = format!(
        "deadline_ms = 120000\n[[models]]\nalias = \"slow\"\nmodel = \"org/slow\"\napi = \"chat\"\nbase_url = \"{}/v1\"\ntimeout_ms = 60000\n",
        upstream.uri()
    );
    (upstream, registry)
}

/// Polls `condition` until it holds; gives up after a minute (a safety net
/// against hanging, not a speed check).
macro_rules! eventually {
    ($what:expr, $condition:expr) => {
        let mut polls = 0;
        while !$condition {
            polls += 1;
            assert!(polls < 6000, "never happened: {}", $what);
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
}

#[tokio::test]
async fn a_request_dropped_before_it_answers_is_not_charged() {
    let (upstream, registry) = slow_model().await;
    let app = spawn_app(behind_proxy(), &registry, crate::helpers::roomy()).await;
    let addr = app.base.trim_start_matches("http://").to_string();
    let client = "203.0.113.50".parse().unwrap();
    let body = r#"{"error": 900.0, "attempts": [13359.08], "lang": "en"}"#;
    let requests = [
        format!(
            "GET /error?error=900 HTTP/1.1\r\nhost: {addr}\r\nx-forwarded-for: {client}\r\n\r\n"
        ),
        format!(
            "POST /api/comment HTTP/1.1\r\nhost: {addr}\r\nx-forwarded-for: {client}\r\n\
             content-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        ),
    ];
    for (asked_before, request) in requests.iter().enumerate() {
        let mut socket = tokio::net::TcpStream::connect(&addr).await.unwrap();
        socket.write_all(request.as_bytes()).await.unwrap();
        eventually!(
            "the model is asked",
            upstream.received_requests().await.unwrap().len() > asked_before
        );
        assert_eq!(app.limiter.remaining(client), 4, "charged while under way");
        // The visitor moves on: the browser cancels, the connection closes.
        drop(socket);
        eventually!(
            format!("the comment is given back ({request:.20}...)"),
            app.limiter.remaining(client) == 5
        );
    }
}

#[tokio::test]
async fn a_spent_daily_budget_keeps_the_models_out() {
    let upstream = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(
            json!({"choices": [{"message": {"role": "assistant", "content": "Hi |fim|"}}]}),
        ))
        .expect(0)
        .mount(&upstream)
        .await;
    let registry = format!(
        "[[models]]\nalias = \"m\"\nmodel = \"org/m\"\napi = \"chat\"\nbase_url = \"{}/v1\"\n",
        upstream.uri()
    );
    let base = spawn(Guard::default(), &registry, UpstreamBudget::new(8, 0)).await;
    let body: Value = error_as(&base, "203.0.113.5").await.json().await.unwrap();
    assert_eq!(body["limited"], "daily_budget");
    assert_eq!(body["fallback"], true);
}

#[tokio::test]
async fn cors_allows_any_origin_by_default_and_answers_preflight_without_credentials() {
    let base = spawn(Guard::default(), "", crate::helpers::roomy()).await;
    for route in ["/error?error=900", "/models"] {
        let response = Client::new()
            .get(format!("{base}{route}"))
            .header("origin", "https://blog.example")
            .send()
            .await
            .unwrap();
        assert_eq!(
            response.headers()["access-control-allow-origin"],
            "*",
            "{route}"
        );
        assert!(response
            .headers()
            .get("access-control-allow-credentials")
            .is_none());
    }
    let preflight = Client::new()
        .request(Method::OPTIONS, format!("{base}/error"))
        .header("origin", "https://blog.example")
        .header("access-control-request-method", "GET")
        .send()
        .await
        .unwrap();
    assert!(preflight.status().is_success());
    assert_eq!(preflight.headers()["access-control-allow-origin"], "*");
    assert!(preflight.headers()["access-control-allow-methods"]
        .to_str()
        .unwrap()
        .contains("GET"));
}

#[tokio::test]
async fn cors_from_an_allowlist_answers_only_listed_origins() {
    let guard = Guard {
        cors_origins: Some(vec!["https://friend.example".into()]),
        ..Guard::default()
    };
    let base = spawn(guard, "", crate::helpers::roomy()).await;
    let from = |origin: &'static str| {
        let url = format!("{base}/error?error=900");
        async move {
            Client::new()
                .get(url)
                .header("origin", origin)
                .send()
                .await
                .unwrap()
        }
    };
    let friend = from("https://friend.example").await;
    assert_eq!(
        friend.headers()["access-control-allow-origin"],
        "https://friend.example"
    );
    let stranger = from("https://stranger.example").await;
    assert!(stranger
        .headers()
        .get("access-control-allow-origin")
        .is_none());
}

#[tokio::test]
async fn the_page_has_a_nonce_csp_may_be_framed_and_is_hardened() {
    let guard = Guard {
        frame_ancestors: "'self' https://blog.example".into(),
        ..Guard::default()
    };
    let base = spawn(guard, "", crate::helpers::roomy()).await;
    let response = reqwest::get(format!("{base}/")).await.unwrap();
    let headers = response.headers().clone();
    let html = response.text().await.unwrap();
    let csp = headers["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        csp.contains("'wasm-unsafe-eval'") && !csp.contains("unsafe-inline"),
        "{csp}"
    );
    assert!(
        csp.contains("frame-ancestors 'self' https://blog.example"),
        "{csp}"
    );
    let nonce = csp
        .split("'nonce-")
        .nth(1)
        .and_then(|rest| rest.split('\'').next())
        .expect("a nonce in the policy");
    assert!(
        html.contains(&format!("nonce=\"{nonce}\"")),
        "the inline hydration script carries the policy's nonce"
    );
    // Every script of the page's own runs under it: the hydration script and
    // the one that notes moves made before hydration.
    for tag in html.split("<script").skip(1) {
        let open = tag.split('>').next().unwrap_or_default();
        assert!(
            open.contains(&format!("nonce=\"{nonce}\"")),
            "a script without the nonce: <script{open}>"
        );
    }
    assert!(html.contains("__jayEarly"), "the early-input script");
    assert!(
        headers.get("x-frame-options").is_none(),
        "embedding allowed"
    );
    assert_eq!(headers["x-content-type-options"], "nosniff");
    assert_eq!(
        headers["referrer-policy"],
        "strict-origin-when-cross-origin"
    );

    // A fresh nonce per page.
    let again = reqwest::get(format!("{base}/")).await.unwrap();
    assert_ne!(
        again.headers()["content-security-policy"].to_str().unwrap(),
        csp
    );
}

#[tokio::test]
async fn models_can_be_put_behind_a_bearer_token() {
    let guard = Guard {
        models_token: Secret::new("let-me-in"),
        ..Guard::default()
    };
    let base = spawn(guard, "", crate::helpers::roomy()).await;
    let without = reqwest::get(format!("{base}/models")).await.unwrap();
    assert_eq!(without.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(without.headers()["www-authenticate"], "Bearer");
    let body: Value = without.json().await.unwrap();
    assert_eq!(body["field"], "authorization");
    for (token, status) in [
        ("let-me-out", StatusCode::UNAUTHORIZED),
        ("let-me-in", StatusCode::OK),
    ] {
        for route in ["/models", "/metrics"] {
            let response = Client::new()
                .get(format!("{base}{route}"))
                .bearer_auth(token)
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), status, "{route} with {token}");
        }
    }
}
