//! `/two`'s figures as the server writes them: the chart (price against
//! area, a line per bathroom count), the map of the two weights with the
//! bias at its best (the goal's island, the "no bathrooms" line, the
//! trail), the bias strip, the neuron's diagram for house 1 and the
//! houses' table. Every moving part has an id the controller updates.

use std::fmt::Write;

use super::words::TwoWords;
use crate::page::i18n::Texts;
use lesson::two_view::{
    self as readout, Readout, BATHROOMS, CHART, LESSON, MAP_ALL, MAP_NEAR, MAP_SCALE,
};
use vocabulary::fill;

/// The bathroom counts' colours (lesson 1's line colour, then two more).
const LINE_CLASSES: [&str; 3] = ["baths-2", "baths-3", "baths-4"];

fn view_box(v: [f64; 4]) -> String {
    format!("{} {} {} {}", v[0], v[1], v[2], v[3])
}

/// Price against area: ticks, the houses (marked by bathrooms), a line per
/// bathroom count.
pub fn chart(w: &TwoWords, r: &Readout, t: &Texts) -> String {
    let f = CHART;
    let mut s = format!(
        r#"<figure class="chart two-chart"><svg viewBox="0 0 {} {}" role="img" aria-labelledby="two-chart-title" data-testid="two-chart"><title id="two-chart-title">{}</title><defs><clipPath id="two-plot"><rect x="{}" y="{}" width="{}" height="{}"/></clipPath></defs>"#,
        f.width,
        f.height,
        w.chart_label,
        f.left,
        f.top,
        f.right - f.left,
        f.bottom - f.top
    );
    for area in [1000.0, 1500.0, 2000.0, 2500.0, 3000.0] {
        let x = f.sx(area);
        let _ = write!(
            s,
            r#"<line class="grid" x1="{x:.1}" x2="{x:.1}" y1="{}" y2="{}"/><text class="tick" x="{x:.1}" y="{}" text-anchor="middle">{}</text>"#,
            f.top,
            f.bottom,
            f.bottom + 14.0,
            t.num(area, 0)
        );
    }
    for price in [100.0, 200.0, 300.0, 400.0, 500.0, 600.0] {
        let y = f.sy(price);
        let _ = write!(
            s,
            r#"<line class="grid" x1="{}" x2="{}" y1="{y:.1}" y2="{y:.1}"/><text class="tick" x="{}" y="{:.1}" text-anchor="end">{}</text>"#,
            f.left,
            f.right,
            f.left - 4.0,
            y + 4.0,
            t.num(price, 0)
        );
    }
    let _ = write!(
        s,
        r#"<text class="axis-title" x="{}" y="{}" text-anchor="middle">{}</text><text class="axis-title" x="12" y="{}" text-anchor="middle" transform="rotate(-90 12 {})">{}</text><g clip-path="url(#two-plot)">"#,
        (f.left + f.right) / 2.0,
        f.height - 2.0,
        w.axis_area,
        (f.top + f.bottom) / 2.0,
        (f.top + f.bottom) / 2.0,
        w.axis_price
    );
    for (k, ((y1, y2), class)) in r.lines.iter().zip(LINE_CLASSES).enumerate() {
        let _ = write!(
            s,
            r#"<line class="line {class}" id="two-line-{k}" x1="{}" x2="{}" y1="{y1:.2}" y2="{y2:.2}"/>"#,
            f.left, f.right
        );
    }
    s.push_str("</g>");
    for e in LESSON.examples {
        let class = LINE_CLASSES[(e.inputs[1] as usize).saturating_sub(2).min(2)];
        let _ = write!(
            s,
            r#"<circle class="house {class}" cx="{:.1}" cy="{:.1}" r="5"/>"#,
            f.sx(e.inputs[0]),
            f.sy(e.target)
        );
    }
    s.push_str("</svg><figcaption class=\"two-legend\">");
    for (n, class) in BATHROOMS.iter().zip(LINE_CLASSES) {
        let _ = write!(
            s,
            r#"<span class="{class}">● — {}</span> "#,
            fill(w.line_for, &[("n", &t.plain(*n, 0))])
        );
    }
    s.push_str("</figcaption></figure>");
    s
}

/// The map of (w1, w2) with the bias at its best: the ladder's contours as
/// exact ellipses (the goal's island filled), the w2 = 0 line, the trail
/// and the model's dot; two views by `viewBox`.
pub fn map(w: &TwoWords, p: [f64; 3]) -> String {
    let (x, y) = readout::map_xy(p[0], p[1]);
    let mut s = format!(
        r#"<figure class="two-map"><h2>{}</h2><div class="map-views" role="group" aria-label="{}"><button type="button" id="view-near" data-view="near" aria-pressed="true">{}</button><button type="button" id="view-all" data-view="all" aria-pressed="false">{}</button></div><svg id="two-map" viewBox="{}" data-near="{}" data-all="{}" preserveAspectRatio="none" role="img" aria-labelledby="two-map-title" data-testid="two-map"><title id="two-map-title">{}</title>"#,
        w.map_title,
        w.map_title,
        w.map_near,
        w.map_all,
        view_box(MAP_NEAR),
        view_box(MAP_NEAR),
        view_box(MAP_ALL),
        w.map_caption
    );
    s.push_str(&map_ground());
    let _ = write!(
        s,
        r#"<polyline id="two-trail" class="trail" points="" vector-effect="non-scaling-stroke"/><polyline id="lab-path" class="lab-path" points="" vector-effect="non-scaling-stroke"/><line id="two-marker" class="marker-dot" x1="{x:.3}" y1="{y:.3}" x2="{x:.3}" y2="{y:.3}" vector-effect="non-scaling-stroke"/></svg><figcaption><p>{}</p><p class="map-key"><span class="key-island">■ {}</span> <span class="key-axis">┄ {}</span> <span class="key-trail">— {}</span> <span class="key-marker">● {}</span></p></figcaption></figure>"#,
        w.map_caption, w.map_island, w.map_no_bathrooms, w.map_trail, w.map_marker
    );
    s
}

/// What the map shows under any point, in its units (`viewBox` `MAP_ALL` or
/// `MAP_NEAR`, stretched: strokes are `non-scaling-stroke`): the sea, the
/// ladder's contours as exact ellipses with the goal's island filled, and
/// the w2 = 0 line ("no bathrooms") the island never touches; one group,
/// `.two-ground`, styled wherever it is drawn (`style/two.css`). `/insights`
/// and a class room's live view draw lesson 2's visits on it too.
pub fn map_ground() -> String {
    let mut s = String::from(r#"<g class="two-ground">"#);
    let _ = write!(
        s,
        r#"<rect class="map-sea" x="{}" y="{}" width="{}" height="{}"/>"#,
        MAP_ALL[0], MAP_ALL[1], MAP_ALL[2], MAP_ALL[3]
    );
    if let Some(form) = readout::weights_form() {
        let rungs = &LESSON.ladder[..LESSON.ladder.len() - 1];
        for (i, level) in rungs.iter().enumerate() {
            let Some(e) = form.contour(*level, MAP_SCALE.0, MAP_SCALE.1) else {
                continue;
            };
            let class = if *level == LESSON.goal {
                "island"
            } else {
                "contour"
            };
            let _ = write!(
                s,
                r#"<ellipse class="{class} level-{i}" cx="{:.4}" cy="{:.4}" rx="{:.4}" ry="{:.4}" transform="rotate({:.4} {:.4} {:.4})" vector-effect="non-scaling-stroke"/>"#,
                e.cx, e.cy, e.rx, e.ry, e.angle, e.cx, e.cy
            );
        }
    }
    let _ = write!(
        s,
        r#"<line class="no-bathrooms" x1="{}" x2="{}" y1="0" y2="0" vector-effect="non-scaling-stroke"/>"#,
        MAP_ALL[0],
        MAP_ALL[0] + MAP_ALL[2]
    );
    s.push_str("</g>");
    s
}

/// The bias strip: the bias's range, the best bias for the weights and the
/// bias now, and what the difference costs (`(b − best b)²`).
pub fn strip(w: &TwoWords, p: [f64; 3], r: &Readout, t: &Texts) -> String {
    let range = LESSON.params[2];
    format!(
        r#"<div class="bias-strip" data-testid="bias-strip"><h2>{}</h2><svg class="strip-track" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true"><rect class="strip-range" x="0" y="3" width="100" height="4" rx="2"/><line class="strip-best" id="strip-best" x1="{best:.2}" x2="{best:.2}" y1="0" y2="10" vector-effect="non-scaling-stroke"/><line class="strip-now" id="strip-now" x1="{now:.2}" x2="{now:.2}" y1="0" y2="10" vector-effect="non-scaling-stroke"/></svg><p class="strip-ends" aria-hidden="true"><span>{}</span><span>{}</span></p><p id="strip-cost" data-testid="strip-cost" data-template="{}">{}</p></div>"#,
        w.strip_title,
        t.plain(range.min, 0),
        t.plain(range.max, 0),
        w.strip_cost,
        cost_line(w, p, r, t),
        best = r.strip_best,
        now = r.strip_now,
    )
}

/// The strip's sentence for a point.
pub fn cost_line(w: &TwoWords, p: [f64; 3], r: &Readout, t: &Texts) -> String {
    fill(
        w.strip_cost,
        &[
            ("b", &t.plain(p[2], 2)),
            ("best", &t.plain(r.best_bias, 2)),
            ("cost", &t.num(r.bias_cost, 2)),
        ],
    )
}

/// The two-input neuron for house 1: its inputs times their weights, plus
/// the bias, make the prediction.
pub fn diagram(w: &TwoWords, p: [f64; 3], r: &Readout, t: &Texts) -> String {
    let house = LESSON.examples[0];
    format!(
        r#"<figure class="two-diagram" data-testid="two-diagram"><figcaption>{}</figcaption><p class="neuron-sum"><span class="in">{}</span> × <span class="w" id="dg-w1">{}</span> + <span class="in">{}</span> × <span class="w" id="dg-w2">{}</span> + <span class="w" id="dg-b">{}</span> = <output id="dg-out">{}</output> <span class="vs">({})</span></p></figure>"#,
        w.diagram,
        t.num(house.inputs[0], 0),
        t.plain(p[0], 5),
        t.plain(house.inputs[1], 0),
        t.plain(p[1], 2),
        t.plain(p[2], 2),
        t.num(r.predictions[0], 1),
        t.num(house.target, 1)
    )
}

/// The ten houses: area, bathrooms, price, prediction and residual.
pub fn table(w: &TwoWords, r: &Readout, t: &Texts) -> String {
    let mut s = format!(
        r#"<table class="houses" data-testid="houses"><caption>{}</caption><thead><tr><th scope="col">{}</th><th scope="col">{}</th><th scope="col">{}</th><th scope="col">{}</th><th scope="col">{}</th></tr></thead><tbody>"#,
        w.houses, w.col_area, w.col_bathrooms, w.col_price, w.col_prediction, w.col_residual
    );
    for (i, (e, pred)) in LESSON.examples.iter().zip(&r.predictions).enumerate() {
        let _ = write!(
            s,
            r#"<tr><td>{}</td><td>{}</td><td>{}</td><td id="pred-{i}">{}</td><td id="res-{i}">{}</td></tr>"#,
            t.num(e.inputs[0], 0),
            t.plain(e.inputs[1], 0),
            t.num(e.target, 1),
            t.num(*pred, 1),
            t.num(e.target - pred, 1)
        );
    }
    s.push_str("</tbody></table>");
    s
}

/// The friend's question, answered by the neuron at `p`; the answer's
/// template and the three verdicts travel with it for the controller.
pub fn question(w: &TwoWords, t: &Texts, p: [f64; 3]) -> String {
    let verdicts = [t.fair, t.bargain, t.too_much];
    let (price, verdict) = readout::friend(p);
    format!(
        r#"<p class="question" data-testid="question"><strong>{}</strong><span id="two-answer" data-testid="question-answer" data-template="{}" data-verdicts="{}">{}</span></p>"#,
        w.question,
        w.answer,
        verdicts.join("|"),
        fill(
            w.answer,
            &[("price", &t.num(price, 1)), ("verdict", verdicts[verdict])]
        )
    )
}
