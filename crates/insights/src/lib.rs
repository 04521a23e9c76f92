//! Insights for the author and the teacher: who reaches the goal,
//! where learners get stuck, what helps, which models speak; with nothing
//! personal stored.
//!
//! What is recorded, and only this:
//! - a **visit**: a random id the browser makes on every page load (no
//!   cookie, no storage), its language, layout (`/` or `/embed`), a device
//!   class from the viewport's width, its room (`?room=CODE`) and the minute
//!   it began;
//! - its **attempts**: the number, error, weight and bias the comment request
//!   already carries, with the comment's model, outcome (served, rejected and
//!   why, offline), latency and minute;
//! - the **tools** it used (descent lab, map, best-response buttons, nudges,
//!   a typed value, a shared link, the language switcher): the first minute
//!   and how many times;
//! - the **votes** on comments: what the comment's id names (its random
//!   number, writer, language and tier), helpful or not, and the minutes it
//!   was written and voted; not which visit voted. A second vote on a
//!   comment replaces the first.
//!
//! Never an IP address, a user agent, a cookie or anything typed: every value
//! is parsed at the edge into a type with a fixed alphabet, range or code
//! ([`values`], [`codes`], [`event`]; a refused one names its field). Times
//! are whole minutes; a room's are coarsened further (`rooms`).
//!
//! What strangers can make it write is bounded: an attempt only with a
//! visit begun in the last day, numbered 1 to 500, and never for a comment
//! answered over a limit; visits per address per hour; a room only for the
//! visits it seats; the store itself under a ceiling on disk. What is not
//! recorded is counted by reason (`recorder::Refusal`).
//!
//! The parts:
//! - [`values`], [`codes`], [`event`], [`input`]: the recorded types and the
//!   page's wire shapes (both targets; the rest is server-only);
//! - `config`: `JAY_INSIGHTS`, `JAY_DATABASE_URL`, `JAY_INSIGHTS_DAYS`;
//! - `store`: SQLite (a file in `JAY_DATA_DIR`) or PostgreSQL, one schema,
//!   migrations at start-up;
//! - `recorder`, `writer`: a bounded queue and one writer committing batches
//!   (on SQLite on a thread of its own),
//!   which never slows a comment and never fails a request (drops and
//!   refusals are counted), and keeps the store within its disk ceiling;
//! - `rooms`: the class rooms teachers create, and who is in them now;
//! - `report`: the queries `/insights` shows, from the rows or, for whole
//!   days, from `rollup`'s per-visit sums and per-day counts (kept by the
//!   writer's transactions; latencies kept to two significant digits);
//! - `capture`: what a request gives (the `DNT` / `Sec-GPC` opt-out, a
//!   comment's attempt and its outcome).
//!
//! At start-up the server calls [`Insights::start`] and gives each request
//! handler the [`Recorder`]; `/insights` reads the [`Store`].

pub mod codes;
pub mod event;
pub mod input;
pub mod lessons;
pub mod values;

#[cfg(feature = "ssr")]
pub mod capture;
#[cfg(feature = "ssr")]
pub mod config;
#[cfg(feature = "ssr")]
mod db;
#[cfg(feature = "ssr")]
mod packed;
#[cfg(feature = "ssr")]
pub mod recorder;
#[cfg(feature = "ssr")]
pub mod report;
#[cfg(feature = "ssr")]
mod rollup;
#[cfg(feature = "ssr")]
pub mod rooms;
#[cfg(feature = "ssr")]
pub mod sink;
#[cfg(feature = "ssr")]
pub mod store;
#[cfg(feature = "ssr")]
pub mod writer;

pub use codes::{Device, Layout, Tier, Tool, Verdict};
pub use event::{Attempt, AttemptNumbers, AttemptOutcome, Event, ToolUse, Visit, Vote};
pub use input::{ToolsInput, VisitInput};
pub use values::{CommentKey, FieldError, Minute, ModelName, Reason, RoomCode, VisitId};

#[cfg(feature = "ssr")]
pub use self::{
    config::{Backend, DatabaseUrl, InsightsConfig, InsightsConfigError},
    recorder::{Recorder, Refusal, Stats},
    report::Filter,
    rooms::Rooms,
    sink::StoreError,
    store::Store,
    writer::{Writer, WriterConfig},
};

/// The insights at run time: the recorder, the store it writes to, its
/// writer, and the class rooms. Off, it records nothing and has no store.
#[cfg(feature = "ssr")]
pub struct Insights {
    recorder: Recorder,
    store: Option<std::sync::Arc<Store>>,
    writer: Option<Writer>,
    rooms: std::sync::Arc<Rooms>,
}

#[cfg(feature = "ssr")]
impl Insights {
    /// Records nothing (`JAY_INSIGHTS=off`).
    pub fn off() -> Self {
        Self {
            recorder: Recorder::off(),
            store: None,
            writer: None,
            rooms: std::sync::Arc::new(Rooms::new(None)),
        }
    }

    /// Opens the store (without waiting for the database) and starts the
    /// writer, which runs the migrations and the first purge at once. A
    /// database that is down is no error here: the writer warns once and
    /// keeps trying. Call from within the tokio runtime.
    pub fn start(config: &InsightsConfig) -> Result<Self, StoreError> {
        if !config.enabled {
            tracing::info!("insights: off (JAY_INSIGHTS=off): nothing is recorded");
            return Ok(Self::off());
        }
        let store = std::sync::Arc::new(Store::open(&config.database)?);
        let writer_config = WriterConfig {
            keep_days: config.keep_days,
            max_bytes: Some(config.max_bytes()),
            ..WriterConfig::default()
        };
        let (recorder, writer) = Writer::spawn(store.clone(), writer_config);
        let ceiling = match config.database.backend() {
            Backend::Sqlite => format!("at most {} MB", config.max_mb),
            Backend::Postgres => "the server's own limits".to_string(),
        };
        tracing::info!(
            "insights: recording into {} (rows kept {} days; {ceiling})",
            config.database,
            config.keep_days
        );
        if let Some(warning) = config.database.tls_warning() {
            tracing::warn!("insights: {warning}");
        }
        Ok(Self {
            recorder,
            rooms: std::sync::Arc::new(Rooms::new(Some(store.clone()))),
            store: Some(store),
            writer: Some(writer),
        })
    }

    /// The class rooms (clone the `Arc`).
    pub fn rooms(&self) -> &std::sync::Arc<Rooms> {
        &self.rooms
    }

    /// What request handlers record through (clone it).
    pub fn recorder(&self) -> &Recorder {
        &self.recorder
    }

    /// The store the reports read, when on.
    pub fn store(&self) -> Option<&std::sync::Arc<Store>> {
        self.store.as_ref()
    }

    /// At shutdown: writes what is queued, then closes the database.
    pub async fn stop(self) {
        if let Some(writer) = self.writer {
            writer.stop().await;
        }
        if let Some(store) = self.store {
            store.close().await;
        }
    }
}

#[cfg(all(test, feature = "ssr"))]
mod tests;
