//! The vocabulary every other crate of Jay Trainer speaks: the languages
//! ([`Lang`]) and how a request names one, templates ([`fill`]) and how
//! numbers are written in each language ([`format`]). Pure, both targets
//! (the server and the browser's WASM); it imports nothing of the project.

pub mod fill;
pub mod format;
pub mod lang;

pub use fill::fill;
pub use lang::Lang;
