//! The simulator page's components, one per file.
//!
//! [`simulator::Simulator`] owns the state, a [`model::Model`] (weight, bias,
//! attempts): the components that change the model get the `Model` (or a
//! callback from it), the others read-only signals, and only draw.

pub mod address_bar;
pub mod announcer;
pub mod attempts;
pub mod best_response;
pub mod chart;
pub mod coach_bubble;
pub mod coach_call;
pub mod descent_lab;
pub mod early_input;
pub mod embed;
pub mod house_table;
pub mod ladder;
pub mod landscape;
pub mod landscape_geometry;
pub mod landscape_keys;
pub mod landscape_legend;
pub mod landscape_markup;
pub mod language;
pub mod location;
pub mod loss_chart;
pub mod model;
pub mod param_control;
pub mod question;
pub mod score;
pub mod simulator;
