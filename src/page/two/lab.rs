//! `/two`'s gradient descent lab as the server writes it: how it steps
//! (Jay's rates, one rate on standardised inputs, one on raw ones), where
//! it starts, the 1, 10 and 100 step buttons, the readout, the status line
//! (its templates as data for the controller: the goal, a stall that says
//! why, a divergence) and the error's log chart. The run is the
//! controller's (`lesson::lab` in the browser); its path is drawn on the map.

use std::fmt::Write;

use super::words::TwoWords;
use lesson::two_view::{loss_y, LOSS};

/// The lab's markup.
#[must_use]
pub fn markup(w: &TwoWords) -> String {
    let l = &w.lab;
    let mut m = format!(
        r#"<section class="two-lab" data-testid="two-lab" aria-labelledby="lab-title"><h2 id="lab-title">{}</h2><p>{}</p><fieldset class="lab-choice"><legend>{}</legend>"#,
        l.title, l.intro, l.scheme
    );
    for (i, (value, label)) in ["jay", "standard", "raw"].iter().zip(l.schemes).enumerate() {
        let checked = if i == 0 { " checked" } else { "" };
        let _ = write!(
            m,
            r#"<label><input type="radio" name="lab-scheme" value="{value}"{checked}> {label}</label>"#
        );
    }
    let _ = write!(
        m,
        r#"</fieldset><fieldset class="lab-choice"><legend>{}</legend><label><input type="radio" name="lab-start" value="origin" checked> {}</label><label><input type="radio" name="lab-start" value="model"> {}</label></fieldset><div class="lab-buttons">"#,
        l.start, l.start_origin, l.start_model
    );
    for (n, label) in [1, 10, 100].iter().zip(l.steps) {
        let _ = write!(
            m,
            r#"<button type="button" data-steps="{n}" data-testid="lab-{n}">{label}</button>"#
        );
    }
    let (width, height) = LOSS;
    let goal_y = loss_y(1420.0);
    let _ = write!(
        m,
        r#"<button type="button" id="lab-reset" data-testid="lab-reset">{}</button><button type="button" id="lab-apply" data-testid="lab-apply">{}</button></div><p id="lab-readout" data-testid="lab-readout" data-template="{}" aria-live="polite"></p><p id="lab-status" data-testid="lab-status" data-ready="{}" data-goal="{}" data-stalled-jay="{}" data-stalled-standard="{}" data-stalled-raw="{}" data-diverged="{}">{}</p><svg class="lab-loss" viewBox="0 0 {width} {height}" preserveAspectRatio="none" role="img" aria-label="{}"><line class="goal-line" x1="0" x2="{width}" y1="{goal_y:.2}" y2="{goal_y:.2}" vector-effect="non-scaling-stroke"/><polyline id="lab-loss" points="" vector-effect="non-scaling-stroke"/></svg></section>"#,
        l.reset,
        l.apply,
        l.readout,
        l.ready,
        l.goal,
        l.stalled[0],
        l.stalled[1],
        l.stalled[2],
        l.diverged,
        l.ready,
        l.loss,
    );
    m
}
