//! The insights' database: one [`Store`] over SQLite or PostgreSQL, the same
//! schema (`migrations/`, run at start-up) and the same statements.
//!
//! It holds an `AnyPool` (sqlx's `Any` driver), which picks the backend from the
//! URL at run time. The alternative, a pool per backend behind a small enum or
//! a trait generic over `sqlx::Database`, would compile every query twice and
//! bring a page of trait bounds, to gain types this store does not need
//! (timestamps, decimals): every column is TEXT, BIGINT or DOUBLE PRECISION,
//! which `Any` maps the same way on both, times are whole minutes in a BIGINT,
//! and the SQL keeps to what both speak (`$1` placeholders, `ON CONFLICT`,
//! `WITH`, `CASE`, integer division, `RETURNING`). Percentiles, which the two
//! compute differently (or not at all), are computed in Rust (`super::report`).
//!
//! The writer's batches are the exception: on a SQLite file they go through
//! SQLite's own interface (rusqlite) on a connection of their own, a few
//! rows a statement, and on PostgreSQL through the pool, 200 rows a statement
//! that locks what it folds with `FOR UPDATE` and packs what it reads back
//! (`crate::db`, `packed`): through sqlx a SQLite row cost as much again as
//! SQLite itself. The statements' text is the same for both.
//!
//! Two pools, both connecting lazily: opening never waits for the database,
//! and a database that is down at start or later only fails the calls made
//! while it is (the writer counts and warns, `super::writer`). The writer's
//! pool takes the batches (on PostgreSQL), the purges and the rooms; the reports read through
//! a small pool of their own ([`Store::reads`]), so a slow report never holds
//! a connection the writer waits for (on PostgreSQL its statements also stop
//! after [`Store::STATEMENT_TIMEOUT`]). The migrations run before the first
//! statement that needs them, and again after a failure.
//!
//! SQLite keeps no trace of what is deleted: `secure_delete` overwrites it,
//! `auto_vacuum = INCREMENTAL` with an `incremental_vacuum` after each purge
//! gives the space back to the disk, and the write-ahead log is truncated
//! ([`disk`]; a file made before that is converted once, with a `VACUUM`).

use std::{
    path::PathBuf,
    str::FromStr,
    sync::atomic::{AtomicBool, Ordering},
    time::Duration,
};

use async_trait::async_trait;
use sqlx::{
    any::{AnyConnectOptions, AnyPoolOptions},
    migrate::Migrator,
    AnyPool, ConnectOptions, Executor,
};
use tokio::sync::{Mutex, OnceCell};

use super::{
    config::{Backend, DatabaseUrl},
    db::Db,
    event::Event,
    rollup,
    sink::{Sink, StoreError, Stored},
    values::Minute,
};

pub mod disk;
mod insert;
pub mod rooms;
mod schema;
mod votes;

/// The insights' database.
#[derive(Debug)]
pub struct Store {
    /// The writer's (and the migrations', purges' and rooms').
    pub(super) pool: AnyPool,
    /// The reports'.
    reads: AnyPool,
    backend: Backend,
    /// The SQLite file (`None` on PostgreSQL).
    pub(super) file: Option<PathBuf>,
    /// Set once the migrations have run on this database.
    migrated: OnceCell<()>,
    /// On SQLite, the connection the writer's batches go through
    /// (`crate::db`), opened at the first; `None` inside until then, or
    /// after a batch failed.
    batches: Option<Mutex<Option<rusqlite::Connection>>>,
    /// The reports may read the rollups (see [`Store::use_rollups`]).
    rollups: AtomicBool,
}

impl Store {
    /// How long a statement waits for a connection before it fails.
    pub const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);
    /// How long a report's statement may run on PostgreSQL (SQLite has no
    /// such setting: the page's own timeout stops waiting for it).
    pub const STATEMENT_TIMEOUT: Duration = Duration::from_secs(20);

    /// A store for `url`, without connecting: never waits, and fails only if
    /// the URL is unusable (which the configuration has checked already).
    pub fn open(url: &DatabaseUrl) -> Result<Self, StoreError> {
        sqlx::any::install_default_drivers();
        let file = match url.backend() {
            Backend::Sqlite => sqlite_file(url.expose()),
            Backend::Postgres => None,
        };
        if let Some(dir) = file.as_ref().and_then(|f| f.parent()) {
            if !dir.as_os_str().is_empty() {
                // A failure shows up as the connection's error.
                let _ = std::fs::create_dir_all(dir);
            }
        }
        let options = AnyConnectOptions::from_str(url.expose())?
            // Every statement at DEBUG, slow ones at INFO (the writer gives
            // the one WARN a slow or failing database deserves).
            .log_statements(log::LevelFilter::Debug)
            .log_slow_statements(log::LevelFilter::Info, Duration::from_secs(1));
        // SQLite writes one transaction at a time whatever the pool holds:
        // one writing connection keeps one page cache, warm from batch to
        // batch, where four took turns, each finding its cache stale and
        // holding 2 MB more (8 MB of the recording server's peak RSS).
        let (writes, reads) = match url.backend() {
            Backend::Sqlite => (1, 2),
            Backend::Postgres => (8, 4),
        };
        let pool = AnyPoolOptions::new()
            .max_connections(writes)
            .acquire_timeout(Self::ACQUIRE_TIMEOUT)
            .after_connect(|conn, _| Box::pin(async move { prepare(conn, false).await }))
            .connect_lazy_with(options.clone());
        let reads = AnyPoolOptions::new()
            .max_connections(reads)
            .acquire_timeout(Self::ACQUIRE_TIMEOUT)
            .after_connect(|conn, _| Box::pin(async move { prepare(conn, true).await }))
            .connect_lazy_with(options);
        // A database in memory is one connection's own: there the batches
        // go through the pool.
        let batches = file
            .as_ref()
            .filter(|f| !f.as_os_str().is_empty() && f.as_os_str() != ":memory:")
            .map(|_| Mutex::new(None));
        Ok(Self {
            pool,
            reads,
            backend: url.backend(),
            file,
            migrated: OnceCell::new(),
            batches,
            rollups: AtomicBool::new(true),
        })
    }

    /// [`Store::open`], then [`Store::migrate`]: a store ready now, or the error.
    pub async fn connect(url: &DatabaseUrl) -> Result<Self, StoreError> {
        let store = Self::open(url)?;
        store.migrate().await?;
        Ok(store)
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The reports' own pool.
    pub(super) fn reads(&self) -> &AnyPool {
        &self.reads
    }

    /// Whether the reports may answer from the rollups when a filter allows
    /// (on unless turned off here). Off, every report reads the stored rows,
    /// as before the rollups: the same numbers, slower; the benchmark's
    /// "before" and the tests' reference.
    pub fn use_rollups(&self, on: bool) {
        self.rollups.store(on, Ordering::Relaxed);
    }

    pub(super) fn rollups_on(&self) -> bool {
        self.rollups.load(Ordering::Relaxed)
    }

    /// Runs the migrations that have not run yet (once per store while they
    /// succeed; each call tries again after a failure). Idempotent.
    pub async fn migrate(&self) -> Result<(), StoreError> {
        self.migrated
            .get_or_try_init(|| async {
                let migrator = Migrator::new(schema::Embedded(self.backend)).await?;
                migrator.run(&self.pool).await?;
                if self.backend == Backend::Sqlite {
                    disk::vacuum_incrementally(&self.pool).await?;
                }
                Ok::<_, StoreError>(())
            })
            .await
            .map(|_| ())
    }

    /// Closes the pools (waits for statements under way).
    pub async fn close(&self) {
        if let Some(batches) = &self.batches {
            *batches.lock().await = None;
        }
        self.reads.close().await;
        self.pool.close().await;
    }

    /// Writes `events` in one transaction on `db`; how many it refused.
    async fn write_on(db: &mut Db<'_>, events: &[Event]) -> Result<u64, StoreError> {
        let refused = insert::write(db, events).await?;
        votes::insert(db, events).await?;
        Ok(refused)
    }

    /// [`Store::write_on`] SQLite's own connection, in a transaction it
    /// begins and ends; a failed batch closes the connection (the next
    /// opens another).
    async fn write_batch(
        &self,
        batches: &Mutex<Option<rusqlite::Connection>>,
        events: &[Event],
    ) -> Result<u64, StoreError> {
        let mut held = batches.lock().await;
        let conn = match &mut *held {
            Some(conn) => conn,
            None => held.insert(self.open_batches()?),
        };
        let written = match conn.execute_batch("BEGIN IMMEDIATE") {
            Ok(()) => Self::write_on(&mut Db::One(conn), events).await,
            Err(e) => Err(e.into()),
        };
        let done = written.and_then(|refused| {
            conn.execute_batch("COMMIT")?;
            Ok(refused)
        });
        if done.is_err() {
            // Closing rolls back what is under way.
            *held = None;
        }
        done
    }

    /// The writer's own connection to the SQLite file, set as the pool's
    /// (the file's settings are the migrations').
    fn open_batches(&self) -> Result<rusqlite::Connection, StoreError> {
        let file = self.file.as_deref().unwrap_or(std::path::Path::new(""));
        let conn = rusqlite::Connection::open_with_flags(
            file,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        // As long as sqlx waits for a lock (a purge or a room's write).
        conn.busy_timeout(Self::ACQUIRE_TIMEOUT)?;
        conn.execute_batch(
            "PRAGMA synchronous = NORMAL; PRAGMA secure_delete = ON; PRAGMA temp_store = MEMORY;",
        )?;
        // Every one-row statement a batch runs, kept prepared.
        conn.set_prepared_statement_cache_capacity(48);
        Ok(conn)
    }
}

/// The file a SQLite URL names.
fn sqlite_file(url: &str) -> Option<PathBuf> {
    let options = sqlx::sqlite::SqliteConnectOptions::from_str(url).ok()?;
    Some(options.get_filename().to_path_buf())
}

/// Each new connection's settings: on SQLite the file's (see the module's
/// docs; `reads`: it may only read), on PostgreSQL a report's time limit.
async fn prepare(conn: &mut sqlx::AnyConnection, reads: bool) -> Result<(), sqlx::Error> {
    if conn.backend_name().eq_ignore_ascii_case("sqlite") {
        // Before anything else: it takes effect only in a new file.
        conn.execute("PRAGMA auto_vacuum = INCREMENTAL").await?;
        // Readers (the /insights page) never wait for the writer.
        conn.execute("PRAGMA journal_mode = WAL").await?;
        // Commits without waiting for the disk: a crash of the machine (not
        // of the server) may lose the events since the last checkpoint, never
        // the database (SQLite's advice for WAL); the writer's batches are
        // not held up by an fsync each.
        conn.execute("PRAGMA synchronous = NORMAL").await?;
        conn.execute("PRAGMA secure_delete = ON").await?;
        if reads {
            conn.execute("PRAGMA query_only = ON").await?;
        } else {
            // A statement's undo journal (the writer's statements of many
            // rows each keep one; a purge's holds what it deletes) in memory,
            // never in a temporary file on the disk. Not the reports': theirs
            // hold no journal, and in memory their sorts and temporary tables
            // made /insights over a million visits 1.1 to 1.6 times slower
            // (docs/benchmarks/insights.md).
            conn.execute("PRAGMA temp_store = MEMORY").await?;
        }
    } else if reads {
        let ms = Store::STATEMENT_TIMEOUT.as_millis();
        conn.execute(format!("SET statement_timeout = {ms}").as_str())
            .await?;
    }
    Ok(())
}

#[async_trait]
impl Sink for Store {
    async fn write(&self, events: &[Event]) -> Result<Stored, StoreError> {
        self.migrate().await?;
        let refused = match &self.batches {
            Some(batches) => self.write_batch(batches, events).await?,
            None => {
                let mut tx = self.pool.begin().await?;
                let postgres = self.backend == Backend::Postgres;
                let refused = Self::write_on(&mut Db::many(&mut tx, postgres), events).await?;
                tx.commit().await?;
                refused
            }
        };
        Ok(Stored {
            without_visit: refused,
        })
    }

    /// Visits begun before `cutoff` with their attempts and tools
    /// (`rollup::purge`), and votes cast before it (the count); the rollups
    /// follow.
    async fn purge_before(&self, cutoff: Minute) -> Result<u64, StoreError> {
        self.migrate().await?;
        let mut tx = self.pool.begin().await?;
        let mut removed = 0;
        let rows = rollup::purge::rows();
        let others = [
            "DELETE FROM insights_visits WHERE started_min < $1",
            "DELETE FROM insights_votes WHERE at_min < $1",
            rooms::PURGE,
        ];
        for sql in rows.iter().map(String::as_str).chain(others) {
            removed += sqlx::query(sql)
                .bind(cutoff.0)
                .execute(&mut *tx)
                .await?
                .rows_affected();
        }
        rollup::purge::after(&mut tx, cutoff).await?;
        tx.commit().await?;
        if self.backend == Backend::Sqlite {
            disk::reclaim(&self.pool).await?;
        }
        Ok(removed)
    }

    async fn bytes_in_use(&self) -> Result<Option<u64>, StoreError> {
        self.bytes().await
    }

    fn free_disk(&self) -> Option<u64> {
        self.file.as_deref().and_then(disk::free_beside)
    }

    fn runs_on_any_runtime(&self) -> bool {
        self.backend == Backend::Sqlite
    }

    async fn purge_oldest_day(&self) -> Result<Option<Minute>, StoreError> {
        let Some(first) = self.oldest_day().await? else {
            return Ok(None);
        };
        let cutoff = Minute((first + 1).saturating_mul(Minute::PER_DAY));
        self.purge_before(cutoff).await?;
        Ok(Some(cutoff))
    }
}
