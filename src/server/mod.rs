//! The server (the `ssr` feature): the axum application around the page, the
//! coach and the insights.
//!
//! Start at [`startup`]: the application's parts and the one route table,
//! inside [`layers`], every request's middleware. Then:
//! - [`routes`]: the handlers (a comment, the operator's routes, the page's
//!   reports), handed one [`state::AppState`];
//! - [`json`] and [`error`]: what a route reads from a body, and the one
//!   error type every refusal is (JSON or a line of text: [`negotiate`]);
//! - [`insights_pages`]: `/insights` (HTML and CSV) and a class room's live view;
//! - [`auth`]: the token guard of `/models`, `/metrics`, reloading and `/insights`;
//! - [`limits`]: who a request's client is, and its allowances; [`origin`]:
//!   cross-site writes refused;
//! - [`headers`], [`request_id`], [`revalidate`], [`assets`]: what answers
//!   carry, and the site's hashed files;
//! - [`metrics`] (Prometheus), `signals` (SIGHUP, SIGTERM), [`telemetry`] (logs),
//!   [`memory`] (one allocator for Rust and SQLite);
//! - [`config`]: the typed settings, read from the environment and checked at start-up.

pub mod assets;
pub mod auth;
pub mod config;
pub mod error;
pub mod headers;
pub mod insights_pages;
pub mod json;
pub mod layers;
pub mod limits;
pub mod memory;
pub mod metrics;
pub mod negotiate;
pub mod origin;
pub mod request_id;
pub mod revalidate;
pub mod routes;
mod signals;
pub mod startup;
pub mod state;
pub mod telemetry;
pub mod timers;
