//! The server-rendered page holds the whole simulator before any WASM runs.
#![cfg(feature = "ssr")]

use jay_trainer::{
    format::grouped,
    neuron::{Params, HOUSES, START},
    server::{
        config::{Guard, Settings},
        startup::Application,
    },
};
use leptos::config::LeptosOptions;

/// Starts the real application on a free port and returns its base URL.
async fn spawn_app() -> String {
    let leptos = LeptosOptions::builder()
        .output_name("jay-trainer")
        .site_addr(std::net::SocketAddr::from(([127, 0, 0, 1], 0)))
        .build();
    // The repository's registry and no token: remote models are skipped.
    let settings = Settings {
        leptos,
        models_path: "models.toml".into(),
        hf_token: None,
        guard: Guard::default(),
        data_dir: std::env::temp_dir().join(format!("jay-page-{}", std::process::id())),
        save_every: std::time::Duration::from_secs(30),
    };
    let app = Application::build(settings)
        .await
        .expect("bind a free port");
    let addr = app.local_addr().expect("local address");
    tokio::spawn(app.run_until_stopped());
    format!("http://{addr}")
}

async fn get(url: &str) -> (u16, String) {
    let response = reqwest::get(url).await.expect("request");
    let status = response.status().as_u16();
    (status, response.text().await.expect("body"))
}

#[tokio::test]
async fn home_page_is_fully_rendered_on_the_server() {
    let base = spawn_app().await;
    let (status, html) = get(&format!("{base}/")).await;
    assert_eq!(status, 200);

    // The error, the goal, the chart and the table are in the HTML itself.
    assert!(
        html.contains(&grouped(START.error(), 2)),
        "initial error missing"
    );
    assert!(html.contains("Goal: below "), "goal missing");
    assert!(html.contains(r#"data-testid="chart""#));
    assert!(html.contains(r#"data-testid="prediction-line""#));
    assert_eq!(
        html.matches(r#"data-testid="residual""#).count(),
        HOUSES.len()
    );
    for house in HOUSES {
        assert!(
            html.contains(&grouped(START.predict(house.area), 2)),
            "prediction for {}",
            house.area
        );
    }
    // Both sliders with labels tied to them, and the script that hydrates the page.
    assert!(html.contains(r#"for="weight""#) && html.contains(r#"id="weight""#));
    assert!(html.contains(r#"for="bias""#) && html.contains(r#"id="bias""#));
    assert!(html.contains("jay-trainer.wasm") || html.contains("jay-trainer.js"));
}

#[tokio::test]
async fn a_link_is_rendered_at_its_point_and_a_bad_one_is_named() {
    let base = spawn_app().await;
    let (status, html) = get(&format!("{base}/?w=0.0585&b=247.3")).await;
    assert_eq!(status, 200);
    let p = Params::new(0.0585, 247.3);
    assert!(html.contains(&grouped(p.error(), 2)), "the link's error");
    assert!(html.contains(r#"value="0.0585""#) && html.contains(r#"value="247.3""#));
    assert!(!html.contains("link-notice"));

    let (status, html) = get(&format!("{base}/embed?w=%3Cscript%3E&b=1e9")).await;
    assert_eq!(status, 200);
    assert!(html.contains("link-notice"));
    assert!(
        html.contains("w=“&lt;script&gt;” is not a number"),
        "escaped, named"
    );
    assert!(!html.contains("<script>\u{201d}"));
    assert!(html.contains(&grouped(Params::new(START.weight, 500.0).error(), 2)));
}

#[tokio::test]
async fn start_is_where_the_guide_starts() {
    // The three houses of `reference/simulator.md` (area, price in $1000),
    // written out here so the page's math is checked against the reference, not
    // against itself.
    let houses = [(2104.0, 399.9), (1600.0, 329.9), (2400.0, 369.0)];
    let mse = |w: f64, b: f64| {
        houses
            .iter()
            .map(|(area, price)| (price - (area * w + b)).powi(2))
            .sum::<f64>()
            / 3.0
    };
    // The reference table's rows, so this formula is the reference's.
    assert!((mse(0.05, 0.0) - 70_433.03).abs() < 0.01);
    assert!((mse(0.1, 150.0) - 799.09).abs() < 0.01);
    let expected = mse(START.weight, START.bias);
    assert!(
        (START.error() - expected).abs() < 1e-6,
        "start error {} but the reference data give {expected}",
        START.error()
    );
    // Where Jay's guide starts (issue 9): "can you get below 799?"
    assert_eq!((START.weight, START.bias), (0.1, 150.0));
    assert!((START.error() - 799.09).abs() < 0.005, "{}", START.error());
}

#[tokio::test]
async fn health_check_and_unknown_paths() {
    let base = spawn_app().await;
    assert_eq!(
        get(&format!("{base}/healthz")).await,
        (200, "ok".to_string())
    );
    let (status, html) = get(&format!("{base}/no-such-page")).await;
    assert_eq!(status, 404);
    assert!(html.contains("Page not found"));
}
