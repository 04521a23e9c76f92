//! Where the writer puts events: the [`Sink`] trait (the store, or a test's
//! fake that is slow or down), and the [`StoreError`] both share. A leaf.

use async_trait::async_trait;

use super::{event::Event, values::Minute};

/// Why the database did not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("insights database: {0}")]
    Database(#[from] sqlx::Error),
    /// SQLite's, through its own interface (the writer's batches: `crate::db`).
    #[error("insights database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("insights database: migrations: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A stored value the types refuse (a row written by something else).
    #[error("insights database: a stored {column} is out of shape: {message}")]
    Corrupt {
        column: &'static str,
        message: String,
    },
}

/// What a batch's write left out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stored {
    /// Attempts and tools refused for want of their visit: none stored, or
    /// begun too long before (or after) them (`event::within_visit`).
    pub without_visit: u64,
}

/// What the writer needs of a database.
#[async_trait]
pub trait Sink: Send + Sync + 'static {
    /// Stores `events` in one transaction: all of them, or none (an attempt
    /// or a tool without its visit is left out and counted).
    async fn write(&self, events: &[Event]) -> Result<Stored, StoreError>;
    /// Deletes rows from before `cutoff`; how many.
    async fn purge_before(&self, cutoff: Minute) -> Result<u64, StoreError>;
    /// The bytes the rows take on disk, where a ceiling applies (`None`: no
    /// ceiling, as on PostgreSQL, whose server keeps its own).
    async fn bytes_in_use(&self) -> Result<Option<u64>, StoreError> {
        Ok(None)
    }
    /// The bytes free on the disk the database is on, where it is a local
    /// file (`None`: not known).
    fn free_disk(&self) -> Option<u64> {
        None
    }
    /// Deletes the oldest UTC day's rows; the first minute kept after it, or
    /// `None` when nothing was stored.
    async fn purge_oldest_day(&self) -> Result<Option<Minute>, StoreError> {
        Ok(None)
    }
    /// Whether the writer may run on a thread and runtime of its own: only
    /// where the sink's connections belong to no runtime, as SQLite's do. A
    /// PostgreSQL socket belongs to the runtime that opened it, and a test's
    /// fake may keep to the test's paused clock.
    fn runs_on_any_runtime(&self) -> bool {
        false
    }
}
