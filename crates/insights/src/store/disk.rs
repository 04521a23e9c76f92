//! What the store takes of the disk, and giving it back (SQLite): the bytes
//! its rows use ([`Store::bytes`]), the space left beside the file
//! ([`free_beside`]), the oldest day still stored ([`Store::oldest_day`]),
//! and, after a purge, the freed pages handed back to the file system and
//! the write-ahead log truncated ([`reclaim`]). The writer keeps the store
//! under its ceiling with these (`crate::writer`).

use std::path::Path;

use sqlx::{AnyPool, Executor};

use super::Store;
use crate::{config::Backend, sink::StoreError, values::Minute};

impl Store {
    /// The bytes the database's pages hold (its free pages left out): on
    /// SQLite; `None` on PostgreSQL.
    pub async fn bytes(&self) -> Result<Option<u64>, StoreError> {
        if self.backend != Backend::Sqlite {
            return Ok(None);
        }
        self.migrate().await?;
        let mut conn = self.pool.acquire().await?;
        let pages = number(&mut conn, "PRAGMA page_count").await?;
        let free = number(&mut conn, "PRAGMA freelist_count").await?;
        let size = number(&mut conn, "PRAGMA page_size").await?;
        Ok(Some(pages.saturating_sub(free).saturating_mul(size)))
    }

    /// The UTC day of the oldest row stored (a visit's start, an attempt's or
    /// a tool's first minute), if any.
    pub async fn oldest_day(&self) -> Result<Option<i64>, StoreError> {
        self.migrate().await?;
        let (first,): (Option<i64>,) = sqlx::query_as(
            "SELECT MIN(m) FROM (SELECT MIN(started_min) AS m FROM insights_visits \
             UNION ALL SELECT MIN(at_min) FROM insights_attempts \
             UNION ALL SELECT MIN(first_min) FROM insights_tools) x",
        )
        .fetch_one(&self.pool)
        .await?;
        Ok(first.map(|m| Minute(m).day()))
    }
}

/// A pragma's one number.
async fn number(conn: &mut sqlx::AnyConnection, pragma: &str) -> Result<u64, sqlx::Error> {
    let (n,): (i64,) = sqlx::query_as(pragma).fetch_one(conn).await?;
    Ok(u64::try_from(n).unwrap_or(0))
}

/// The bytes free for this process on the file system that holds `file`.
pub fn free_beside(file: &Path) -> Option<u64> {
    let dir = file.parent().filter(|d| !d.as_os_str().is_empty())?;
    let stats = rustix::fs::statvfs(dir).ok()?;
    Some(stats.f_bavail.saturating_mul(stats.f_frsize))
}

/// Gives a purge's pages back to the file system and truncates the
/// write-ahead log, so that what was purged is gone from the disk too
/// (`secure_delete` has zeroed it).
pub async fn reclaim(pool: &AnyPool) -> Result<(), sqlx::Error> {
    let mut conn = pool.acquire().await?;
    conn.execute("PRAGMA incremental_vacuum").await?;
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").await?;
    Ok(())
}

/// A file made before the store asked for `auto_vacuum = INCREMENTAL` keeps
/// its pages after a purge: converted once, by a `VACUUM` (it rewrites the
/// file: seconds per hundred megabytes).
pub async fn vacuum_incrementally(pool: &AnyPool) -> Result<(), sqlx::Error> {
    let mut conn = pool.acquire().await?;
    let (mode,): (i64,) = sqlx::query_as("PRAGMA auto_vacuum")
        .fetch_one(&mut *conn)
        .await?;
    if mode != 2 {
        tracing::info!(
            "insights: rewriting the SQLite file once (VACUUM), so that purged rows give their space back to the disk"
        );
        conn.execute("PRAGMA auto_vacuum = INCREMENTAL").await?;
        conn.execute("VACUUM").await?;
    }
    Ok(())
}
