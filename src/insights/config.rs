//! The insights' configuration, read once at start-up (the style of
//! `server::config`, whose `Settings` holds it):
//!
//! | variable | meaning | default |
//! |---|---|---|
//! | `JAY_INSIGHTS` | `on` or `off`: record visits, attempts and tools used | `on` |
//! | `JAY_DATABASE_URL` | where: `postgres://user:password@host:5432/db` (or `sqlite:path`) | unset: SQLite, `insights.db` in `JAY_DATA_DIR` |
//! | `JAY_INSIGHTS_DAYS` | days rows are kept before they are purged, 1 to 3650 | `90` |
//!
//! A URL that cannot be used stops start-up with a message that shows it
//! without its password; a database that cannot be reached does not (the
//! writer warns and keeps trying, `super::writer`).

use std::{fmt, path::Path, str::FromStr};

use sqlx::{postgres::PgConnectOptions, sqlite::SqliteConnectOptions, ConnectOptions};

/// The insights' settings, validated.
#[derive(Clone, Debug)]
pub struct InsightsConfig {
    /// `JAY_INSIGHTS`: false records nothing (and opens no database).
    pub enabled: bool,
    pub database: DatabaseUrl,
    /// `JAY_INSIGHTS_DAYS`.
    pub keep_days: u32,
}

/// The two databases the store speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A database URL that parsed; printed without its password.
#[derive(Clone, PartialEq, Eq)]
pub struct DatabaseUrl {
    url: String,
    backend: Backend,
}

#[derive(Debug, thiserror::Error)]
pub enum InsightsConfigError {
    #[error("{name} must be {expected}, got {value:?}")]
    Invalid {
        name: &'static str,
        value: String,
        expected: &'static str,
    },
    /// The URL is shown redacted.
    #[error("JAY_DATABASE_URL {shown} cannot be used: {why}")]
    DatabaseUrl { shown: String, why: String },
}

impl InsightsConfig {
    pub const DEFAULT_DAYS: u32 = 90;
    /// The SQLite file's name in `JAY_DATA_DIR`.
    pub const SQLITE_FILE: &'static str = "insights.db";

    /// Reads `JAY_INSIGHTS`, `JAY_DATABASE_URL` and `JAY_INSIGHTS_DAYS` through
    /// `var` (the environment in production); `data_dir` is `JAY_DATA_DIR`.
    pub fn from_vars(
        var: impl Fn(&str) -> Option<String>,
        data_dir: &Path,
    ) -> Result<Self, InsightsConfigError> {
        let set = |name: &str| var(name).filter(|v| !v.trim().is_empty());
        let enabled = match set("JAY_INSIGHTS") {
            None => true,
            Some(v) => match v.trim().to_ascii_lowercase().as_str() {
                "on" | "true" | "1" | "yes" => true,
                "off" | "false" | "0" | "no" => false,
                _ => {
                    return Err(InsightsConfigError::Invalid {
                        name: "JAY_INSIGHTS",
                        value: v,
                        expected: "on or off",
                    })
                }
            },
        };
        let database = match set("JAY_DATABASE_URL") {
            Some(url) => DatabaseUrl::parse(url.trim())?,
            None => DatabaseUrl::sqlite_file(&data_dir.join(Self::SQLITE_FILE)),
        };
        let keep_days = match set("JAY_INSIGHTS_DAYS") {
            None => Self::DEFAULT_DAYS,
            Some(v) => v
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|d| (1..=3650).contains(d))
                .ok_or(InsightsConfigError::Invalid {
                    name: "JAY_INSIGHTS_DAYS",
                    value: v,
                    expected: "a whole number of days from 1 to 3650",
                })?,
        };
        Ok(Self {
            enabled,
            database,
            keep_days,
        })
    }
}

impl DatabaseUrl {
    /// `postgres://…` / `postgresql://…` or `sqlite:…`, checked by the driver's
    /// own parser (no connection is made).
    pub fn parse(url: &str) -> Result<Self, InsightsConfigError> {
        let refuse = |why: String| InsightsConfigError::DatabaseUrl {
            shown: redact(url),
            why,
        };
        let backend = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            PgConnectOptions::from_str(url).map_err(|e| refuse(e.to_string()))?;
            // The driver would fall back to a local socket; a URL set on
            // purpose names its server.
            if url::Url::parse(url).map_or(true, |u| u.host_str().is_none_or(str::is_empty)) {
                return Err(refuse("it names no host".into()));
            }
            Backend::Postgres
        } else if url.starts_with("sqlite:") {
            SqliteConnectOptions::from_str(url).map_err(|e| refuse(e.to_string()))?;
            Backend::Sqlite
        } else {
            return Err(refuse(
                "it must start with postgres:// (or postgresql://) or sqlite:".into(),
            ));
        };
        Ok(Self {
            url: url.to_string(),
            backend,
        })
    }

    /// A SQLite file at `path`, created when missing.
    pub fn sqlite_file(path: &Path) -> Self {
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true);
        Self {
            url: options.to_url_lossy().to_string(),
            backend: Backend::Sqlite,
        }
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The whole URL, password included: for the driver only.
    pub(crate) fn expose(&self) -> &str {
        &self.url
    }
}

/// The URL with its password replaced by `***` (or, when it does not parse,
/// only its scheme).
fn redact(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) => {
            if u.password().is_some() {
                // Only fails for URLs that cannot have a password, which this has.
                let _ = u.set_password(Some("***"));
            }
            u.to_string()
        }
        Err(_) => match url.split_once(':') {
            Some((scheme, _)) if scheme.len() <= 16 => format!("{scheme}:… (not shown)"),
            _ => "(not shown)".into(),
        },
    }
}

impl fmt::Display for DatabaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&redact(&self.url))
    }
}

impl fmt::Debug for DatabaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DatabaseUrl({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(vars: &[(&str, &str)]) -> Result<InsightsConfig, InsightsConfigError> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        InsightsConfig::from_vars(
            |name| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()),
            Path::new("/srv/jay data"),
        )
    }

    #[test]
    fn defaults_record_into_a_sqlite_file_in_the_data_dir_for_90_days() {
        let c = read(&[]).expect("defaults");
        assert!(c.enabled);
        assert_eq!(c.keep_days, 90);
        assert_eq!(c.database.backend(), Backend::Sqlite);
        let opts = SqliteConnectOptions::from_str(c.database.expose()).expect("a sqlite URL");
        assert_eq!(
            opts.get_filename(),
            Path::new("/srv/jay data/insights.db"),
            "the space survives the URL"
        );
    }

    #[test]
    fn each_variable_is_read_and_a_bad_one_is_named() {
        let c = read(&[
            ("JAY_INSIGHTS", "OFF"),
            ("JAY_INSIGHTS_DAYS", " 30 "),
            (
                "JAY_DATABASE_URL",
                "postgres://jay:s3cret@db.example:5432/jay",
            ),
        ])
        .expect("valid");
        assert!(!c.enabled);
        assert_eq!(c.keep_days, 30);
        assert_eq!(c.database.backend(), Backend::Postgres);
        let shown = format!("{} {:?} {c:?}", c.database, c.database);
        assert!(!shown.contains("s3cret"), "{shown}");
        assert!(shown.contains("db.example"), "{shown}");

        for (name, value, says) in [
            ("JAY_INSIGHTS", "maybe", "JAY_INSIGHTS must be on or off"),
            (
                "JAY_INSIGHTS_DAYS",
                "0",
                "JAY_INSIGHTS_DAYS must be a whole number of days",
            ),
            ("JAY_INSIGHTS_DAYS", "ninety", "JAY_INSIGHTS_DAYS must be"),
            ("JAY_INSIGHTS_DAYS", "3651", "from 1 to 3650"),
        ] {
            let e = read(&[(name, value)]).expect_err(value).to_string();
            assert!(e.contains(says), "{name}={value}: {e}");
        }
    }

    #[test]
    fn a_bad_database_url_stops_start_up_without_showing_its_password() {
        for url in [
            "mysql://jay:s3cret@db.example/jay",
            "postgres://jay:s3cret@db.example:notaport/jay",
            "postgres://jay:s3cret@/jay",
            "s3cret",
            "sqlite:/tmp/x.db?mode=s3cret",
        ] {
            let e = read(&[("JAY_DATABASE_URL", url)])
                .expect_err(url)
                .to_string();
            assert!(e.starts_with("JAY_DATABASE_URL "), "{e}");
            assert!(
                !e.contains("s3cret") || url.starts_with("sqlite"),
                "{url}: {e}"
            );
        }
        assert!(read(&[("JAY_DATABASE_URL", "sqlite:/tmp/x.db?mode=rwc")]).is_ok());
        assert!(read(&[("JAY_DATABASE_URL", "postgresql://localhost/jay")]).is_ok());
        let managed = "postgres://jay:s3cret@db.example/jay?sslmode=require";
        assert!(read(&[("JAY_DATABASE_URL", managed)]).is_ok());
    }
}
