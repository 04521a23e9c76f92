//! `/two` as the server writes it: the whole page as markup, at the link's
//! point (`?w1=&w2=&b=`), so it is right before any script runs and it
//! works without one (the controls are a form that reloads the page at the
//! values given). The browser's controller ([`super::wire`]) finds its
//! elements by id and keeps them up to date.
//!
//! The structure and classes are lesson 1's (`param`, `panel`, `score`,
//! `ladder`, `houses`), so the page shares its stylesheet and layouts: the
//! phone's strip, the 800×600 embed, the wide screen's columns.

use std::fmt::Write;

use super::{figures, words::TwoWords};
use crate::page::i18n::Texts;
use lesson::two_view::{self as readout, Readout, COARSE, DECIMALS, LESSON};
use vocabulary::{fill, format, Lang};

/// The point a link names, and a notice per value that could not be used
/// as written (not a number: the start; out of range: clamped).
#[must_use]
pub fn read_link(
    get: impl Fn(&str) -> Option<String>,
    w: &TwoWords,
    t: &Texts,
) -> ([f64; 3], Vec<String>) {
    let mut point = [0.0; 3];
    let mut notices = Vec::new();
    for (i, p) in LESSON.params.iter().enumerate() {
        point[i] = p.start;
        let Some(text) = get(p.key) else { continue };
        // A point or the page's own separator (the form sends what the box shows).
        let given = format::parse_decimal(&text, t.lang).filter(|v| v.is_finite());
        if let Some(v) = given {
            point[i] = v.clamp(p.min, p.max);
        }
        let used = point[i];
        if given != Some(used) {
            let shown: String = text.chars().take(20).collect();
            notices.push(fill(
                w.link_notice,
                &[
                    ("key", p.key),
                    ("text", &html_escape::encode_text(&shown)),
                    ("min", &t.plain(p.min, 4)),
                    ("max", &t.plain(p.max, 4)),
                    ("value", &t.plain(used, DECIMALS[i])),
                ],
            ));
        }
    }
    (point, notices)
}

/// The link for a point in `lang`, keeping the embed's path.
#[must_use]
pub fn href(path: &str, p: [f64; 3], lang: Lang) -> String {
    format!(
        "{path}?w1={}&w2={}&b={}&lang={}",
        format::plain(p[0], DECIMALS[0]),
        format::plain(p[1], DECIMALS[1]),
        format::plain(p[2], DECIMALS[2]),
        lang.code()
    )
}

/// The page's markup inside `<main>`.
#[must_use]
pub fn page(w: &TwoWords, t: &Texts, embed: bool, p: [f64; 3], notices: &[String]) -> String {
    let lang = t.lang;
    let r = Readout::at(p);
    let mut m = String::with_capacity(32_000);
    let path = if embed { "/two/embed" } else { "/two" };
    let languages: String = Lang::ALL
        .iter()
        .map(|l| {
            let current = if *l == lang { r#" aria-current="true""# } else { "" };
            format!(
                r#"<a href="{}" hreflang="{tag}" lang="{tag}" id="lang-{code}" data-testid="lang-{code}"{current}>{}</a>"#,
                href(path, p, *l),
                l.endonym(),
                tag = l.html_tag(),
                code = l.code(),
            )
        })
        .collect();
    let nav = format!(
        r#"<nav class="languages" aria-label="{}">{languages}</nav>"#,
        t.language
    );
    if embed {
        let _ = write!(
            m,
            r#"<div class="embed-intro"><div><h1 class="embed-title">{}</h1><p>{}<a href="/two?lang={}" target="_blank" rel="noopener">{}</a></p></div>{nav}</div>"#,
            w.embed_heading,
            w.embed_lead,
            lang.code(),
            w.full_page
        );
    } else {
        let _ = write!(
            m,
            r#"<header class="intro"><div class="intro-head"><h1>{}</h1>{nav}</div><p><code class="formula">{}</code> {}</p><p><a href="/?lang={}" data-testid="to-lesson-one">{}</a></p></header>"#,
            w.heading,
            w.formula,
            w.intro,
            lang.code(),
            w.to_lesson_one
        );
    }
    let _ = write!(
        m,
        r#"<section class="panel model" aria-label="{}">"#,
        t.model_section
    );
    if !notices.is_empty() {
        m.push_str(r#"<div class="link-notice" role="note" data-testid="link-notice">"#);
        for n in notices {
            let _ = write!(m, "<p>{n}</p>");
        }
        m.push_str("</div>");
    }
    m.push_str(&figures::chart(w, &r, t));
    m.push_str(&figures::question(w, t, p));
    // A form: without the script, "Enter" reloads the page at the values typed.
    let _ = write!(
        m,
        r#"<form class="controls" method="get" action="{path}" data-testid="two-controls">"#
    );
    for (i, (label, unit)) in [(w.w1, w.w1_unit), (w.w2, w.w2_unit), (w.b, w.b_unit)]
        .into_iter()
        .enumerate()
    {
        param(&mut m, w, t, i, label, unit, p[i]);
    }
    let _ = write!(
        m,
        r#"<input type="hidden" name="lang" value="{}"><noscript><button type="submit" class="apply">{}</button></noscript><button type="button" class="best-bias" id="best-bias" data-testid="best-bias">{}</button><button type="button" class="start-over" id="start-over" data-testid="start-over">{}</button></form>"#,
        lang.code(),
        w.apply,
        w.best_bias,
        w.start_over
    );
    m.push_str(&figures::diagram(w, p, &r, t));
    m.push_str("</section>");
    let _ = write!(
        m,
        r#"<div class="side"><section class="panel live" aria-label="{}" data-testid="live">"#,
        t.live_section
    );
    score(&mut m, w, t, r.error);
    bubble(&mut m, t);
    m.push_str("</section>");
    let _ = write!(
        m,
        r#"<section class="panel results" aria-label="{}">"#,
        t.results_section
    );
    ladder(&mut m, w, r.error);
    m.push_str(&figures::table(w, &r, t));
    m.push_str("</section></div>");
    if !embed {
        let _ = write!(
            m,
            r#"<section class="panel landscape-panel" aria-label="{}">"#,
            t.landscape_section
        );
        m.push_str(&figures::map(w, p));
        m.push_str(&figures::strip(w, p, &r, t));
        m.push_str(&super::lab::markup(w));
        m.push_str("</section>");
    }
    m
}

/// One parameter: its slider, its number box, its four nudges (lesson 1's markup).
fn param(m: &mut String, w: &TwoWords, t: &Texts, i: usize, label: &str, unit: &str, value: f64) {
    let spec = LESSON.params[i];
    let key = spec.key;
    let shown = t.plain(value, DECIMALS[i]);
    let _ = write!(
        m,
        r#"<div class="param"><label for="{key}"><span class="param-name">{label}</span><span class="param-unit">{unit}</span></label><div class="param-inputs"><input type="range" id="{key}" min="{min}" max="{max}" step="{step}" value="{raw}" aria-valuetext="{shown} ({unit})"><input type="text" class="param-number" id="{key}-number" name="{key}" role="spinbutton" aria-label="{exact}" aria-valuemin="{min}" aria-valuemax="{max}" aria-valuenow="{raw}" inputmode="decimal" autocomplete="off" spellcheck="false" value="{shown}"></div><div class="param-nudges" data-for="{i}" data-testid="{key}-nudges">"#,
        min = spec.min,
        max = spec.max,
        step = spec.step,
        raw = format::plain(value, DECIMALS[i]),
        exact = fill(w.exact_value, &[("label", label)]),
    );
    for (n, by) in [-COARSE[i], -spec.step, spec.step, COARSE[i]]
        .iter()
        .enumerate()
    {
        let sign = if *by < 0.0 { "−" } else { "+" };
        let text = format!("{sign}{}", t.plain(by.abs(), DECIMALS[i]));
        let _ = write!(
            m,
            r#"<button type="button" class="nudge" aria-label="{label} {text}" data-nudge="{by}" data-n="{n}">{text}</button>"#
        );
    }
    m.push_str("</div></div>");
}

/// The error, large, against the goal; the status line's two templates
/// travel with it for the controller.
fn score(m: &mut String, w: &TwoWords, t: &Texts, error: f64) {
    let reached = readout::WHICH.reaches_goal(error);
    let goal = t.num(LESSON.goal, 0);
    let floor = t.num(readout::WHICH.floor(), 2);
    let to_go = fill(w.to_go, &[("goal", &goal)]);
    let done = fill(w.reached, &[("floor", &floor)]);
    let status = if reached {
        fill(
            &done,
            &[(
                "above",
                &t.num((error - readout::WHICH.floor()).max(0.0), 2),
            )],
        )
    } else {
        fill(&to_go, &[("left", &t.num(error - LESSON.goal, 2))])
    };
    let _ = write!(
        m,
        r#"<div class="score{}" id="two-score" data-testid="score"><p class="score-label"><span class="label-long">{}</span><span class="label-short">{}</span></p><p class="score-value" id="two-error" data-testid="error-value">{}</p><p class="score-goal">{}{goal}</p><p class="score-status" id="two-status" data-testid="score-status" data-to-go="{to_go}" data-reached="{done}">{status}</p></div>"#,
        if reached { " success" } else { "" },
        w.error_label,
        t.error_short,
        t.num(error, 2),
        w.goal,
    );
}

/// The goal ladder: the rungs the best attempt has reached are ticked.
fn ladder(m: &mut String, w: &TwoWords, error: f64) {
    let reached = readout::rungs_reached(error);
    let _ = write!(
        m,
        r#"<div class="ladder"><ol aria-label="{}" id="two-ladder">"#,
        w.ladder
    );
    for (i, rung) in w.rungs.iter().enumerate() {
        let class = if i < reached {
            r#" class="reached""#
        } else {
            ""
        };
        let _ = write!(m, r#"<li{class} id="rung-{i}">{rung}</li>"#);
    }
    let _ = write!(
        m,
        r#"</ol><p class="ladder-news" id="two-best" data-testid="two-best" data-template="{}" aria-live="polite">{}</p></div>"#,
        w.best, w.no_attempt
    );
}

/// The coach's bubble, as lesson 1's (its classes, its vote buttons), with
/// the words the controller shows as data: the label of the built-in coach,
/// of a rest, and the line for a failed call.
fn bubble(m: &mut String, t: &Texts) {
    let _ = write!(
        m,
        r#"<aside class="coach" aria-label="{coach}"><div class="bubble" id="two-bubble" data-testid="coach-bubble" data-state="waiting" aria-live="polite" data-offline="{offline}" data-limited="{limited}" data-failed="{failed}"><span class="dots" aria-hidden="true"><span></span><span></span><span></span></span><p class="bubble-text" id="two-coach-text" data-testid="coach-text" lang="{lang}">{waiting}</p><p class="bubble-label" id="two-coach-model" data-testid="coach-model"></p><div class="votes idle" id="two-votes" role="group" aria-label="{question}" data-testid="coach-votes">{buttons}</div></div></aside><button type="button" class="live-more" id="two-live-more" data-testid="live-more" aria-expanded="false" aria-label="{more}" title="{more}"><span aria-hidden="true">⌄</span></button>"#,
        coach = t.coach,
        offline = t.offline,
        limited = t.offline_resting,
        failed = t.resting,
        lang = t.lang.html_tag(),
        waiting = t.waiting,
        question = t.vote_question,
        buttons = crate::page::coach_bubble::votes::buttons(t),
        more = t.show_comment,
    );
}
