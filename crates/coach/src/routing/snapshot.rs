//! What the router saves: each model's record and breakers as plain numbers
//! ([`SavedModel`], with a [`SavedLang`] per language), made from the live
//! state and put back into it. The file itself is `coach::snapshot`'s
//! business; queues (calls under way) are not saved.
//!
//! A file written before the records were kept per language has
//! no `by_lang`: its one decayed record then seeds every language (it is what
//! the model showed in all of them, and it decays within minutes anyway), and
//! the quality breakers start closed. The per-model `decayed` is still
//! written, as the sum of the languages', so an older server reads a newer
//! file too.

use std::{collections::BTreeMap, time::Duration};

use serde::{Deserialize, Serialize};
use tokio::time::Instant;

use super::{
    breaker::{Breaker, SavedBreaker},
    by_lang::{self, LangRecord, PerLang, VoteTally},
    hedge::LatencyWindow,
    learning::{DecayedCounts, PeakEwma, LATENCY_TAU},
    stats::{ModelStats, ProviderRecord, Tokens, MAX_PROVIDERS},
    Router,
};
use crate::providers::ProviderName;
use vocabulary::Lang;

/// One model's record (see [`ModelStats`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SavedModel {
    pub total: u64,
    pub errors: f64,
    pub successes: u64,
    pub latency_ms_total: u64,
    pub outcomes: BTreeMap<String, u64>,
    pub last_error: Option<String>,
    /// Decayed (successes, failures) as they stood at the save, all
    /// languages together.
    pub decayed: (f64, f64),
    pub latency_ewma_ms: Option<f64>,
    /// The latest answers' times, oldest first.
    pub recent_ms: Vec<u64>,
    /// The breaker for outages.
    pub breaker: SavedBreaker,
    /// Each language's record, by code (`en`, `pt`, `zh`; absent in older
    /// files, and a code this version does not know is skipped).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub by_lang: BTreeMap<String, SavedLang>,
    /// Tokens billed, and the record per inference provider (absent in
    /// older files).
    #[serde(default)]
    pub tokens: Tokens,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub providers: BTreeMap<ProviderName, ProviderRecord>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_provider: Option<ProviderName>,
}

/// One model's record in one language (see [`LangRecord`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SavedLang {
    /// Decayed (successes, failures) as they stood at the save.
    pub decayed: (f64, f64),
    /// The rejected answers among those failures.
    pub rejected: f64,
    pub calls: u64,
    pub successes: u64,
    pub rejections: u64,
    /// The quality breaker in this language.
    pub breaker: SavedBreaker,
    /// Visitors' votes in effect (a file from before votes has none).
    #[serde(default)]
    pub votes: VoteTally,
}

impl Router {
    /// Every model's record and breakers, for the snapshot file.
    pub fn save(&self, now: Instant) -> BTreeMap<String, SavedModel> {
        let hl = self.records.half_life;
        self.records
            .models
            .iter()
            .map(|(alias, s)| {
                let quality = self.breakers.quality(alias);
                let by_lang = s
                    .by_lang
                    .iter()
                    .map(|(lang, r)| {
                        let saved = SavedLang {
                            decayed: r.decayed.at(now, hl),
                            rejected: r.decayed.rejected_at(now, hl),
                            calls: r.calls,
                            successes: r.successes,
                            rejections: r.rejections,
                            breaker: quality.map(|q| q[lang].save(now)).unwrap_or_default(),
                            votes: r.votes,
                        };
                        (lang.code().to_string(), saved)
                    })
                    .collect();
                let saved = SavedModel {
                    total: s.total,
                    errors: s.errors,
                    successes: s.successes,
                    latency_ms_total: s.latency_ms_total,
                    outcomes: s.outcomes.clone(),
                    last_error: s.last_error.as_ref().map(ToString::to_string),
                    decayed: by_lang::total(&s.by_lang, now, hl),
                    latency_ewma_ms: s.latency.get(now, LATENCY_TAU),
                    recent_ms: s.window.to_millis(),
                    breaker: self
                        .breakers
                        .model(alias)
                        .map(|b| b.save(now))
                        .unwrap_or_default(),
                    by_lang,
                    tokens: s.tokens,
                    providers: s.providers.clone(),
                    last_provider: s.last_provider.clone(),
                };
                (alias.clone(), saved)
            })
            .collect()
    }

    /// Puts back the saved records of the models the registry still has,
    /// aged by `downtime`; models not in the file keep a fresh record.
    pub fn restore(
        &mut self,
        saved: &BTreeMap<String, SavedModel>,
        downtime: Duration,
        now: Instant,
    ) -> usize {
        self.changed();
        let (hl, config) = (self.records.half_life, self.breakers.config);
        let mut restored = 0;
        for (alias, s) in &mut self.records.models {
            let Some(m) = saved.get(alias) else {
                continue;
            };
            let langs = saved_langs(m);
            let record = |lang: Lang| match langs[lang] {
                Some(l) => LangRecord {
                    decayed: DecayedCounts::restore(l.decayed, l.rejected, downtime, hl, now),
                    calls: l.calls,
                    successes: l.successes.min(l.calls),
                    rejections: l.rejections.min(l.calls),
                    votes: l.votes,
                },
                // An older file: its one record seeds every language.
                None if langs.iter().all(|(_, l)| l.is_none()) => LangRecord {
                    decayed: DecayedCounts::restore(m.decayed, 0.0, downtime, hl, now),
                    ..LangRecord::default()
                },
                None => LangRecord::default(),
            };
            *s = ModelStats {
                total: m.total,
                errors: if m.errors.is_finite() {
                    m.errors.max(0.0)
                } else {
                    0.0
                },
                share: 0.0,
                errop: 0.0,
                pok: 1.0,
                successes: m.successes.min(m.total),
                latency_ms_total: m.latency_ms_total,
                outcomes: m.outcomes.clone(),
                tokens: m.tokens,
                providers: m
                    .providers
                    .iter()
                    .take(MAX_PROVIDERS)
                    .map(|(name, record)| (name.clone(), record.clone()))
                    .collect(),
                last_provider: m.last_provider.clone(),
                // A name this version does not know is dropped, not fatal.
                last_error: m.last_error.as_deref().and_then(|e| e.parse().ok()),
                by_lang: PerLang::from_fn(record),
                latency: PeakEwma::restore(m.latency_ewma_ms, now),
                window: LatencyWindow::from_millis(&m.recent_ms),
            };
            s.refresh();
            self.breakers.outage.insert(
                alias.clone(),
                Breaker::restore(config, &m.breaker, downtime, now),
            );
            let quality = PerLang::from_fn(|lang| match langs[lang] {
                Some(l) => Breaker::restore(config, &l.breaker, downtime, now),
                None => Breaker::new(config),
            });
            self.breakers.quality.insert(alias.clone(), quality);
            restored += 1;
        }
        self.records.refresh_shares();
        restored
    }
}

/// Each language's saved record, if the file has it.
fn saved_langs(m: &SavedModel) -> PerLang<Option<&SavedLang>> {
    let mut langs = PerLang::default();
    for (code, saved) in &m.by_lang {
        if let Some(lang) = Lang::parse(code).filter(|l| l.code() == code) {
            langs[lang] = Some(saved);
        }
    }
    langs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        feedback::Vote,
        model::Account,
        outcome::Outcome,
        routing::{strategy::ThompsonStrategy, Finished, Tickets},
    };

    fn router() -> Router {
        let mut r = Router::new(Box::new(ThompsonStrategy));
        r.sync([("m", Account::keyless("127.0.0.1"))]);
        r
    }

    fn call(r: &mut Router, lang: Lang, outcome: Outcome) {
        let t = r
            .try_acquire("m", lang, Instant::now())
            .unwrap_or(Tickets::ORDINARY);
        let ms = Duration::from_millis(300);
        r.record_outcome(
            Finished {
                alias: "m",
                lang,
                latency: ms,
                outcome: &outcome,
                wait: None,
                tickets: t,
            },
            Instant::now(),
        );
    }

    /// What the models cost and who served them is saved with the rest, and
    /// a file without it (an older server's) still loads.
    #[tokio::test(start_paused = true)]
    async fn tokens_and_providers_survive_a_restart() {
        use crate::providers::{ProviderName, Served, Usage};
        let mut first = router();
        let served = Served {
            by: ProviderName::parse("nscale"),
            usage: Usage::new(Some(412), Some(23)),
        };
        for _ in 0..2 {
            call(&mut first, Lang::En, Outcome::Ok);
            first.record_served("m", &Outcome::Ok, &served);
        }
        let json = serde_json::to_string(&first.save(Instant::now())).unwrap();
        let saved: BTreeMap<String, SavedModel> = serde_json::from_str(&json).unwrap();
        let mut second = router();
        second.restore(&saved, Duration::ZERO, Instant::now());
        let (a, b) = (first.stats("m").unwrap(), second.stats("m").unwrap());
        assert_eq!(
            (a.tokens, &a.providers, &a.last_provider),
            (b.tokens, &b.providers, &b.last_provider)
        );
        assert_eq!(
            (b.tokens.prompt, b.tokens.completion, b.tokens.answers),
            (824, 46, 2)
        );
        let older = json.replace(r#""providers""#, r#""unused""#);
        assert!(serde_json::from_str::<BTreeMap<String, SavedModel>>(&older).is_ok());
    }

    /// The per-language records and quality breakers are saved.
    #[tokio::test(start_paused = true)]
    async fn each_languages_record_and_quality_breaker_survive_a_restart() {
        let mut first = router();
        for _ in 0..3 {
            call(&mut first, Lang::En, Outcome::Ok);
        }
        for _ in 0..5 {
            call(
                &mut first,
                Lang::Pt,
                Outcome::Rejected("wrong language".into()),
            );
        }
        // And the visitors' votes in effect.
        for vote in [Vote::Up, Vote::Down, Vote::Down] {
            first.record_vote("m", Lang::Zh, vote, None, Instant::now());
        }
        let saved = first.save(Instant::now());
        let json = serde_json::to_string(&saved).unwrap();
        assert!(json.contains(r#""by_lang":{"en":"#), "{json}");
        let saved: BTreeMap<String, SavedModel> = serde_json::from_str(&json).unwrap();
        assert_eq!(
            saved["m"].decayed,
            (4.0, 7.0),
            "the total (3 answers and a vote up; 5 rejected and 2 votes down), for older servers"
        );

        let mut second = router();
        assert_eq!(second.restore(&saved, Duration::ZERO, Instant::now()), 1);
        let now = Instant::now();
        for lang in Lang::ALL {
            let (a, b) = (
                &first.stats("m").unwrap().by_lang[lang],
                &second.stats("m").unwrap().by_lang[lang],
            );
            assert_eq!(
                (a.calls, a.successes, a.rejections, a.votes),
                (b.calls, b.successes, b.rejections, b.votes)
            );
            assert_eq!(a.decayed.at(now, DEFAULT_HL), b.decayed.at(now, DEFAULT_HL));
            assert_eq!(
                a.decayed.rejected_at(now, DEFAULT_HL),
                b.decayed.rejected_at(now, DEFAULT_HL)
            );
        }
        assert_eq!(
            second.stats("m").unwrap().by_lang[Lang::Zh].votes,
            VoteTally { up: 1, down: 2 }
        );
        let state = |lang| second.quality_breaker("m", lang).unwrap().report(now).state;
        assert_eq!((state(Lang::En), state(Lang::Pt)), ("closed", "open"));
    }

    /// A file written before the per-language records (no `by_lang`) still loads: its one
    /// record seeds every language.
    #[tokio::test(start_paused = true)]
    async fn an_older_file_seeds_every_language_with_its_one_record() {
        let old = r#"{"total":3,"errors":1.0,"successes":2,"latency_ms_total":900,
            "outcomes":{"ok":2,"timeout":1},"last_error":"timeout","decayed":[1.8,0.9],
            "latency_ewma_ms":420.0,"recent_ms":[400,450],
            "breaker":{"open_for_s":null,"consecutive_failures":1,"opened_in_a_row":0,"consecutive_rejections":2}}"#;
        let saved = BTreeMap::from([(
            "m".to_string(),
            serde_json::from_str::<SavedModel>(old).unwrap(),
        )]);
        let mut r = router();
        assert_eq!(r.restore(&saved, Duration::ZERO, Instant::now()), 1);
        let now = Instant::now();
        let s = r.stats("m").unwrap();
        for lang in Lang::ALL {
            let (succ, fail) = s.by_lang[lang].decayed.at(now, DEFAULT_HL);
            assert!(
                (succ - 1.8).abs() < 1e-9 && (fail - 0.9).abs() < 1e-9,
                "{lang:?}"
            );
            assert_eq!(
                r.quality_breaker("m", lang).unwrap().report(now).state,
                "closed"
            );
        }
        assert_eq!((s.total, s.successes), (3, 2));
        // A language code this version does not know is skipped, not fatal.
        let mut newer = r.save(now);
        let fr = newer["m"].by_lang["en"].clone();
        newer.get_mut("m").unwrap().by_lang.insert("fr".into(), fr);
        assert_eq!(router().restore(&newer, Duration::ZERO, now), 1);
    }

    const DEFAULT_HL: Duration = crate::routing::DEFAULT_HALF_LIFE;
}
