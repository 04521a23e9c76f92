//! The server binary: read the configuration, bind, serve. All the work is in the
//! library (`jay_trainer::server`), so tests can build the same application.

/// The allocator: glibc's spent about a fifth of the server's CPU under load
/// (`malloc`, `free`, `malloc_consolidate`, arena locks, measured with `perf`
/// on `GET /error` at 32 connections); mimalloc's thread-local heaps suit a
/// multi-threaded server's many small, short-lived allocations.
#[cfg(feature = "ssr")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[cfg(feature = "ssr")]
#[tokio::main]
async fn main() -> std::process::ExitCode {
    use jay_trainer::server::{config::Settings, memory, startup::Application, telemetry};
    use std::process::ExitCode;

    telemetry::init();
    memory::tune();
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
