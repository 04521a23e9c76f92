//! Nothing learned is lost: the router's statistics and breakers, and the
//! day's count of model calls, saved to a JSON file and read back at start-up.
//!
//! Times are saved relative to the save (seconds left on a cool-down), with the
//! wall-clock time of the save, so a restart ages them by the downtime: decayed
//! counts keep decaying, cool-downs keep running. The file is written to a
//! temporary file first (`.router.json.XXXXXX.tmp`) and renamed over the old
//! one, then the folder is flushed too, so a crash mid-write (or just after)
//! leaves a whole snapshot, the previous one or the new one; the temporary
//! file a kill leaves behind is removed at the next start
//! ([`remove_stale_temps`]). A missing file means a first start; an unreadable
//! one, or one of another version, is reported, and the caller moves it aside
//! ([`set_aside`]) so the next save does not overwrite it, and starts fresh.
//!
//! Saves are numbered when their state is captured ([`SaveOrder`]): a
//! periodic save still being written when the final one at shutdown is made
//! never renames its older state over the final snapshot.
//!
//! Saving the router: this module's file I/O, `service::saver` (when the
//! server saves: at start, periodically, at shutdown), and, kept beside
//! the router's private fields, `routing::snapshot` (what a model's record
//! holds, and how it is made from the live router and put back); the day's
//! count is `budget`'s.

use std::{
    collections::BTreeMap,
    io::{self, Write},
    path::{Path, PathBuf},
    sync::{
        atomic::{AtomicU64, Ordering},
        Mutex, PoisonError,
    },
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use serde::{Deserialize, Serialize};

use super::{budget::SavedDay, routing::snapshot::SavedModel};

/// Bumped when the format changes; other versions are set aside. (Fields
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
    /// write leaves none behind; named `.<file>.XXXXXX.tmp`), flushed to disk,
    /// persisted (renamed) over `path`, and the folder flushed (so the rename
    /// itself survives a power cut).
    pub fn write(&self, path: &Path) -> io::Result<()> {
        let dir = folder(path);
        std::fs::create_dir_all(dir)?;
        let json = serde_json::to_vec_pretty(self).map_err(io::Error::other)?;
        let mut file = temp_file(path)?;
        file.write_all(&json)?;
        file.as_file().sync_all()?;
        file.persist(path).map_err(|e| e.error)?;
        sync_dir(dir)
    }
}

/// Random characters in a temporary file's name (tempfile's own default).
const TEMP_RANDOM: usize = 6;
const TEMP_SUFFIX: &str = ".tmp";
/// Names tried for a file set aside before giving up.
const ASIDE_TRIES: u32 = 100;

/// The folder `path` is in (`.` for a bare name).
fn folder(path: &Path) -> &Path {
    path.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(|| "snapshot".into(), |n| n.to_string_lossy().into_owned())
}

/// A new temporary file next to `path`: `.<file>.XXXXXX.tmp`.
fn temp_file(path: &Path) -> io::Result<tempfile::NamedTempFile> {
    tempfile::Builder::new()
        .prefix(&format!(".{}.", file_name(path)))
        .rand_bytes(TEMP_RANDOM)
        .suffix(TEMP_SUFFIX)
        .tempfile_in(folder(path))
}

/// Moves the unusable snapshot at `path` out of the way, keeping its bytes,
/// so the next save does not overwrite it: to `<file>.v<N>-<unix seconds>`
/// when it is another version's (a rollback; the newer server can read it
/// again), else to `<file>.bad-<unix seconds>`, with `-2`, `-3`... when that
/// name is taken. The new path.
pub fn set_aside(path: &Path, why: &SnapshotError) -> io::Result<PathBuf> {
    let tag = match why {
        SnapshotError::Version { found, .. } => format!("v{found}"),
        SnapshotError::Read { .. } | SnapshotError::Corrupt { .. } => "bad".into(),
    };
    let stem = format!("{}.{tag}-{}", file_name(path), now_ms() / 1000);
    for n in 1..=ASIDE_TRIES {
        let name = if n == 1 {
            stem.clone()
        } else {
            format!("{stem}-{n}")
        };
        let aside = folder(path).join(name);
        match std::fs::symlink_metadata(&aside) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                std::fs::rename(path, &aside)?;
                sync_dir(folder(path))?;
                return Ok(aside);
            }
            _ => continue,
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!("{stem}-1 to -{ASIDE_TRIES} are all taken"),
    ))
}

/// Removes the temporary files that saves to `path` left behind when the
/// process was killed mid-write: regular files in its folder named
/// `.<file>.XXXXXX.tmp` (this version's) or `.tmpXXXXXX` (tempfile's default,
/// which earlier versions used), `XXXXXX` being six letters or digits.
/// Nothing else is touched. The files removed; a missing folder is none.
pub fn remove_stale_temps(path: &Path) -> io::Result<Vec<PathBuf>> {
    let entries = match std::fs::read_dir(folder(path)) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let ours = format!(".{}.", file_name(path));
    let mut removed = Vec::new();
    for entry in entries {
        let entry = entry?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        // A symbolic link or a folder is never a temporary file of ours.
        if !is_stale_temp(name, &ours) || !entry.file_type()?.is_file() {
            continue;
        }
        std::fs::remove_file(entry.path())?;
        removed.push(entry.path());
    }
    Ok(removed)
}

/// `.tmpXXXXXX`, or `<ours>XXXXXX.tmp` (`ours` being `.<file>.`).
fn is_stale_temp(name: &str, ours: &str) -> bool {
    let random = |s: &str| s.len() == TEMP_RANDOM && s.bytes().all(|b| b.is_ascii_alphanumeric());
    name.strip_prefix(".tmp").is_some_and(random)
        || name
            .strip_prefix(ours)
            .and_then(|rest| rest.strip_suffix(TEMP_SUFFIX))
            .is_some_and(random)
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
mod tests;
