//! The rooms teachers created (`insights_rooms`, migration 0003): made with
//! a code and a size, looked up by code. They go with the purge once no
//! stored visit is in them and they were made before its cutoff.

use super::Store;
use crate::{
    sink::StoreError,
    values::{Minute, RoomCode},
};

impl Store {
    /// Stores a room; `false` when the code is taken (nothing changes then).
    pub async fn create_room(
        &self,
        code: &RoomCode,
        size: u32,
        now: Minute,
    ) -> Result<bool, StoreError> {
        self.migrate().await?;
        let made = sqlx::query(
            "INSERT INTO insights_rooms (code, size, created_min) VALUES ($1, $2, $3) \
             ON CONFLICT (code) DO NOTHING",
        )
        .bind(code.as_str().to_string())
        .bind(i64::from(size))
        .bind(now.0)
        .execute(&self.pool)
        .await?;
        Ok(made.rows_affected() == 1)
    }

    /// A room's size, if it was created.
    pub async fn room_size(&self, code: &RoomCode) -> Result<Option<u32>, StoreError> {
        self.migrate().await?;
        let size: Option<(i64,)> =
            sqlx::query_as("SELECT size FROM insights_rooms WHERE code = $1")
                .bind(code.as_str().to_string())
                .fetch_optional(self.reads())
                .await?;
        Ok(size.map(|(n,)| u32::try_from(n).unwrap_or(u32::MAX)))
    }

    /// How many rooms are kept.
    pub async fn rooms(&self) -> Result<u64, StoreError> {
        self.migrate().await?;
        let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM insights_rooms")
            .fetch_one(&self.pool)
            .await?;
        Ok(u64::try_from(n).unwrap_or(0))
    }
}

/// The purge's statement for rooms (after the visits' own): rooms made
/// before `$1` that no stored visit is in.
pub(super) const PURGE: &str = "DELETE FROM insights_rooms WHERE created_min < $1 \
    AND NOT EXISTS (SELECT 1 FROM insights_visits v WHERE v.room = insights_rooms.code)";
