//! `/insights`: the page and its CSV files over a store seeded
//! with a small history whose every number is known ([`seed::small`]), in
//! each language; a bad filter field; the token; recording off.

mod seed;

use crate::helpers::TestApp;
use std::sync::Arc;

use coach::{providers::HttpProvider, registry::Registry, secret::Secret, Coach};
use insights::{sink::Sink, Insights, InsightsConfig, Minute};
use jay_trainer::server::config::Guard;
use reqwest::{Client, Response};

const TOKEN: &str = "teach-3rd-grade";

/// The app recording into a fresh folder seeded with [`seed::small`],
/// behind `token` when given.
async fn spawn_seeded(token: Option<&str>) -> TestApp {
    let dir = tempfile::tempdir().expect("a data folder").keep();
    let config = InsightsConfig::from_vars(|_| None, &dir).expect("config");
    let insights = Insights::start(&config).expect("store");
    let store = insights.store().expect("recording is on").clone();
    store
        .write(&seed::small(Minute::now()))
        .await
        .expect("seeded");
    spawn(insights, token).await
}

/// The app with `insights`, behind `token` when given.
async fn spawn(insights: Insights, token: Option<&str>) -> TestApp {
    let registry = Registry::parse("strategy = \"thompson\"\n").expect("registry");
    let coach = Coach::new(registry, None, Arc::new(HttpProvider::new(None)), Some(7));
    let guard = Guard {
        insights_token: token.and_then(Secret::new),
        ..Guard::default()
    };
    crate::helpers::serve_recording(coach, &guard, insights).await
}

async fn get(url: &str) -> Response {
    Client::new().get(url).send().await.expect("request")
}

/// The funnel table's row headed `step`: its cells after the heading.
fn funnel_row(html: &str, step: &str) -> String {
    let table = &html[html.find(r#"id="funnel-table""#).expect("the funnel table")..];
    let row = &table[table
        .find(&format!("<th scope=\"row\">{step}</th>"))
        .expect(step)..];
    row[..row.find("</tr>").expect("row end")].to_string()
}

#[tokio::test]
async fn the_page_shows_the_seeded_visits_in_each_language() {
    let base = spawn_seeded(None).await;
    for (lang, html_lang, goal_step, visits_said) in [
        (
            "en",
            "en",
            "Reached the goal: error 450 or less",
            "Visits: 5.",
        ),
        (
            "pt",
            "pt-BR",
            "Atingiram a meta: erro de 450 ou menos",
            "Visitas: 5.",
        ),
        ("zh", "zh-CN", "达到目标：误差不超过 450", "访问次数：5。"),
    ] {
        let r = get(&format!("{base}/insights?lang={lang}")).await;
        assert_eq!(r.status(), 200, "{lang}");
        assert_eq!(r.headers()["content-type"], "text/html; charset=utf-8");
        let csp = r.headers()["content-security-policy"]
            .to_str()
            .expect("csp")
            .to_string();
        assert!(
            csp.contains("script-src 'none'") && csp.contains("style-src 'self'"),
            "{csp}"
        );
        let html = r.text().await.expect("body");
        assert!(
            html.contains(&format!(r#"<html lang="{html_lang}">"#)),
            "{lang}"
        );
        assert!(
            html.contains(visits_said),
            "{lang}: the scope says 5 visits"
        );
        // 2 of 5 visits reached the goal; both that reached 500 did.
        let row = funnel_row(&html, goal_step);
        assert!(
            row.contains("<td>2</td><td>40%</td><td>100%</td>"),
            "{lang}: {row}"
        );
        assert!(!html.contains(" style=") && !html.contains("<style") && !html.contains("<script"));
        assert!(!html.contains("NaN"), "{lang}");
    }
    // The seven sections and a CSV link per table.
    let html = get(&format!("{base}/insights"))
        .await
        .text()
        .await
        .expect("body");
    for id in [
        "funnel", "effort", "stuck", "helps", "coach", "days", "export",
    ] {
        assert!(html.contains(&format!(r#"<section id="{id}""#)), "{id}");
    }
    for name in [
        "funnel",
        "attempts",
        "minutes",
        "stuck",
        "points",
        "tools",
        "models",
        "rejections",
        "latency",
        "days",
    ] {
        assert!(
            html.contains(&format!("&#x2f;insights&#x2f;{name}.csv")),
            "{name}"
        );
    }
    // Medians: attempts 4 and 1 → 2.5.
    assert!(
        html.contains("Median attempts: 2.5. Median minutes: 3."),
        "the medians"
    );
    // The landscape the main page draws, with one stuck dot per stopped visit.
    assert!(html.contains(r#"data-testid="landscape-island""#));
    let map = &html[html.find("insights-map-svg").expect("the map")..];
    let map = &map[..map.find("</svg>").expect("its end")];
    assert_eq!(
        map.matches(r#"<circle class="stuck""#).count(),
        2,
        "v2 and v5"
    );
}

#[tokio::test]
async fn the_filter_narrows_the_visits_and_a_bad_field_is_named() {
    let base = spawn_seeded(None).await;
    let html = get(&format!("{base}/insights?room=CLASS-7b&language=zh"))
        .await
        .text()
        .await
        .expect("body");
    assert!(html.contains("· Room class-7b. Visits: 1."), "{html}");
    assert!(funnel_row(&html, "Reached the goal: error 450 or less")
        .contains("<td>1</td><td>100%</td>"));
    // Last 24 hours: v3, v4 and v5; of them, in English, v4 and v5.
    let html = get(&format!("{base}/insights?period=1"))
        .await
        .text()
        .await
        .expect("body");
    assert!(html.contains("Visits: 3."), "v3, v4 and v5");
    let html = get(&format!("{base}/insights?period=1&language=en"))
        .await
        .text()
        .await
        .expect("body");
    assert!(html.contains("Visits: 2."), "v4 and v5");
    let empty = get(&format!("{base}/insights?room=nobody-here"))
        .await
        .text()
        .await
        .expect("body");
    assert!(empty.contains("No visits in this period yet."));

    for (query, field) in [
        ("period=8", "period"),
        ("language=fr", "language"),
        ("room=a%20b", "room"),
    ] {
        for path in ["/insights", "/insights/funnel.csv"] {
            let r = get(&format!("{base}{path}?{query}")).await;
            assert_eq!(r.status(), 400, "{path}?{query}");
            let body = r.text().await.expect("body");
            assert!(body.starts_with(&format!("{field}: ")), "{body}");
            assert_eq!(body.lines().count(), 1, "{body}");
        }
    }
    assert_eq!(
        get(&format!("{base}/insights/secrets.csv")).await.status(),
        404
    );
}

#[tokio::test]
async fn each_table_downloads_as_csv_with_formulas_defused() {
    let base = spawn_seeded(None).await;
    let r = get(&format!("{base}/insights/models.csv?period=7")).await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "text/csv; charset=utf-8");
    assert_eq!(
        r.headers()["content-disposition"],
        "attachment; filename=\"jay-insights-models.csv\""
    );
    let body = r.text().await.expect("body");
    let lines: Vec<&str> = body.lines().collect();
    assert_eq!(lines[0], "model,comments,share");
    assert!(lines.contains(&"'-sum-a1,1,0.1250"), "{body}");
    assert!(lines.contains(&"qwen,4,0.5000"), "{body}");
    let reasons = get(&format!("{base}/insights/rejections.csv"))
        .await
        .text()
        .await
        .expect("body");
    assert!(reasons.contains("'-1 too long,1"), "{reasons}");
    let funnel = get(&format!("{base}/insights/funnel.csv"))
        .await
        .text()
        .await
        .expect("body");
    assert!(funnel.contains("goal_450,2,0.4000,1.0000"), "{funnel}");
    // Three days or four (v3 to v5 may straddle midnight, UTC): 5 visits in all.
    let days = get(&format!("{base}/insights/days.csv"))
        .await
        .text()
        .await
        .expect("body");
    let visits: u64 = days
        .lines()
        .skip(1)
        .map(|line| {
            line.split(',')
                .nth(1)
                .and_then(|n| n.parse::<u64>().ok())
                .expect("a count")
        })
        .sum();
    assert_eq!(visits, 5, "{days}");
}

#[tokio::test]
async fn a_token_guards_the_page_and_the_files() {
    let base = spawn_seeded(Some(TOKEN)).await;
    for path in ["/insights", "/insights/funnel.csv"] {
        let r = get(&format!("{base}{path}")).await;
        assert_eq!(r.status(), 401, "{path}");
        let challenge = r.headers()["www-authenticate"].to_str().expect("ascii");
        assert!(
            challenge.starts_with(r#"Basic realm="Jay Trainer insights""#),
            "{challenge}"
        );
        let wrong = Client::new()
            .get(format!("{base}{path}"))
            .bearer_auth("teach-4th-grade")
            .send()
            .await
            .expect("request");
        assert_eq!(wrong.status(), 401, "{path}");
        let bearer = Client::new()
            .get(format!("{base}{path}"))
            .bearer_auth(TOKEN)
            .send()
            .await
            .expect("request");
        assert_eq!(bearer.status(), 200, "{path}");
        let basic = Client::new()
            .get(format!("{base}{path}"))
            .basic_auth("teacher", Some(TOKEN))
            .send()
            .await
            .expect("request");
        assert_eq!(basic.status(), 200, "{path}");
    }
    // The rest of the site stays open, and so does the pages' own stylesheet
    // (a browser fetches it before it asks for the password).
    assert_eq!(get(&format!("{base}/healthz")).await.status(), 200);
    let page = Client::new()
        .get(format!("{base}/insights"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("request")
        .text()
        .await
        .expect("html");
    let href = page
        .split(r#"<link rel="stylesheet" href=""#)
        .nth(2)
        .and_then(|rest| rest.split('"').next())
        .expect("the pages' own stylesheet, after the site's")
        .replace("&#x2f;", "/");
    assert!(href.starts_with("/insights/style.css?v="), "{href}");
    let css = get(&format!("{base}{href}")).await;
    assert_eq!(css.status(), 200);
    assert_eq!(css.headers()["content-type"], "text/css; charset=utf-8");
    assert!(css.headers()["cache-control"]
        .to_str()
        .expect("ascii")
        .contains("immutable"));
    assert!(css.text().await.expect("css").contains(".insights"));
}

#[tokio::test]
async fn with_recording_off_the_page_says_so() {
    let coach = Coach::new(
        Registry::parse("strategy = \"thompson\"\n").expect("registry"),
        None,
        Arc::new(HttpProvider::new(None)),
        Some(7),
    );
    let base = crate::helpers::serve(coach, &Guard::default()).await;
    for lang in ["en", "pt", "zh"] {
        let r = get(&format!("{base}/insights?lang={lang}")).await;
        assert_eq!(r.status(), 200, "{lang}");
        let html = r.text().await.expect("body");
        assert!(html.contains(r#"data-testid="insights-off""#), "{lang}");
        assert!(html.contains("JAY_INSIGHTS=off"), "{lang}");
    }
    assert_eq!(
        get(&format!("{base}/insights/funnel.csv")).await.status(),
        404
    );
}

#[tokio::test]
async fn a_database_that_does_not_answer_is_a_page_that_says_so() {
    // Its folder is a file: the database cannot be opened.
    let file = tempfile::NamedTempFile::new().expect("a file");
    let config = InsightsConfig::from_vars(|_| None, file.path()).expect("config");
    let base = spawn(Insights::start(&config).expect("opened lazily"), None).await;
    let r = get(&format!("{base}/insights?lang=pt")).await;
    assert_eq!(r.status(), 503);
    let html = r.text().await.expect("body");
    assert!(
        html.contains(r#"data-testid="insights-unavailable""#),
        "{html}"
    );
    let r = get(&format!("{base}/insights/days.csv")).await;
    assert_eq!(r.status(), 503);
    assert!(r.text().await.expect("body").contains("not answering"));
}
