//! The snapshot file: written whole, read back, refused when unusable, set
//! aside with its bytes, and the temporary files a kill leaves removed.

use super::*;
use crate::routing::breaker::SavedBreaker;

fn dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("jay-snapshot-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn sample() -> Snapshot {
    let model = SavedModel {
        total: 3,
        errors: 1.5,
        successes: 2,
        outcomes: BTreeMap::from([("ok".into(), 2), ("timeout".into(), 1)]),
        decayed: (1.8, 0.9),
        latency_ewma_ms: Some(420.0),
        recent_ms: vec![400, 450],
        breaker: SavedBreaker {
            open_for_s: Some(12.5),
            consecutive_failures: 0,
            opened_in_a_row: 2,
            consecutive_rejections: 1,
        },
        ..SavedModel::default()
    };
    Snapshot {
        upstream_today: Some(SavedDay {
            day: 20_423,
            calls: 812,
        }),
        ..Snapshot::new(BTreeMap::from([("qwen".to_string(), model)]))
    }
}

#[test]
fn a_written_snapshot_reads_back_and_no_temporary_file_stays() {
    let dir = dir("roundtrip");
    let path = dir.join("router.json");
    assert!(
        Snapshot::read(&path).unwrap().is_none(),
        "no file: first start"
    );
    sample().write(&path).unwrap();
    assert_eq!(
        Snapshot::read(&path).unwrap(),
        Some(sample()).map(|mut s| {
            s.saved_at_ms = Snapshot::read(&path).unwrap().unwrap().saved_at_ms;
            s
        })
    );
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("router.json")]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn truncated_corrupt_or_foreign_files_are_errors_not_panics() {
    let dir = dir("corrupt");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("router.json");
    let json = serde_json::to_string(&sample()).unwrap();
    for bad in [&json[..json.len() / 2], "\u{0}\u{1}garbage", "", "[]"] {
        std::fs::write(&path, bad).unwrap();
        let e = Snapshot::read(&path).unwrap_err();
        assert!(matches!(e, SnapshotError::Corrupt { .. }), "{e}");
    }
    std::fs::write(&path, json.replace("\"version\":1", "\"version\":99")).unwrap();
    assert!(matches!(
        Snapshot::read(&path),
        Err(SnapshotError::Version { found: 99, .. })
    ));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_older_file_without_the_days_count_still_reads() {
    let dir = dir("older");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("router.json");
    std::fs::write(&path, r#"{"version": 1, "saved_at_ms": 17, "models": {}}"#).unwrap();
    let snapshot = Snapshot::read(&path).unwrap().unwrap();
    assert_eq!(snapshot.upstream_today, None);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_unusable_file_is_set_aside_under_a_name_that_says_why_with_its_bytes() {
    let dir = dir("aside");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("router.json");
    let corrupt = "{\"version\": 1, \"saved_at_ms\": 17";
    std::fs::write(&path, corrupt).unwrap();
    let why = Snapshot::read(&path).unwrap_err();
    let first = set_aside(&path, &why).unwrap();
    assert!(!path.exists());
    let name = first.file_name().unwrap().to_str().unwrap().to_string();
    let seconds: u64 = name
        .strip_prefix("router.json.bad-")
        .unwrap()
        .parse()
        .unwrap();
    assert!(seconds > 1_700_000_000, "{name}");
    assert_eq!(std::fs::read_to_string(&first).unwrap(), corrupt);

    // The same second again: a name of its own, the first file kept.
    std::fs::write(&path, "second").unwrap();
    let second = set_aside(&path, &why).unwrap();
    assert_ne!(first, second);
    assert_eq!(std::fs::read_to_string(&first).unwrap(), corrupt);
    assert_eq!(std::fs::read_to_string(&second).unwrap(), "second");

    let newer = r#"{"version": 7, "saved_at_ms": 17, "models": {}}"#;
    std::fs::write(&path, newer).unwrap();
    let why = Snapshot::read(&path).unwrap_err();
    let aside = set_aside(&path, &why).unwrap();
    let name = aside.file_name().unwrap().to_str().unwrap();
    assert!(name.starts_with("router.json.v7-"), "{name}");
    assert_eq!(std::fs::read_to_string(&aside).unwrap(), newer);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn only_the_temporary_files_of_a_killed_save_are_removed() {
    let dir = dir("stale");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("router.json");
    assert!(remove_stale_temps(&dir.join("missing/router.json"))
        .unwrap()
        .is_empty());
    let stale = [".tmpAb12Cd", ".router.json.q7Rt2u.tmp"];
    let others = [
        "router.json",
        "router.json.bad-1700000000",
        "notes.txt",
        ".tmpAb12Cd.keep",
        ".tmp12345",
        ".tmp1234567",
        "tmpAb12Cd",
        ".tmpAb-2Cd",
        ".other.json.q7Rt2u.tmp",
        ".router.json.q7Rt2u.tmp.old",
    ];
    for name in stale.iter().chain(&others) {
        std::fs::write(dir.join(name), "x").unwrap();
    }
    std::fs::create_dir(dir.join(".tmpDirDir")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.join("notes.txt"), dir.join(".tmpLinkLk")).unwrap();

    let mut removed = remove_stale_temps(&path).unwrap();
    removed.sort();
    let mut expected: Vec<_> = stale.iter().map(|n| dir.join(n)).collect();
    expected.sort();
    assert_eq!(removed, expected);
    for name in others.iter().chain(&[".tmpDirDir"]) {
        assert!(dir.join(name).exists(), "{name} was removed");
    }
    #[cfg(unix)]
    assert!(std::fs::symlink_metadata(dir.join(".tmpLinkLk")).is_ok());

    // What a save killed mid-write leaves is what is removed.
    let left = temp_file(&path).unwrap().into_temp_path().keep().unwrap();
    assert_eq!(remove_stale_temps(&path).unwrap(), vec![left]);
    std::fs::remove_dir_all(&dir).ok();
}
