//! The page: the HTML shell, the simulator and its panels, rendered by the server
//! and hydrated in the browser.
//!
//! [`simulator::Simulator`] owns the state, a [`model::Model`] (weight, bias,
//! attempts): the panels that change the model get the `Model` (or a callback
//! from it), the others read-only signals, and only draw. One folder per panel:
//!
//! - [`chart`]: the houses, the neuron's line and the question it answers.
//! - [`landscape`]: the map of the error over (weight, bias).
//! - [`descent_lab`]: gradient descent, step by step, with its loss chart.
//! - [`coach_bubble`]: the comment after each attempt, and the call that gets it.
//! - [`results`]: the error, the table of houses, the goal ladder, the attempts.
//! - [`controls`]: the sliders and boxes, the best-response buttons, the language.
//!
//! Around them: [`app`] (the shell and the route table), [`i18n`] (the
//! words), [`credit`] (Jay's guide, named on every page), [`model`], [`early_input`] (what was done before hydration),
//! [`visit`] (the visit id and tool reports for the insights), [`link`] (the
//! point in a link), [`address_bar`], [`location`] and [`embed`]. The coach
//! is asked over HTTP (`coach_bubble::request`, `POST /api/comment`).

pub mod address_bar;

pub mod app;
pub mod chart;
pub mod coach_bubble;
pub mod controls;
pub mod credit;
pub mod descent_lab;
pub mod early_input;
pub mod embed;
pub mod i18n;
#[cfg(feature = "ssr")]
pub mod kept;
pub mod landscape;
pub mod link;
pub mod location;
pub mod model;
pub mod results;
pub mod simulator;
pub mod two;
pub mod visit;
