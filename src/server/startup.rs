//! Builds the axum application: the Leptos page routes (with the coach in their
//! context, for the page's server function), the JSON routes, the static site
//! files. [`Application::build`] binds first, so tests can ask for port 0 and
//! read the real address back.

use std::{future::IntoFuture, io, net::SocketAddr, path::PathBuf, sync::Arc, time::Duration};

use axum::{extract::FromRef, routing::get, Router};
use leptos::prelude::*;
use leptos_axum::{AxumRouteListing, LeptosRoutes};
use tokio::net::TcpListener;
use tower_http::{
    compression::{
        predicate::{DefaultPredicate, Predicate, SizeAbove},
        CompressionLayer,
    },
    limit::RequestBodyLimitLayer,
    request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer},
    trace::TraceLayer,
};

use super::{
    assets::SiteAssets,
    config::{Guard, Settings},
    headers::{hardening, live_reload, provide_page_policy},
    limits::{guesses, tag_client, ClientLimiter},
    metrics::{track, Metrics},
    origin::same_origin_writes,
    persistence::{self, Saver},
    request_id,
    revalidate::revalidate,
    routes::{self, ModelsAccess},
    signals::{shutdown_signal, spawn_reload_on_hangup},
};
use crate::{
    insights_pages,
    page::app::{shell, PATHS},
};
use coach::{budget::UpstreamBudget, providers::HttpProvider, registry::Registry, service::Coach};
use insights::{Insights, StoreError};

/// Largest request body (the page's server function sends about 2 KiB at most).
const MAX_BODY: usize = 16 * 1024;
/// Smaller answers (a comment, an error) are sent as they are: compressing
/// them would cost more than it saves.
const COMPRESS_ABOVE: u16 = 1024;
/// How long requests under way may take to finish after SIGTERM / SIGINT
/// (the statistics are saved as the signal arrives, and again after).
const GRACE: Duration = Duration::from_secs(10);
/// The snapshot's file name in the data directory.
const SNAPSHOT: &str = "router.json";

/// The router's state: Leptos's options behind an `Arc`. axum clones a route's
/// state on every request, and `LeptosOptions` is about twenty fields, a
/// dozen of them reference-counted strings: cloned per request it cost about
/// 2 % of the server's CPU under load (`perf`, `GET /error` at 32
/// connections). Page renders still get their own copy ([`FromRef`]).
#[derive(Clone)]
struct AppState(Arc<LeptosOptions>);

impl FromRef<AppState> for LeptosOptions {
    fn from_ref(state: &AppState) -> Self {
        LeptosOptions::clone(&state.0)
    }
}

/// The route table, with the guard's limits and headers.
pub fn router(options: LeptosOptions, coach: Arc<Coach>, guard: &Guard) -> Router {
    let limiter = Arc::new(ClientLimiter::new(guard.rate_per_min, guard.rate_burst));
    router_with_limiter(options, coach, guard, limiter)
}

/// [`router`] with a given per-client limiter (tests bring one on a manual clock).
pub fn router_with_limiter(
    options: LeptosOptions,
    coach: Arc<Coach>,
    guard: &Guard,
    limiter: Arc<ClientLimiter>,
) -> Router {
    router_recording(options, coach, guard, limiter, &Insights::off())
}

/// [`router_with_limiter`] recording the insights through their recorder
/// (visits and tools at `POST /insights/events`, attempts from the page's
/// comment requests) and showing them (`/insights`, from their store).
pub fn router_recording(
    options: LeptosOptions,
    coach: Arc<Coach>,
    guard: &Guard,
    limiter: Arc<ClientLimiter>,
    insights: &Insights,
) -> Router {
    let recorder = insights.recorder().clone();
    let rooms = insights.rooms().clone();
    // The app's pages (it routes by hand: `app::PATHS`).
    let routes = PATHS
        .iter()
        .map(|path| {
            AxumRouteListing::new(
                path.to_string(),
                Default::default(),
                [leptos_router::Method::Get],
                vec![],
            )
        })
        .collect();
    let state = AppState(Arc::new(options.clone()));
    let assets = SiteAssets::of(&options);
    let stylesheet = assets.stylesheet(&options);
    let access = insights_pages::Access::new(guard.insights_token.clone());
    let hops = guard.trusted_proxy_hops;
    let insights_pages = insights_pages::routes(
        insights.store().cloned(),
        rooms.clone(),
        access,
        &stylesheet,
        hops,
    );
    let pkg_root = PathBuf::from(options.site_root.as_ref()).join(options.site_pkg_dir.as_ref());
    let page_context = {
        let (coach, limiter, recorder) = (coach.clone(), limiter.clone(), recorder.clone());
        let rooms = rooms.clone();
        let ancestors = guard.frame_ancestors.clone();
        let live_reload = live_reload();
        move || {
            provide_context(stylesheet.clone());
            provide_context(coach.clone());
            provide_context(limiter.clone());
            provide_context(recorder.clone());
            provide_context(rooms.clone());
            provide_page_policy(&ancestors, live_reload);
        }
    };
    let failures = guesses::limiter();
    let metrics = Arc::new(Metrics::new(&coach).with_insights(recorder.clone()));
    coach.set_observer(metrics.clone());
    let counted = metrics.clone();
    Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .merge(routes::api(
            coach,
            limiter,
            metrics,
            ModelsAccess(guard.models_token.clone()),
            guard.cors_origins.as_deref(),
            guard.default_lang,
        ))
        .merge(routes::insights_events(recorder, rooms, guard))
        .merge(insights_pages)
        .leptos_routes_with_context(&state, routes, page_context.clone(), {
            let options = options.clone();
            move || shell(options.clone())
        })
        .nest_service(
            &format!("/{}", options.site_pkg_dir),
            assets.service(pkg_root),
        )
        .fallback(leptos_axum::file_and_error_handler_with_context::<
            AppState,
            _,
        >(page_context, shell))
        // The pages' ETag and 304s (outside the page handlers, which set the
        // policy a 304 must not carry).
        .layer(axum::middleware::from_fn(revalidate))
        // Pages and other answers over 1 KiB, compressed as they go (brotli
        // at quality 4, or gzip); `/pkg` is compressed already (`assets`).
        .layer(
            CompressionLayer::new()
                .compress_when(DefaultPredicate::new().and(SizeAbove::new(COMPRESS_ABOVE))),
        )
        // Wrong tokens cost their client (named by `tag_client`, outside).
        .layer(axum::middleware::from_fn(move |request, next| {
            guesses::slow_guessing(failures.clone(), request, next)
        }))
        .layer(axum::middleware::from_fn(move |request, next| {
            tag_client(hops, request, next)
        }))
        // Writes from other sites are refused before anything reads them.
        .layer(axum::middleware::from_fn(move |request, next| {
            same_origin_writes(hops, request, next)
        }))
        // 413 before the body is read (Leptos's server functions would turn a
        // body-read error into a 500).
        .layer(RequestBodyLimitLayer::new(MAX_BODY))
        // The page's server function: a body it could not read or decode is
        // refused here (413, or 400 naming the field), not answered 500.
        .layer(axum::middleware::from_fn(|request, next| {
            crate::page::api::body::check(MAX_BODY, request, next)
        }))
        .layer(axum::middleware::from_fn(move |request, next| {
            track(counted.clone(), request, next)
        }))
        .layer(hardening())
        // Every log line of a request carries its id (outermost layers last).
        .layer(TraceLayer::new_for_http().make_span_with(request_id::span))
        .layer(PropagateRequestIdLayer::x_request_id())
        .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
        // A client's id is kept only if it is a plain token.
        .layer(axum::middleware::map_request(request_id::drop_unplain))
        .with_state(state)
}

#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error(transparent)]
    Registry(#[from] coach::registry::RegistryError),
    #[error("cannot listen on {addr}: {source}")]
    Bind { addr: SocketAddr, source: io::Error },
    #[error("insights: {0}")]
    Insights(#[from] StoreError),
}

/// A bound, not yet serving, application.
pub struct Application {
    listener: TcpListener,
    router: Router,
    coach: Arc<Coach>,
    /// Where and how often to save the router's statistics (`None`: never).
    persistence: Option<(PathBuf, Duration)>,
    /// Stopped (what is queued written) after the last request.
    insights: Insights,
    /// Whether the models' availability is checked in the background
    /// (`Coach::keep_checking`): always from [`Self::build`].
    checks: bool,
}

impl Application {
    /// Loads the model registry and binds `settings.leptos.site_addr`.
    pub async fn build(settings: Settings) -> Result<Self, StartupError> {
        let registry = Registry::load(&settings.models_path)?;
        let hf = settings.hugging_face.clone();
        if hf.token.is_none() {
            tracing::info!(
                "no HF_TOKEN: Hugging Face models are skipped (local ones and those with their own token_env key still answer; otherwise the offline commentator)"
            );
        }
        if let Some(org) = &hf.bill_to {
            tracing::info!("Hugging Face calls bill the organisation {}", org.as_str());
        }
        let provider = Arc::new(
            HttpProvider::new(hf.token)
                .with_bill_to(hf.bill_to)
                .with_hub(hf.hub),
        );
        let guard = settings.guard;
        if guard.insights_token.is_none() && settings.insights.enabled {
            tracing::info!(
                "insights: private: /insights and the room views answer only this machine until JAY_INSIGHTS_TOKEN is set"
            );
        }
        let mut budget =
            UpstreamBudget::new(guard.upstream_concurrency, guard.upstream_daily_budget);
        if let Some(share) = guard.upstream_daily_per_client {
            budget = budget.with_client_share(share);
        }
        tracing::info!(
            "model calls: {} at once, {} a day, {} a day per client",
            guard.upstream_concurrency,
            guard.upstream_daily_budget,
            budget.client_share()
        );
        let coach = Arc::new(
            Coach::new(registry, Some(settings.models_path.clone()), provider, None)
                .with_budget(budget),
        );
        let snapshot = settings.data_dir.join(SNAPSHOT);
        persistence::restore(&coach, &snapshot);
        let insights = Insights::start(&settings.insights)?;
        let mut app = Self::with_insights(settings.leptos, coach, &guard, insights).await?;
        app.persistence = Some((snapshot, settings.save_every));
        app.checks = true;
        Ok(app)
    }

    /// Binds with a ready coach (tests bring their own provider and seed).
    pub async fn with_coach(
        options: LeptosOptions,
        coach: Arc<Coach>,
        guard: &Guard,
    ) -> Result<Self, StartupError> {
        Self::with_insights(options, coach, guard, Insights::off()).await
    }

    /// [`Self::with_coach`], recording into `insights` (tests bring a store
    /// in a temporary folder).
    pub async fn with_insights(
        options: LeptosOptions,
        coach: Arc<Coach>,
        guard: &Guard,
        insights: Insights,
    ) -> Result<Self, StartupError> {
        let addr = options.site_addr;
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|source| StartupError::Bind { addr, source })?;
        let limiter = Arc::new(ClientLimiter::new(guard.rate_per_min, guard.rate_burst));
        Ok(Self {
            listener,
            router: router_recording(options, coach.clone(), guard, limiter, &insights),
            coach,
            persistence: None,
            insights,
            checks: false,
        })
    }

    /// Checks the models' availability in the background while serving (as
    /// [`Self::build`] does; tests that bring their own coach ask for it).
    pub fn with_checks(mut self) -> Self {
        self.checks = true;
        self
    }

    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until SIGINT or SIGTERM, then saves the statistics at once,
    /// stops accepting, lets requests under way finish (for at most
    /// [`GRACE`]) and saves them again. SIGHUP reloads the model registry;
    /// the statistics are also saved periodically.
    pub async fn run_until_stopped(self) -> io::Result<()> {
        spawn_reload_on_hangup(self.coach.clone());
        let checks = self
            .checks
            .then(|| tokio::spawn(self.coach.clone().keep_checking()));
        let saver = self
            .persistence
            .as_ref()
            .map(|(path, every)| Saver::spawn(self.coach.clone(), path.clone(), *every));
        let first_save = self
            .persistence
            .as_ref()
            .map(|(path, _)| persistence::save_off_thread(self.coach.clone(), path.clone()));
        // The peer address feeds the per-client rate limit.
        let app = self
            .router
            .into_make_service_with_connect_info::<SocketAddr>();
        let (stopping, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = axum::serve(self.listener, app)
            .with_graceful_shutdown(async move {
                shutdown_signal().await;
                let _ = stopping.send(());
            })
            .into_future();
        let result = tokio::select! {
            result = server => result,
            () = async {
                if stopped.await.is_ok() {
                    // Saved while the drain runs: it may outlast the stop
                    // timeout (docker stop: SIGKILL 10 s after SIGTERM).
                    // A save under way finishes even when the drain ends
                    // first; captures are numbered, so it never replaces
                    // the final one below.
                    let save = async {
                        if let Some(save) = first_save {
                            save.await;
                        }
                    };
                    tokio::join!(save, tokio::time::sleep(GRACE));
                } else {
                    std::future::pending::<()>().await;
                }
            } => {
                tracing::warn!("requests still under way after {GRACE:?}: stopping anyway");
                Ok(())
            }
        };
        if let Some((path, _)) = &self.persistence {
            // Stop the periodic saves and wait for one under way to finish
            // (aborting the task would not stop its blocking write), then
            // save the final state. Captures are numbered, so even a late
            // periodic write could not replace the final snapshot.
            if let Some(saver) = saver {
                saver.stop().await;
            }
            persistence::save(&self.coach, path);
        }
        if let Some(checks) = checks {
            checks.abort();
        }
        // What the last requests recorded is written before the database closes.
        self.insights.stop().await;
        result
    }
}
