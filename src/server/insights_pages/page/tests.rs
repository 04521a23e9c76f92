//! `/insights`'s `<main>` rendered: store text escaped, the longest
//! paths within a mebibyte, and the states without data read as sentences.

use super::*;
use insights::report::{coach::CoachReport, funnel::Funnel};

fn data() -> Data {
    Data {
        funnel: Funnel {
            visits: 3,
            attempted: 2,
            at_or_below: [1, 1, 1, 0],
        },
        coach: CoachReport {
            comments: 2,
            offline: 1,
            per_model: vec![
                ("<img src=x onerror=alert(1)>".into(), 1),
                ("offline".into(), 1),
            ],
            rejections: vec![("\"><script>alert(1)</script>".into(), 1)],
            latency: Vec::new(),
        },
        ..Data::default()
    }
}

#[test]
fn text_from_the_store_is_escaped() {
    let html = main(
        Lang::En,
        &Choice::default(),
        Minute(30_000_000),
        Content::Data(&data()),
    )
    .expect("renders");
    assert!(
        !html.contains("<img") && !html.contains("<script"),
        "{html}"
    );
    assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;"));
    assert!(html.contains("Visits: 3."));
    assert!(html.contains("No visit has reached the goal in this period yet."));
    assert!(html.contains("50% of the comments came from the offline commentator (1 of 2)."));
}

#[test]
fn a_page_of_the_longest_paths_stays_under_a_mebibyte() {
    use insights::report::effort::{Point, Points};
    let at = |i: usize| Point {
        weight: 0.0001 * (i % 4000) as f64,
        weight2: 0.0,
        bias: 0.1 * (i % 4600) as f64,
        error: 1000.0 + i as f64,
    };
    let data = Data {
        funnel: Funnel {
            visits: 400,
            attempted: 400,
            at_or_below: [200, 200, 200, 200],
        },
        points: Points {
            stuck: (0..CAP as usize).map(at).collect(),
            paths: (0..CAP as usize)
                .map(|_| (0..10_000).map(at).collect())
                .collect(),
        },
        ..Data::default()
    };
    let html = main(
        Lang::En,
        &Choice::default(),
        Minute(30_000_000),
        Content::Data(&data),
    )
    .expect("renders");
    assert!(html.len() < 1024 * 1024, "{} bytes", html.len());
    let points: usize = html
        .split("points=\"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap_or("").split(' ').count())
        .sum();
    let marks = html.matches("<circle").count() + points;
    assert!(marks <= 2_500, "{marks} marks");
}

#[test]
fn off_unavailable_and_empty_read_as_sentences_in_every_language() {
    let empty = Data::default();
    let slow = Data::all_slow();
    for lang in Lang::ALL {
        let w = words(lang);
        let render = |content| main(lang, &Choice::default(), Minute(0), content).expect("renders");
        assert!(render(Content::Off).contains(w.off), "{lang:?}");
        assert!(
            render(Content::Unavailable).contains(w.unavailable),
            "{lang:?}"
        );
        let html = render(Content::Data(&empty));
        assert!(
            html.contains(w.empty) && !html.contains("<table"),
            "{lang:?}"
        );
        // Reports that took too long: each section says so, none is empty.
        let late = render(Content::Data(&slow));
        assert_eq!(late.matches(w.slow).count(), 6, "{lang:?}");
        assert!(!late.contains(w.empty), "{lang:?}");
        // The form keeps the page's language.
        assert!(html.contains(&format!(r#"name="lang" value="{}""#, lang.code())));
    }
}
