//! Builds the axum application: its parts ([`AppParts`]), the one route table
//! ([`router`]) and the bound server ([`Application`]). [`Application::build`]
//! makes everything from the settings; tests bring their own parts to
//! [`Application::from_parts`]. Binding comes first, so tests can ask for
//! port 0 and read the real address back.

use std::{future::IntoFuture, io, net::SocketAddr, path::PathBuf, sync::Arc, time::Duration};

use axum::{routing::get, Router};
use leptos::prelude::*;
use leptos_axum::{AxumRouteListing, LeptosRoutes};
use tokio::net::TcpListener;

use super::{
    assets::{page_two, SiteAssets},
    auth::TokenGuard,
    config::{Guard, Settings},
    headers::{live_reload, provide_page_policy},
    insights_pages, layers,
    limits::{ClientLimiter, ReportLimits},
    metrics::Metrics,
    routes,
    signals::{shutdown_signal, spawn_reload_on_hangup},
    state::{AppState, Parts},
    timers,
};
use crate::page::{
    app::{shell, PATHS},
    two,
};
use coach::{
    budget::UpstreamBudget,
    feedback::{FeedbackKey, Signer},
    providers::HttpProvider,
    registry::Registry,
    service::saver::{self, Saver},
    service::Coach,
};
use insights::{Insights, StoreError};

/// How long requests under way may take to finish after SIGTERM / SIGINT
/// (the statistics are saved as the signal arrives, and again after).
const GRACE: Duration = Duration::from_secs(10);
/// The snapshot's file name in the data directory.
const SNAPSHOT: &str = "router.json";

/// What an application is made of. [`Application::build`] makes them from
/// the settings; tests make their own ([`AppParts::new`] and its fields).
pub struct AppParts {
    pub leptos: LeptosOptions,
    pub coach: Arc<Coach>,
    pub guard: Guard,
    /// Off unless given (tests bring a store in a temporary folder).
    pub insights: Insights,
    /// The per-client comment limiter; `None`: the guard's rate and burst
    /// (tests bring one on a manual clock).
    pub limiter: Option<Arc<ClientLimiter>>,
    /// Whether the models' availability is checked in the background while
    /// serving (`Coach::keep_checking`; always from [`Application::build`]).
    pub checks: bool,
    /// Where and how often to save the router's statistics (`None`: never).
    pub persistence: Option<(PathBuf, Duration)>,
    /// What the comments' ids are signed with (a random one unless given).
    pub feedback_key: FeedbackKey,
}

impl AppParts {
    /// `coach` behind `guard`, recording nothing, checking nothing, saving nothing.
    pub fn new(leptos: LeptosOptions, coach: Arc<Coach>, guard: Guard) -> Self {
        Self {
            leptos,
            coach,
            guard,
            insights: Insights::off(),
            limiter: None,
            checks: false,
            persistence: None,
            feedback_key: FeedbackKey::random(),
        }
    }
}

/// The one route table: the page (Leptos, routed by hand: `app::PATHS`),
/// the comment, vote and report routes (`routes::small`), the operator's
/// (`routes::operator`), `/insights` (`insights_pages`), `/healthz`, the site's
/// files (`/pkg`; `/bundles`, lesson 2's), and the layers, outermost first.
pub fn router(parts: &AppParts) -> Router {
    let AppParts {
        leptos: options,
        coach,
        guard,
        insights,
        ..
    } = parts;
    let limiter = parts
        .limiter
        .clone()
        .unwrap_or_else(|| Arc::new(ClientLimiter::new(guard.rate_per_min, guard.rate_burst)));
    // Every comment from here on carries an id a vote can name.
    coach.set_signer(Signer::new(parts.feedback_key.clone()));
    let recorder = insights.recorder().clone();
    let metrics = Arc::new(Metrics::new(coach).with_insights(recorder.clone()));
    coach.set_observer(metrics.clone());
    let state = AppState::new(Parts {
        leptos: options.clone(),
        coach: coach.clone(),
        limiter,
        metrics: metrics.clone(),
        recorder,
        rooms: insights.rooms().clone(),
        report_limits: ReportLimits::new(guard),
        models_guard: TokenGuard::new(guard.models_token.clone()),
        default_lang: guard.default_lang,
    });
    let get_only = |path: &&str| {
        AxumRouteListing::new(
            path.to_string(),
            Default::default(),
            [leptos_router::Method::Get],
            vec![],
        )
    };
    let pages = PATHS.iter().map(get_only).collect();
    let assets = SiteAssets::of(options);
    let stylesheet = assets.stylesheet(options);
    let hops = guard.trusted_proxy_hops;
    let insights_pages = insights_pages::routes(
        insights.store().cloned(),
        insights.rooms().clone(),
        insights_pages::Access::new(guard.insights_token.clone()),
        &stylesheet,
        hops,
    );
    let pkg_root = PathBuf::from(options.site_root.as_ref()).join(options.site_pkg_dir.as_ref());
    let (bundles, bundle) = page_two(options);
    // What a page render reads from the Leptos context (nothing else does).
    let page_context = {
        let ancestors = guard.frame_ancestors.clone();
        let live_reload = live_reload();
        move || {
            provide_context(stylesheet.clone());
            provide_context(bundle.clone());
            provide_page_policy(&ancestors, live_reload);
        }
    };
    let table = Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .merge(routes::operator(guard.cors_origins.as_deref()))
        .merge(insights_pages)
        .leptos_routes_with_context(&state, pages, page_context.clone(), {
            let options = options.clone();
            move || shell(options.clone())
        })
        .nest_service(
            &format!("/{}", options.site_pkg_dir),
            assets.service(pkg_root),
        )
        .nest_service(&format!("/{}", two::DIR), assets.service(bundles))
        .fallback(leptos_axum::file_and_error_handler_with_context::<
            AppState,
            _,
        >(page_context, shell));
    let small = routes::small(guard.cors_origins.as_deref());
    layers::around(
        small.with_state(state.clone()),
        table.with_state(state),
        hops,
        metrics,
    )
}

/// The comment ids' key kept in `dir`; one for this run only (and a
/// warning) when the folder cannot keep one.
fn key_in(dir: &std::path::Path) -> FeedbackKey {
    FeedbackKey::in_dir(dir).unwrap_or_else(|e| {
        tracing::warn!(
            "comment ids: no key kept ({e}): votes on comments written before a restart will be refused; set JAY_FEEDBACK_KEY or make JAY_DATA_DIR writable"
        );
        FeedbackKey::random()
    })
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
    /// Whether the models' availability is checked in the background.
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
        saver::restore(&coach, &snapshot);
        let insights = Insights::start(&settings.insights)?;
        let feedback_key = settings
            .feedback_key
            .unwrap_or_else(|| key_in(&settings.data_dir));
        Self::from_parts(AppParts {
            insights,
            checks: true,
            persistence: Some((snapshot, settings.save_every)),
            feedback_key,
            ..AppParts::new(settings.leptos, coach, guard)
        })
        .await
    }

    /// Binds `parts.leptos.site_addr` (port 0: any free port, which
    /// [`Self::local_addr`] reads back) with the application `parts` make.
    pub async fn from_parts(parts: AppParts) -> Result<Self, StartupError> {
        let addr = parts.leptos.site_addr;
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|source| StartupError::Bind { addr, source })?;
        Ok(Self {
            listener,
            router: router(&parts),
            coach: parts.coach,
            persistence: parts.persistence,
            insights: parts.insights,
            checks: parts.checks,
        })
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
        let due = tokio::spawn(timers::keep_one_due());
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
            .map(|(path, _)| saver::save_off_thread(self.coach.clone(), path.clone()));
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
            saver::save(&self.coach, path);
        }
        if let Some(checks) = checks {
            checks.abort();
        }
        due.abort();
        // What the last requests recorded is written before the database closes.
        self.insights.stop().await;
        result
    }
}
