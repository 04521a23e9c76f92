//! The shape of the room view's words (`/insights/room/CODE`); each
//! language's are in its file beside this one. The map's own words are the
//! page's (`crate::page::i18n`).

/// Every word of `/insights/room/CODE`, for one language.
pub struct RoomWords {
    /// The document's title: `{room}`.
    pub title: &'static str,
    /// The heading: `{room}`.
    pub heading: &'static str,
    pub lead: &'static str,
    /// Before the link learners open.
    pub join: &'static str,
    /// The count line: `{visitors}`, `{goal}`, `{waiting}`.
    pub count: &'static str,
    /// The map's name, for screen readers.
    pub map_label: &'static str,
    pub dot_trying: &'static str,
    pub dot_goal: &'static str,
    /// When the view has not heard from the server for a while.
    pub stale: &'static str,
    /// When the server records nothing.
    pub off: &'static str,
    /// The funnel's heading: `{hours}`.
    pub funnel: &'static str,
    pub step: &'static str,
    pub visitors: &'static str,
    pub share: &'static str,
    /// The funnel's rows: visits, a first attempt, then at or below each of
    /// the lesson's rungs (`{v}`: 799, 600 and 500 in lesson 1), then the
    /// goal (`{v}`).
    pub rows: [&'static str; 6],
    /// Lesson 2's goal row, in place of the last (`{v}`: 1,420).
    pub goal_below: &'static str,
}
