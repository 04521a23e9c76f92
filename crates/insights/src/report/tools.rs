//! What helps: for each tool, the filter's visits that used it against those
//! that did not, with their goal rate and median attempts to the goal.

use std::collections::BTreeMap;

use super::{count, fetch, stats, Filter, Query};
use crate::{codes::Tool, sink::StoreError, store::Store};

/// A group of visits.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Group {
    pub visits: u64,
    pub reached_goal: u64,
    /// The median number of the first attempt at the goal, over the visits
    /// that reached it (`None` when none did).
    pub median_attempts_to_goal: Option<f64>,
}

impl Group {
    /// The share that reached the goal (0 to 1), `None` for no visits.
    pub fn goal_rate(&self) -> Option<f64> {
        (self.visits > 0).then(|| self.reached_goal as f64 / self.visits as f64)
    }
}

/// One tool's users against the rest.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolReport {
    pub tool: Tool,
    pub used: Group,
    pub not_used: Group,
}

/// Visits by the number of their first attempt at the goal (`None`: not reached).
type ByGoal = BTreeMap<Option<u64>, u64>;

fn group(by_goal: &ByGoal) -> Group {
    let hist: Vec<(u64, u64)> = by_goal
        .iter()
        .filter_map(|(&at, &n)| at.map(|at| (at, n)))
        .collect();
    Group {
        visits: by_goal.values().sum(),
        reached_goal: hist.iter().map(|&(_, n)| n).sum(),
        median_attempts_to_goal: stats::median_of_counts(&hist),
    }
}

impl Store {
    /// [`Store::tools`] from the stored rows.
    pub(super) async fn tools_rows(&self, filter: &Filter) -> Result<Vec<ToolReport>, StoreError> {
        let q = Query::visits(filter)
            .with_visit_attempts(filter)
            .push("SELECT goal_at, COUNT(*) FROM va GROUP BY goal_at");
        let all: Vec<(Option<i64>, i64)> = fetch(self, &q).await?;

        let q = Query::visits(filter).with_visit_attempts(filter).push(
            "SELECT t.tool, va.goal_at, COUNT(*) FROM va \
             JOIN insights_tools t ON t.visit_id = va.visit_id GROUP BY t.tool, va.goal_at",
        );
        let used: Vec<(String, Option<i64>, i64)> = fetch(self, &q).await?;
        Ok(reports(all, used))
    }
}

/// The reports from the visits by their first attempt at the goal (`all`),
/// and the same per tool code (`used`).
pub(super) fn reports(
    all: Vec<(Option<i64>, i64)>,
    used: Vec<(String, Option<i64>, i64)>,
) -> Vec<ToolReport> {
    let all: ByGoal = all
        .into_iter()
        .map(|(at, n)| (at.map(count), count(n)))
        .collect();
    let mut by_tool: BTreeMap<Tool, ByGoal> = BTreeMap::new();
    for (code, at, n) in used {
        // A tool this build does not know (a newer one wrote it) is left out.
        if let Ok(tool) = Tool::parse(&code) {
            *by_tool
                .entry(tool)
                .or_default()
                .entry(at.map(count))
                .or_default() += count(n);
        }
    }
    Tool::ALL
        .iter()
        .map(|&tool| {
            let users = by_tool.remove(&tool).unwrap_or_default();
            let others: ByGoal = all
                .iter()
                .map(|(at, &n)| (*at, n.saturating_sub(users.get(at).copied().unwrap_or(0))))
                .collect();
            ToolReport {
                tool,
                used: group(&users),
                not_used: group(&others),
            }
        })
        .collect()
}
