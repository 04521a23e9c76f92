//! The store's tests, each run on both backends: SQLite in a temporary
//! folder always, PostgreSQL when `JAY_TEST_DATABASE_URL` names a server
//! (`.ci/postgres start` prints one). Without that URL the PostgreSQL half is
//! skipped, unless `CI` is set: then it fails, saying the URL is missing.
//!
//! Each test gets a database of its own: a new file, or a database with a
//! random name created on the server and dropped at the end (one a failed test
//! leaves behind goes with the throwaway cluster).

mod arrival;
mod bounds;
mod data;
mod privacy;
mod reports;
mod rollups;
mod store;
mod teaching;
mod writer;

use sqlx::{migrate::MigrateDatabase, Any};

use super::{DatabaseUrl, Store};

/// A test's own database.
pub(super) struct TestDb {
    pub store: Store,
    pub url: DatabaseUrl,
    /// The SQLite file's folder (deleted on drop).
    _dir: Option<tempfile::TempDir>,
    /// The PostgreSQL database to drop at the end.
    created: Option<String>,
}

impl TestDb {
    pub async fn sqlite() -> Self {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let url = DatabaseUrl::sqlite_file(&dir.path().join("data").join("insights.db"));
        let store = Store::connect(&url).await.expect("a new SQLite store");
        Self {
            store,
            url,
            _dir: Some(dir),
            created: None,
        }
    }

    /// A new database on the test server, or `None` to skip (no server named
    /// and not in CI).
    pub async fn postgres() -> Option<Self> {
        let url = Self::postgres_url("jay_test")?;
        sqlx::any::install_default_drivers();
        Any::create_database(&url)
            .await
            .unwrap_or_else(|e| panic!("cannot create a test database on the server: {e}"));
        let parsed = DatabaseUrl::parse(&url).expect("a PostgreSQL URL");
        let store = Store::connect(&parsed)
            .await
            .expect("the new PostgreSQL database");
        Some(Self {
            store,
            url: parsed,
            _dir: None,
            created: Some(url),
        })
    }

    /// `JAY_TEST_DATABASE_URL` with a new random database name, or `None` (not
    /// in CI) / a panic (in CI) when it is unset.
    pub fn postgres_url(prefix: &str) -> Option<String> {
        let Some(base) = std::env::var("JAY_TEST_DATABASE_URL")
            .ok()
            .filter(|u| !u.trim().is_empty())
        else {
            assert!(
                std::env::var_os("CI").is_none(),
                "JAY_TEST_DATABASE_URL is not set but CI is: the PostgreSQL half of the insights \
                 store's tests cannot run (`.ci/postgres start` prints the URL to export)"
            );
            eprintln!("JAY_TEST_DATABASE_URL is not set: PostgreSQL test skipped");
            return None;
        };
        let mut url = url::Url::parse(base.trim()).expect("JAY_TEST_DATABASE_URL is a URL");
        let name = format!("{prefix}_{:016x}", rand::random::<u64>());
        url.set_path(&format!("/{name}"));
        Some(url.to_string())
    }

    /// Closes the store and drops a PostgreSQL database.
    pub async fn finish(self) {
        self.store.close().await;
        if let Some(url) = &self.created {
            if let Err(e) = Any::force_drop_database(url).await {
                eprintln!("test database not dropped: {e}");
            }
        }
    }
}

/// Runs `async fn $name(db: &TestDb)` as two tests, `$name::sqlite` and
/// `$name::postgres`.
macro_rules! on_both {
    ($($name:ident),+ $(,)?) => {$(
        mod $name {
            #[tokio::test]
            async fn sqlite() {
                let db = $crate::tests::TestDb::sqlite().await;
                super::$name(&db).await;
                db.finish().await;
            }

            #[tokio::test]
            async fn postgres() {
                let Some(db) = $crate::tests::TestDb::postgres().await else {
                    return;
                };
                super::$name(&db).await;
                db.finish().await;
            }
        }
    )+};
}
pub(super) use on_both;

/// Counts the WARN events the insights give while it is alive (this
/// thread's, which on a current-thread runtime includes its tasks').
pub(super) struct Warnings {
    count: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    _guard: tracing::subscriber::DefaultGuard,
}

impl Warnings {
    pub fn capture() -> Self {
        use tracing_subscriber::layer::SubscriberExt;
        let count = std::sync::Arc::<std::sync::atomic::AtomicUsize>::default();
        let subscriber = tracing_subscriber::registry().with(WarnCounter(count.clone()));
        Self {
            count,
            _guard: tracing::subscriber::set_default(subscriber),
        }
    }

    pub fn count(&self) -> usize {
        self.count.load(std::sync::atomic::Ordering::Relaxed)
    }
}

struct WarnCounter(std::sync::Arc<std::sync::atomic::AtomicUsize>);

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for WarnCounter {
    fn on_event(&self, event: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
        let meta = event.metadata();
        if *meta.level() == tracing::Level::WARN && meta.target().starts_with("insights") {
            self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    }
}
