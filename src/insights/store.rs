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
//! `WITH`, `CASE`, integer division). Percentiles, which the two compute
//! differently (or not at all), are computed in Rust (`super::report`).
//!
//! The pool connects lazily: opening never waits for the database, and a
//! database that is down at start or later only fails the calls made while it
//! is (the writer counts and warns, `super::writer`). The migrations run
//! before the first statement that needs them, and again after a failure.

use std::{
    borrow::Cow,
    str::FromStr,
    sync::atomic::{AtomicBool, Ordering},
    time::Duration,
};

use async_trait::async_trait;
use futures::future::BoxFuture;
use sqlx::{
    any::{AnyConnectOptions, AnyPoolOptions},
    error::BoxDynError,
    migrate::{Migration, MigrationSource, MigrationType, Migrator},
    AnyConnection, AnyPool, ConnectOptions, Executor,
};
use tokio::sync::OnceCell;

use super::{
    config::{Backend, DatabaseUrl},
    event::Event,
    rollup::{self, two_significant, write::Added},
    sink::{Sink, StoreError},
    values::{Minute, RoomCode},
};

/// The schema's migrations, oldest first: (version, description, SQL).
const MIGRATIONS: [(i64, &str, &str); 2] = [
    (1, "insights", include_str!("migrations/0001_insights.sql")),
    (2, "rollups", include_str!("migrations/0002_rollups.sql")),
];

/// The migrations, compiled in (the binary needs no folder beside it).
#[derive(Debug)]
struct Embedded;

impl MigrationSource<'static> for Embedded {
    fn resolve(self) -> BoxFuture<'static, Result<Vec<Migration>, BoxDynError>> {
        Box::pin(async {
            Ok(MIGRATIONS
                .iter()
                .map(|&(version, description, sql)| {
                    Migration::new(
                        version,
                        Cow::Borrowed(description),
                        MigrationType::Simple,
                        Cow::Borrowed(sql),
                        false,
                    )
                })
                .collect())
        })
    }
}

/// The insights' database.
#[derive(Debug)]
pub struct Store {
    pub(super) pool: AnyPool,
    backend: Backend,
    /// Set once the migrations have run on this database.
    migrated: OnceCell<()>,
    /// The reports may read the rollups (see [`Store::use_rollups`]).
    rollups: AtomicBool,
}

impl Store {
    /// How long a statement waits for a connection before it fails.
    pub const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);

    /// A store for `url`, without connecting: never waits, and fails only if
    /// the URL is unusable (which the configuration has checked already).
    pub fn open(url: &DatabaseUrl) -> Result<Self, StoreError> {
        sqlx::any::install_default_drivers();
        if url.backend() == Backend::Sqlite {
            create_parent_folder(url.expose());
        }
        let options = AnyConnectOptions::from_str(url.expose())?
            // Every statement at DEBUG, slow ones at INFO (the writer gives
            // the one WARN a slow or failing database deserves).
            .log_statements(log::LevelFilter::Debug)
            .log_slow_statements(log::LevelFilter::Info, Duration::from_secs(1));
        let pool = AnyPoolOptions::new()
            .max_connections(match url.backend() {
                Backend::Sqlite => 4,
                Backend::Postgres => 8,
            })
            .acquire_timeout(Self::ACQUIRE_TIMEOUT)
            .after_connect(|conn, _| {
                Box::pin(async move {
                    if conn.backend_name().eq_ignore_ascii_case("sqlite") {
                        // Readers (the /insights page) never wait for the writer.
                        conn.execute("PRAGMA journal_mode = WAL").await?;
                    }
                    Ok(())
                })
            })
            .connect_lazy_with(options);
        Ok(Self {
            pool,
            backend: url.backend(),
            migrated: OnceCell::new(),
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
                let migrator = Migrator::new(Embedded).await?;
                migrator.run(&self.pool).await?;
                Ok::<_, StoreError>(())
            })
            .await
            .map(|_| ())
    }

    /// Closes the pool (waits for statements under way).
    pub async fn close(&self) {
        self.pool.close().await;
    }
}

/// Creates the folder of a SQLite file (`JAY_DATA_DIR`) if it is missing; a
/// failure shows up as the connection's error.
fn create_parent_folder(url: &str) {
    let Ok(options) = sqlx::sqlite::SqliteConnectOptions::from_str(url) else {
        return;
    };
    if let Some(dir) = options.get_filename().parent() {
        if !dir.as_os_str().is_empty() {
            let _ = std::fs::create_dir_all(dir);
        }
    }
}

const INSERT_VISIT: &str = "INSERT INTO insights_visits \
    (visit_id, lang, layout, device, room, started_min) VALUES ($1, $2, $3, $4, $5, $6) \
    ON CONFLICT (visit_id) DO NOTHING";
const INSERT_ATTEMPT: &str = "INSERT INTO insights_attempts \
    (visit_id, attempt, lang, error, weight, bias, model, outcome, reason, latency_ms, at_min) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) \
    ON CONFLICT (visit_id, attempt) DO NOTHING";
const INSERT_TOOL: &str = "INSERT INTO insights_tools (visit_id, tool, first_min, uses) \
    VALUES ($1, $2, $3, 1) \
    ON CONFLICT (visit_id, tool) DO UPDATE SET uses = insights_tools.uses + 1 \
    RETURNING uses";

/// Stores one event, noting in `added` a row it added. A visit or attempt
/// seen before is kept as first stored; a tool used again counts one more use.
async fn insert<'a>(
    conn: &mut AnyConnection,
    event: &'a Event,
    added: &mut Added<'a>,
) -> Result<(), sqlx::Error> {
    match event {
        Event::Visit(v) => {
            let done = sqlx::query(INSERT_VISIT)
                .bind(v.id.as_str())
                .bind(v.lang.code())
                .bind(v.layout.code())
                .bind(v.device.code())
                .bind(v.room.as_ref().map(RoomCode::as_str))
                .bind(v.started.0)
                .execute(conn)
                .await?;
            if done.rows_affected() == 1 {
                added.visits.push(v);
            }
        }
        Event::Attempt(a) => {
            let n = &a.numbers;
            let latency = i64::try_from(two_significant(n.latency_ms())).unwrap_or(i64::MAX);
            let done = sqlx::query(INSERT_ATTEMPT)
                .bind(a.visit.as_str())
                .bind(i64::from(n.number()))
                .bind(a.lang.code())
                .bind(n.error())
                .bind(n.weight())
                .bind(n.bias())
                .bind(a.model.as_str())
                .bind(a.outcome.code())
                .bind(a.outcome.reason().map(|r| r.as_str()))
                .bind(latency)
                .bind(a.at.0)
                .execute(conn)
                .await?;
            if done.rows_affected() == 1 {
                added.attempts.push((a, latency));
            }
        }
        Event::Tool(t) => {
            let (uses,): (i64,) = sqlx::query_as(INSERT_TOOL)
                .bind(t.visit.as_str())
                .bind(t.tool.code())
                .bind(t.at.0)
                .fetch_one(conn)
                .await?;
            if uses == 1 {
                added.tools.push(t);
            }
        }
    }
    Ok(())
}

#[async_trait]
impl Sink for Store {
    async fn write(&self, events: &[Event]) -> Result<(), StoreError> {
        self.migrate().await?;
        let mut tx = self.pool.begin().await?;
        let mut added = Added::default();
        for event in events {
            insert(&mut tx, event, &mut added).await?;
        }
        rollup::write::apply(&mut tx, self.backend == Backend::Postgres, &added).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Each table by its own minute: visits begun, attempts made and tools
    /// first used before `cutoff` (the count); the rollups follow.
    async fn purge_before(&self, cutoff: Minute) -> Result<u64, StoreError> {
        self.migrate().await?;
        let mut tx = self.pool.begin().await?;
        let days = rollup::purge::before(&mut tx, cutoff).await?;
        let mut removed = 0;
        for sql in [
            "DELETE FROM insights_attempts WHERE at_min < $1",
            "DELETE FROM insights_tools WHERE first_min < $1",
            "DELETE FROM insights_visits WHERE started_min < $1",
        ] {
            removed += sqlx::query(sql)
                .bind(cutoff.0)
                .execute(&mut *tx)
                .await?
                .rows_affected();
        }
        rollup::purge::after(&mut tx, cutoff, &days).await?;
        tx.commit().await?;
        Ok(removed)
    }
}
