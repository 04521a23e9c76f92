//! Jay's score lines: the words under his score at each threshold ("Good job!"
//! under 799, "You cracked 750!", a nod to Yann LeCun under 600, "AI overlord"
//! under 500, "'humanly' possible" under 450), and two teases for a line far off
//! (an error of 100,000 or more, and of 800,000 or more, which only the corner of
//! his sliders' ranges reaches). The page says them in its own words, in each
//! language (`page::i18n`'s `score_lines`); this module only decides which.
//!
//! The thresholds are the goal ladder's rungs with the ladder's own rule
//! ([`rungs_reached`]: at or below a rung, the goal as `reaches_goal` says), so
//! the line and the ticked rung never disagree.

use crate::contour::rungs_reached;

/// An error at or above this is "way off".
pub const WAY_OFF: f64 = 100_000.0;
/// An error at or above this earns "are you even trying?": about the worst the
/// sliders allow (836,906 at weight 0.4, bias 460).
pub const NOT_TRYING: f64 = 800_000.0;

/// Which of Jay's lines an error earns; its number indexes `score_lines`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreLine {
    /// At or below 799 (the first rung).
    Below799 = 0,
    Below750 = 1,
    Below600 = 2,
    Below500 = 3,
    /// The goal (at or below 450).
    Goal = 4,
    /// 100,000 or more.
    WayOff = 5,
    /// 800,000 or more.
    NotTrying = 6,
}

impl ScoreLine {
    /// The line for an attempt with this error; `None` between 799 and 100,000
    /// (and for a NaN), where Jay's page said nothing either.
    #[must_use]
    pub fn of(error: f64) -> Option<Self> {
        if error >= NOT_TRYING {
            return Some(Self::NotTrying);
        }
        if error >= WAY_OFF {
            return Some(Self::WayOff);
        }
        // The lowest rung reached, by the ladder's own rule.
        const AT_RUNG: [ScoreLine; 5] = [
            ScoreLine::Below799,
            ScoreLine::Below750,
            ScoreLine::Below600,
            ScoreLine::Below500,
            ScoreLine::Goal,
        ];
        rungs_reached(error)
            .checked_sub(1)
            .and_then(|i| AT_RUNG.get(i).copied())
    }

    /// Its index in a language's `score_lines`.
    #[must_use]
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::neuron::{min_error, Params, START};

    #[test]
    fn each_threshold_of_jays_page_has_its_line() {
        use ScoreLine::*;
        for (error, line) in [
            (799.09, None),
            (799.0, Some(Below799)),
            (750.01, Some(Below799)),
            (750.0, Some(Below750)),
            (600.5, Some(Below750)),
            (599.99, Some(Below600)),
            (500.0, Some(Below500)),
            (450.01, Some(Below500)),
            (450.0, Some(Goal)),
            (min_error(), Some(Goal)),
            (99_999.99, None),
            (100_000.0, Some(WayOff)),
            (799_999.0, Some(WayOff)),
            (800_000.0, Some(NotTrying)),
            (f64::NAN, None),
            (f64::INFINITY, Some(NotTrying)),
        ] {
            assert_eq!(ScoreLine::of(error), line, "{error}");
        }
        assert_eq!(ScoreLine::of(START.error()), None, "Jay's start: 799.09");
        // Both teases can be earned with the sliders (Jay's ranges).
        assert_eq!(ScoreLine::of(Params::new(0.0, 0.0).error()), Some(WayOff));
        assert_eq!(
            ScoreLine::of(Params::new(0.4, 460.0).error()),
            Some(NotTrying)
        );
    }

    #[test]
    fn indices_cover_a_seven_line_table() {
        let mut seen: Vec<usize> = [
            ScoreLine::Below799,
            ScoreLine::Below750,
            ScoreLine::Below600,
            ScoreLine::Below500,
            ScoreLine::Goal,
            ScoreLine::WayOff,
            ScoreLine::NotTrying,
        ]
        .map(ScoreLine::index)
        .to_vec();
        seen.sort_unstable();
        assert_eq!(seen, (0..7).collect::<Vec<_>>());
    }
}
