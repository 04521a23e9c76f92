//! The diagram's numbers and words for a given house, weight, bias and language.

use super::*;
use crate::page::i18n::{texts, DiagramWords};
use lesson::neuron::START;
use vocabulary::Lang;

fn shown(lang: Lang, picked: Option<usize>, p: Params) -> Shown {
    Shown::new(texts(lang), picked, p)
}

#[test]
fn with_no_house_picked_it_computes_the_first_at_jays_start() {
    // 2,104 sq ft × 0.1 + 150 = 360.4 ($1000).
    let s = shown(Lang::En, None, START);
    assert_eq!(
        (s.house.as_str(), s.area.as_str()),
        ("House 1: 2,104 sq ft", "2,104")
    );
    assert_eq!((s.weight.as_str(), s.bias.as_str()), ("0.1", "150"));
    // The sum as the table's prediction column writes it; the price as the
    // chart's house titles do.
    assert_eq!((s.out.as_str(), s.price.as_str()), ("360.40", "$360.4k"));
    assert_eq!(
        s.sentence(texts(Lang::En)),
        "House 1: 2,104 sq ft × 0.1 + 150 = 360.40, that is $360.4k."
    );
    // A pick the table cannot make falls back to the first house too.
    assert_eq!(shown(Lang::En, Some(7), START), s);
}

#[test]
fn it_follows_the_house_picked_and_the_model() {
    let p = Params::new(0.0585, 247.3);
    let s = shown(Lang::En, Some(2), p);
    // 2,400 × 0.0585 + 247.3 = 387.7
    assert_eq!(s.house, "House 3: 2,400 sq ft");
    assert_eq!(
        [&s.area, &s.weight, &s.bias, &s.out, &s.price],
        ["2,400", "0.0585", "247.3", "387.70", "$387.7k"]
    );
    let second = shown(Lang::En, Some(1), Params::new(0.4, 460.0));
    // 1,600 × 0.4 + 460 = 1,100: grouped as the table groups.
    assert_eq!(second.out, "1,100.00");
    assert_eq!(second.house, "House 2: 1,600 sq ft");
}

#[test]
fn each_language_writes_the_numbers_its_way() {
    let pt = shown(Lang::Pt, None, START);
    assert_eq!(pt.house, "Casa 1: 2.104 pés²");
    assert_eq!(
        [&pt.area, &pt.weight, &pt.bias, &pt.out, &pt.price],
        ["2.104", "0,1", "150", "360,40", "US$ 360,4 mil"]
    );
    assert_eq!(
        pt.sentence(texts(Lang::Pt)),
        "Casa 1: 2.104 pés² × 0,1 + 150 = 360,40, ou seja, US$ 360,4 mil."
    );
    // Chinese: the sum in the sliders' 1000 美元, the price in 万美元.
    let zh = shown(Lang::Zh, Some(1), Params::new(0.0585, 247.3));
    // 1,600 × 0.0585 + 247.3 = 340.9
    assert_eq!(zh.house, "第 2 栋房子：1,600 平方英尺");
    assert_eq!(
        (zh.out.as_str(), zh.price.as_str()),
        ("340.90", "34.09 万美元")
    );
    assert_eq!(
        zh.sentence(texts(Lang::Zh)),
        "第 2 栋房子：1,600 平方英尺 × 0.0585 + 247.3 = 340.90（单位：1000 美元），即 34.09 万美元。"
    );
}

#[test]
fn the_markup_puts_each_number_in_its_place_once() {
    let (pt, p) = (texts(Lang::Pt), Params::new(0.1234, 99.9));
    let m = values_markup(pt, Some(2), p);
    // 2,400 × 0.1234 + 99.9 = 396.06
    for (class, text) in [
        ("house", "Casa 3: 2.400 pés²"),
        ("area", "2.400"),
        ("weight", "× 0,1234"),
        ("bias", "+ 99,9"),
        ("out", "396,06"),
        ("price", "= US$ 396,1 mil"),
    ] {
        assert_eq!(m.matches(&format!(r#"class="{class}""#)).count(), 1);
        assert!(m.contains(&format!(">{text}</text>")), "{class}: {m}");
    }
    assert_eq!(m.matches("<text").count(), 6);
    // The SVG's name (aria-labelledby), first.
    let said = Shown::new(pt, Some(2), p).sentence(pt);
    assert!(m.starts_with(&format!(r#"<title id="diagram-said">{said}</title>"#)));
}

#[test]
fn the_numbers_sit_on_the_nodes_under_the_pages_words() {
    // The values are placed by the style sheet, on the frame's nodes.
    let css = include_str!("../../../../style/chart.css");
    for (class, x, y) in [
        ("area", 86, 119),
        ("weight", 187, 103),
        ("bias", 300, 119),
        ("out", 474, 119),
        ("price", 474, 162),
    ] {
        let rule = format!(".diagram .{class} {{ transform: translate({x}px, {y}px); }}");
        assert!(css.contains(&rule), "{rule}");
    }
    for lang in Lang::ALL {
        let t = texts(lang);
        let frame = frame_markup(t);
        // Left to right: the area, the weight (on the first arrow), the bias
        // (in the neuron) and the price; each node and its label share an x.
        for (x, shape) in [
            (86, r#"cx="86""#),
            (187, "M122 112H245"),
            (300, r#"cx="300""#),
            (474, r#"x="400" y="88" width="148""#),
        ] {
            assert!(frame.contains(shape), "{x}");
            assert_eq!(frame.matches(&format!(r#"<text x="{x}""#)).count(), 1);
        }
        for label in [t.axis_area, t.weight, t.bias, t.axis_price] {
            assert!(frame.contains(&format!(">{label}</text>")), "{lang:?}");
        }
    }
}

#[test]
fn every_language_fills_the_same_placeholders_and_is_safe_in_markup() {
    let names = |s: &str| {
        let mut v: Vec<String> = s
            .split('{')
            .skip(1)
            .filter_map(|r| r.split_once('}').map(|(n, _)| n.to_string()))
            .collect();
        v.sort();
        v
    };
    let fields = |w: &DiagramWords| [w.house, w.price, w.said];
    for lang in Lang::ALL {
        for (en, other) in fields(&texts(Lang::En).diagram)
            .into_iter()
            .zip(fields(&texts(lang).diagram))
        {
            assert_eq!(names(en), names(other), "{lang:?}: {other}");
            assert!(!other.contains(['<', '>', '&', '"']), "{lang:?}: {other}");
        }
    }
    // Chinese prices are in 万美元 or 1000 美元, never 千美元 (i18n's rule).
    assert!(fields(&texts(Lang::Zh).diagram)
        .iter()
        .all(|s| !s.contains("千美元")));
}
