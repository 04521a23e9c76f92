//! The vocabulary every other crate of Jay Trainer speaks: the languages
//! ([`Lang`]) and how a request names one, templates ([`fill`]), how
//! numbers are written in each language ([`format`]), and the refusal of a
//! value a caller sent ([`FieldError`]). Pure, both targets
//! (the server and the browser's WASM); it imports nothing of the project.
//! Small public functions are `#[inline]`, as in `lesson` (the page calls them
//! across the crate boundary).

pub mod field;
pub mod fill;
pub mod format;
pub mod lang;

pub use field::FieldError;
pub use fill::fill;
pub use lang::Lang;
