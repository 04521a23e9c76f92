//! The simulator page's components, one per file.
//!
//! [`simulator::Simulator`] owns the state (weight, bias, attempts) and hands
//! read-only signals to the others, which only draw.

pub mod attempts;
pub mod best_response;
pub mod chart;
pub mod coach_bubble;
pub mod embed;
pub mod house_table;
pub mod param_control;
pub mod score;
pub mod simulator;
