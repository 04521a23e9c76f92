//! The server binary: read the configuration, bind, serve. All the work is in the
//! library (`jay_trainer::server`), so tests can build the same application.

/// The allocator: glibc's spent about a fifth of the server's CPU under load
/// (`malloc`, `free`, `malloc_consolidate`, arena locks, measured with `perf`
/// on `GET /error` at 32 connections); mimalloc's thread-local heaps suit a
/// multi-threaded server's many small, short-lived allocations.
#[cfg(feature = "ssr")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc hands memory freed by the server back to the system at once,
/// not after its default second: under a flood of comments the insights'
/// batches and queue free megabytes every second, and the recording server's
/// peak RSS fell by 2–5 MB with no more CPU a comment (docs/benchmarks/insights.md).
/// `MIMALLOC_PURGE_DELAY` in the environment, mimalloc's own setting, wins.
#[cfg(feature = "ssr")]
fn return_freed_memory_at_once() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some() {
        return;
    }
    // `mi_option_purge_delay` in mimalloc.h's `mi_option_e` (the Rust
    // bindings do not name it): milliseconds before freed memory is purged.
    const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
    // SAFETY: sets a number in mimalloc's option table; no pointer involved.
    unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, 0) }
}

#[cfg(feature = "ssr")]
#[tokio::main]
async fn main() -> std::process::ExitCode {
    use jay_trainer::server::{config::Settings, startup::Application, telemetry};
    use std::process::ExitCode;

    return_freed_memory_at_once();
    telemetry::init();
    let settings = match Settings::from_env() {
        Ok(settings) => settings,
        Err(e) => {
            eprintln!("jay-trainer: configuration error: {e}");
            return ExitCode::from(2);
        }
    };
    let addr = settings.leptos.site_addr;
    let app = match Application::build(settings).await {
        Ok(app) => app,
        Err(e) => {
            eprintln!("jay-trainer: {e}");
            return ExitCode::from(2);
        }
    };
    tracing::info!("listening on http://{}", app.local_addr().unwrap_or(addr));
    match app.run_until_stopped().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("jay-trainer: server error: {e}");
            ExitCode::from(1)
        }
    }
}

#[cfg(not(feature = "ssr"))]
fn main() {
    // The browser side starts in `lib.rs` (`hydrate`); this binary needs `--features ssr`.
}
