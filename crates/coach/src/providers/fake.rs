//! A fake provider for unit tests: each model's delay and answer, changeable
//! as a test goes, on tokio's clock (so paused-time tests run instantly). A
//! model may serve one call at a time (as llama.cpp's server does unless told
//! otherwise: the others wait their turn), and may answer well in one
//! language only.

use std::{
    collections::HashMap,
    sync::{
        atomic::{AtomicUsize, Ordering},
        Arc, Mutex,
    },
    time::Duration,
};

use async_trait::async_trait;

use super::{Provider, ProviderError};
use crate::{model::ModelSpec, prompt::Prompt};
use vocabulary::Lang;

/// How one model behaves.
#[derive(Clone, Copy)]
pub struct Behaviour {
    pub delay: Duration,
    /// The delay instead when no other call is under way (the slow first try).
    pub alone: Option<Duration>,
    pub answer: Option<&'static str>,
    /// Serves one call at a time, in the order they came (the others queue).
    pub one_at_a_time: bool,
    /// Answers well only in this language; in the others, an empty answer
    /// (which the reply checks reject).
    pub only: Option<Lang>,
}

/// Answers well after `ms`.
pub fn answers(ms: u64) -> Behaviour {
    Behaviour {
        delay: Duration::from_millis(ms),
        alone: None,
        answer: Some("Nice one. |fim|"),
        one_at_a_time: false,
        only: None,
    }
}

/// Fails with a 502 after 10 ms.
pub fn fails() -> Behaviour {
    Behaviour {
        answer: None,
        ..answers(10)
    }
}

/// Models whose behaviour a test changes as it goes.
#[derive(Default)]
pub struct Fake {
    models: Mutex<HashMap<&'static str, Behaviour>>,
    in_flight: AtomicUsize,
    /// The turn of each one-at-a-time model (tokio's mutex is first come,
    /// first served).
    turns: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

impl Fake {
    pub fn set(&self, alias: &'static str, b: Behaviour) {
        self.models.lock().unwrap().insert(alias, b);
    }
}

struct Leave<'a>(&'a AtomicUsize);
impl Drop for Leave<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

#[async_trait]
impl Provider for Fake {
    async fn complete(
        &self,
        spec: &ModelSpec,
        prompt: &Prompt,
        timeout: Duration,
    ) -> Result<String, ProviderError> {
        let others = self.in_flight.fetch_add(1, Ordering::SeqCst);
        let _leave = Leave(&self.in_flight);
        let b = self.models.lock().unwrap()[spec.alias.as_str()];
        let turn = b.one_at_a_time.then(|| {
            let mut turns = self.turns.lock().unwrap();
            turns.entry(spec.alias.clone()).or_default().clone()
        });
        // Waits for its turn (the caller's timeout runs meanwhile).
        let _turn = match &turn {
            Some(turn) => Some(turn.lock().await),
            None => None,
        };
        let delay = if others == 0 {
            b.alone.unwrap_or(b.delay)
        } else {
            b.delay
        };
        if delay > timeout {
            tokio::time::sleep(timeout).await;
            return Err(ProviderError::Timeout);
        }
        tokio::time::sleep(delay).await;
        match b.only {
            Some(l) if l != prompt.lang => return Ok(String::new()),
            // Good in its one language: an answer written in it.
            Some(Lang::Zh) if b.answer.is_some() => return Ok("不错，继续。|fim|".into()),
            Some(Lang::Pt) if b.answer.is_some() => return Ok("Boa, continue. |fim|".into()),
            _ => {}
        }
        b.answer
            .map(str::to_string)
            .ok_or(ProviderError::Upstream(502))
    }
}
