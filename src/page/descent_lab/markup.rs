//! The lab's two choices as markup the server writes: a legend, the radio
//! buttons with their labels, and the hints (why "standardise", why Jay needed
//! two rates). Server only: the browser keeps them as written
//! ([`crate::server_only`]) and reads a choice from the `change` event
//! ([`crate::page::descent_lab::choice`]), so they cost the WASM neither words nor
//! code per button. Nothing but the visitor changes them (Start over keeps the
//! choice; a start at the model's point follows the model), so the browser
//! never has to redraw them.

use std::fmt::Write;

use crate::page::{
    descent_lab::{
        choice::{start_value, Preset},
        text::{rate_label, standardise_hint},
    },
    i18n::Texts,
};
use lesson::{
    descent::{Rates, Scaling, Start},
    neuron::START,
};
use vocabulary::{fill, format::localise};

/// One radio button in its label (`autocomplete=off`: a reload must not
/// restore a choice the new run does not have).
fn radio(
    out: &mut String,
    name: &str,
    value: &str,
    checked: bool,
    hint: Option<&str>,
    words: &str,
) {
    let _ = write!(
        out,
        r#"<label class="choice"><input type="radio" name="{name}" value="{value}" data-testid="gd-{value}" autocomplete="off"{checked}{described}> {words}</label>"#,
        checked = if checked { " checked" } else { "" },
        described = hint.map_or_else(String::new, |id| format!(r#" aria-describedby="{id}""#)),
        words = words.trim(),
    );
}

fn hint(out: &mut String, id: &str, words: &str) {
    let _ = write!(out, r#"<p class="hint" id="{id}">{words}</p>"#);
}

/// "Start from": w 0, b 0 (Jay's gradient descent), Jay's start, or the model's
/// point; `now` is checked.
#[must_use]
pub fn start_choices(t: &Texts, now: Start) -> String {
    let w = &t.server;
    let jays = fill(
        w.lab_start_jays,
        &[
            ("w", &t.plain(START.weight, 4)),
            ("b", &t.plain(START.bias, 2)),
        ],
    );
    let mut out = format!("<legend>{}</legend>", w.lab_start_legend);
    for (start, words) in [
        (Start::Origin, w.lab_start_origin),
        (Start::Jays, jays.as_str()),
        (Start::Model(START), w.lab_start_model),
    ] {
        let value = start_value(start);
        radio(
            &mut out,
            "gd-start",
            value,
            value == start_value(now),
            None,
            words,
        );
    }
    out
}

/// "Areas and rates": raw with one rate, standardised with one rate, or Jay's
/// two rates on raw areas, each hard choice with its hint; `now` is checked.
#[must_use]
pub fn preset_choices(t: &Texts, now: Preset) -> String {
    let w = &t.server;
    let jay = fill(
        w.lab_preset_jay,
        &[
            ("w", &localise(rate_label(Rates::JAY.weight), t.lang)),
            ("b", &localise(rate_label(Rates::JAY.bias), t.lang)),
        ],
    );
    let h = Scaling::Raw.hessian();
    let why = fill(w.jay_hint, &[("ratio", &t.num(h.ww / h.bb, 0))]);
    let mut out = format!("<legend>{}</legend>", w.lab_preset_legend);
    let preset = |out: &mut String, p: Preset, hint_id: Option<&str>, words: &str| {
        radio(out, "gd-preset", p.value(), p == now, hint_id, words);
    };
    preset(&mut out, Preset::Raw, None, w.lab_preset_raw);
    preset(
        &mut out,
        Preset::Standardised,
        Some("gd-standardise-hint"),
        t.standardise,
    );
    hint(&mut out, "gd-standardise-hint", &standardise_hint(t));
    preset(&mut out, Preset::Jays, Some("gd-jay-hint"), &jay);
    hint(&mut out, "gd-jay-hint", &why);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::i18n::texts;
    use vocabulary::Lang;

    #[test]
    fn the_starts_are_three_radios_one_checked() {
        let en = start_choices(texts(Lang::En), Start::Jays);
        assert!(en.starts_with("<legend>Start from</legend>"), "{en}");
        assert_eq!(en.matches(r#"type="radio" name="gd-start""#).count(), 3);
        assert_eq!(en.matches(" checked").count(), 1);
        assert!(en.contains(r#"value="jays" data-testid="gd-jays" autocomplete="off" checked> Jay's start: w 0.1, b 150</label>"#), "{en}");
        assert!(en.contains(r#"value="origin""#) && en.contains(r#"value="model""#));
        let pt = start_choices(texts(Lang::Pt), Start::Origin);
        assert!(pt.contains(r#"checked> p 0, v 0, onde começa"#), "{pt}");
        assert!(pt.contains("Ponto de partida do Jay: p 0,1, v 150"), "{pt}");
        let zh = start_choices(texts(Lang::Zh), Start::Model(START));
        assert!(
            zh.contains(r#"value="model" data-testid="gd-model" autocomplete="off" checked>"#),
            "{zh}"
        );
    }

    #[test]
    fn jays_preset_names_his_rates_and_says_why_one_rate_is_hard() {
        let en = preset_choices(texts(Lang::En), Preset::Raw);
        assert_eq!(en.matches(r#"type="radio" name="gd-preset""#).count(), 3);
        assert_eq!(en.matches(" checked").count(), 1);
        assert!(en.contains(r#"value="raw" data-testid="gd-raw" autocomplete="off" checked>"#));
        // The standardise radio keeps its test id and its hint.
        assert!(en.contains(r#"data-testid="gd-standardise" autocomplete="off" aria-describedby="gd-standardise-hint"> Standardise the area</label><p class="hint" id="gd-standardise-hint">Raw areas are"#), "{en}");
        assert!(
            en.contains("> Jay's rates: 1e-8 for the weight, 1 for the bias</label>"),
            "{en}"
        );
        assert!(
            en.contains("bends 4,248,939 times more sharply along the weight"),
            "{en}"
        );
        let pt = preset_choices(texts(Lang::Pt), Preset::Jays);
        assert!(pt.contains(r#"value="jay-rates" data-testid="gd-jay-rates" autocomplete="off" checked aria-describedby="gd-jay-hint"> As taxas do Jay: 1e-8 para o peso, 1 para o viés"#), "{pt}");
        assert!(pt.contains("4.248.939 vezes"), "{pt}");
        let zh = preset_choices(texts(Lang::Zh), Preset::Standardised);
        assert!(zh.contains("Jay 的学习率：权重用 1e-8，偏置用 1"), "{zh}");
        assert!(zh.contains("4,248,939 倍"), "{zh}");
        // Every hint a radio points to is there.
        for lang in Lang::ALL {
            let s = preset_choices(texts(lang), Preset::Raw);
            for id in ["gd-standardise-hint", "gd-jay-hint"] {
                assert!(s.contains(&format!(r#"id="{id}""#)), "{lang:?}: {id}");
            }
        }
    }
}
