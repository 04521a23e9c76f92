//! The coach, over the attempts of the filter's visits: comments per model,
//! refusals per reason, the offline share, and latency percentiles per model
//! and language.

use std::collections::BTreeMap;

use super::{count, fetch, stats, Filter, Query};
use crate::{sink::StoreError, store::Store};
use vocabulary::Lang;

/// A model's latencies in one language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Latency {
    pub model: String,
    pub lang: Lang,
    pub comments: u64,
    /// Nearest-rank percentiles, in milliseconds (of latencies stored to
    /// two significant digits).
    pub p50_ms: u64,
    pub p95_ms: u64,
}

/// The coach's report.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CoachReport {
    /// Attempts (one comment each).
    pub comments: u64,
    /// Of those, the offline commentator's.
    pub offline: u64,
    /// Comments per model (`offline` included), by name.
    pub per_model: Vec<(String, u64)>,
    /// Refused comments per reason, by reason.
    pub rejections: Vec<(String, u64)>,
    /// Per model and language, by model then language.
    pub latency: Vec<Latency>,
}

impl CoachReport {
    /// The offline commentator's share of the comments (0 to 1).
    pub fn offline_share(&self) -> f64 {
        if self.comments == 0 {
            0.0
        } else {
            self.offline as f64 / self.comments as f64
        }
    }
}

impl Store {
    /// [`Store::coach`] from the stored rows.
    pub(super) async fn coach_rows(&self, filter: &Filter) -> Result<CoachReport, StoreError> {
        let mut q = Query::default();
        let of = q.attempts_in(filter, "a");
        let q = q.push(&format!(
            "SELECT a.model, a.lang, a.outcome, a.reason, a.latency_ms, COUNT(*) \
             FROM insights_attempts a WHERE {of} \
             GROUP BY a.model, a.lang, a.outcome, a.reason, a.latency_ms"
        ));
        let rows: Vec<(String, String, String, Option<String>, i64, i64)> = fetch(self, &q).await?;
        let mut tally = Tally::default();
        for (model, lang, outcome, reason, latency_ms, n) in rows {
            tally.latency(&model, &lang, latency_ms, n);
            tally.comments(model, &outcome, reason, n);
        }
        Ok(tally.report())
    }
}

/// The coach's report, added up from counted rows.
#[derive(Default)]
pub(super) struct Tally {
    report: CoachReport,
    per_model: BTreeMap<String, u64>,
    rejections: BTreeMap<String, u64>,
    latency: BTreeMap<(String, &'static str), BTreeMap<u64, u64>>,
}

impl Tally {
    /// `n` comments of `model` with this outcome (and reason, if refused).
    pub fn comments(&mut self, model: String, outcome: &str, reason: Option<String>, n: i64) {
        let n = count(n);
        self.report.comments += n;
        match outcome {
            "offline" => self.report.offline += n,
            "rejected" => {
                *self
                    .rejections
                    .entry(reason.unwrap_or_default())
                    .or_default() += n
            }
            _ => {}
        }
        *self.per_model.entry(model).or_default() += n;
    }

    /// `n` comments of `model` in `lang` that took `latency_ms` (a language
    /// this build does not know is left out).
    pub fn latency(&mut self, model: &str, lang: &str, latency_ms: i64, n: i64) {
        if let Some(lang) = Lang::parse(lang) {
            *self
                .latency
                .entry((model.to_string(), lang.code()))
                .or_default()
                .entry(count(latency_ms))
                .or_default() += count(n);
        }
    }

    pub fn report(self) -> CoachReport {
        let mut report = self.report;
        report.per_model = self.per_model.into_iter().collect();
        report.rejections = self.rejections.into_iter().collect();
        report.latency = self
            .latency
            .into_iter()
            .filter_map(|((model, lang), hist)| {
                let hist: Vec<(u64, u64)> = hist.into_iter().collect();
                Some(Latency {
                    model,
                    lang: Lang::parse(lang)?,
                    comments: hist.iter().map(|&(_, n)| n).sum(),
                    p50_ms: stats::percentile_of_counts(&hist, 50)?,
                    p95_ms: stats::percentile_of_counts(&hist, 95)?,
                })
            })
            .collect();
        report
    }
}
