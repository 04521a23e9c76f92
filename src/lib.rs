//! Jay Trainer: Jay Alammar's one-neuron house-price simulator as a Leptos
//! app, with small language models that comment on every attempt.
//!
//! This crate is the app, the top of the workspace's layers: the only one
//! that knows Leptos and axum. Below it (`crates/`), each using only those
//! under it: `vocabulary` (languages, templates, number formats, the field
//! error), `lesson` (the math: the neuron, its error landscape, descent, the
//! map's geometry), `coach` (the comment: prompts, models, routing, the reply
//! checks, the offline commentator; server only) and `insights` (what visits
//! record, with no personal data; on the server, the store, its writer and
//! the reports).
//!
//! Here (server-only code is behind the `ssr` feature):
//! - [`page`]: the page and its panels (Leptos components), its words in en,
//!   pt-BR and zh-CN; it asks the coach over HTTP.
//! - `server` (ssr): configuration and the axum application (`server::startup`).

// Leptos views are deeply nested types; the optimised WASM build needs more room
// than the default 128 to compute their layout.
#![recursion_limit = "256"]

pub mod page;

#[cfg(feature = "ssr")]
pub mod server;

/// Entry point of the WASM bundle: takes over the server-rendered page.
#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_body(page::app::App);
}
