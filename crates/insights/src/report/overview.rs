//! What the page shows, read from the store in one go ([`Data::load`]), and
//! the summaries made of it here: the histograms of effort ([`bin_counts`])
//! and where the visits that stopped short of the goal stopped ([`bands`]).
//!
//! Each report has [`REPORT_TIME`] to answer: one that takes longer is left
//! empty and named in [`Data::slow`], and the page says that section took
//! too long instead of waiting (the reports read through a pool of their own,
//! so the writer never waits for them either).

use std::{future::Future, time::Duration};

use crate::lessons;
use crate::{
    report::{
        coach::CoachReport,
        effort::{Effort, Point, Points},
        funnel::{Day, Funnel},
        teaching::TeachingReport,
        tools::ToolReport,
        Filter,
    },
    sink::StoreError,
    store::Store,
};
use lesson::lessons::Which;

/// The most dots, and the most paths, the map draws (the latest).
pub const CAP: u32 = 200;
/// How long a report may take.
pub const REPORT_TIME: Duration = Duration::from_secs(15);

/// Everything the page shows, for one filter.
#[derive(Clone, Debug, Default)]
pub struct Data {
    /// The filter's lesson: what the funnel's rungs and the goal are.
    pub lesson: Which,
    pub funnel: Funnel,
    pub days: Vec<Day>,
    pub effort: Effort,
    pub points: Points,
    pub tools: Vec<ToolReport>,
    pub coach: CoachReport,
    /// What teaches (the coach's section too).
    pub teaching: TeachingReport,
    /// The sections whose report took longer than it may (by their ids:
    /// `funnel`, `days`, `effort`, `stuck`, `helps`, `coach`), left empty.
    pub slow: Vec<&'static str>,
}

impl Data {
    /// Runs the reports at once, each within [`REPORT_TIME`].
    pub async fn load(store: &Store, filter: &Filter) -> Result<Self, StoreError> {
        Self::load_within(store, filter, REPORT_TIME).await
    }

    /// [`Data::load`], each report within `limit`.
    pub async fn load_within(
        store: &Store,
        filter: &Filter,
        limit: Duration,
    ) -> Result<Self, StoreError> {
        let (funnel, days, effort, points, tools, coach, teaching) = tokio::join!(
            within(limit, "funnel", store.funnel(filter)),
            within(limit, "days", store.per_day(filter)),
            within(limit, "effort", store.effort(filter)),
            within(limit, "stuck", store.points(filter, CAP)),
            within(limit, "helps", store.tools(filter)),
            within(limit, "coach", store.coach(filter)),
            within(limit, "coach", store.teaching(filter)),
        );
        let mut late = Late::default();
        Ok(Self {
            lesson: filter.lesson,
            funnel: late.take(funnel)?,
            days: late.take(days)?,
            effort: late.take(effort)?,
            points: late.take(points)?,
            tools: late.take(tools)?,
            coach: late.take(coach)?,
            teaching: late.take(teaching)?,
            slow: late.0,
        })
    }

    /// Every section too slow (the page waited too long for its turn).
    pub fn all_slow() -> Self {
        Self {
            slow: vec!["funnel", "days", "effort", "stuck", "helps", "coach"],
            ..Self::default()
        }
    }

    /// Whether the section `id`'s report took too long.
    pub fn is_slow(&self, id: &str) -> bool {
        self.slow.contains(&id)
    }
}

/// The sections found too slow so far.
#[derive(Default)]
struct Late(Vec<&'static str>);

impl Late {
    /// `report`'s answer; its section noted (once) if it was late.
    fn take<T>(&mut self, (report, late): Timed<T>) -> Result<T, StoreError> {
        if let Some(section) = late.filter(|s| !self.0.contains(s)) {
            self.0.push(section);
        }
        report
    }
}

/// A report's answer, and its section's id if it took too long.
type Timed<T> = (Result<T, StoreError>, Option<&'static str>);

/// `report` if it answers within `limit`; else its empty value and `name`.
async fn within<T: Default>(
    limit: Duration,
    name: &'static str,
    report: impl Future<Output = Result<T, StoreError>>,
) -> Timed<T> {
    match tokio::time::timeout(limit, report).await {
        Ok(answer) => (answer, None),
        Err(_) => {
            tracing::warn!(
                "/insights: the {name} report took longer than {limit:?}; shown as such"
            );
            (Ok(T::default()), Some(name))
        }
    }
}

/// A histogram's bin: from, and to (inclusive; `None`: no end).
pub type Bin = (u64, Option<u64>);

/// Attempts to the goal.
pub const ATTEMPT_BINS: [Bin; 8] = [
    (1, Some(1)),
    (2, Some(2)),
    (3, Some(3)),
    (4, Some(5)),
    (6, Some(10)),
    (11, Some(20)),
    (21, Some(50)),
    (51, None),
];

/// Whole minutes to the goal.
pub const MINUTE_BINS: [Bin; 8] = [
    (0, Some(1)),
    (2, Some(3)),
    (4, Some(5)),
    (6, Some(10)),
    (11, Some(20)),
    (21, Some(30)),
    (31, Some(60)),
    (61, None),
];

/// How many of `values` fall in each of `bins` (which cover every value
/// from the first bin's start).
pub fn bin_counts(values: &[u64], bins: &[Bin]) -> Vec<u64> {
    let mut counts = vec![0; bins.len()];
    for &v in values {
        if let Some(i) = bins
            .iter()
            .position(|&(from, to)| v >= from && to.is_none_or(|to| v <= to))
        {
            counts[i] += 1;
        }
    }
    counts
}

/// A bin as the chart labels it: `3`, `4–5`, `51+`.
pub fn bin_label((from, to): Bin) -> String {
    match to {
        Some(to) if to == from => from.to_string(),
        Some(to) => format!("{from}–{to}"),
        None => format!("{from}+"),
    }
}

/// The visits that stopped in one band of last errors.
#[derive(Clone, Debug, PartialEq)]
pub struct Band {
    pub visits: u64,
    pub median_weight: Option<f64>,
    /// Lesson 2's `w2` (0 in lesson 1).
    pub median_weight2: Option<f64>,
    pub median_bias: Option<f64>,
}

/// The band of a last error in `lesson`: above its first rung, then up to
/// each of its rungs ([`lessons::rungs`]; each band holds its upper bound, as
/// the funnel's rungs do).
fn band_of(lesson: Which, error: f64) -> usize {
    lessons::rungs(lesson)
        .iter()
        .take_while(|&&rung| error <= rung)
        .count()
}

/// The last points of the visits of `lesson` that did not reach its goal, in
/// four bands of their error ([`band_of`]; lesson 1: above 799, 600–799,
/// 500–600, 450–500).
pub fn bands(lesson: Which, stuck: &[Point]) -> [Band; 4] {
    let mut points: [Vec<&Point>; 4] = Default::default();
    for p in stuck.iter().filter(|p| !lesson.reaches_goal(p.error)) {
        points[band_of(lesson, p.error).min(3)].push(p);
    }
    points.map(|ps| Band {
        visits: ps.len() as u64,
        median_weight: median(ps.iter().map(|p| p.weight).collect()),
        median_weight2: median(ps.iter().map(|p| p.weight2).collect()),
        median_bias: median(ps.iter().map(|p| p.bias).collect()),
    })
}

/// The median of finite `values` (the mean of the middle two for an even count).
pub fn median(mut values: Vec<f64>) -> Option<f64> {
    values.retain(|v| v.is_finite());
    values.sort_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(values[n / 2]),
        _ => Some((values[n / 2 - 1] + values[n / 2]) / 2.0),
    }
}

/// Where the median of sorted `values` falls along `bins`, as the index of
/// its bin and its place in it (0 to 1), for the histogram's mark.
pub fn median_place(values: &[u64], bins: &[Bin]) -> Option<(usize, f64)> {
    let m = crate::report::stats::median(values)?;
    let i = bins.iter().rposition(|&(from, _)| m >= from as f64)?;
    let (from, to) = bins[i];
    let place = match to {
        Some(to) => (m - from as f64 + 0.5) / ((to - from + 1) as f64),
        None => 0.5,
    };
    Some((i, place.clamp(0.0, 1.0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(weight: f64, bias: f64, error: f64) -> Point {
        Point {
            weight,
            weight2: 0.0,
            bias,
            error,
        }
    }

    #[test]
    fn values_fall_in_their_bins() {
        assert_eq!(
            bin_counts(&[1, 1, 2, 4, 5, 6, 50, 51, 900], &ATTEMPT_BINS),
            [2, 1, 0, 2, 1, 0, 1, 2]
        );
        assert_eq!(
            bin_counts(&[0, 1, 2, 61], &MINUTE_BINS),
            [2, 1, 0, 0, 0, 0, 0, 1]
        );
        assert_eq!(
            bin_counts(&[0], &ATTEMPT_BINS),
            [0; 8],
            "0 attempts is no bin"
        );
        let labels: Vec<String> = ATTEMPT_BINS.iter().map(|&b| bin_label(b)).collect();
        assert_eq!(
            labels,
            ["1", "2", "3", "4–5", "6–10", "11–20", "21–50", "51+"]
        );
    }

    #[test]
    fn stuck_visits_are_banded_by_their_last_error() {
        let stuck = [
            p(0.1, 150.0, 100_000.0),
            p(0.2, 100.0, 799.0),
            p(0.2, 120.0, 600.5),
            p(0.18, 80.0, 600.0),
            p(0.17, 90.0, 500.0),
            p(0.16, 70.0, 450.1),
            p(0.15, 60.0, 460.0),
            p(0.0, 0.0, 449.0),
        ];
        let b = bands(Which::One, &stuck);
        assert_eq!(b.clone().map(|b| b.visits), [1, 2, 1, 3]);
        assert_eq!(b[1].median_bias, Some(110.0));
        assert_eq!(b[3].median_weight, Some(0.16));
        assert_eq!(bands(Which::One, &[])[0].median_weight, None);
        let two = [
            p(0.1, 150.0, 3431.91),
            p(0.18, 5.0, 1423.44),
            p(0.19, 3.0, 1420.0),
        ];
        let b = bands(Which::Two, &two);
        // 1,420 is not below 1,420: it is in the last band, with 1,423.44.
        assert_eq!(b.map(|b| b.visits), [1, 0, 0, 2]);
    }

    #[test]
    fn the_median_mark_sits_in_its_bin() {
        assert_eq!(median_place(&[], &ATTEMPT_BINS), None);
        assert_eq!(median_place(&[3], &ATTEMPT_BINS), Some((2, 0.5)));
        // 4.5 in 4–5: the middle of the bin.
        assert_eq!(median_place(&[4, 5], &ATTEMPT_BINS), Some((3, 0.5)));
        assert_eq!(median_place(&[70, 80, 90], &ATTEMPT_BINS), Some((7, 0.5)));
        assert_eq!(median(vec![3.0, f64::NAN, 1.0]), Some(2.0));
    }
}
