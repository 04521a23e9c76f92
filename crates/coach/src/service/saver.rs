//! The router's snapshot file over the server's life: read back at start (an
//! unusable file moved aside, never overwritten; temporary files a killed
//! save left removed), saved periodically, and saved at shutdown: once as
//! soon as SIGTERM / SIGINT arrives, before the drain (a drain can outlast
//! the platform's stop timeout: `docker stop` sends SIGKILL after 10 s), and
//! again after it. What the file holds, and how it is written, is
//! `snapshot`'s; what of the router goes in it, `routing::snapshot`'s.

use std::{
    path::{Path, PathBuf},
    sync::Arc,
    time::Duration,
};

use super::Coach;
use crate::snapshot::{remove_stale_temps, set_aside};

/// Puts back what was saved at `path`, and says so in the log. Never fatal:
/// without a usable file the router starts fresh and learns again.
pub fn restore(coach: &Coach, path: &Path) {
    match remove_stale_temps(path) {
        Ok(removed) if removed.is_empty() => {}
        Ok(removed) => tracing::info!(
            "removed {} temporary file(s) an interrupted save left in {}",
            removed.len(),
            path.parent().unwrap_or(Path::new(".")).display()
        ),
        Err(e) => tracing::warn!(
            "cannot clear old temporary files next to {}: {e}",
            path.display()
        ),
    }
    match coach.restore(path) {
        Ok(0) => tracing::warn!(
            "no saved statistics in {} (a first start?): starting fresh",
            path.display()
        ),
        Ok(n) => tracing::info!(
            "statistics of {n} models restored from {} ({} model calls made today)",
            path.display(),
            coach.upstream_calls_today()
        ),
        Err(e) => match set_aside(path, &e) {
            Ok(aside) => tracing::warn!(
                "saved statistics ignored, starting fresh: {e}; the file was moved to {} (kept as it was)",
                aside.display()
            ),
            Err(move_error) => tracing::warn!(
                "saved statistics ignored, starting fresh: {e}; it could not be moved aside ({move_error}), so the next save replaces it"
            ),
        },
    }
}

/// Saves now, and logs the outcome.
pub fn save(coach: &Coach, path: &Path) {
    match coach.save(path) {
        Ok(()) => tracing::debug!("statistics saved to {}", path.display()),
        Err(e) => tracing::warn!("cannot save statistics to {}: {e}", path.display()),
    }
}

/// [`save`] on tokio's blocking pool (file I/O never holds up a runtime
/// thread). Once started, the save finishes even if this future is dropped.
pub async fn save_off_thread(coach: Arc<Coach>, path: PathBuf) {
    if let Err(e) = tokio::task::spawn_blocking(move || save(&coach, &path)).await {
        tracing::warn!("a save ended badly: {e}");
    }
}

/// The periodic saves, running until [`Saver::stop`].
pub struct Saver {
    stop: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<()>,
}

impl Saver {
    /// Saves every `every` (not at once: the first save comes `every` after
    /// the start), until stopped.
    pub fn spawn(coach: Arc<Coach>, path: PathBuf, every: Duration) -> Self {
        let (stop, mut stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            let mut ticks = tokio::time::interval(every);
            ticks.tick().await; // the first tick is immediate
            loop {
                tokio::select! {
                    _ = &mut stopped => break,
                    _ = ticks.tick() => {}
                }
                // Awaited, so `stop` waits for it.
                save_off_thread(coach.clone(), path.clone()).await;
            }
        });
        Self { stop, task }
    }

    /// Ends the loop and waits for a save under way to finish.
    pub async fn stop(self) {
        let _ = self.stop.send(());
        if let Err(e) = self.task.await {
            tracing::warn!("periodic saves ended badly: {e}");
        }
    }
}
