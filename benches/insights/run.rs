//! What the two insights benches share: `main`'s runtime (two worker
//! threads, as this machine has cores) with exit 2 when a figure could not
//! be taken, and their settings from the environment.

use std::future::Future;

pub type Failure = Box<dyn std::error::Error>;

/// Runs `run` to its end; on an error prints it after `name` and exits 2.
pub fn main(name: &str, run: impl Future<Output = Result<(), Failure>>) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    if let Err(e) = runtime.block_on(run) {
        eprintln!("{name}: {e}");
        std::process::exit(2);
    }
}

/// The number in the environment variable `name` (`_` allowed between
/// digits), or `default` when it is unset or not a number.
pub fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().replace('_', "").parse().ok())
        .unwrap_or(default)
}
