//! The real server binary, as an operator runs it: a broken registry stops
//! start-up with a clear message, SQLite allocates through mimalloc (and
//! counts none of it), SIGHUP reloads the registry in place, and the
//! router's statistics survive SIGKILL, SIGTERM and a corrupt snapshot.

use std::{
    io::{BufRead, BufReader},
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    time::Duration,
};

/// A registry file, `models.toml`, alone in a temporary folder that goes
/// with this value (the servers' `data` folders beside it too). It reads as
/// the file's path.
pub(crate) struct TempRegistry {
    path: PathBuf,
    folder: tempfile::TempDir,
}

impl TempRegistry {
    /// The servers' data folder, `data` beside the registry (made by the
    /// server, or by the test that wants it first).
    pub(crate) fn data(&self) -> PathBuf {
        self.folder.path().join("data")
    }
}

impl std::ops::Deref for TempRegistry {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.path
    }
}

impl AsRef<Path> for TempRegistry {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

pub(crate) fn temp_registry(name: &str, text: &str) -> TempRegistry {
    let folder = crate::helpers::scratch(&format!("registry-{name}"));
    let path = folder.path().join("models.toml");
    std::fs::write(&path, text).unwrap();
    TempRegistry { path, folder }
}

pub(crate) fn server(registry: &PathBuf) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_jay-trainer"));
    command
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("LEPTOS_SITE_ADDR", "127.0.0.1:0")
        .env("JAY_MODELS", registry)
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    command
}

/// Reads the server's log until it says where it listens.
pub(crate) fn base_url(child: &mut Child) -> String {
    start_up(child).0
}

/// Where the server listens, and what it logged before.
pub(crate) fn start_up(child: &mut Child) -> (String, String) {
    let stderr = child.stderr.take().expect("stderr");
    let mut log = String::new();
    for line in BufReader::new(stderr).lines() {
        let line = line.expect("log line");
        if let Some(at) = line.find("http://127.0.0.1:") {
            let url: String = line[at..]
                .chars()
                .take_while(|c| !c.is_whitespace())
                .collect();
            return (url, log);
        }
        log.push_str(&line);
        log.push('\n');
    }
    panic!("the server never said where it listens:\n{log}");
}

pub(crate) fn model(alias: &str) -> String {
    format!("[[models]]\nalias = \"{alias}\"\nmodel = \"org/{alias}\"\napi = \"chat\"\nbase_url = \"http://127.0.0.1:9/v1\"\n")
}

#[test]
fn a_broken_registry_stops_start_up_naming_the_model_and_key() {
    let path = temp_registry("broken", &format!("{}temperature = 7.5\n", model("phi")));
    let output = server(&path).output().expect("run the server");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("\"phi\"") && stderr.contains("temperature"),
        "{stderr}"
    );
}

#[test]
fn sqlite_allocates_through_the_servers_allocator() {
    let path = temp_registry("memory", &model("phi"));
    let mut child = server(&path).spawn().expect("start the server");
    let (_, log) = start_up(&mut child);
    let _ = child.kill();
    let _ = child.wait();
    assert!(log.contains("SQLite allocates through mimalloc"), "{log}");
    assert!(log.contains("SQLite keeps no count of its memory"), "{log}");
}

#[tokio::test]
async fn sighup_reloads_the_registry() {
    let path = temp_registry("reload", &model("first"));
    let mut child = server(&path).spawn().expect("start the server");
    let base = base_url(&mut child);
    let aliases = || async {
        models(&base).await["models"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["alias"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(aliases().await, vec!["first"]);

    std::fs::write(&path, format!("{}{}", model("first"), model("second"))).unwrap();
    let status = Command::new("kill")
        .args(["-HUP", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    // The reload runs on the server's own task: poll (bounded) until it shows.
    let mut seen = Vec::new();
    for _ in 0..100 {
        seen = aliases().await;
        if seen.len() == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(seen, vec!["first", "second"]);
    child.kill().ok();
    child.wait().ok();
}

/// The server with a data directory, saving every `every_s` seconds.
pub(crate) fn saving_server(registry: &PathBuf, data: &PathBuf, every_s: u32) -> Command {
    let mut command = server(registry);
    command
        .env("JAY_DATA_DIR", data)
        .env("JAY_SAVE_EVERY_S", every_s.to_string());
    command
}

pub(crate) async fn models(base: &str) -> serde_json::Value {
    reqwest::get(format!("{base}/models"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// Calls to the one model so far, from `/models`.
async fn calls(base: &str) -> u64 {
    models(base).await["models"][0]["stats"]["total"]
        .as_u64()
        .unwrap()
}

async fn ask(base: &str, times: usize) {
    for i in 0..times {
        let status = reqwest::get(format!("{base}/error?error={}", 900 + i))
            .await
            .unwrap()
            .status();
        assert_eq!(status, 200);
    }
}

pub(crate) fn signal(child: &Child, name: &str) {
    let status = Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

#[tokio::test]
async fn statistics_survive_sigkill_from_the_last_snapshot_and_a_corrupt_one_is_survived() {
    let path = temp_registry("persist", &model("down"));
    let data = path.data();
    let snapshot = data.join("router.json");

    let mut child = saving_server(&path, &data, 1).spawn().unwrap();
    let (base, log) = start_up(&mut child);
    assert!(log.contains("starting fresh"), "{log}");
    ask(&base, 4).await;
    assert_eq!(calls(&base).await, 4, "one refused call per request");
    // Wait (bounded) for a periodic save that has all four.
    let mut saved = 0;
    for _ in 0..100 {
        if let Ok(text) = std::fs::read_to_string(&snapshot) {
            let json: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
            saved = json["models"]["down"]["total"].as_u64().unwrap_or(0);
            if saved == 4 {
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(saved, 4);
    child.kill().unwrap(); // SIGKILL: no chance to save at exit
    child.wait().unwrap();

    let mut child = saving_server(&path, &data, 1).spawn().unwrap();
    let (base, log) = start_up(&mut child);
    assert!(log.contains("restored"), "{log}");
    assert_eq!(calls(&base).await, 4, "the last snapshot is back");
    child.kill().unwrap();
    child.wait().unwrap();

    std::fs::write(&snapshot, "{\"version\": 1, \"saved_at_ms\": 17").unwrap();
    let mut child = saving_server(&path, &data, 1).spawn().unwrap();
    let (base, log) = start_up(&mut child);
    assert!(log.contains("ignored") && log.contains("WARN"), "{log}");
    assert_eq!(calls(&base).await, 0, "a corrupt snapshot: fresh start");
    child.kill().unwrap();
    child.wait().unwrap();
}

#[tokio::test]
async fn sigterm_finishes_and_saves_before_exiting() {
    let path = temp_registry("sigterm", &model("down"));
    let data = path.data();

    // No periodic save within the test: only the one at shutdown.
    let mut child = saving_server(&path, &data, 3600).spawn().unwrap();
    let base = base_url(&mut child);
    ask(&base, 3).await;
    signal(&child, "TERM");
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");

    let mut child = saving_server(&path, &data, 3600).spawn().unwrap();
    let base = base_url(&mut child);
    assert_eq!(calls(&base).await, 3);
    child.kill().unwrap();
    child.wait().unwrap();
}

#[tokio::test]
async fn the_token_never_appears_in_a_response_or_a_log_line() {
    use wiremock::{matchers::method, Mock, MockServer, Request, ResponseTemplate};

    const TOKEN: &str = "hf_FAKEtokenFORtests0123456789abcdef";
    // Hostile upstreams that echo the Authorization header back: in a 401,
    // in a 500, and in a model's "answer".
    let echo = |status: u16| {
        move |request: &Request| {
            let auth = request
                .headers
                .get("authorization")
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_string();
            let body = if status == 200 {
                serde_json::json!({"choices": [{"message": {"role": "assistant",
                    "content": format!("Nice! {auth} |fim|")}}]})
            } else {
                serde_json::json!({"error": format!("bad credentials: {auth}")})
            };
            ResponseTemplate::new(status).set_body_json(body)
        }
    };
    let mut registry = String::new();
    let mut upstreams = Vec::new();
    for (alias, status) in [("deny", 401), ("crash", 500), ("parrot", 200)] {
        let upstream = MockServer::start().await;
        Mock::given(method("POST"))
            .respond_with(echo(status))
            .mount(&upstream)
            .await;
        // The parrot on a key variable of its own: the 401 of `deny` stops
        // every model on the same key and host.
        let key = if alias == "parrot" {
            "JAY_TEST_PARROT_KEY"
        } else {
            "JAY_TEST_UPSTREAM_KEY"
        };
        registry.push_str(&format!(
            "[[models]]\nalias = \"{alias}\"\nmodel = \"org/{alias}\"\napi = \"chat\"\nbase_url = \"{}/v1\"\ntoken_env = \"{key}\"\n",
            upstream.uri()
        ));
        upstreams.push(upstream);
    }
    let path = temp_registry("secret", &registry);
    let mut child = server(&path)
        .env("HF_TOKEN", TOKEN)
        // HF_TOKEN goes to Hugging Face hosts only: these local fakes get (and
        // echo) the models' own key, the same secret here.
        .env("JAY_TEST_UPSTREAM_KEY", TOKEN)
        .env("JAY_TEST_PARROT_KEY", TOKEN)
        .env("RUST_LOG", "debug")
        .env("JAY_LOG_FORMAT", "json")
        .env("JAY_DATA_DIR", path.data())
        .spawn()
        .unwrap();
    // Read the whole log on a thread; its first address line says the port.
    let stderr = child.stderr.take().unwrap();
    let (port_tx, port_rx) = std::sync::mpsc::channel();
    let log = std::thread::spawn(move || {
        let mut all = String::new();
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if let Some(at) = line.find("http://127.0.0.1:") {
                let url: String = line[at..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || ":/.".contains(*c))
                    .collect();
                let _ = port_tx.send(url);
            }
            all.push_str(&line);
            all.push('\n');
        }
        all
    });
    let base = port_rx
        .recv_timeout(Duration::from_secs(30))
        .expect("the server says where it listens");

    let mut bodies = String::new();
    for route in [
        "/error?error=900",
        "/error?model=deny&error=900",
        "/error?model=crash&error=900",
        "/error?model=parrot&error=900",
        "/error?error=oops",
        "/models",
        "/metrics",
        "/",
        "/no-such-page",
    ] {
        let response = reqwest::get(format!("{base}{route}")).await.unwrap();
        bodies.push_str(&format!("{:?}", response.headers()));
        bodies.push_str(&response.text().await.unwrap());
    }
    signal(&child, "TERM");
    child.wait().unwrap();
    let log = log.join().unwrap();

    assert!(
        bodies.contains("[redacted]"),
        "the parrot's echo was blanked out"
    );
    assert!(!bodies.contains(TOKEN), "a response carried the token");
    assert!(
        log.contains("model call failed"),
        "the upstream errors were logged"
    );
    assert!(!log.contains(TOKEN), "a log line carried the token");
    let line = log
        .lines()
        .find(|l| l.contains("model call failed"))
        .unwrap();
    let json: serde_json::Value = serde_json::from_str(line).expect("JSON log lines");
    assert!(
        json["span"]["id"].as_str().is_some_and(|id| id.len() >= 32),
        "{line}"
    );
}
