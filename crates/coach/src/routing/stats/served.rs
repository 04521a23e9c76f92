//! What a model's calls cost and who served them: the tokens its answers
//! billed ([`Tokens`], from each answer's `usage`) and, per inference
//! provider the upstream named (`x-inference-provider`), the outcomes and
//! tokens there ([`ProviderRecord`]). Counted for every call, a forced
//! model's too: the money is spent either way. Nothing here steers the
//! routing; `/models`, `/metrics` and the snapshot show it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{bump, Records};
use crate::{
    outcome::Outcome,
    providers::{ProviderName, Served, Usage},
};

/// Providers kept apart per model at most; calls served by any further ones
/// are counted under [`OTHERS`] (Hugging Face had 18 providers in 2026).
pub const MAX_PROVIDERS: usize = 24;

/// Where calls from providers past [`MAX_PROVIDERS`] are counted.
pub const OTHERS: &str = "others";

/// Tokens billed, as the answers' `usage` said.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tokens {
    pub prompt: u64,
    pub completion: u64,
    /// The answers that said (the mean per comment divides by these).
    pub answers: u64,
}

impl Tokens {
    fn add(&mut self, usage: Usage) {
        self.prompt = self.prompt.saturating_add(usage.prompt_tokens);
        self.completion = self.completion.saturating_add(usage.completion_tokens);
        bump(&mut self.answers);
    }

    /// Prompt and completion tokens per answer that said, on average.
    pub fn per_answer(&self) -> Option<(f64, f64)> {
        (self.answers > 0).then(|| {
            let n = self.answers as f64;
            (self.prompt as f64 / n, self.completion as f64 / n)
        })
    }
}

/// One inference provider of one model.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProviderRecord {
    /// Calls by outcome, as in the model's own `outcomes`.
    pub outcomes: BTreeMap<String, u64>,
    pub tokens: Tokens,
}

impl Records {
    /// Counts what `served` says of one finished call of `alias` whose
    /// outcome was `outcome`.
    pub fn record_served(&mut self, alias: &str, outcome: &Outcome, served: &Served) {
        if served == &Served::default() {
            return;
        }
        let Some(s) = self.models.get_mut(alias) else {
            return;
        };
        if let Some(usage) = served.usage {
            s.tokens.add(usage);
        }
        let Some(by) = &served.by else {
            return;
        };
        s.last_provider = Some(by.clone());
        let known = s.providers.contains_key(by) || s.providers.len() < MAX_PROVIDERS - 1;
        let key = if known {
            by.clone()
        } else {
            ProviderName::parse(OTHERS).unwrap_or_else(|| by.clone())
        };
        let record = s.providers.entry(key).or_default();
        bump(record.outcomes.entry(outcome.kind().into()).or_default());
        if let Some(usage) = served.usage {
            record.tokens.add(usage);
        }
    }
}
