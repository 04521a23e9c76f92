//! The server-rendered page holds the whole simulator before any WASM runs.

use insights::InsightsConfig;
use jay_trainer::server::{
    config::{Guard, Settings},
    startup::Application,
};
use leptos::config::LeptosOptions;
use lesson::neuron::{Params, HOUSES, START};
use vocabulary::format::grouped;

/// The application on a free port, read as its base URL, and the temporary
/// folders it reads and writes (removed with this value).
struct Served {
    base: String,
    _folders: Vec<tempfile::TempDir>,
}

impl std::fmt::Display for Served {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.base)
    }
}

/// Starts the real application on a free port.
async fn spawn_app() -> Served {
    let leptos = LeptosOptions::builder()
        .output_name("jay-trainer")
        .site_addr(std::net::SocketAddr::from(([127, 0, 0, 1], 0)))
        .build();
    spawn_with((leptos, None)).await
}

/// [`spawn_app`] with these options, serving the site in their folder if any.
async fn spawn_with((leptos, site): (LeptosOptions, Option<tempfile::TempDir>)) -> Served {
    // The repository's registry and no token: remote models are skipped.
    let data = crate::helpers::scratch("page");
    let data_dir = data.path().to_path_buf();
    // These tests are about the page: nothing recorded.
    let off = |name: &str| (name == "JAY_INSIGHTS").then(|| "off".to_string());
    let settings = Settings {
        leptos,
        models_path: "models.toml".into(),
        hugging_face: Default::default(),
        guard: Guard::default(),
        insights: InsightsConfig::from_vars(off, &data_dir).expect("insights off"),
        data_dir,
        save_every: std::time::Duration::from_secs(30),
        feedback_key: None,
    };
    let app = Application::build(settings)
        .await
        .expect("bind a free port");
    let addr = app.local_addr().expect("local address");
    tokio::spawn(app.run_until_stopped());
    Served {
        base: format!("http://{addr}"),
        _folders: [data].into_iter().chain(site).collect(),
    }
}

/// `GET url` with one extra request header.
async fn get_with(client: &reqwest::Client, url: &str, header: (&str, &str)) -> reqwest::Response {
    client
        .get(url)
        .header(header.0, header.1)
        .send()
        .await
        .expect("request")
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
    assert!(html.contains(&grouped(Params::new(START.weight, 460.0).error(), 2)));

    // A link made when the sliders ran to 0.3 and 500 still opens: the weight is
    // inside Jay's 0–0.4, the bias is brought to 460 and the notice says so.
    let (status, html) = get(&format!("{base}/?w=0.3&b=480")).await;
    assert_eq!(status, 200);
    assert!(html.contains(r#"value="0.3""#) && html.contains(r#"value="460""#));
    assert!(
        html.contains("outside the bias&#x27;s range (0 to 460): using 460")
            || html.contains("outside the bias's range (0 to 460): using 460")
    );
    assert!(html.contains(&grouped(Params::new(0.3, 460.0).error(), 2)));
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
    // Where Jay's guide starts: "can you get below 799?"
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

/// A site as `cargo leptos build --release --precompress` leaves it: names
/// carrying a hash, each file beside its `.br` and `.gz`, and `hash.txt`.
fn released_site() -> (LeptosOptions, Option<tempfile::TempDir>) {
    let folder = crate::helpers::scratch("site");
    let root = folder.path();
    let pkg = root.join("pkg");
    std::fs::create_dir_all(&pkg).expect("site folder");
    for (name, body) in [
        ("jay-trainer.Cx.css", "body{}"),
        ("jay-trainer.Jx.js", "export default 1"),
        ("jay-trainer.Wx.wasm", "\0asm"),
    ] {
        std::fs::write(pkg.join(name), body).expect("file");
        std::fs::write(pkg.join(format!("{name}.br")), format!("br:{body}")).expect("br");
        std::fs::write(pkg.join(format!("{name}.gz")), format!("gz:{body}")).expect("gz");
    }
    let hash_file = root.join("hash.txt");
    std::fs::write(&hash_file, "js: Jx\nwasm: Wx\ncss: Cx\n").expect("hash file");
    let options = LeptosOptions::builder()
        .output_name("jay-trainer")
        .site_root(root.to_string_lossy().into_owned())
        .site_addr(std::net::SocketAddr::from(([127, 0, 0, 1], 0)))
        .hash_files(true)
        // Leptos joins it to the executable's folder: an absolute path wins.
        .hash_file(hash_file.to_string_lossy().into_owned().into())
        .build();
    (options, Some(folder))
}

#[tokio::test]
async fn assets_are_precompressed_and_cached_for_a_year_under_hashed_names() {
    let base = spawn_with(released_site()).await;
    let (_, html) = get(&format!("{base}/")).await;
    for name in [
        "/pkg/jay-trainer.Cx.css",
        "/pkg/jay-trainer.Jx.js",
        "/pkg/jay-trainer.Wx.wasm",
    ] {
        assert!(html.contains(name), "{name} not linked");
    }
    let client = reqwest::Client::builder()
        .no_gzip()
        .no_brotli()
        .build()
        .expect("client");
    for (accept, encoding, body) in [
        ("br, gzip", Some("br"), "br:body{}"),
        ("gzip", Some("gzip"), "gz:body{}"),
        ("identity", None, "body{}"),
    ] {
        let response = get_with(
            &client,
            &format!("{base}/pkg/jay-trainer.Cx.css"),
            ("accept-encoding", accept),
        )
        .await;
        assert_eq!(response.status(), 200);
        let headers = response.headers().clone();
        let header = |name: &str| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        assert_eq!(header("content-encoding").as_deref(), encoding, "{accept}");
        assert_eq!(
            header("cache-control").as_deref(),
            Some("public, max-age=31536000, immutable")
        );
        assert!(header("vary").is_some_and(|v| v.to_ascii_lowercase().contains("accept-encoding")));
        assert!(header("content-type").is_some_and(|v| v.starts_with("text/css")));
        assert_eq!(response.text().await.expect("body"), body);
    }
    // A name this build does not have (the next build's, asked of an old
    // instance mid-deploy): never kept, or the page stays broken for a year.
    let missing = reqwest::get(format!("{base}/pkg/jay-trainer.missing.js"))
        .await
        .expect("request");
    assert_eq!(missing.status(), 404);
    assert_eq!(missing.headers()["cache-control"], "no-store");
    // A current copy's revalidation keeps the year.
    let current = get_with(
        &client,
        &format!("{base}/pkg/jay-trainer.Cx.css"),
        ("if-modified-since", "Fri, 01 Jan 2100 00:00:00 GMT"),
    )
    .await;
    assert_eq!(current.status(), 304);
    assert_eq!(
        current.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
}

/// The page's language may come from `Accept-Language`, its encoding from
/// `Accept-Encoding`: a cache must keep them apart.
fn assert_varies_by_language_and_encoding(response: &reqwest::Response) {
    let vary: Vec<String> = response
        .headers()
        .get_all("vary")
        .iter()
        .flat_map(|v| {
            v.to_str()
                .unwrap_or_default()
                .split(',')
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .map(|v| v.trim().to_ascii_lowercase())
        .collect();
    for header in ["accept-language", "accept-encoding"] {
        assert!(vary.iter().any(|v| v == header), "{header} in {vary:?}");
    }
}

#[tokio::test]
async fn the_page_is_revalidated_and_a_current_copy_costs_a_304_without_a_body() {
    let base = spawn_with(released_site()).await;
    let client = reqwest::Client::new();
    let first = client
        .get(format!("{base}/?w=0.1&b=150"))
        .send()
        .await
        .expect("first");
    // Each visitor's own (its nonce), by language and encoding.
    assert_eq!(first.headers()["cache-control"], "private, no-cache");
    assert_varies_by_language_and_encoding(&first);
    let tag = first.headers()["etag"].clone();
    let policy = first.headers()["content-security-policy"]
        .to_str()
        .expect("policy")
        .to_owned();
    assert!(policy.contains("'nonce-"), "{policy}");

    // The same page again: a new nonce, the same tag.
    let again = client
        .get(format!("{base}/?w=0.1&b=150"))
        .send()
        .await
        .expect("again");
    assert_eq!(again.headers()["etag"], tag);
    assert_ne!(
        again.headers()["content-security-policy"]
            .to_str()
            .expect("policy"),
        policy
    );

    // A visitor's current copy: 304, no body, and no new policy (the stored
    // one matches the stored page's nonce).
    let revalidated = get_with(
        &client,
        &format!("{base}/?w=0.1&b=150"),
        ("if-none-match", tag.to_str().expect("tag")),
    )
    .await;
    assert_eq!(revalidated.status(), 304);
    assert_eq!(revalidated.headers()["etag"], tag);
    assert_eq!(revalidated.headers()["cache-control"], "private, no-cache");
    assert_varies_by_language_and_encoding(&revalidated);
    assert!(revalidated
        .headers()
        .get("content-security-policy")
        .is_none());
    assert!(revalidated.bytes().await.expect("body").is_empty());

    // Another point, another language or an old tag: the whole page.
    for url in ["/?w=0.2&b=150", "/?w=0.1&b=150&lang=pt"] {
        let other = get_with(
            &client,
            &format!("{base}{url}"),
            ("if-none-match", tag.to_str().expect("tag")),
        )
        .await;
        assert_eq!(other.status(), 200, "{url}");
        assert_ne!(other.headers()["etag"], tag, "{url}");
    }
    let stale = get_with(
        &client,
        &format!("{base}/?w=0.1&b=150"),
        ("if-none-match", "W/\"0\""),
    )
    .await;
    assert_eq!(stale.status(), 200);
    // The same address asked in another language by the browser's header.
    let portuguese = client
        .get(format!("{base}/?w=0.1&b=150"))
        .header("if-none-match", tag.to_str().expect("tag"))
        .header("accept-language", "pt-BR")
        .send()
        .await
        .expect("portuguese");
    assert_eq!(portuguese.status(), 200);
    assert_ne!(portuguese.headers()["etag"], tag);
}

#[tokio::test]
async fn the_page_is_compressed_for_the_wire_and_a_short_answer_is_not() {
    let base = spawn_app().await;
    let client = reqwest::Client::builder()
        .no_gzip()
        .no_brotli()
        .build()
        .expect("client");
    let encoding_of = |response: &reqwest::Response| {
        response
            .headers()
            .get("content-encoding")
            .map(|v| v.to_str().unwrap_or_default().to_owned())
    };
    let page = get_with(
        &client,
        &format!("{base}/"),
        ("accept-encoding", "br, gzip"),
    )
    .await;
    assert_eq!(encoding_of(&page).as_deref(), Some("br"));
    let compressed = page.bytes().await.expect("body").len();
    let (_, plain) = get(&format!("{base}/")).await;
    assert!(
        compressed * 4 < plain.len(),
        "{compressed} B of {} B",
        plain.len()
    );

    let comment = get_with(
        &client,
        &format!("{base}/error?error=900"),
        ("accept-encoding", "br, gzip"),
    )
    .await;
    assert_eq!(comment.status(), 200);
    assert_eq!(encoding_of(&comment), None);
}
