//! How long the server takes to render the page: `GET /`, in process.
//!
//! The real route table ([`router`]: every middleware layer, the Leptos page
//! route, the shell and the whole `Simulator`) answers requests handed to it
//! with `tower`'s `oneshot`, one at a time, on a two-worker tokio runtime (this
//! machine has 2 cores). One sample is the time from handing the request over
//! to holding the last byte of the streamed body: the server's work for one
//! page view, without TCP, the client, or the network. The coach is the
//! repository's `models.toml` with no token; rendering `/` never calls it.
//!
//! 50 requests warm up (first-render allocations, lazy statics), then 500 are
//! timed; p50, p90 and the maximum are printed in milliseconds, as
//! `render_p50_ms 1.234`-style lines on stdout (read by `.ci/budgets`) after a
//! human-readable summary on stderr. The budget: p50 ≤ 5 ms; the process
//! exits with status 1 when the p50 misses it.
//!
//! Run: `cargo bench --features ssr --bench render` (release profile), or the
//! whole set of budgets with `bash .ci/budgets`.

use std::{
    net::SocketAddr,
    path::Path,
    sync::Arc,
    time::{Duration, Instant},
};

use axum::{
    body::{to_bytes, Body},
    extract::ConnectInfo,
    http::{Request, StatusCode},
};
use coach::{budget::UpstreamBudget, providers::HttpProvider, registry::Registry, Coach};
use jay_trainer::server::{
    config::Guard,
    startup::{router, AppParts},
};
use leptos::config::LeptosOptions;
use tower::ServiceExt;

const WARM_UP: usize = 50;
const SAMPLES: usize = 500;
/// The server renders `/` in at most 5 ms at the median.
const TARGET_P50: Duration = Duration::from_millis(5);

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let mut samples = runtime.block_on(measure());
    samples.sort();

    let p50 = quantile(&samples, 0.50);
    let p90 = quantile(&samples, 0.90);
    let max = *samples.last().expect("at least one sample");
    eprintln!(
        "render GET /: {SAMPLES} requests after {WARM_UP} to warm up: p50 {:.3} ms, p90 {:.3} ms, max {:.3} ms (target p50 ≤ {} ms)",
        ms(p50),
        ms(p90),
        ms(max),
        TARGET_P50.as_millis()
    );
    println!("render_p50_ms {:.3}", ms(p50));
    println!("render_p90_ms {:.3}", ms(p90));
    println!("render_max_ms {:.3}", ms(max));
    if p50 > TARGET_P50 {
        eprintln!(
            "missed: server render of / p50 {:.3} ms > {} ms",
            ms(p50),
            TARGET_P50.as_millis()
        );
        std::process::exit(1);
    }
}

/// Renders `/` `WARM_UP + SAMPLES` times; the timed samples.
async fn measure() -> Vec<Duration> {
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("models.toml");
    let registry = Registry::load(&models).expect("the repository's models.toml");
    // No token: the coach could call no Hugging Face model (and `/` never asks).
    let budget = UpstreamBudget::new(8, 5000);
    let coach =
        Coach::new(registry, None, Arc::new(HttpProvider::new(None)), Some(1)).with_budget(budget);
    let options = LeptosOptions::builder()
        .output_name("jay-trainer")
        .site_addr(SocketAddr::from(([127, 0, 0, 1], 0)))
        .build();
    let app = router(&AppParts::new(options, Arc::new(coach), Guard::default()));

    let mut samples = Vec::with_capacity(SAMPLES);
    for i in 0..WARM_UP + SAMPLES {
        // What `into_make_service_with_connect_info` adds for a real
        // connection: the per-client layer reads the peer's address.
        let mut request = Request::get("/").body(Body::empty()).expect("a request");
        request
            .extensions_mut()
            .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 40_000))));
        let start = Instant::now();
        let response = app
            .clone()
            .oneshot(request)
            .await
            .expect("the router is infallible");
        let status = response.status();
        let body = to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("the page's body");
        let elapsed = start.elapsed();
        assert_eq!(status, StatusCode::OK, "GET / answered {status}");
        assert!(
            body.len() > 10_000 && body.windows(7).any(|w| w == b"</html>"),
            "GET / is not the whole page ({} bytes)",
            body.len()
        );
        if i >= WARM_UP {
            samples.push(elapsed);
        }
    }
    samples
}

/// The `q` quantile of sorted `samples` (nearest rank).
fn quantile(samples: &[Duration], q: f64) -> Duration {
    let rank = ((q * samples.len() as f64).ceil() as usize).clamp(1, samples.len());
    samples[rank - 1]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
