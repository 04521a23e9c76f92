//! The router's families, read from `Coach::cached_report` at scrape time:
//! calls by outcome and by inference provider, tokens, cost, availability,
//! breaker states, selection probabilities, success estimates, today's calls.

use prometheus_client::{
    collector::Collector,
    encoding::{DescriptorEncoder, EncodeMetric},
    metrics::{counter::ConstCounter, gauge::ConstGauge},
};

use coach::service::Coach;

/// Reads the router's state at scrape time.
#[derive(Debug)]
pub(super) struct RouterState(pub(super) std::sync::Weak<Coach>);

impl Collector for RouterState {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let Some(coach) = self.0.upgrade() else {
            return Ok(());
        };
        let report = coach.cached_report();

        let calls = ConstCounter::new(0u64);
        let mut family = encoder.encode_descriptor(
            "jay_upstream_calls",
            "Model calls by outcome (ok, rejected, timeout, rate_limited, ...)",
            None,
            calls.metric_type(),
        )?;
        for m in report.iter() {
            for (outcome, n) in &m.stats.outcomes {
                let labels = [("model", m.alias.as_str()), ("outcome", outcome.as_str())];
                ConstCounter::new(*n).encode(family.encode_family(&labels)?)?;
            }
        }

        let mut family = encoder.encode_descriptor(
            "jay_upstream_provider_calls",
            "Model calls by the inference provider that took them (x-inference-provider) and outcome",
            None,
            calls.metric_type(),
        )?;
        for m in report.iter() {
            for (provider, record) in &m.providers {
                for (outcome, n) in &record.outcomes {
                    let labels = [
                        ("model", m.alias.as_str()),
                        ("provider", provider.as_str()),
                        ("outcome", outcome.as_str()),
                    ];
                    ConstCounter::new(*n).encode(family.encode_family(&labels)?)?;
                }
            }
        }

        let mut family = encoder.encode_descriptor(
            "jay_upstream_tokens",
            "Tokens the models' answers billed (their usage), prompt and completion",
            None,
            calls.metric_type(),
        )?;
        for m in report.iter() {
            for (kind, n) in [
                ("prompt", m.tokens.prompt),
                ("completion", m.tokens.completion),
            ] {
                let labels = [("model", m.alias.as_str()), ("kind", kind)];
                ConstCounter::new(n).encode(family.encode_family(&labels)?)?;
            }
        }

        let gauge = ConstGauge::new(0.0f64);
        let mut family = encoder.encode_descriptor(
            "jay_upstream_cost_usd",
            "What the models' tokens cost, in USD, at the prices their providers list",
            None,
            gauge.metric_type(),
        )?;
        for m in report.iter() {
            if let Some(cost) = m.cost_usd {
                let labels = [("model", m.alias.as_str())];
                ConstGauge::new(cost).encode(family.encode_family(&labels)?)?;
            }
        }

        let mut family = encoder.encode_descriptor(
            "jay_model_availability",
            "What the latest availability check found (1 = current state: live, not_served, unknown, unchecked)",
            None,
            gauge.metric_type(),
        )?;
        for m in report.iter() {
            let labels = [
                ("model", m.alias.as_str()),
                ("state", m.availability.availability.state()),
            ];
            ConstGauge::new(1.0f64).encode(family.encode_family(&labels)?)?;
        }

        let mut family = encoder.encode_descriptor(
            "jay_breaker_state",
            "Circuit breaker state per model (1 = current state)",
            None,
            gauge.metric_type(),
        )?;
        for m in report.iter() {
            if let Some(b) = &m.breaker {
                let labels = [("model", m.alias.as_str()), ("state", b.state)];
                ConstGauge::new(1.0f64).encode(family.encode_family(&labels)?)?;
            }
        }

        let mut family = encoder.encode_descriptor(
            "jay_selection_probability",
            "Probability of being asked first now (estimated by sampling)",
            None,
            gauge.metric_type(),
        )?;
        for m in report.iter() {
            let labels = [("model", m.alias.as_str())];
            ConstGauge::new(m.probability).encode(family.encode_family(&labels)?)?;
        }

        let mut family = encoder.encode_descriptor(
            "jay_success_estimate",
            "Decayed success estimate per model",
            None,
            gauge.metric_type(),
        )?;
        for m in report.iter() {
            if let Some(p) = m.success_estimate {
                let labels = [("model", m.alias.as_str())];
                ConstGauge::new(p).encode(family.encode_family(&labels)?)?;
            }
        }

        let today = ConstGauge::new(coach.upstream_calls_today() as i64);
        let metric = encoder.encode_descriptor(
            "jay_upstream_calls_today",
            "Model calls made this UTC day (the daily budget counts these)",
            None,
            today.metric_type(),
        )?;
        today.encode(metric)
    }
}
