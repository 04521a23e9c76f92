//! Where the writer puts events: the [`Sink`] trait (the store, or a test's
//! fake that is slow or down), and the [`StoreError`] both share. A leaf.

use async_trait::async_trait;

use super::{event::Event, values::Minute};

/// Why the database did not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("insights database: {0}")]
    Database(#[from] sqlx::Error),
    #[error("insights database: migrations: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A stored value the types refuse (a row written by something else).
    #[error("insights database: a stored {column} is out of shape: {message}")]
    Corrupt {
        column: &'static str,
        message: String,
    },
}

/// What the writer needs of a database.
#[async_trait]
pub trait Sink: Send + Sync + 'static {
    /// Stores `events` in one transaction: all of them, or none.
    async fn write(&self, events: &[Event]) -> Result<(), StoreError>;
    /// Deletes rows from before `cutoff`; how many.
    async fn purge_before(&self, cutoff: Minute) -> Result<u64, StoreError>;
}
