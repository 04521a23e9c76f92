//! The insights' configuration, read once at start-up (the style of
//! `server::config`, whose `Settings` holds it):
//!
//! | variable | meaning | default |
//! |---|---|---|
//! | `JAY_INSIGHTS` | `on` or `off`: record visits, attempts and tools used | `on` |
//! | `JAY_DATABASE_URL` | where: `postgres://user:password@host:5432/db` (or `sqlite:path`) | unset: SQLite, `insights.db` in `JAY_DATA_DIR` |
//! | `JAY_INSIGHTS_DAYS` | days rows are kept before they are purged, 1 to 3650 | `90` |
//! | `JAY_INSIGHTS_MAX_MB` | the SQLite store's ceiling in megabytes; past it the oldest days go | `1024` |
//!
//! A URL that cannot be used stops start-up with a message that shows it
//! without its password (the URL's own or a `password=` in its query); a
//! database that cannot be reached does not (the writer warns and keeps
//! trying, `super::writer`). A PostgreSQL server elsewhere than this machine
//! should be reached with `sslmode=verify-full` (or `verify-ca`): with any
//! other mode the driver takes whatever certificate it is shown, and
//! [`DatabaseUrl::tls_warning`] says so at start-up.

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
    /// `JAY_INSIGHTS_MAX_MB` (SQLite; PostgreSQL's server keeps its own).
    pub max_mb: u32,
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
    /// A gigabyte: far more than a busy year of visits, a fiftieth of a free
    /// Hugging Face Space's disk.
    pub const DEFAULT_MAX_MB: u32 = 1024;
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
        let whole = |name: &'static str, default: u32, max: u32, expected: &'static str| {
            let Some(v) = set(name) else {
                return Ok(default);
            };
            v.trim()
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=max).contains(n))
                .ok_or(InsightsConfigError::Invalid {
                    name,
                    value: v,
                    expected,
                })
        };
        let keep_days = whole(
            "JAY_INSIGHTS_DAYS",
            Self::DEFAULT_DAYS,
            3650,
            "a whole number of days from 1 to 3650",
        )?;
        let max_mb = whole(
            "JAY_INSIGHTS_MAX_MB",
            Self::DEFAULT_MAX_MB,
            1_048_576,
            "a whole number of megabytes from 1 to 1048576",
        )?;
        Ok(Self {
            enabled,
            database,
            keep_days,
            max_mb,
        })
    }

    /// The ceiling in bytes.
    pub fn max_bytes(&self) -> u64 {
        u64::from(self.max_mb) * 1_000_000
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

    /// What to warn an operator of at start-up: a PostgreSQL server on
    /// another machine reached without checking its certificate (`sslmode`
    /// other than `verify-full` or `verify-ca`: `prefer`, sqlx's default,
    /// even falls back to plain text), so that whoever sits on the way can
    /// read the password and the rows.
    pub fn tls_warning(&self) -> Option<String> {
        if self.backend != Backend::Postgres {
            return None;
        }
        let u = url::Url::parse(&self.url).ok()?;
        // A `postgres:` URL's host is not parsed as an address by `url`.
        let local = match u.host()? {
            url::Host::Domain(d) => {
                d.eq_ignore_ascii_case("localhost")
                    || d.starts_with('/')
                    || d.trim_matches(['[', ']'])
                        .parse::<std::net::IpAddr>()
                        .is_ok_and(|ip| ip.is_loopback())
            }
            url::Host::Ipv4(ip) => ip.is_loopback(),
            url::Host::Ipv6(ip) => ip.is_loopback(),
        };
        let mode = u
            .query_pairs()
            .find(|(k, _)| k == "sslmode" || k == "ssl-mode")
            .map_or_else(|| "prefer".to_string(), |(_, v)| v.to_ascii_lowercase());
        if local || matches!(mode.as_str(), "verify-full" | "verify-ca") {
            return None;
        }
        Some(format!(
            "JAY_DATABASE_URL reaches {} with sslmode={mode}: the server's certificate is not verified, so anyone on the way can pose as it and read the password; add ?sslmode=verify-full",
            u.host_str().unwrap_or("its server")
        ))
    }
}

/// Query parameters the PostgreSQL driver reads a secret from.
const SECRET_PARAMS: [&str; 3] = ["password", "sslpassword", "sslkey"];

/// The URL with its password replaced by `***`, in its user part and in its
/// query (or, when it does not parse, only its scheme).
fn redact(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) => {
            if u.password().is_some() {
                // Only fails for URLs that cannot have a password, which this has.
                let _ = u.set_password(Some("***"));
            }
            let secret = |k: &str| SECRET_PARAMS.iter().any(|s| k.eq_ignore_ascii_case(s));
            if u.query_pairs().any(|(k, _)| secret(&k)) {
                let pairs: Vec<(String, String)> = u
                    .query_pairs()
                    .map(|(k, v)| {
                        let v = if secret(&k) {
                            "***".into()
                        } else {
                            v.into_owned()
                        };
                        (k.into_owned(), v)
                    })
                    .collect();
                u.query_pairs_mut().clear().extend_pairs(pairs);
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
mod tests;
