//! The lesson's math: Jay Alammar's one-neuron house-price model and everything
//! the page teaches with it. Pure functions, no I/O, shared by the server's render
//! and the browser.
//!
//! - [`neuron`]: the dataset, the model (prediction, error, gradient, optimum), the
//!   sliders' ranges and steps.
//! - [`landscape`]: the error as an exact quadratic in (weight, bias) and its curvature.
//! - [`contour`]: the landscape's contours as exact ellipses; the goal ladder.
//! - [`score_line`]: Jay's words at each threshold of the error.
//! - [`valley`]: walking the error's valley floor (the best bias for each weight).
//! - [`zigzag`]: the best-response buttons pressed in turn, and why that is slow.
//! - [`descent`]: the gradient descent lab (raw or standardised areas, divergence);
//!   [`lab`]: the same for any described lesson (Jay's rates per parameter too).
//! - [`advice`]: the facts a coach may state about a point (the best single move);
//!   [`moves`]: the same for any described lesson (lesson 2's three parameters).
//! - [`map`]: the error map's geometry: its two views, scales between the
//!   parameters and SVG units, colour grid and contour paths.
//! - [`description`]: a lesson as data (houses, parameters, goal, ladder)
//!   and the math every lesson shares, for any number of inputs;
//!   [`lessons`]: the guide's first two, described (the second: two inputs);
//!   [`two_weights`]: a two-input lesson's error over its weights, the bias
//!   at its best (exact ellipses), and what the bias adds; [`two_view`]: what
//!   its page shows for a point (chart lines, map and strip positions, ladder).
//!
//! No Leptos, no I/O, no words (those are `vocabulary`'s and the page's).
//!
//! Small public functions are `#[inline]`: the page calls them across the
//! crate boundary, where rustc's own inliner does not reach without the hint
//! (without it the browser's WASM was 455 B gzipped larger than when this was
//! a module of the app).

pub mod advice;
pub mod contour;
pub mod descent;
pub mod description;
pub mod lab;
pub mod landscape;
pub mod lessons;
pub mod map;
pub mod moves;
pub mod neuron;
pub mod score_line;
pub mod two_view;
pub mod two_weights;
pub mod valley;
pub mod zigzag;
