//! Where the visitor's errors are heading: first, improving, worse or stuck,
//! and the best so far. Read by the prompt and the offline commentator.
//! Pure.

/// Where the visitor's errors are heading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    First,
    Improving,
    Worse,
    Stuck,
}

/// The history, summed up for the prompt.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trend {
    /// The current attempt's error.
    pub error: f64,
    /// Attempts so far, the current one included.
    pub attempts: usize,
    pub direction: Direction,
    /// Lowest error so far, the current one included.
    pub best: f64,
    /// The current attempt is the best so far.
    pub is_best: bool,
}

impl Trend {
    /// `history` holds the earlier errors, oldest first.
    pub fn of(error: f64, history: &[f64]) -> Self {
        let direction = match history.last() {
            None => Direction::First,
            Some(&previous) if (error - previous).abs() <= (previous * 0.005).max(0.5) => {
                Direction::Stuck
            }
            Some(&previous) if error < previous => Direction::Improving,
            Some(_) => Direction::Worse,
        };
        let earlier_best = history.iter().copied().fold(f64::INFINITY, f64::min);
        Self {
            error,
            attempts: history.len() + 1,
            direction,
            best: earlier_best.min(error),
            is_best: error < earlier_best,
        }
    }
}
