//! Jay Trainer: Jay Alammar's one-neuron house-price simulator as a Leptos app.
//!
//! The product's parts (server-only code is behind the `ssr` feature):
//! - [`lesson`]: the lesson's math: the neuron, its error landscape, gradient
//!   descent, the goal ladder, number formats and links. Pure, both targets.
//! - [`page`]: the page and its panels (Leptos components), its words in en,
//!   pt-BR and zh-CN, and its server function.
//! - [`coach`]: the comment on every attempt: text, models, routing, the service.
//! - [`insights`]: what visits record (no personal data) and, on the server,
//!   the store, its writer and the reports `/insights` shows.
//! - `server` (ssr): configuration and the axum application.

// Leptos views are deeply nested types; the optimised WASM build needs more room
// than the default 128 to compute their layout.
#![recursion_limit = "256"]

pub mod page;

#[cfg(feature = "ssr")]
pub mod insights_pages;
#[cfg(feature = "ssr")]
pub mod server;

/// Entry point of the WASM bundle: takes over the server-rendered page.
#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_body(page::app::App);
}
