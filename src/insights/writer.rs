//! From the request to the database without slowing the request: a
//! [`Recorder`] (held by the server, cheap to clone) puts each event in a
//! bounded queue with `try_send`, which never waits; one writer task takes
//! them out and commits them in batches ([`WriterConfig`]: up to 500 events,
//! or what came within a second of the first, in one transaction), and purges
//! rows older than `JAY_INSIGHTS_DAYS` at start and daily.
//!
//! Nothing here fails a request. An event that finds the queue full is
//! dropped and counted (one WARN, the first time); a batch the database
//! refuses (down, slow past its timeout) is dropped and counted (one WARN per
//! outage, an INFO when it answers again). [`Recorder::stats`] reads the
//! counts for `/metrics`.

use std::{
    sync::{
        atomic::{AtomicBool, AtomicU64, Ordering},
        Arc,
    },
    time::Duration,
};

use tokio::{
    sync::{mpsc, oneshot},
    task::JoinHandle,
    time::{timeout_at, Instant, MissedTickBehavior},
};

use super::{
    event::Event,
    sink::{Sink, StoreError},
    values::Minute,
};

/// The writer's sizes and times.
#[derive(Clone, Debug)]
pub struct WriterConfig {
    /// Events the queue holds; past it they are dropped.
    pub capacity: usize,
    /// Events per transaction at most.
    pub max_batch: usize,
    /// How long a batch waits for more events after its first.
    pub flush_every: Duration,
    /// Rows older than this many days are purged.
    pub keep_days: u32,
    /// Time between purges (the first is at start).
    pub purge_every: Duration,
}

impl Default for WriterConfig {
    fn default() -> Self {
        Self {
            capacity: 10_000,
            max_batch: 500,
            flush_every: Duration::from_secs(1),
            keep_days: 90,
            purge_every: Duration::from_secs(24 * 60 * 60),
        }
    }
}

/// The counts `/metrics` shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Events committed.
    pub written: u64,
    /// Events dropped because the queue was full.
    pub dropped_queue_full: u64,
    /// Events dropped because the database refused their batch.
    pub dropped_database: u64,
}

impl Stats {
    /// Every event lost, whatever the cause (`jay_insights_dropped_total`).
    pub fn dropped(&self) -> u64 {
        self.dropped_queue_full + self.dropped_database
    }
}

#[derive(Debug, Default)]
struct Counters {
    written: AtomicU64,
    dropped_queue_full: AtomicU64,
    dropped_database: AtomicU64,
    /// The queue-full WARN was given.
    warned_full: AtomicBool,
}

/// Records events; clones share one queue. Off (`JAY_INSIGHTS=off`, or no
/// writer): records nothing.
#[derive(Clone, Debug)]
pub struct Recorder {
    queue: Option<mpsc::Sender<Event>>,
    counters: Arc<Counters>,
}

impl Recorder {
    /// A recorder that records nothing.
    pub fn off() -> Self {
        Self {
            queue: None,
            counters: Arc::default(),
        }
    }

    pub fn is_on(&self) -> bool {
        self.queue.is_some()
    }

    /// Queues `event` for the writer, at once: never waits, never fails. A
    /// full queue (or a stopped writer) drops it and counts it.
    pub fn record(&self, event: Event) {
        let Some(queue) = &self.queue else { return };
        let Err(e) = queue.try_send(event) else {
            return;
        };
        self.counters
            .dropped_queue_full
            .fetch_add(1, Ordering::Relaxed);
        // Closed: the server is shutting down, nothing to warn about.
        if matches!(e, mpsc::error::TrySendError::Full(_))
            && !self.counters.warned_full.swap(true, Ordering::Relaxed)
        {
            tracing::warn!(
                "insights: the writer's queue is full ({} events): events are dropped and counted (jay_insights_dropped_total); the page and comments are not affected. Said once.",
                queue.max_capacity()
            );
        }
    }

    pub fn stats(&self) -> Stats {
        let c = &self.counters;
        Stats {
            written: c.written.load(Ordering::Relaxed),
            dropped_queue_full: c.dropped_queue_full.load(Ordering::Relaxed),
            dropped_database: c.dropped_database.load(Ordering::Relaxed),
        }
    }
}

/// The writer task; [`Writer::stop`] writes what is queued and ends it.
#[derive(Debug)]
pub struct Writer {
    stop: oneshot::Sender<()>,
    task: JoinHandle<()>,
}

impl Writer {
    /// Starts the writer on `sink`; its recorder.
    pub fn spawn(sink: Arc<dyn Sink>, config: WriterConfig) -> (Recorder, Writer) {
        let (tx, rx) = mpsc::channel(config.capacity.max(1));
        let (stop, stopped) = oneshot::channel();
        let counters = Arc::<Counters>::default();
        let recorder = Recorder {
            queue: Some(tx),
            counters: counters.clone(),
        };
        let run = Run {
            sink,
            config,
            counters,
            down: false,
        };
        let task = tokio::spawn(run.run(rx, stopped));
        (recorder, Writer { stop, task })
    }

    /// Stops taking events, commits those queued, and ends.
    pub async fn stop(self) {
        let _ = self.stop.send(());
        if let Err(e) = self.task.await {
            tracing::warn!("insights: the writer ended badly: {e}");
        }
    }
}

struct Run {
    sink: Arc<dyn Sink>,
    config: WriterConfig,
    counters: Arc<Counters>,
    /// The database failed last time (its WARN was given).
    down: bool,
}

impl Run {
    async fn run(mut self, mut rx: mpsc::Receiver<Event>, mut stop: oneshot::Receiver<()>) {
        let max = self.config.max_batch.max(1);
        let mut purge = tokio::time::interval(self.config.purge_every.max(Duration::from_secs(1)));
        purge.set_missed_tick_behavior(MissedTickBehavior::Delay);
        let mut batch = Vec::with_capacity(max);
        // A dropped `Writer` is no stop: the writer then runs until every
        // recorder is gone.
        let mut handle_alive = true;
        loop {
            tokio::select! {
                asked = &mut stop, if handle_alive => match asked {
                    Ok(()) => break,
                    Err(_) => handle_alive = false,
                },
                _ = purge.tick() => self.purge().await,
                n = rx.recv_many(&mut batch, max) => {
                    if n == 0 {
                        return; // every recorder is gone
                    }
                    let deadline = Instant::now() + self.config.flush_every;
                    while batch.len() < max {
                        let room = max - batch.len();
                        match timeout_at(deadline, rx.recv_many(&mut batch, room)).await {
                            Ok(n) if n > 0 => {}
                            _ => break,
                        }
                    }
                    self.commit(&mut batch).await;
                }
            }
        }
        // Stopping: take no more, write what is queued.
        rx.close();
        while rx.recv_many(&mut batch, max).await > 0 {
            self.commit(&mut batch).await;
        }
    }

    async fn commit(&mut self, batch: &mut Vec<Event>) {
        let n = batch.len() as u64;
        match self.sink.write(batch).await {
            Ok(()) => {
                self.counters.written.fetch_add(n, Ordering::Relaxed);
                self.answered();
            }
            Err(e) => {
                self.counters
                    .dropped_database
                    .fetch_add(n, Ordering::Relaxed);
                self.failed(&e);
            }
        }
        batch.clear();
    }

    async fn purge(&mut self) {
        let cutoff = Minute::now().days_before(self.config.keep_days);
        match self.sink.purge_before(cutoff).await {
            Ok(removed) => {
                self.answered();
                tracing::info!(
                    "insights: purged {removed} rows older than {} days",
                    self.config.keep_days
                );
            }
            Err(e) => self.failed(&e),
        }
    }

    fn failed(&mut self, e: &StoreError) {
        if !self.down {
            self.down = true;
            tracing::warn!(
                "insights: {e}; the page and comments go on, events are dropped and counted (jay_insights_dropped_total) until the database answers again"
            );
        }
    }

    fn answered(&mut self) {
        if self.down {
            self.down = false;
            tracing::info!("insights: the database answers again");
        }
    }
}
