//! The report bench's database files: synthetic visits written into a
//! SQLite file fast (the schema of the store's first migration, then
//! multi-row `INSERT`s in large transactions with `synchronous = OFF`, through
//! sqlx's SQLite driver directly rather than the store's writer, which the
//! writer bench measures), and a copy the store migrates; both kept between
//! runs.

use std::{
    borrow::Cow,
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use futures::future::BoxFuture;
use sqlx::{
    error::BoxDynError,
    migrate::{Migration, MigrationSource, MigrationType, Migrator},
    sqlite::{SqliteConnectOptions, SqliteJournalMode, SqliteSynchronous},
    ConnectOptions, Connection, QueryBuilder, Sqlite, SqliteConnection,
};

use insights::{DatabaseUrl, Store};

use super::synth::{Planned, Synth};

/// The store's first migration, exactly as the store embeds it (same text,
/// same checksum: the store sees it as run and runs only the later ones).
const FIRST: &str = include_str!("../../crates/insights/src/migrations/0001_insights.sql");

#[derive(Debug)]
struct FirstOnly;

impl MigrationSource<'static> for FirstOnly {
    fn resolve(self) -> BoxFuture<'static, Result<Vec<Migration>, BoxDynError>> {
        Box::pin(async {
            Ok(vec![Migration::new(
                1,
                Cow::Borrowed("insights"),
                MigrationType::Simple,
                Cow::Borrowed(FIRST),
                false,
            )])
        })
    }
}

/// Visits per transaction, rows per `INSERT`.
const VISITS_PER_TX: usize = 20_000;
const ROWS_PER_INSERT: usize = 1_000;

pub type Failure = Box<dyn std::error::Error>;

/// What was written, and how long it took.
pub struct Loaded {
    pub visits: u64,
    pub attempts: u64,
    pub tools: u64,
    pub took: Duration,
}

/// Creates `path` (which must not exist) with the first migration and the
/// visits of `synth`.
pub async fn generate(path: &Path, synth: Synth) -> Result<Loaded, sqlx::Error> {
    let started = Instant::now();
    let mut conn = SqliteConnectOptions::new()
        .filename(path)
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Off)
        .pragma("cache_size", "-262144")
        .disable_statement_logging()
        .connect()
        .await?;
    Migrator::new(FirstOnly)
        .await?
        .run_direct(&mut conn)
        .await?;
    let mut loaded = Loaded {
        visits: 0,
        attempts: 0,
        tools: 0,
        took: Duration::ZERO,
    };
    let mut synth = synth.peekable();
    while synth.peek().is_some() {
        let chunk: Vec<Planned> = synth.by_ref().take(VISITS_PER_TX).collect();
        let mut tx = conn.begin().await?;
        write(&mut tx, &chunk, &mut loaded).await?;
        tx.commit().await?;
    }
    sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
        .execute(&mut conn)
        .await?;
    conn.close().await?;
    loaded.took = started.elapsed();
    Ok(loaded)
}

async fn write(
    conn: &mut SqliteConnection,
    chunk: &[Planned],
    loaded: &mut Loaded,
) -> Result<(), sqlx::Error> {
    for visits in chunk.chunks(ROWS_PER_INSERT) {
        let mut q = QueryBuilder::<Sqlite>::new(
            "INSERT INTO insights_visits (visit_id, lang, layout, device, room, started_min) ",
        );
        q.push_values(visits, |mut row, p| {
            let v = &p.visit;
            row.push_bind(v.id.as_str())
                .push_bind(v.lang.code())
                .push_bind(v.layout.code())
                .push_bind(v.device.code())
                .push_bind(v.room.as_ref().map(|r| r.as_str()))
                .push_bind(v.started.0);
        });
        q.build().execute(&mut *conn).await?;
        loaded.visits += visits.len() as u64;
    }
    let attempts: Vec<_> = chunk.iter().flat_map(|p| &p.attempts).collect();
    for rows in attempts.chunks(ROWS_PER_INSERT) {
        let mut q = QueryBuilder::<Sqlite>::new(
            "INSERT INTO insights_attempts (visit_id, attempt, lang, error, weight, bias, model, \
             outcome, reason, latency_ms, at_min) ",
        );
        q.push_values(rows, |mut row, a| {
            let n = &a.numbers;
            row.push_bind(a.visit.as_str())
                .push_bind(i64::from(n.number()))
                .push_bind(a.lang.code())
                .push_bind(n.error())
                .push_bind(n.weight())
                .push_bind(n.bias())
                .push_bind(a.model.as_str())
                .push_bind(a.outcome.code())
                .push_bind(a.outcome.reason().map(|r| r.as_str()))
                .push_bind(n.latency_ms() as i64)
                .push_bind(a.at.0);
        });
        q.build().execute(&mut *conn).await?;
        loaded.attempts += rows.len() as u64;
    }
    let tools: Vec<_> = chunk
        .iter()
        .flat_map(|p| p.tools.iter().map(move |t| (&p.visit.id, t)))
        .collect();
    for rows in tools.chunks(ROWS_PER_INSERT) {
        let mut q = QueryBuilder::<Sqlite>::new(
            "INSERT INTO insights_tools (visit_id, tool, first_min, uses) ",
        );
        q.push_values(rows, |mut row, (visit, &(tool, first, uses))| {
            row.push_bind(visit.as_str())
                .push_bind(tool.code())
                .push_bind(first.0)
                .push_bind(i64::from(uses));
        });
        q.build().execute(&mut *conn).await?;
        loaded.tools += rows.len() as u64;
    }
    Ok(())
}

pub fn sqlite_url(path: &Path) -> String {
    format!("sqlite://{}", path.display())
}

/// A hash of the store's migrations as they are in the source (FNV-1a): the
/// migrated copy is made again when they change.
pub fn migrations_hash() -> Result<u64, Failure> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/insights/src/migrations");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    files.sort();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for file in files {
        for byte in std::fs::read(file)? {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    Ok(hash)
}

/// Generates the database at `path` (the first migration's schema) unless it is there.
pub async fn ensure_generated(path: &Path, visits: u64, synth: Synth) -> Result<(), Failure> {
    if path.exists() {
        eprintln!("database: {} (kept from an earlier run)", path.display());
        return Ok(());
    }
    let partial = path.with_extension("partial");
    for p in [
        &partial,
        &partial.with_extension("partial-wal"),
        &partial.with_extension("partial-shm"),
    ] {
        let _ = std::fs::remove_file(p);
    }
    eprintln!(
        "database: generating {visits} visits into {} …",
        path.display()
    );
    let loaded = generate(&partial, synth).await?;
    std::fs::rename(&partial, path)?;
    eprintln!(
        "database: {} visits, {} attempts, {} tool rows generated in {:.1} s ({} MB)",
        loaded.visits,
        loaded.attempts,
        loaded.tools,
        loaded.took.as_secs_f64(),
        std::fs::metadata(path)?.len() / 1_000_000
    );
    Ok(())
}

/// A copy of `base` with every migration run (kept while the migrations do
/// not change), opened.
pub async fn ensure_migrated(base: &Path, migrated: &Path) -> Result<Store, Failure> {
    if migrated.exists() {
        eprintln!(
            "migrated copy: {} (kept from an earlier run)",
            migrated.display()
        );
    } else {
        remove_other_copies(base, migrated)?;
        let partial = migrated.with_extension("partial");
        std::fs::copy(base, &partial)?;
        let store = Store::open(&DatabaseUrl::parse(&sqlite_url(&partial))?)?;
        let t = Instant::now();
        store.migrate().await?;
        let took = t.elapsed();
        store.close().await;
        let mut conn = sqlx::AnyConnection::connect(&sqlite_url(&partial)).await?;
        sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
            .execute(&mut conn)
            .await?;
        conn.close().await?;
        std::fs::rename(&partial, migrated)?;
        eprintln!(
            "migrated copy: the store's later migrations (the rollups built from the rows) ran in {:.1} s",
            took.as_secs_f64()
        );
    }
    Ok(Store::open(&DatabaseUrl::parse(&sqlite_url(migrated))?)?)
}

/// Deletes copies of `base` migrated by other versions of the migrations.
fn remove_other_copies(base: &Path, migrated: &Path) -> Result<(), Failure> {
    let (Some(dir), Some(stem)) = (base.parent(), base.file_stem().and_then(|s| s.to_str())) else {
        return Ok(());
    };
    let prefix = format!("{stem}-m");
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if name.starts_with(&prefix) && path != migrated {
            std::fs::remove_file(&path)?;
        }
    }
    Ok(())
}
