//! Logging: `tracing` to stderr, filtered by `RUST_LOG` (default `info`).

use tracing_subscriber::EnvFilter;

pub fn init() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    // A second init (e.g. several tests in one process) is harmless: keep the first.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        // A log line that cannot be written (stderr closed) is dropped; by
        // default tracing-subscriber would report it with `eprintln!`, which
        // panics on the same broken stderr and takes the request down with it.
        .log_internal_errors(false)
        .with_writer(std::io::stderr)
        .try_init();
}
