//! What every route is handed: one [`AppState`], given by axum's `State`
//! (the Leptos context is only for rendering the page). Its parts are behind
//! one `Arc`: axum clones a route's state on every request, and cloning the
//! parts one by one (`LeptosOptions` alone is about twenty fields, a dozen of
//! them reference-counted strings) cost about 2 % of the server's CPU under
//! load (`perf`, `GET /error` at 32 connections).

use std::{ops::Deref, sync::Arc};

use axum::extract::FromRef;
use leptos::prelude::LeptosOptions;

use super::{
    auth::TokenGuard,
    limits::{ClientLimiter, ReportLimits},
    metrics::Metrics,
};
use coach::Coach;
use insights::{Recorder, Rooms};
use vocabulary::Lang;

/// The application's state, cheap to clone.
#[derive(Clone)]
pub struct AppState(Arc<Parts>);

/// What the routes share.
pub struct Parts {
    pub leptos: LeptosOptions,
    pub coach: Arc<Coach>,
    /// Comments per client (`JAY_RATE_PER_MIN`, `JAY_RATE_BURST`).
    pub limiter: Arc<ClientLimiter>,
    pub metrics: Arc<Metrics>,
    pub recorder: Recorder,
    pub rooms: Arc<Rooms>,
    /// The page's reports' own allowances (`POST /insights/events`).
    pub report_limits: ReportLimits,
    /// Who may read `/models` and `/metrics` and reload the registry.
    pub models_guard: TokenGuard,
    /// The comment's language for a caller that names none (`JAY_DEFAULT_LANG`).
    pub default_lang: Lang,
}

impl AppState {
    pub fn new(parts: Parts) -> Self {
        Self(Arc::new(parts))
    }
}

impl Deref for AppState {
    type Target = Parts;

    fn deref(&self) -> &Parts {
        &self.0
    }
}

/// Page renders get their own copy of Leptos's options.
impl FromRef<AppState> for LeptosOptions {
    fn from_ref(state: &AppState) -> Self {
        state.leptos.clone()
    }
}
