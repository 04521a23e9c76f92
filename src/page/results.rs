//! What the visitor's attempts came to: the error against the goal, the table of
//! houses, the goal ladder, the history of attempts, and the sentence a screen
//! reader hears after each one.

pub mod announcer;
pub mod attempts;
pub mod house_table;
pub mod ladder;
pub mod score;
