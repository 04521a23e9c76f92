//! The gradient descent lab's loss over steps, on a log scale, with the goal 450
//! as a dashed line. A diverged run ends in a cross and the word "diverged": the
//! chart only ever draws the finite losses [`lesson::descent::Descent`] keeps.

use std::fmt::Write;

use leptos::prelude::*;

use crate::page::controls::language::use_texts;
use crate::page::i18n::Texts;
use lesson::map::coord;
use lesson::{
    descent::{Descent, Status},
    neuron::GOAL,
};
use vocabulary::{fill, format::localise};

const WIDTH: f64 = 320.0;
const HEIGHT: f64 = 120.0;
/// Room for the widest label of the axis, `99,9 mil` (about 42 units).
const LEFT: f64 = 50.0;
const RIGHT: f64 = 312.0;
const TOP: f64 = 8.0;
const BOTTOM: f64 = 96.0;

/// The scales of one run: x from step 0 to at least 10, y the log error from
/// just under the goal to the run's highest loss.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LossScale {
    steps: f64,
    log_low: f64,
    log_high: f64,
    /// The highest loss drawn (the top of the axis).
    high: f64,
}

impl LossScale {
    #[must_use]
    pub fn of(d: &Descent) -> Self {
        let high = d.losses.iter().copied().fold(1000.0, f64::max);
        Self {
            steps: (d.path.len().saturating_sub(1)).max(10) as f64,
            log_low: 400f64.log10(),
            log_high: high.log10(),
            high,
        }
    }

    #[must_use]
    pub fn x(&self, step: usize) -> f64 {
        LEFT + step as f64 / self.steps * (RIGHT - LEFT)
    }

    #[must_use]
    pub fn y(&self, loss: f64) -> f64 {
        let t = (loss.max(1.0).log10() - self.log_low) / (self.log_high - self.log_low);
        BOTTOM - t.clamp(0.0, 1.0) * (BOTTOM - TOP)
    }
}

/// The chart's content as SVG markup (numbers and fixed words only), set as
/// `inner_html`: one reactive string instead of a dozen typed elements.
#[must_use]
pub fn markup(t: &Texts, d: &Descent) -> String {
    let s = LossScale::of(d);
    let mut out = String::with_capacity(2048);
    let goal = coord(s.y(GOAL));
    let _ = write!(
        out,
        r#"<line class="axis-line" x1="{l}" x2="{l}" y1="{t}" y2="{b}"></line><line class="axis-line" x1="{l}" x2="{r}" y1="{b}" y2="{b}"></line><line class="goal-line" x1="{l}" x2="{r}" y1="{goal}" y2="{goal}"></line><text x="{tl}" y="{gl}" text-anchor="end">450</text><text x="{tl}" y="{tt}" text-anchor="end">{top}</text><text x="{l}" y="{bl}" text-anchor="middle">0</text><text x="{r}" y="{bl}" text-anchor="end">{steps}</text><text class="axis-label" x="{mid}" y="{h}" text-anchor="middle">{step}</text>"#,
        l = coord(LEFT),
        r = coord(RIGHT),
        t = coord(TOP),
        b = coord(BOTTOM),
        tl = coord(LEFT - 4.0),
        gl = coord(s.y(GOAL) + 4.0),
        tt = coord(TOP + 8.0),
        top = compact(s.high, t),
        step = t.loss_step,
        bl = coord(BOTTOM + 14.0),
        steps = s.steps,
        mid = coord((LEFT + RIGHT) / 2.0),
        h = coord(HEIGHT - 2.0),
    );
    out.push_str(r#"<polyline class="loss-line" points=""#);
    for (i, &loss) in d.losses.iter().enumerate() {
        let _ = write!(
            out,
            "{}{},{}",
            if i == 0 { "" } else { " " },
            coord(s.x(i)),
            coord(s.y(loss))
        );
    }
    out.push_str(r#""></polyline>"#);
    if let Status::Diverged { step } = d.status {
        let _ = write!(
            out,
            r#"<text class="diverged" x="{}" y="{}" text-anchor="end">{}</text>"#,
            coord(s.x(step).min(RIGHT)),
            coord(TOP + 12.0),
            fill(t.loss_diverged, &[("step", &step.to_string())])
        );
    }
    out
}

/// A loss for the axis in at most three digits and the page's unit
/// ([`Texts::big_units`]): `1,234`, `13.4k`, `25.9M`, `250M`, `1.0e9`
/// (`25,9 mi` in Portuguese, `2590万` in Chinese). Below 10,000 in full;
/// from a thousand of the largest unit on, in scientific notation.
fn compact(loss: f64, t: &Texts) -> String {
    if loss < 1e4 {
        return t.num(loss, 0);
    }
    // A loss that would round up to 1000 of a unit is written in the next.
    let rounds_to = |unit: f64| loss >= unit * (1.0 - 5e-4);
    let beyond = t.big_units.last().map_or(1e4, |(unit, _)| unit * 1e3);
    let unit = t.big_units.iter().rev().find(|(unit, _)| rounds_to(*unit));
    match unit {
        Some((unit, suffix)) if !rounds_to(beyond) => {
            let scaled = loss / unit;
            let decimals = usize::from(scaled < 99.95);
            localise(format!("{scaled:.decimals$}{suffix}"), t.lang)
        }
        _ => localise(format!("{loss:.1e}"), t.lang),
    }
}

#[component]
pub fn LossChart(descent: RwSignal<Descent>) -> impl IntoView {
    let t = use_texts();
    view! {
        <figure class="loss-chart">
            <svg
                viewBox=format!("0 0 {WIDTH} {HEIGHT}")
                role="img"
                aria-label=t.loss_label
                data-testid="loss-chart"
                inner_html=move || descent.with(|d| markup(t, d))
            ></svg>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::i18n::texts;
    use lesson::{descent::Scaling, neuron::Params};
    use vocabulary::Lang;

    fn markup(d: &Descent) -> String {
        super::markup(texts(Lang::En), d)
    }

    #[test]
    fn the_scale_is_logarithmic_and_finite_for_a_diverged_run() {
        let d = lesson::descent::run(Params::new(0.1, 150.0), 1e-6, Scaling::Raw, 200);
        let s = LossScale::of(&d);
        assert_eq!(s.y(400.0), BOTTOM);
        let top = d.losses.iter().copied().fold(0.0, f64::max);
        assert!((s.y(top) - TOP).abs() < 1e-9);
        assert!(d.losses.iter().all(|&l| s.y(l).is_finite()));
        assert_eq!(s.x(0), LEFT);
        let m = markup(&d);
        assert!(m.contains("diverged at step") && !m.contains("NaN") && !m.contains("inf"));
        let fine = lesson::descent::run(Params::new(0.1, 150.0), 0.1, Scaling::Standardised, 12);
        assert!(!markup(&fine).contains("diverged"));
        let en = texts(Lang::En);
        assert_eq!(compact(799.09, en), "799");
        assert_eq!(compact(13_359.0, en), "13.4k");
        assert_eq!(compact(25.9e6, en), "25.9M");
        assert_eq!(compact(2.5e8, en), "250M");
        assert_eq!(compact(1e9, en), "1.0e9");
    }

    #[test]
    fn the_top_of_the_axis_reads_in_the_pages_language() {
        // "25,9M" on a Portuguese page read as English: millions are "mi"
        // there, and Chinese counts in 万 and 亿.
        let mut saw = Vec::new();
        for rate in lesson::descent::LEARNING_RATES {
            let d = lesson::descent::run(Params::new(0.1, 150.0), rate, Scaling::Raw, 200);
            for lang in [Lang::Pt, Lang::Zh] {
                let m = super::markup(texts(lang), &d);
                assert!(
                    !m.contains("M</text>") && !m.contains("k</text>"),
                    "{lang:?}: {m}"
                );
                saw.push(m);
            }
        }
        assert!(saw.iter().any(|m| m.contains(" mi</text>")));
        assert!(saw.iter().any(|m| m.contains("万</text>")));
        let (en, pt, zh) = (texts(Lang::En), texts(Lang::Pt), texts(Lang::Zh));
        assert_eq!(compact(9_999.0, pt), "9.999");
        assert_eq!(compact(13_359.0, pt), "13,4 mil");
        assert_eq!(compact(25.9e6, pt), "25,9 mi");
        assert_eq!(compact(2.5e8, pt), "250 mi");
        assert_eq!(compact(1e9, pt), "1,0e9");
        assert_eq!(compact(13_359.0, zh), "1.3万");
        assert_eq!(compact(25.9e6, zh), "2590万");
        assert_eq!(compact(2.5e8, zh), "2.5亿");
        assert_eq!(compact(9.99e10, zh), "999亿");
        assert_eq!(compact(1e11, zh), "1.0e11");
        // What would round up to a thousand of a unit is one of the next.
        assert_eq!(compact(999_960.0, en), "1.0M");
        assert_eq!(compact(999.96e6, en), "1.0e9");
    }
}
