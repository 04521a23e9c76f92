//! A view of the model in a link: `/?w=0.0585&b=247.3`.
//!
//! The server renders the page at the link's point (so the error is right before
//! the WASM loads), the browser keeps the address bar on the latest attempt, and
//! "copy a link to my best" writes one. Pure: parsing and writing only.
//!
//! A link comes from anywhere (a blog, a chat, a typo), so reading one never
//! fails the page: a value that is not a number is ignored (that parameter
//! starts where the guide starts) and one outside its slider is clamped. Each
//! such problem is named in a notice the page shows, rather than silently.

use crate::page::i18n::Texts;
use lesson::neuron::{Params, Slider, BIAS_SLIDER, START, WEIGHT_SLIDER};
use vocabulary::{fill, format::plain};

/// Decimals written for each parameter: the sliders' own grids (0.0001, 0.1)
/// with room for typed values.
pub const WEIGHT_DECIMALS: usize = 7;
pub const BIAS_DECIMALS: usize = 4;

/// What a link's `w` and `b` give: the point, and a sentence per value that
/// could not be used as written.
#[derive(Clone, Debug, PartialEq)]
pub struct FromLink {
    pub params: Params,
    pub notices: Vec<String>,
}

/// The point named by a link's `w` and `b` (each optional); notices in `t`'s language.
pub fn read(w: Option<&str>, b: Option<&str>, t: &Texts) -> FromLink {
    let weight = Field {
        key: "w",
        name: t.weight,
        slider: WEIGHT_SLIDER,
        start: START.weight,
    };
    let bias = Field {
        key: "b",
        name: t.bias,
        slider: BIAS_SLIDER,
        start: START.bias,
    };
    let (weight, weight_notice) = weight.read(w, t);
    let (bias, bias_notice) = bias.read(b, t);
    FromLink {
        params: Params::new(weight, bias),
        notices: weight_notice.into_iter().chain(bias_notice).collect(),
    }
}

/// One of a link's parameters: its key, its name on the page, its slider and
/// where it starts without the link.
struct Field<'a> {
    key: &'static str,
    name: &'a str,
    slider: Slider,
    start: f64,
}

impl Field<'_> {
    /// The value `text` gives, and a notice when it could not be used as written.
    fn read(&self, text: Option<&str>, t: &Texts) -> (f64, Option<String>) {
        let Some(text) = text else {
            return (self.start, None);
        };
        match text.trim().parse::<f64>() {
            Ok(v) if v.is_finite() => {
                let clamped = self.slider.clamp(v);
                let notice = (clamped != v).then(|| self.notice(t, t.link_outside, text, clamped));
                (clamped, notice)
            }
            _ => (
                self.start,
                Some(self.notice(t, t.link_not_number, text, self.start)),
            ),
        }
    }

    /// `template` filled for this parameter, what the link said and the value used.
    fn notice(&self, t: &Texts, template: &str, text: &str, value: f64) -> String {
        fill(
            template,
            &[
                ("key", self.key),
                ("text", &shorten(text)),
                // ASCII only: the names start with one ("Peso", "Viés"; Chinese
                // has no case), and Unicode's tables would cost the WASM KBs.
                ("name", &self.name.to_ascii_lowercase()),
                ("min", &t.plain(self.slider.min, 4)),
                ("max", &t.plain(self.slider.max, 4)),
                ("value", &t.plain(value, 7)),
            ],
        )
    }
}

/// At most 20 characters of what the link said (it is shown back on the page).
fn shorten(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(20).collect();
    if chars.next().is_some() {
        format!("“{head}…”")
    } else {
        format!("“{head}”")
    }
}

/// The query string for a point: `w=0.0585&b=247.3`.
pub fn query(p: Params) -> String {
    format!(
        "w={}&b={}",
        plain(p.weight, WEIGHT_DECIMALS),
        plain(p.bias, BIAS_DECIMALS)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::i18n::texts;
    use vocabulary::Lang;

    fn read(w: Option<&str>, b: Option<&str>) -> FromLink {
        super::read(w, b, texts(Lang::En))
    }

    #[test]
    fn a_link_names_a_point_and_writing_it_reads_back_the_same() {
        let got = read(Some("0.0585"), Some("247.3"));
        assert_eq!(got.params, Params::new(0.0585, 247.3));
        assert!(got.notices.is_empty());
        assert_eq!(query(got.params), "w=0.0585&b=247.3");
        for p in [START, Params::new(0.0, 0.0), Params::new(0.4, 460.0)] {
            let q = query(p);
            let (w, b) = q.split_once('&').expect("two parameters");
            let back = read(w.strip_prefix("w="), b.strip_prefix("b="));
            assert_eq!((back.params, back.notices.len()), (p, 0), "{q}");
        }
    }

    #[test]
    fn notices_speak_the_pages_language() {
        let got = super::read(Some("abc"), None, texts(Lang::Pt));
        assert_eq!(
            got.notices,
            ["No link, w=“abc” não é um número de 0 a 0,4: o peso começa em 0,1."]
        );
    }

    #[test]
    fn no_link_is_the_guides_start() {
        assert_eq!(
            read(None, None),
            FromLink {
                params: START,
                notices: vec![]
            }
        );
        assert_eq!(
            read(Some("0.06"), None).params,
            Params::new(0.06, START.bias)
        );
    }

    #[test]
    fn bad_values_are_named_and_never_fail_the_page() {
        let got = read(Some("abc"), Some("9999"));
        assert_eq!(got.params, Params::new(START.weight, 460.0));
        assert_eq!(
            got.notices,
            [
                "The link's w=“abc” is not a number from 0 to 0.4: the weight starts at 0.1.",
                "The link's b=“9999” is outside the bias's range (0 to 460): using 460.",
            ]
        );
        for junk in ["NaN", "inf", "-inf", "", " ", "1e999", "0x10"] {
            let got = read(Some(junk), None);
            assert_eq!(got.params, START, "{junk}");
            assert_eq!(got.notices.len(), 1, "{junk}");
        }
        let long = "9".repeat(500);
        let got = read(None, Some(&long));
        assert!(got.notices[0].len() < 120, "{}", got.notices[0]);
        assert_eq!(read(Some("-1"), None).params.weight, 0.0);
    }
}
