//! Builds the axum application: the Leptos page routes (with the coach in their
//! context, for the page's server function), the JSON routes, the static site
//! files. [`Application::build`] binds first, so tests can ask for port 0 and
//! read the real address back.

use std::{io, net::SocketAddr, sync::Arc};

use axum::{routing::get, Router};
use leptos::prelude::*;
use leptos_axum::{generate_route_list, LeptosRoutes};
use tokio::net::TcpListener;
use tower_http::trace::TraceLayer;

use super::{config::Settings, routes};
use crate::{
    app::{shell, App},
    coach::{providers::HttpProvider, registry::Registry, service::Coach},
};

/// The route table.
pub fn router(options: LeptosOptions, coach: Arc<Coach>) -> Router {
    let routes = generate_route_list(App);
    let page_coach = coach.clone();
    Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .merge(routes::api(coach))
        .leptos_routes_with_context(
            &options,
            routes,
            move || provide_context(page_coach.clone()),
            {
                let options = options.clone();
                move || shell(options.clone())
            },
        )
        .fallback(leptos_axum::file_and_error_handler(shell))
        .layer(TraceLayer::new_for_http())
        .with_state(options)
}

#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error(transparent)]
    Registry(#[from] crate::coach::registry::RegistryError),
    #[error("cannot listen on {addr}: {source}")]
    Bind { addr: SocketAddr, source: io::Error },
}

/// A bound, not yet serving, application.
pub struct Application {
    listener: TcpListener,
    router: Router,
    coach: Arc<Coach>,
}

impl Application {
    /// Loads the model registry and binds `settings.leptos.site_addr`.
    pub async fn build(settings: Settings) -> Result<Self, StartupError> {
        let registry = Registry::load(&settings.models_path)?;
        let token = settings.hf_token.as_ref().map(|s| s.expose().to_string());
        if token.is_none() {
            tracing::info!(
                "no HF_TOKEN: remote models are skipped, the offline commentator answers"
            );
        }
        let provider = Arc::new(HttpProvider::new(token));
        let coach = Arc::new(Coach::new(
            registry,
            Some(settings.models_path.clone()),
            provider,
            None,
        ));
        Self::with_coach(settings.leptos, coach).await
    }

    /// Binds with a ready coach (tests bring their own provider and seed).
    pub async fn with_coach(
        options: LeptosOptions,
        coach: Arc<Coach>,
    ) -> Result<Self, StartupError> {
        let addr = options.site_addr;
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|source| StartupError::Bind { addr, source })?;
        Ok(Self {
            listener,
            router: router(options, coach.clone()),
            coach,
        })
    }

    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until SIGINT or SIGTERM, then lets in-flight requests finish.
    /// SIGHUP reloads the model registry.
    pub async fn run_until_stopped(self) -> io::Result<()> {
        spawn_reload_on_hangup(self.coach.clone());
        axum::serve(self.listener, self.router)
            .with_graceful_shutdown(shutdown_signal())
            .await
    }
}

#[cfg(unix)]
fn spawn_reload_on_hangup(coach: Arc<Coach>) {
    use tokio::signal::unix::{signal, SignalKind};
    match signal(SignalKind::hangup()) {
        Ok(mut hangups) => {
            tokio::spawn(async move {
                while hangups.recv().await.is_some() {
                    match coach.reload() {
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
fn spawn_reload_on_hangup(_coach: Arc<Coach>) {}

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
