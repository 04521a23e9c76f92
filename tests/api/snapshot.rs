//! The snapshot file around start and stop, with the real binary: an
//! unusable `router.json` is set aside (never overwritten), temporary files
//! a kill left behind are removed, and SIGTERM saves at once, before the
//! requests under way are drained.

use std::{path::Path, time::Duration};

use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpListener,
    sync::oneshot,
};

use crate::binary::{model, saving_server, signal, start_up, temp_registry, TempRegistry};

/// The registry's data folder, made (empty).
fn data_dir(registry: &TempRegistry) -> std::path::PathBuf {
    let data = registry.data();
    std::fs::create_dir_all(&data).unwrap();
    data
}

/// The names in `dir` that start with `prefix`.
fn named(dir: &Path, prefix: &str) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(prefix))
        .collect()
}

/// Starts the server on `data` and stops it (SIGKILL: no save at exit);
/// what it logged before it listened.
fn start_and_kill(registry: &Path, data: &Path) -> String {
    let mut child = saving_server(&registry.to_path_buf(), &data.to_path_buf(), 3600)
        .spawn()
        .unwrap();
    let (_, log) = start_up(&mut child);
    child.kill().unwrap();
    child.wait().unwrap();
    log
}

#[test]
fn an_unusable_snapshot_is_set_aside_with_its_bytes_and_the_log_says_where() {
    let registry = temp_registry("aside", &model("down"));
    let data = data_dir(&registry);
    let snapshot = data.join("router.json");

    let corrupt = "{\"version\": 1, \"saved_at_ms\": 17";
    std::fs::write(&snapshot, corrupt).unwrap();
    let log = start_and_kill(&registry, &data);
    let aside = named(&data, "router.json.bad-");
    assert_eq!(aside.len(), 1, "{:?}", named(&data, ""));
    assert_eq!(
        std::fs::read_to_string(data.join(&aside[0])).unwrap(),
        corrupt
    );
    let line = log.lines().find(|l| l.contains(&aside[0])).unwrap_or("");
    assert!(line.contains("WARN"), "the log names the new file: {log}");

    // A snapshot from a newer version (a rollback): kept for that version.
    let newer = r#"{"version": 99, "saved_at_ms": 17, "models": {}, "later": true}"#;
    std::fs::write(&snapshot, newer).unwrap();
    let log = start_and_kill(&registry, &data);
    let aside = named(&data, "router.json.v99-");
    assert_eq!(aside.len(), 1, "{:?}", named(&data, ""));
    assert_eq!(
        std::fs::read_to_string(data.join(&aside[0])).unwrap(),
        newer
    );
    let line = log.lines().find(|l| l.contains(&aside[0])).unwrap_or("");
    assert!(line.contains("WARN"), "the log names the new file: {log}");
    assert_eq!(named(&data, "router.json.bad-").len(), 1, "the first stays");
}

#[test]
fn temporary_files_a_kill_left_behind_are_removed_at_start_and_nothing_else() {
    let registry = temp_registry("stale-tmp", &model("down"));
    let data = data_dir(&registry);
    // Left by a save killed mid-write: tempfile's default name, and this
    // server's own.
    let stale = [".tmpAb12Cd", ".tmp0x9ZZz", ".router.json.q7Rt2u.tmp"];
    // Someone else's files, however alike.
    let others = [
        "notes.txt",
        ".tmpAb12Cd.keep",
        ".tmp12",
        "tmpAb12Cd",
        ".other.json.q7Rt2u.tmp",
        "router.json.bad-1700000000",
    ];
    for name in stale.iter().chain(&others) {
        std::fs::write(data.join(name), "x").unwrap();
    }
    std::fs::create_dir(data.join(".tmpDirDir")).unwrap();
    start_and_kill(&registry, &data);
    for name in stale {
        assert!(!data.join(name).exists(), "{name} was left");
    }
    for name in others.iter().chain(&[".tmpDirDir"]) {
        assert!(data.join(name).exists(), "{name} was removed");
    }
}

/// Reads one request's head and body (its Content-Length) from `socket`.
async fn read_request(socket: &mut tokio::net::TcpStream) -> Vec<u8> {
    let mut request = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = socket.read(&mut buf).await.unwrap();
        assert!(n > 0, "the server hung up first");
        request.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&request).to_ascii_lowercase();
        if let Some(head) = text.find("\r\n\r\n") {
            let length: usize = text[..head]
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .map_or(0, |v| v.trim().parse().unwrap());
            if request.len() >= head + 4 + length {
                return request;
            }
        }
    }
}

/// A fake model on a raw socket: takes one chat request (says so on the
/// first channel) and answers it only when the test sends on the second.
/// Its registry entry.
async fn held_model() -> (oneshot::Receiver<()>, oneshot::Sender<()>, String) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (got, asked) = oneshot::channel::<()>();
    let (release, released) = oneshot::channel::<()>();
    tokio::spawn(async move {
        // The server's availability checks (GETs) are told "no such path";
        // the first POST is the chat request that is held.
        let mut socket = loop {
            let (mut socket, _) = listener.accept().await.unwrap();
            let request = read_request(&mut socket).await;
            if request.starts_with(b"POST") {
                break socket;
            }
            let _ = socket
                .write_all(
                    b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
                )
                .await;
        };
        let _ = got.send(());
        let _ = released.await;
        let body = serde_json::json!({"id": "x", "object": "chat.completion",
            "choices": [{"index": 0, "finish_reason": "stop",
                "message": {"role": "assistant", "content": "Keep going! |fim|"}}]})
        .to_string();
        let response = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        );
        socket.write_all(response.as_bytes()).await.unwrap();
    });
    let registry = format!(
        "deadline_ms = 120000\n[[models]]\nalias = \"held\"\nmodel = \"org/held\"\napi = \"chat\"\nbase_url = \"http://{addr}/v1\"\ntimeout_ms = 60000\n"
    );
    (asked, release, registry)
}

/// Polls until `path` exists; gives up after a minute (a safety net against
/// hanging, not a speed check).
async fn appears(path: &Path) {
    for _ in 0..1200 {
        if path.exists() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{} never appeared", path.display());
}

#[tokio::test]
async fn sigterm_saves_at_once_and_again_after_the_requests_under_way_finish() {
    let (asked, release, registry_text) = held_model().await;
    let registry = temp_registry("term-in-flight", &registry_text);
    let data = data_dir(&registry);
    let snapshot = data.join("router.json");
    // No periodic save within the test: only those at shutdown.
    let mut child = saving_server(&registry, &data, 3600).spawn().unwrap();
    let (base, _) = start_up(&mut child);
    let pending = tokio::spawn(
        reqwest::Client::new()
            .get(format!("{base}/error?error=900"))
            .header("accept", "application/json")
            .send(),
    );
    // The model has the request (the fake read it whole) before the signal.
    asked.await.unwrap();
    assert!(!snapshot.exists(), "no save before the signal");
    signal(&child, "TERM");

    // Saved while the model still holds the request: before the drain.
    appears(&snapshot).await;
    assert!(!pending.is_finished(), "the request is still under way");
    let early: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&snapshot).unwrap()).unwrap();
    assert_eq!(early["models"]["held"]["total"], 0, "{early}");

    // The model answers: the request finishes, the drain ends, saved again.
    release.send(()).unwrap();
    let response = pending.await.unwrap().expect("answered during the drain");
    assert_eq!(response.status(), 200);
    let comment: serde_json::Value = response.json().await.unwrap();
    assert_eq!(comment["model"], "held", "{comment}");
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    let last: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&snapshot).unwrap()).unwrap();
    assert_eq!(last["models"]["held"]["total"], 1, "{last}");
}
