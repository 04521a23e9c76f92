//! The request side of recording: a [`Recorder`] (held by the server, cheap
//! to clone) puts each event in the writer's bounded queue with `try_send`,
//! which never waits and never fails a request, and counts what was not
//! recorded and why ([`Stats`], read by `/metrics`):
//!
//! - events lost: the queue was full, the database refused their batch, or
//!   the disk was too full to take it (`super::writer`);
//! - events refused by the rules ([`Refusal`]), where a stranger could
//!   otherwise write rows at will: a comment answered over a limit, an
//!   attempt numbered past [`AttemptNumbers::MAX_RECORDED`](super::AttemptNumbers),
//!   an attempt or a tool of no recent visit, a visit over its address's
//!   hourly allowance, and visits that named a room they were not let into.

use std::sync::{
    atomic::{AtomicBool, AtomicU64, Ordering},
    Arc,
};

use tokio::sync::mpsc;

use super::event::Event;

/// Why something sent was not recorded as sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// The comment was answered over a limit (`limited`: client, busy or
    /// the daily budget): no attempt is recorded.
    Limited,
    /// An attempt numbered past what is recorded.
    AttemptNumber,
    /// An attempt or a tool whose visit is not stored, or began over a day
    /// before (the store's rule).
    NoVisit,
    /// A visit's start over its address's allowance of new visits an hour.
    VisitsPerHour,
    /// A visit that named a room nobody created: recorded without it.
    UnknownRoom,
    /// A visit that named a room with no free seat: recorded without it.
    RoomFull,
}

impl Refusal {
    pub const ALL: [Refusal; 6] = [
        Refusal::Limited,
        Refusal::AttemptNumber,
        Refusal::NoVisit,
        Refusal::VisitsPerHour,
        Refusal::UnknownRoom,
        Refusal::RoomFull,
    ];

    /// The `reason` label of `jay_insights_refused_total`.
    pub fn code(self) -> &'static str {
        match self {
            Refusal::Limited => "limited",
            Refusal::AttemptNumber => "attempt_number",
            Refusal::NoVisit => "no_visit",
            Refusal::VisitsPerHour => "visits_per_hour",
            Refusal::UnknownRoom => "unknown_room",
            Refusal::RoomFull => "room_full",
        }
    }

    fn index(self) -> usize {
        Self::ALL.iter().position(|&r| r == self).unwrap_or(0)
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
    /// Events dropped because the disk was nearly full.
    pub dropped_disk_full: u64,
    /// Events refused by the rules, per [`Refusal::ALL`].
    pub refused: [u64; 6],
}

impl Stats {
    /// Every event lost, whatever the cause (`jay_insights_dropped_total`).
    pub fn dropped(&self) -> u64 {
        self.dropped_queue_full + self.dropped_database + self.dropped_disk_full
    }

    /// Those refused for `why`.
    pub fn refused(&self, why: Refusal) -> u64 {
        self.refused[why.index()]
    }
}

#[derive(Debug, Default)]
pub(super) struct Counters {
    pub written: AtomicU64,
    pub dropped_queue_full: AtomicU64,
    pub dropped_database: AtomicU64,
    pub dropped_disk_full: AtomicU64,
    refused: [AtomicU64; 6],
    /// The queue-full WARN was given.
    warned_full: AtomicBool,
}

impl Counters {
    pub fn refuse(&self, why: Refusal, n: u64) {
        self.refused[why.index()].fetch_add(n, Ordering::Relaxed);
    }
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

    /// A recorder into `queue`, counting into `counters` (the writer's).
    pub(super) fn new(queue: mpsc::Sender<Event>, counters: Arc<Counters>) -> Self {
        Self {
            queue: Some(queue),
            counters,
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

    /// Counts one event not recorded as sent, for `why` (when recording is on).
    pub fn refuse(&self, why: Refusal) {
        if self.is_on() {
            self.counters.refuse(why, 1);
        }
    }

    pub fn stats(&self) -> Stats {
        let c = &self.counters;
        let load = |n: &AtomicU64| n.load(Ordering::Relaxed);
        Stats {
            written: load(&c.written),
            dropped_queue_full: load(&c.dropped_queue_full),
            dropped_database: load(&c.dropped_database),
            dropped_disk_full: load(&c.dropped_disk_full),
            refused: c.refused.each_ref().map(load),
        }
    }
}
