//! The coach: a short comment on every attempt, written by one of several small
//! language models and, when none can answer, by the built-in offline commentator.
//!
//! Types that compile for both the server and the browser (the page receives a
//! [`Comment`]) are the leaves [`comment`], [`lang`] and [`outcome`], and the
//! text in [`text`]; everything that calls models is server-only (`ssr`).
//!
//! One request, in order: `text::input` parses and validates the numbers
//! (text from the request never reaches a prompt) → `text::prompt` builds the
//! prompt for the tier → `service` asks `routing` for a weighted order and
//! fails over → `providers` call the model named in `model` (read from the
//! `registry` file) → `text::reply` checks the answer (and, with
//! `text::directions`, that it does not contradict the facts of
//! [`crate::lesson::advice`]) → `service` assembles the [`Comment`], falling back to
//! `providers::offline`. `budget` caps model calls; `availability` keeps
//! what the checks found of which models are really served (and in which
//! languages); `snapshot` keeps the router's state across restarts.
//!
//! The coach never imports the web layer (`crate::server`): the routes and the
//! page's server function (`crate::page::api`) call it.

pub mod comment;
pub mod lang;
pub mod outcome;
pub mod text;

#[cfg(feature = "ssr")]
pub mod availability;
#[cfg(feature = "ssr")]
pub mod budget;
#[cfg(feature = "ssr")]
pub mod model;
#[cfg(feature = "ssr")]
pub mod providers;
#[cfg(feature = "ssr")]
pub mod registry;
#[cfg(feature = "ssr")]
pub mod routing;
#[cfg(feature = "ssr")]
pub mod secret;
#[cfg(feature = "ssr")]
pub mod service;
#[cfg(feature = "ssr")]
pub mod snapshot;
#[cfg(feature = "ssr")]
pub mod upstream;

pub use comment::{Comment, Limited, Tier, Tried};
pub use lang::Lang;
pub use outcome::Outcome;
#[cfg(feature = "ssr")]
pub use service::Coach;
