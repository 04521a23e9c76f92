//! Nothing learned is lost: the router's statistics and breakers, and the
//! day's count of model calls, saved to a JSON file and read back at start-up.
//!
//! Times are saved relative to the save (seconds left on a cool-down), with the
//! wall-clock time of the save, so a restart ages them by the downtime: decayed
//! counts keep decaying, cool-downs keep running. The file is written to a
//! temporary file first and renamed over the old one, then the folder is
//! flushed too, so a crash mid-write (or just after) leaves a whole snapshot,
//! the previous one or the new one. A missing file means a first start; an
//! unreadable one is reported and ignored (the caller starts fresh).
//!
//! Saves are numbered when their state is captured ([`SaveOrder`]): a
//! periodic save still being written when the final one at shutdown is made
//! never renames its older state over the final snapshot.
//!
//! File I/O only: what a model's record holds, and how it is made from the
//! live router and put back, is `coach::routing::state`'s; the day's count is
//! `coach::budget`'s.

use std::{
    collections::BTreeMap,
    io::{self, Write},
    path::Path,
    sync::{
        atomic::{AtomicU64, Ordering},
        Mutex, PoisonError,
    },
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use serde::{Deserialize, Serialize};

use super::{budget::SavedDay, routing::state::SavedModel};

/// Bumped when the format changes; other versions are ignored. (Fields
/// added with a default need no bump: older files still load.)
pub const VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    pub version: u32,
    /// Wall-clock time of the save, in milliseconds since the Unix epoch.
    pub saved_at_ms: u64,
    pub models: BTreeMap<String, SavedModel>,
    /// Model calls made on the day of the save (absent in older files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upstream_today: Option<SavedDay>,
}

#[derive(Debug, thiserror::Error)]
pub enum SnapshotError {
    #[error("cannot read {path}: {source}")]
    Read { path: String, source: io::Error },
    #[error("{path} is not a valid snapshot (truncated or corrupt?): {source}")]
    Corrupt {
        path: String,
        source: serde_json::Error,
    },
    #[error("{path} has format version {found}, this server reads {VERSION}")]
    Version { path: String, found: u32 },
}

impl Snapshot {
    pub fn new(models: BTreeMap<String, SavedModel>) -> Self {
        Self {
            version: VERSION,
            saved_at_ms: now_ms(),
            models,
            upstream_today: None,
        }
    }

    /// How long ago it was saved (zero if the clock went backwards).
    pub fn age(&self) -> Duration {
        Duration::from_millis(now_ms().saturating_sub(self.saved_at_ms))
    }

    /// Reads `path`: `Ok(None)` when there is no file yet.
    pub fn read(path: &Path) -> Result<Option<Self>, SnapshotError> {
        let display = || path.display().to_string();
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(source) => {
                return Err(SnapshotError::Read {
                    path: display(),
                    source,
                })
            }
        };
        let snapshot: Self =
            serde_json::from_slice(&bytes).map_err(|source| SnapshotError::Corrupt {
                path: display(),
                source,
            })?;
        if snapshot.version != VERSION {
            return Err(SnapshotError::Version {
                path: display(),
                found: snapshot.version,
            });
        }
        Ok(Some(snapshot))
    }

    /// Writes to `path` atomically: a temporary file of its own in the same
    /// folder (`tempfile`, so two saves at once never share one, and a failed
    /// write leaves none behind), flushed to disk, persisted (renamed) over
    /// `path`, and the folder flushed (so the rename itself survives a power
    /// cut).
    pub fn write(&self, path: &Path) -> io::Result<()> {
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir)?;
        let json = serde_json::to_vec_pretty(self).map_err(io::Error::other)?;
        let mut file = tempfile::NamedTempFile::new_in(dir)?;
        file.write_all(&json)?;
        file.as_file().sync_all()?;
        file.persist(path).map_err(|e| e.error)?;
        sync_dir(dir)
    }
}

/// Flushes a folder's entries (a rename) to disk. Only Unix can open a
/// folder for that; elsewhere the rename is as durable as the OS makes it.
fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    std::fs::File::open(dir)?.sync_all()?;
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// Orders the saves of one process: each capture takes the next number, and
/// a capture is written only if no later one has been written already.
#[derive(Debug, Default)]
pub struct SaveOrder {
    next: AtomicU64,
    /// The number of the latest capture written (0: none yet).
    written: Mutex<u64>,
}

impl SaveOrder {
    /// The number of a capture made now (take it while the state is locked,
    /// so numbers follow the order of the captures).
    pub fn next(&self) -> u64 {
        self.next.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// Runs `write` for capture `number` unless a later capture was written
    /// already; writes never overlap. `Ok(false)` when skipped.
    pub fn write_if_newest(
        &self,
        number: u64,
        write: impl FnOnce() -> io::Result<()>,
    ) -> io::Result<bool> {
        let mut written = self.written.lock().unwrap_or_else(PoisonError::into_inner);
        if number < *written {
            return Ok(false);
        }
        write()?;
        *written = number;
        Ok(true)
    }
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coach::routing::breaker::SavedBreaker;

    fn dir(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("jay-snapshot-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn sample() -> Snapshot {
        let model = SavedModel {
            total: 3,
            errors: 1.5,
            successes: 2,
            outcomes: BTreeMap::from([("ok".into(), 2), ("timeout".into(), 1)]),
            decayed: (1.8, 0.9),
            latency_ewma_ms: Some(420.0),
            recent_ms: vec![400, 450],
            breaker: SavedBreaker {
                open_for_s: Some(12.5),
                consecutive_failures: 0,
                opened_in_a_row: 2,
                consecutive_rejections: 1,
            },
            ..SavedModel::default()
        };
        Snapshot::new(BTreeMap::from([("qwen".to_string(), model)]))
    }

    #[test]
    fn a_written_snapshot_reads_back_and_no_temporary_file_stays() {
        let dir = dir("roundtrip");
        let path = dir.join("router.json");
        assert!(
            Snapshot::read(&path).unwrap().is_none(),
            "no file: first start"
        );
        sample().write(&path).unwrap();
        assert_eq!(
            Snapshot::read(&path).unwrap(),
            Some(sample()).map(|mut s| {
                s.saved_at_ms = Snapshot::read(&path).unwrap().unwrap().saved_at_ms;
                s
            })
        );
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("router.json")]);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn truncated_corrupt_or_foreign_files_are_errors_not_panics() {
        let dir = dir("corrupt");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("router.json");
        let json = serde_json::to_string(&sample()).unwrap();
        for bad in [&json[..json.len() / 2], "\u{0}\u{1}garbage", "", "[]"] {
            std::fs::write(&path, bad).unwrap();
            let e = Snapshot::read(&path).unwrap_err();
            assert!(matches!(e, SnapshotError::Corrupt { .. }), "{e}");
        }
        std::fs::write(&path, json.replace("\"version\":1", "\"version\":99")).unwrap();
        assert!(matches!(
            Snapshot::read(&path),
            Err(SnapshotError::Version { found: 99, .. })
        ));
        std::fs::remove_dir_all(&dir).ok();
    }
}
