//! The default strategy's targets (docs/benchmarks/router.md): each one
//! checked in every scenario it applies to, with the closest call and every
//! miss.

use super::{
    report::{percent, seconds, Row, DEFAULT},
    Scenario,
};

/// How far below the original server's success the default strategy may fall: 0.01
/// percentage points, 5 requests of 50,000. Every strategy meets the same
/// luck, so no sampling noise needs room; but in scenario 6 every strategy
/// fails the same requests while all models are down (the oracle too: 79.74
/// %), and which strategy wins the few requests at the moment a model comes
/// back is a matter of one or two (over seeds 1–20, ±1 for the code before
/// the per-language records as well). A real loss of success is more.
const SUCCESS_SLACK: f64 = 0.0001;

/// One target of the default strategy, checked in every scenario it applies to.
pub struct Target {
    pub name: &'static str,
    /// The closest call (or the worst miss): scenario and figures.
    pub worst: String,
    /// Each scenario where it was missed, with the figures.
    pub misses: Vec<String>,
}

/// One scenario's check of a target: how much room is left (negative: missed;
/// only used to find the closest call), whether it is met, and the figures.
struct Check {
    room: f64,
    met: bool,
    text: String,
}

impl Target {
    /// A target checked once (`room`: how much is left; negative: missed).
    pub fn one(name: &'static str, room: f64, met: bool, text: String) -> Self {
        Self::from_checks(name, vec![Check { room, met, text }])
    }

    /// `better`'s row of `rows` has less of `per_request` (× 100) than
    /// `worse`'s, said in `unit` ("wasted calls per 100 requests").
    pub fn fewer(
        name: &'static str,
        rows: &[Row],
        (better, worse): (&str, &str),
        per_request: fn(&Row) -> f64,
        unit: &str,
    ) -> Option<Self> {
        let of = |strategy: &str| {
            rows.iter()
                .find(|r| r.strategy == strategy)
                .map(per_request)
        };
        let (a, b) = (100.0 * of(better)?, 100.0 * of(worse)?);
        Some(Self::one(
            name,
            b - a,
            a < b,
            format!("{a:.2} vs {b:.2} {unit}"),
        ))
    }

    fn from_checks(name: &'static str, checks: Vec<Check>) -> Self {
        let worst = checks
            .iter()
            .min_by(|a, b| a.room.total_cmp(&b.room))
            .map_or_else(|| "–".to_string(), |c| c.text.clone());
        let misses = checks
            .into_iter()
            .filter(|c| !c.met)
            .map(|c| c.text)
            .collect();
        Self {
            name,
            worst,
            misses,
        }
    }
}

/// One scenario's rows: the default strategy's, the original server's and the oracle's.
struct Compared<'a> {
    scenario: Scenario,
    default: &'a Row,
    seed: &'a Row,
    oracle: &'a Row,
}

impl Compared<'_> {
    /// The default strategy's p95 at most `limit` × `other`'s.
    fn p95_within(&self, other: &Row, limit: f64) -> Check {
        let (mine, theirs) = (self.default.p95, other.p95);
        let ratio = mine as f64 / theirs.max(1) as f64;
        let figures = format!("{mine} vs {theirs} ms ({ratio:.2} ×)");
        self.check(limit - ratio, ratio <= limit, figures)
    }

    fn check(&self, room: f64, met: bool, figures: String) -> Check {
        Check {
            room,
            met,
            text: format!("{}: {figures}", self.scenario.name()),
        }
    }
}

/// The default strategy's targets (docs/benchmarks/router.md), checked on `rows`.
pub fn targets(rows: &[Row]) -> Vec<Target> {
    let row = |scenario: Scenario, strategy: &str| {
        rows.iter()
            .find(|r| r.scenario == scenario && r.strategy == strategy)
    };
    let all: Vec<Compared> = Scenario::ALL
        .iter()
        .filter_map(|s| {
            Some(Compared {
                scenario: *s,
                default: row(*s, DEFAULT)?,
                seed: row(*s, "seed")?,
                oracle: row(*s, "oracle")?,
            })
        })
        .collect();
    let each = |check: fn(&Compared) -> Option<Check>| all.iter().filter_map(check).collect();
    vec![
        Target::from_checks(
            "success ≥ the original server's − 0.01 points (5 of 50,000 requests), every scenario",
            each(|c| {
                let more = c.default.successes as f64 - c.seed.successes as f64;
                let allowed = SUCCESS_SLACK * c.seed.requests as f64;
                let figures = format!(
                    "{} vs {} ({more:+} requests)",
                    percent(c.default.success),
                    percent(c.seed.success)
                );
                Some(c.check(more + allowed, more + allowed >= 0.0, figures))
            }),
        ),
        Target::from_checks(
            "p95 ≤ the original server's, every scenario",
            each(|c| Some(c.p95_within(c.seed, 1.0))),
        ),
        Target::from_checks(
            "p95 ≤ 1.10 × the oracle's, every scenario",
            each(|c| Some(c.p95_within(c.oracle, 1.10))),
        ),
        Target::from_checks(
            "success ≥ 99.5 % while ≥ 1 model is healthy",
            each(|c| {
                let room = c.default.healthy_success - 0.995;
                Some(c.check(room, room >= 0.0, percent(c.default.healthy_success)))
            }),
        ),
        Target::from_checks(
            "a recovered model has its share back within 60 s (median of the runs)",
            each(|c| {
                let (median, worst) = c.default.recovery()?;
                let figures = format!("{} s (worst run {} s)", seconds(median), seconds(worst));
                Some(c.check(60.0 - median, median <= 60.0, figures))
            }),
        ),
        Target::from_checks(
            "≤ 1.10 upstream calls per request in the steady scenario",
            each(|c| {
                let calls = c.default.calls_per_request;
                (c.scenario == Scenario::Steady)
                    .then(|| c.check(1.10 - calls, calls <= 1.10 + 1e-9, format!("{calls:.2}")))
            }),
        ),
        Target::from_checks(
            "an always-rejected model gets < 2 % of first picks after 60 s",
            each(|c| {
                let after = *c.default.rejected_shares.last()?;
                Some(c.check(0.02 - after, after < 0.02, percent(after)))
            }),
        ),
    ]
}
