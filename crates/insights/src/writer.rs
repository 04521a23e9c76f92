//! From the request to the database without slowing the request: the
//! [`Recorder`] (`super::recorder`) puts each event in a bounded queue; one
//! writer takes them out and commits them in batches ([`WriterConfig`]:
//! what came within a second of the first, up to 10,000 events, in one
//! transaction), purges rows older than `JAY_INSIGHTS_DAYS` at start and
//! daily, and keeps the store under its ceiling (`JAY_INSIGHTS_MAX_MB`) and
//! the disk from filling ([`ceiling`]).
//!
//! Where its connections belong to no runtime (SQLite's, whose calls block)
//! the writer runs on a thread of its own ([`thread`]): on one 2-core
//! machine that cut what recording costs a comment by about a quarter at 32
//! connections and by two fifths at one (`docs/benchmarks/insights-recording.md`). A
//! PostgreSQL socket belongs to the runtime that opened it, so there the
//! writer is a task on the server's runtime.
//!
//! Nothing here fails a request. An event that finds the queue full is
//! dropped and counted (one WARN, the first time); a batch the database
//! refuses (down, slow past its timeout) is dropped and counted (one WARN per
//! outage, an INFO when it answers again), as is one that comes while the
//! disk is nearly full. [`Recorder::stats`] reads the counts for `/metrics`.

mod ceiling;
mod thread;

use std::{
    sync::{atomic::Ordering, Arc},
    time::Duration,
};

use tokio::{
    sync::{mpsc, oneshot},
    task::JoinHandle,
    time::{sleep_until, Instant, MissedTickBehavior},
};

use self::ceiling::Ceiling;
use super::{
    event::Event,
    recorder::{Counters, Recorder, Refusal},
    sink::{Sink, StoreError},
    values::Minute,
};

/// The writer's sizes and times.
#[derive(Clone, Debug)]
pub struct WriterConfig {
    /// Events the queue holds, those the writer has not yet taken into its
    /// batch; past it they are dropped. 144 bytes each (the default's
    /// 20,000: 2.9 MB when full; the batch, kept from one to the next,
    /// 1.4 MB).
    pub capacity: usize,
    /// Events per transaction at most. Under load a batch holds more than
    /// one attempt of a visit, and what the writer does once per visit (its
    /// sums, with its latest attempts, read and written) is shared by them
    /// (at 12,000 attempts a second of 2,000 visits:
    /// `docs/benchmarks/insights-recording.md`).
    pub max_batch: usize,
    /// How long a batch waits for more events after its first.
    pub flush_every: Duration,
    /// Rows older than this many days are purged.
    pub keep_days: u32,
    /// Time between purges (the first is at start).
    pub purge_every: Duration,
    /// The store's ceiling in bytes (`JAY_INSIGHTS_MAX_MB`): past it the
    /// oldest days are purged. Where the store measures its size (SQLite).
    pub max_bytes: Option<u64>,
    /// The disk space always left free beside the database: below it the
    /// oldest days are purged, and batches dropped while nothing is left to purge.
    pub reserve_bytes: u64,
    /// The least time between two looks at the store's size (one before a
    /// commit, at most this often; and at every purge).
    pub check_every: Duration,
}

impl WriterConfig {
    /// The space kept free beside the database by default.
    pub const RESERVE_BYTES: u64 = 64 * 1024 * 1024;
}

impl Default for WriterConfig {
    fn default() -> Self {
        Self {
            capacity: 20_000,
            max_batch: 10_000,
            flush_every: Duration::from_secs(1),
            keep_days: 90,
            purge_every: Duration::from_secs(24 * 60 * 60),
            max_bytes: None,
            reserve_bytes: Self::RESERVE_BYTES,
            check_every: Duration::from_secs(1),
        }
    }
}

/// The running writer; [`Writer::stop`] writes what is queued and ends it.
#[derive(Debug)]
pub struct Writer {
    stop: oneshot::Sender<()>,
    running: Running,
}

/// Where the writer runs, for [`Writer::stop`] to wait on.
#[derive(Debug)]
enum Running {
    /// A task on the runtime that started it.
    Task(JoinHandle<()>),
    /// A thread of its own.
    Thread(std::thread::JoinHandle<()>),
}

impl Writer {
    /// Starts the writer on `sink`; its recorder. On a thread and runtime of
    /// its own where the sink allows it ([`Sink::runs_on_any_runtime`]),
    /// else (or if the system gives no thread) as a task on the current
    /// runtime.
    pub fn spawn(sink: Arc<dyn Sink>, config: WriterConfig) -> (Recorder, Writer) {
        let own_thread = sink.runs_on_any_runtime();
        let (tx, rx) = mpsc::channel(config.capacity.max(1));
        let (stop, stopped) = oneshot::channel();
        let counters = Arc::<Counters>::default();
        let recorder = Recorder::new(tx, counters.clone());
        let run = Run {
            ceiling: Ceiling::new(&config),
            sink,
            config,
            counters,
            down: false,
        }
        .run(rx, stopped);
        let on_its_own = if own_thread {
            thread::spawn(run)
        } else {
            Err(run)
        };
        let running = match on_its_own {
            Ok(handle) => Running::Thread(handle),
            Err(run) => Running::Task(tokio::spawn(run)),
        };
        (recorder, Writer { stop, running })
    }

    /// Stops taking events, commits those queued, and ends.
    pub async fn stop(self) {
        let _ = self.stop.send(());
        let ended = match self.running {
            Running::Task(task) => task.await.map_err(|e| e.to_string()),
            Running::Thread(on_its_own) => {
                match tokio::task::spawn_blocking(move || on_its_own.join()).await {
                    Ok(Ok(())) => Ok(()),
                    Ok(Err(panic)) => Err(format!(
                        "its thread panicked: {}",
                        thread::panic_message(&*panic)
                    )),
                    Err(e) => Err(e.to_string()),
                }
            }
        };
        if let Err(e) = ended {
            tracing::warn!("insights: the writer ended badly: {e}");
        }
    }
}

struct Run {
    sink: Arc<dyn Sink>,
    config: WriterConfig,
    ceiling: Ceiling,
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
                    self.gather(&mut rx, &mut batch, max).await;
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

    /// Adds to `batch` what comes within `flush_every` of its first event,
    /// or until it holds `max`. The queue is looked at every twentieth of
    /// that time rather than waited on: a receiver waiting on it is woken by
    /// every event, and at one comment at a time each such wake-up moved the
    /// writer to the other thread and back (46 µs of CPU a comment,
    /// `.ci/loadbench`). Each look moves what is queued into `batch`, which
    /// keeps its memory from batch to batch: the queue's own blocks, taken by
    /// the request threads, stay few (left in it for the whole second, two
    /// megabytes of them were freed and taken again every second under load).
    async fn gather(&self, rx: &mut mpsc::Receiver<Event>, batch: &mut Vec<Event>, max: usize) {
        let deadline = Instant::now() + self.config.flush_every;
        let look = self.config.flush_every / 20;
        loop {
            if batch.len() < max && !rx.is_empty() {
                rx.recv_many(batch, max - batch.len()).await;
            }
            let now = Instant::now();
            if now >= deadline || batch.len() >= max {
                break;
            }
            sleep_until(deadline.min(now + look)).await;
        }
    }

    async fn commit(&mut self, batch: &mut Vec<Event>) {
        let n = batch.len() as u64;
        self.check(false).await;
        if self.ceiling.disk_full() {
            self.counters
                .dropped_disk_full
                .fetch_add(n, Ordering::Relaxed);
            batch.clear();
            return;
        }
        match self.sink.write(batch).await {
            Ok(stored) => {
                let refused = stored.without_visit.min(n);
                self.counters
                    .written
                    .fetch_add(n - refused, Ordering::Relaxed);
                self.counters.refuse(Refusal::NoVisit, refused);
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

    /// Keeps the store under its ceiling and the disk from filling, when a
    /// look is due (or `now`).
    async fn check(&mut self, now: bool) {
        if let Err(e) = self.ceiling.keep(&*self.sink, now).await {
            self.failed(&e);
        }
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
        self.check(true).await;
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
