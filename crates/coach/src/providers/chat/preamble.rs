//! The messages before the question (the system text and the examples
//! shown) as the JSON a chat request sends, escaped once per choice and
//! kept: they are the same for every prompt of a language, lesson and tier
//! that draws the same examples, and escaping them was most of the cost of
//! writing a request body (7,400 instructions a comment, `callgrind`:
//! `docs/benchmarks/load-cpu.md`). Only the question is escaped per request.
//!
//! A choice is known by where its texts are: a prompt's system text and
//! examples are `'static` (`prompt::fixed` writes them once and never frees
//! them), so the same addresses always hold the same texts, and there are as
//! many entries as choices (at most a few hundred, about 1 KB each).

use std::{
    collections::HashMap,
    sync::{LazyLock, PoisonError, RwLock},
};

use serde_json::value::RawValue;

use super::before_question;
use crate::prompt::Prompt;

/// Each message before the question, as JSON.
pub type Preamble = [Box<RawValue>];

/// A choice's key: the addresses of its system text and its examples.
type Key = (usize, usize);

static KEPT: LazyLock<RwLock<HashMap<Key, &'static Preamble>>> = LazyLock::new(RwLock::default);

/// `prompt`'s messages before its question, as JSON.
pub fn of(prompt: &Prompt) -> Result<&'static Preamble, serde_json::Error> {
    let key = (
        prompt.system.as_ptr() as usize,
        prompt.examples.as_ptr() as usize,
    );
    // A poisoned lock holds a map that is still whole: entries are only added.
    if let Some(kept) = KEPT
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .get(&key)
    {
        return Ok(kept);
    }
    let written = write(prompt)?;
    let mut kept = KEPT.write().unwrap_or_else(PoisonError::into_inner);
    Ok(kept.entry(key).or_insert_with(|| Box::leak(written)))
}

/// The messages, escaped.
fn write(prompt: &Prompt) -> Result<Box<Preamble>, serde_json::Error> {
    before_question(prompt)
        .map(|m| serde_json::value::to_raw_value(&m))
        .collect()
}
