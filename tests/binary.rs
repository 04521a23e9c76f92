//! The real server binary, as an operator runs it: a broken registry stops
//! start-up with a clear message, and SIGHUP reloads the registry in place.
#![cfg(all(feature = "ssr", unix))]

use std::{
    io::{BufRead, BufReader},
    path::PathBuf,
    process::{Child, Command, Stdio},
    time::Duration,
};

fn temp_registry(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jay-binary-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("models.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn server(registry: &PathBuf) -> Command {
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
fn base_url(child: &mut Child) -> String {
    let stderr = child.stderr.take().expect("stderr");
    for line in BufReader::new(stderr).lines() {
        let line = line.expect("log line");
        if let Some(at) = line.find("http://127.0.0.1:") {
            let url: String = line[at..]
                .chars()
                .take_while(|c| !c.is_whitespace())
                .collect();
            return url;
        }
    }
    panic!("the server never said where it listens");
}

fn model(alias: &str) -> String {
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

#[tokio::test]
async fn sighup_reloads_the_registry() {
    let path = temp_registry("reload", &model("first"));
    let mut child = server(&path).spawn().expect("start the server");
    let base = base_url(&mut child);
    let aliases = || async {
        let body: serde_json::Value = reqwest::get(format!("{base}/models"))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        body["models"]
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
