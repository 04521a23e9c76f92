//! What moves the model and the page: a slider and a number box per parameter,
//! the best-response buttons, and the language switcher.

pub mod best_response;
pub mod language;
pub mod param_control;
