//! Logging: `tracing` to stderr, filtered by `RUST_LOG` (default `info`).
//! `JAY_LOG_FORMAT=json` writes one JSON object per line instead of text.
//! Every request's lines carry its id (`x-request-id`, made up when the
//! request has none, and sent back in the response): see `startup::router`.

use tracing_subscriber::EnvFilter;

pub fn init() {
    let filter = || EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let json = std::env::var("JAY_LOG_FORMAT").is_ok_and(|f| f.eq_ignore_ascii_case("json"));
    // A log line that cannot be written (stderr closed) is dropped; by default
    // tracing-subscriber would report it with `eprintln!`, which panics on the
    // same broken stderr and takes the request down with it.
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter())
        .with_writer(std::io::stderr)
        .log_internal_errors(false);
    // A second init (e.g. several tests in one process) is harmless: keep the first.
    let _ = if json {
        builder
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .try_init()
    } else {
        builder.try_init()
    };
}
