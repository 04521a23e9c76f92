//! The calls of one request under way (the first, and a hedge beside it),
//! polled together inside the request's own task.
//!
//! `futures`' `FuturesUnordered` would do the same, but each time it has
//! polled all of its futures and none is ready it wakes its task again, to
//! yield to others (futures-rs #2333). With one call under way that is
//! every poll, and tokio runs a task that wakes itself as a yield: at the
//! back of the queue, with another worker thread woken to take it. Each
//! comment then moved between threads on every wake. A request never has
//! more than two calls at once, so polling each on every wake costs
//! nothing, and no wake-up is added.

use std::{
    future::{poll_fn, Future},
    pin::Pin,
    task::Poll,
};

/// Futures under way, polled in the order they were added.
pub(super) struct Running<F> {
    calls: Vec<Pin<Box<F>>>,
}

impl<F: Future> Running<F> {
    pub(super) fn new() -> Self {
        Self { calls: Vec::new() }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.calls.is_empty()
    }

    pub(super) fn push(&mut self, call: F) {
        self.calls.push(Box::pin(call));
    }

    /// The output of the first that is ready; `None` when none is left.
    /// The others go on running (dropped with `self`: cancelled).
    pub(super) async fn next(&mut self) -> Option<F::Output> {
        poll_fn(|cx| {
            if self.calls.is_empty() {
                return Poll::Ready(None);
            }
            for i in 0..self.calls.len() {
                if let Poll::Ready(out) = self.calls[i].as_mut().poll(cx) {
                    self.calls.remove(i);
                    return Poll::Ready(Some(out));
                }
            }
            Poll::Pending
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[tokio::test(start_paused = true)]
    async fn the_first_ready_comes_out_and_the_rest_go_on() {
        let mut running = Running::new();
        assert!(running.is_empty());
        let after = |ms: u64, name: &'static str| async move {
            tokio::time::sleep(Duration::from_millis(ms)).await;
            name
        };
        running.push(Box::pin(after(300, "slow")) as Pin<Box<dyn Future<Output = _>>>);
        running.push(Box::pin(after(100, "fast")));
        assert_eq!(running.next().await, Some("fast"));
        assert!(!running.is_empty());
        assert_eq!(running.next().await, Some("slow"));
        assert_eq!(running.next().await, None);
    }

    /// A future that counts how often its task is woken while it waits.
    #[tokio::test]
    async fn waiting_adds_no_wake_up() {
        use std::sync::{
            atomic::{AtomicUsize, Ordering},
            Arc,
        };
        use std::task::{Wake, Waker};

        struct Count(AtomicUsize);
        impl Wake for Count {
            fn wake(self: Arc<Self>) {
                self.0.fetch_add(1, Ordering::SeqCst);
            }
        }
        let count = Arc::new(Count(AtomicUsize::new(0)));
        let waker = Waker::from(count.clone());
        let mut cx = std::task::Context::from_waker(&waker);
        let mut running = Running::new();
        running.push(std::future::pending::<()>());
        let mut next = Box::pin(running.next());
        for _ in 0..3 {
            assert!(next.as_mut().poll(&mut cx).is_pending());
        }
        assert_eq!(count.0.load(Ordering::SeqCst), 0, "no wake-up of its own");
    }
}
