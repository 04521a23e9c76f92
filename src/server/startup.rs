//! Builds the axum application: the Leptos page routes, the static site files and
//! the plain HTTP routes. [`Application::build`] binds first, so tests can ask for
//! port 0 and read the real address back.

use std::{io, net::SocketAddr};

use axum::{routing::get, Router};
use leptos::prelude::*;
use leptos_axum::{generate_route_list, LeptosRoutes};
use tokio::net::TcpListener;
use tower_http::trace::TraceLayer;

use super::config::Settings;
use crate::app::{shell, App};

/// The route table.
pub fn router(options: LeptosOptions) -> Router {
    let routes = generate_route_list(App);
    Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .leptos_routes(&options, routes, {
            let options = options.clone();
            move || shell(options.clone())
        })
        .fallback(leptos_axum::file_and_error_handler(shell))
        .layer(TraceLayer::new_for_http())
        .with_state(options)
}

/// A bound, not yet serving, application.
pub struct Application {
    listener: TcpListener,
    router: Router,
}

impl Application {
    /// Binds `settings.leptos.site_addr` (port 0 picks a free port).
    pub async fn build(settings: Settings) -> io::Result<Self> {
        let listener = TcpListener::bind(settings.leptos.site_addr).await?;
        Ok(Self {
            listener,
            router: router(settings.leptos),
        })
    }

    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until SIGINT or SIGTERM, then lets in-flight requests finish.
    pub async fn run_until_stopped(self) -> io::Result<()> {
        axum::serve(self.listener, self.router)
            .with_graceful_shutdown(shutdown_signal())
            .await
    }
}

async fn shutdown_signal() {
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
