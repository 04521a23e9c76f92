//! The history of attempts: a sparkline of every error (log scale, goal dashed,
//! best circled) and the latest attempts, newest first, with the best one starred.
//! Pressing an attempt brings the model back to it (no new attempt); "Copy a
//! link to my best" puts the best attempt's address on the clipboard. A start
//! over keeps them all; the first attempt after one is marked "started over".
//!
//! The sparkline and the list are markup strings set with `inner_html` (see
//! [`spark_markup`], [`list_markup`]): typed `view!` elements each cost the WASM
//! code of their own. One click listener on the list restores the attempt
//! whose button was pressed.

use std::fmt::Write;

use leptos::{prelude::*, task::spawn_local};

use crate::page::i18n::Texts;
use crate::page::{
    address_bar,
    controls::language::use_texts,
    model::{Attempt, Model},
};
use lesson::neuron::GOAL;
use vocabulary::fill;

const SPARK_WIDTH: f64 = 300.0;
const SPARK_HEIGHT: f64 = 64.0;
const SPARK_PAD: f64 = 6.0;
/// The sparkline shows at most this many of the latest attempts.
const SPARK_POINTS: usize = 60;
/// The list shows at most this many of the latest attempts.
const LIST_ITEMS: usize = 8;

/// Index of the attempt with the lowest error (the first one on a tie).
pub fn best_index(attempts: &[Attempt]) -> Option<usize> {
    attempts
        .iter()
        .enumerate()
        .min_by(|(_, a), (_, b)| a.error.total_cmp(&b.error))
        .map(|(i, _)| i)
}

/// Sparkline points for `errors` (log scale, so 100 000 and 450 both stay readable),
/// plus the y of the goal line. Pure, so it can be tested without a browser.
pub fn sparkline(errors: &[f64]) -> (Vec<(f64, f64)>, f64) {
    let log = |e: f64| e.max(1.0).log10();
    let top = errors.iter().copied().fold(GOAL * 4.0, f64::max);
    let (lo, hi) = (log(GOAL * 0.8), log(top));
    let y = |e: f64| {
        let t = ((log(e) - lo) / (hi - lo)).clamp(0.0, 1.0);
        SPARK_HEIGHT - SPARK_PAD - t * (SPARK_HEIGHT - 2.0 * SPARK_PAD)
    };
    let step = if errors.len() > 1 {
        (SPARK_WIDTH - 2.0 * SPARK_PAD) / (errors.len() - 1) as f64
    } else {
        0.0
    };
    let points = errors
        .iter()
        .enumerate()
        .map(|(i, &e)| (SPARK_PAD + i as f64 * step, y(e)))
        .collect();
    (points, y(GOAL))
}

/// The sparkline of `shown` as SVG markup (set as `inner_html`, like the
/// charts': a string costs the WASM less than typed elements): the goal line,
/// the errors' polyline and the best one circled. Numbers only.
#[must_use]
pub fn spark_markup(shown: &[Attempt]) -> String {
    let errors: Vec<f64> = shown.iter().map(|a| a.error).collect();
    let (points, goal_y) = sparkline(&errors);
    let mut s = String::with_capacity(64 + 12 * points.len());
    let _ = write!(
        s,
        r#"<line class="spark-goal" x1="0" x2="{SPARK_WIDTH}" y1="{goal_y:.1}" y2="{goal_y:.1}"></line><polyline class="spark-line" points=""#
    );
    for (i, (x, y)) in points.iter().enumerate() {
        let _ = write!(s, "{}{x:.1},{y:.1}", if i == 0 { "" } else { " " });
    }
    s.push_str(r#""></polyline>"#);
    if let Some(i) = best_index(shown) {
        let (x, y) = points[i];
        let _ = write!(
            s,
            r#"<circle class="spark-best" cx="{x:.1}" cy="{y:.1}" r="4"></circle>"#
        );
    }
    s
}

/// The latest [`LIST_ITEMS`] attempts of `all`, newest first, as list items
/// (markup, like the sparkline): each a button that names its attempt's index
/// in `data-attempt`, the best one starred, the first of each run after a
/// start over (`starts`) marked. Numbers and fixed words only.
#[must_use]
pub fn list_markup(t: &Texts, all: &[Attempt], starts: &[usize]) -> String {
    let best = best_index(all);
    let mut s = String::with_capacity(300 * LIST_ITEMS);
    for (i, a) in all.iter().enumerate().rev().take(LIST_ITEMS) {
        let is_best = Some(i) == best;
        let run_first = i > 0 && starts.contains(&i);
        let _ = write!(
            s,
            r#"<li{} data-testid="attempt"><button type="button" class="attempt-restore" title="{}" data-attempt="{i}"><span class="attempt-number">#{}</span><span class="attempt-error">{}</span><span class="attempt-params">w {} · b {}</span>"#,
            match (is_best, run_first) {
                (true, true) => r#" class="best run-first""#,
                (true, false) => r#" class="best""#,
                (false, true) => r#" class="run-first""#,
                (false, false) => "",
            },
            t.restore,
            i + 1,
            t.num(a.error, 2),
            t.plain(a.params.weight, 7),
            t.plain(a.params.bias, 4),
        );
        if is_best {
            let _ = write!(s, r#"<span class="attempt-best">{}</span>"#, t.best_star);
        }
        if run_first {
            let _ = write!(s, r#"<span class="attempt-run">{}</span>"#, t.run_mark);
        }
        s.push_str("</button></li>");
    }
    s
}

/// The index of the attempt whose button (or a part of it) `e` pressed.
fn pressed_attempt(e: &leptos::ev::MouseEvent) -> Option<usize> {
    use leptos::wasm_bindgen::JsCast;
    let target = e.target()?.dyn_into::<leptos::web_sys::Element>().ok()?;
    let button = target.closest("[data-attempt]").ok()??;
    button.get_attribute("data-attempt")?.parse().ok()
}

#[component]
pub fn Attempts(model: Model) -> impl IntoView {
    let t = use_texts();
    let attempts = model.attempts;
    let count = move || attempts.with(Vec::len);
    let best = move || attempts.with(|a| best_index(a).map(|i| (i, a[i])));
    let summary = move || match best() {
        None => t.no_attempts.to_string(),
        Some((i, b)) => fill(
            if count() == 1 {
                t.summary_one
            } else {
                t.summary_many
            },
            &[
                ("n", &count().to_string()),
                ("best", &t.num(b.error, 2)),
                ("i", &(i + 1).to_string()),
            ],
        ),
    };

    let spark =
        move || attempts.with(|all| spark_markup(&all[all.len().saturating_sub(SPARK_POINTS)..]));

    let starts = model.starts;
    let items = move || starts.with(|runs| attempts.with(|all| list_markup(t, all, runs)));
    // One listener for the whole list: the pressed button names its attempt.
    let restore = move |e: leptos::ev::MouseEvent| {
        let Some(i) = pressed_attempt(&e) else {
            return;
        };
        if let Some(params) = attempts.with_untracked(|a| a.get(i).map(|a| a.params)) {
            model.restore(params);
        }
    };

    // "Copy a link to my best": the clipboard when the browser allows it, else
    // the link itself, selected, to copy by hand.
    let shared = RwSignal::new(None::<(String, bool)>);
    let copy_best = move |_| {
        let Some(best) = attempts.with_untracked(|a| best_index(a).map(|i| a[i].params)) else {
            return;
        };
        let Some(url) = address_bar::link_to(best) else {
            return;
        };
        spawn_local(async move {
            let copied = address_bar::copy(url.clone()).await;
            shared.set(Some((url, copied)));
        });
    };
    let select_all =
        |e: leptos::ev::FocusEvent| event_target::<leptos::web_sys::HtmlInputElement>(&e).select();
    let share_note = move || {
        shared.get().map(|(url, copied)| {
            if copied {
                view! { <span data-testid="share-done">{t.copied} <a href=url.clone()>{url.clone()}</a></span> }
                    .into_any()
            } else {
                view! {
                    <label>
                        {t.copy_this}
                        <input type="text" readonly value=url data-testid="share-link" on:focus=select_all/>
                    </label>
                }
                .into_any()
            }
        })
    };

    view! {
        <section class="attempts" aria-label=t.attempts_section>
            <h2>{t.attempts}</h2>
            <p class="attempts-summary" data-testid="attempts-summary" data-count=count>
                {summary}
            </p>
            <svg
                class="sparkline"
                viewBox=format!("0 0 {SPARK_WIDTH} {SPARK_HEIGHT}")
                role="img"
                aria-label=t.spark_label
                inner_html=spark
            ></svg>
            <ol class="attempt-list" reversed inner_html=items on:click=restore></ol>
            <div class="share">
                <button
                    type="button"
                    data-testid="copy-best"
                    disabled=move || attempts.with(Vec::is_empty)
                    on:click=copy_best
                >
                    {t.copy_best}
                </button>
                <p class="share-note" role="status">{share_note}</p>
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::i18n::texts;
    use lesson::neuron::Params;
    use vocabulary::Lang;

    fn list_markup(all: &[Attempt]) -> String {
        super::list_markup(texts(Lang::En), all, &[])
    }

    fn attempt(error: f64) -> Attempt {
        Attempt {
            params: Params::new(0.0, 0.0),
            error,
        }
    }

    #[test]
    fn best_is_the_lowest_error_first_on_ties() {
        assert_eq!(best_index(&[]), None);
        let list = [
            attempt(900.0),
            attempt(450.0),
            attempt(2000.0),
            attempt(450.0),
        ];
        assert_eq!(best_index(&list), Some(1));
    }

    #[test]
    fn the_list_is_newest_first_with_the_best_starred_and_each_index_named() {
        let list = [attempt(900.0), attempt(450.0), attempt(2000.0)];
        let m = list_markup(&list);
        let (third, second) = (m.find(">#3<").unwrap(), m.find(">#2<").unwrap());
        assert!(third < second, "newest first");
        assert_eq!(m.matches(r#"data-testid="attempt""#).count(), 3);
        assert_eq!(m.matches("★ best").count(), 1);
        assert!(m.contains(r#"<li class="best" data-testid="attempt"><button type="button" class="attempt-restore" title="Back to this attempt" data-attempt="1">"#));
        let many: Vec<Attempt> = (0..20).map(|i| attempt(1000.0 + f64::from(i))).collect();
        assert_eq!(list_markup(&many).matches("<li").count(), LIST_ITEMS);
        let spark = spark_markup(&list);
        assert_eq!(spark.matches("spark-best").count(), 1);
        assert!(spark_markup(&[]).contains(r#"points="""#));
    }

    #[test]
    fn the_first_attempt_after_a_start_over_is_marked() {
        let list = [
            attempt(900.0),
            attempt(450.0),
            attempt(2000.0),
            attempt(800.0),
        ];
        let m = super::list_markup(texts(Lang::En), &list, &[2]);
        assert_eq!(m.matches("started over").count(), 1);
        let (third, second) = (m.find(">#3<").unwrap(), m.find(">#2<").unwrap());
        let mark = m.find("started over").unwrap();
        assert!(third < mark && mark < second, "on #3, the run's first");
        assert!(!super::list_markup(texts(Lang::En), &list, &[0]).contains("started over"));
    }

    #[test]
    fn sparkline_puts_lower_errors_lower_on_screen_and_stays_in_bounds() {
        let (points, goal_y) = sparkline(&[134_971.67, 2_057.73, 447.29]);
        assert_eq!(points.len(), 3);
        // SVG y grows downwards: a smaller error is drawn further down.
        assert!(points[0].1 < points[1].1 && points[1].1 < points[2].1);
        assert!(points[2].1 > goal_y, "447 sits below the goal line");
        for (x, y) in points {
            assert!((0.0..=SPARK_WIDTH).contains(&x) && (0.0..=SPARK_HEIGHT).contains(&y));
        }
        let (single, _) = sparkline(&[1000.0]);
        assert_eq!(single[0].0, SPARK_PAD);
    }
}
