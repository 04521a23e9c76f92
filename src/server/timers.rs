//! A timer always due soon, so that setting a model call's timeout wakes
//! nobody.
//!
//! Tokio's time driver parks its thread until the earliest timer it holds,
//! and wakes it (a write to the runtime's eventfd, and for a worker asleep
//! on the driver a thread switch) whenever a timer is set earlier than the
//! time it parked until (`runtime::time::Driver::reregister`, tokio 1.54).
//! With no timer pending it parks with no end, so every comment's call,
//! whose timeout is a timer, cost a wake-up: one `write` a comment at one
//! connection (`strace -c`), where a server without timers makes none.
//! [`keep_one_due`] keeps a tick pending at most [`EVERY`] away, never
//! later than a call's timeout can end (the registry's shortest,
//! `coach::registry::TIMEOUT_MS`), so the driver never has to be woken for one. Its cost is a
//! wake-up every [`EVERY`] while the server idles.

use std::time::Duration;

use coach::registry::TIMEOUT_MS;
use tokio::time::{interval, MissedTickBehavior};

/// How often the tick comes: the shortest model timeout the registry allows.
pub const EVERY: Duration = Duration::from_millis(*TIMEOUT_MS.start());

/// Ticks every [`EVERY`], for ever (the server aborts it when it stops).
pub async fn keep_one_due() {
    let mut tick = interval(EVERY);
    tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
    }
}
