//! Server-only code (the `ssr` feature): configuration, logging and the axum app.

pub mod assets;
pub mod config;
pub mod headers;
pub mod limits;
pub mod metrics;
pub mod negotiate;
pub mod origin;
pub mod persistence;
pub mod request_id;
pub mod revalidate;
pub mod routes;
mod signals;
pub mod startup;
pub mod telemetry;
