//! Jay Trainer: Jay Alammar's one-neuron house-price simulator as a Leptos app.
//!
//! Module map (server-only code is behind the `ssr` feature):
//! - [`neuron`]: the dataset and the pure math (prediction, error, gradient, optimum).
//! - [`advice`]: the facts a coach may state about a point (the best single move, the valley).
//! - [`landscape`]: the error as an exact quadratic in (weight, bias) and its curvature.
//! - [`valley`]: walking the error's valley floor (the best bias for each weight).
//! - [`contour`]: the landscape's contours as exact ellipses; the goal ladder.
//! - [`zigzag`]: the best-response buttons pressed in turn, and why that is slow.
//! - [`descent`]: the gradient descent lab (raw or standardised areas, divergence).
//! - [`link`]: the model's point in a link (`?w=&b=`): reading and writing it.
//! - [`i18n`]: the page's words in en, pt-BR and zh-CN, one file each.
//! - [`coach`]: the comment on every attempt: text, models, routing, the service.
//! - [`format`]: number formatting shared by the server render and the browser.
//! - [`app`]: the HTML shell and the route table.
//! - [`api`]: the page's server function (a thin wrapper over the coach).
//! - [`components`]: one file per UI component of the simulator page.
//! - `secret` (ssr): secrets that never print, compared in constant time.
//! - `server` (ssr): configuration and the axum application.

// Leptos views are deeply nested types; the optimised WASM build needs more room
// than the default 128 to compute their layout.
#![recursion_limit = "256"]

pub mod advice;
pub mod api;
pub mod app;
pub mod coach;
pub mod components;
pub mod contour;
pub mod descent;
pub mod format;
pub mod i18n;
pub mod landscape;
pub mod link;
pub mod neuron;
pub mod valley;
pub mod zigzag;

#[cfg(feature = "ssr")]
pub mod secret;
#[cfg(feature = "ssr")]
pub mod server;

/// Entry point of the WASM bundle: takes over the server-rendered page.
#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_body(app::App);
}
