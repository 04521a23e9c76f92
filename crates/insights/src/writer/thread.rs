//! The writer on a thread of its own, `insights-writer`, with a
//! current-thread runtime of its own, for a sink whose connections belong to
//! no runtime (SQLite's: its batches run SQLite's own calls, which block,
//! on this thread, `crate::db`). Its batches then never take a turn on the
//! server's workers, the threads that answer requests.
//!
//! The runtime is built on the new thread, which says at once whether it
//! has one; only then is the writer's loop handed over, so that a system
//! that gives no thread or runtime leaves the loop with the caller, to run
//! as a task. The loop's end is not the runtime's: what it left running
//! (the connection it last used going back to its pool) ends first.

use std::{
    any::Any,
    future::Future,
    io,
    sync::mpsc::{sync_channel, SendError},
    thread::JoinHandle,
    time::Duration,
};

use tokio::time::Instant;

/// The thread's name, as `/proc` and the load benchmark show it.
const NAME: &str = "insights-writer";
/// How long the runtime waits for what the loop left running.
const LEFTOVERS: Duration = Duration::from_secs(5);

/// Runs `run` on a new thread in a runtime of its own, logging where the
/// caller logs; the thread. `Err(run)`, with a WARN, when the system gives
/// no thread or runtime.
pub(super) fn spawn<F>(mut run: F) -> Result<JoinHandle<()>, F>
where
    F: Future<Output = ()> + Send + 'static,
{
    let (hand, take) = sync_channel::<F>(1);
    let (ready, is_ready) = sync_channel::<io::Result<()>>(1);
    let logs = tracing::dispatcher::get_default(Clone::clone);
    let thread = std::thread::Builder::new()
        .name(NAME.into())
        .spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build();
            let runtime = match runtime {
                Ok(runtime) => runtime,
                Err(e) => {
                    let _ = ready.send(Err(e));
                    return;
                }
            };
            let _ = ready.send(Ok(()));
            let Ok(run) = take.recv() else { return };
            tracing::dispatcher::with_default(&logs, || {
                runtime.block_on(async {
                    run.await;
                    leftovers().await;
                });
                drop(runtime);
            });
        });
    let started = thread.and_then(|thread| match is_ready.recv() {
        Ok(Ok(())) => Ok(thread),
        Ok(Err(e)) => Err(e),
        Err(_) => Err(io::Error::other("its thread ended before it had a runtime")),
    });
    let error = match started {
        Ok(thread) => match hand.send(run) {
            Ok(()) => return Ok(thread),
            Err(SendError(back)) => {
                run = back;
                io::Error::other("its thread ended before it was handed the loop")
            }
        },
        Err(e) => e,
    };
    tracing::warn!("insights: the writer has no thread of its own ({error}); it runs as a task");
    Err(run)
}

/// What a thread's panic said, as far as it can be read.
pub(super) fn panic_message(panic: &(dyn Any + Send)) -> &str {
    panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(no message)")
}

/// Waits until no task is left on the current runtime, a millisecond at a
/// time and for at most [`LEFTOVERS`]: above all the connection the loop
/// last used going back to its pool (sqlx first asks SQLite's thread
/// whether it is still sound). Ended with the runtime instead, the
/// connection would be dropped rather than returned, and closing the store
/// would not wait for it to close.
async fn leftovers() {
    let metrics = tokio::runtime::Handle::current().metrics();
    let deadline = Instant::now() + LEFTOVERS;
    while metrics.num_alive_tasks() > 0 {
        if Instant::now() >= deadline {
            tracing::warn!(
                "insights: what the writer left running did not end within {} s; its connection may close late",
                LEFTOVERS.as_secs()
            );
            return;
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
}
