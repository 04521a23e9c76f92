//! The signals the server listens to: SIGHUP reloads the model registry,
//! SIGINT and SIGTERM stop it.

use std::sync::Arc;

use coach::service::Coach;

#[cfg(unix)]
pub(super) fn spawn_reload_on_hangup(coach: Arc<Coach>) {
    use tokio::signal::unix::{signal, SignalKind};
    match signal(SignalKind::hangup()) {
        Ok(mut hangups) => {
            tokio::spawn(async move {
                while hangups.recv().await.is_some() {
                    match coach.reload().await {
                        Ok(n) => tracing::info!("model registry reloaded: {n} models"),
                        Err(e) => {
                            tracing::error!("model registry not reloaded, keeping the old one: {e}")
                        }
                    }
                }
            });
        }
        Err(e) => tracing::warn!("cannot listen for SIGHUP (no registry reload): {e}"),
    }
}

#[cfg(not(unix))]
pub(super) fn spawn_reload_on_hangup(_coach: Arc<Coach>) {}

pub(super) async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::warn!("cannot listen for Ctrl-C: {e}");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(e) => {
                tracing::warn!("cannot listen for SIGTERM: {e}");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down");
}
