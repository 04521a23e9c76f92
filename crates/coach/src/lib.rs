//! The coach: a short comment on every attempt, written by one of several small
//! language models and, when none can answer, by the built-in offline commentator.
//!
//! Server-only: the browser's WASM never links it (the page asks for a
//! comment over HTTP and reads the JSON).
//!
//! One request, in order: `input` parses and validates the numbers
//! (text from the request never reaches a prompt) → `prompt` builds the
//! prompt for the tier → `service` asks `routing` for a weighted order and
//! fails over → `providers` call the model named in `model` (read from the
//! `registry` file) → `judge` checks the answer (and, with
//! `judge::directions`, that it does not contradict the facts of
//! [`lesson::advice`]) → `service` assembles the [`Comment`], falling back to
//! `offline`. `budget` caps model calls; `availability` keeps
//! what the checks found of which models are really served (and in which
//! languages); `snapshot` keeps the router's state across restarts. Every
//! word the coach says or reads, per language, is in `words`.
//!
//! A crate below the app: it knows no web framework (no axum, no Leptos), and
//! the app's routes call it.

pub mod input;
pub mod judge;
pub mod outcome;
pub mod prompt;
pub mod response;
pub mod words;

pub mod availability;
pub mod budget;
pub mod feedback;
pub mod model;
pub mod offline;
pub mod providers;
pub mod registry;
pub mod routing;
pub mod secret;
pub mod service;
pub mod snapshot;
pub mod upstream;

/// Capturing what the code logs, for tests (this crate's and the app's).
#[cfg(any(test, feature = "test-logs"))]
pub mod test_logs;

pub use outcome::Outcome;
pub use response::{Comment, Limited, Tier, Tried};
pub use service::Coach;
