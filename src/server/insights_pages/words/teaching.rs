//! The shape of the words of "what teaches", the coach section's table of
//! votes and outcomes per writer (`tables::teaching`); each language's are
//! in its file beside this one.

use serde::Serialize;

/// What teaches, in one language.
#[derive(Debug, Serialize)]
pub struct TeachingWords {
    pub caption: &'static str,
    /// What each share means, its interval, and "within noise".
    pub note: &'static str,
    /// A room's report: votes are not kept by room.
    pub no_votes_in_room: &'static str,
    pub col_writer: &'static str,
    pub col_helpful: &'static str,
    pub col_improved: &'static str,
    pub col_reached: &'static str,
    /// `{share}` of `{n}`, 95 % interval `{low}` to `{high}` (then, for a
    /// model, how it stands against the built-in coach).
    pub share_of: &'static str,
    pub higher: &'static str,
    pub lower: &'static str,
    pub within_noise: &'static str,
    /// The built-in coach's own row.
    pub baseline: &'static str,
    /// The built-in coach, as the writer's name.
    pub offline: &'static str,
}
