//! The docs say what the code does: every file the README, `docs/`,
//! `models.toml`, the container files, `Cargo.toml` and the module docs name
//! exists, and every relative link between the Markdown files leads to one;
//! the query limit the README states is the one `/error` enforces, and the
//! embed snippet it gives a blog author names the page's language.

use std::path::Path;

use super::helpers::{get_json, spawn_app};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(name: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(name)).expect("a file of the repository")
}

/// Every file under the folder `dir` of the repository, as paths relative to
/// the repository (`docs/api.md`), sorted.
fn files_under(dir: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut folders = vec![Path::new(ROOT).join(dir)];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("a folder of the repository") {
            let path = entry.expect("an entry of the folder").path();
            if path.is_dir() {
                folders.push(path);
            } else {
                let relative = path.strip_prefix(ROOT).expect("a path in the repository");
                found.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    found.sort();
    found
}

/// The module docs of a Rust file: its `//!` lines, without the marker.
fn module_docs(text: &str) -> String {
    text.lines()
        .filter_map(|line| line.trim_start().strip_prefix("//!"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The texts that name repository paths, each with its file's name: the
/// README, every file under `docs/` (a file that is not text counts as
/// empty), the registry, the container files, every `Cargo.toml`, and the
/// module docs of every Rust file under `src/`, `crates/`, `tests/` and `benches/`.
fn documents() -> Vec<(String, String)> {
    let mut names: Vec<String> = [
        "README.md",
        "models.toml",
        "Dockerfile",
        "docker-compose.yml",
        "Cargo.toml",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    names.extend(files_under("docs"));
    names.extend(
        files_under("crates")
            .into_iter()
            .filter(|name| name.ends_with("/Cargo.toml")),
    );
    let mut texts: Vec<(String, String)> = names
        .into_iter()
        .map(|name| {
            let bytes =
                std::fs::read(Path::new(ROOT).join(&name)).expect("a file of the repository");
            let text = String::from_utf8(bytes).unwrap_or_default();
            (name, text)
        })
        .collect();
    for dir in ["src", "crates", "tests", "benches"] {
        for name in files_under(dir) {
            if name.ends_with(".rs") {
                let text = module_docs(&read(&name));
                texts.push((name, text));
            }
        }
    }
    texts
}

/// The relative links of a Markdown text, `[words](target)`, without their
/// `#fragment`: addresses (`https:`, `mailto:`) and links within the page
/// (`#…`) are left out. `docs/api.md`'s `../README.md` is the README.
fn relative_links(text: &str) -> Vec<String> {
    text.split("](")
        .skip(1)
        .filter_map(|rest| rest.split([')', ' ']).next())
        .map(|target| target.split('#').next().unwrap_or_default())
        .filter(|target| !target.is_empty() && !target.contains(':'))
        .map(String::from)
        .collect()
}

/// `crates/coach/src/words/{en,pt,zh}.rs` → the three paths.
fn expand(path: &str) -> Vec<String> {
    match (path.find('{'), path.find('}')) {
        (Some(open), Some(close)) if open < close => path[open + 1..close]
            .split(',')
            .flat_map(|part| expand(&format!("{}{part}{}", &path[..open], &path[close + 1..])))
            .collect(),
        _ => vec![path.to_string()],
    }
}

/// The repository paths a text names: words starting `src/`, `crates/`, `tests/`, `docs/`,
/// `benches/`, `end2end/` or `.ci/` (Playwright's report folders are made by
/// a run, not kept).
fn named_paths(text: &str) -> Vec<String> {
    let is_path_char = |c: char| c.is_ascii_alphanumeric() || "_./{},-".contains(c);
    let mut found = Vec::new();
    for start in [
        "src/", "crates/", "tests/", "benches/", "end2end/", ".ci/", "docs/",
    ] {
        for (at, _) in text.match_indices(start) {
            let before = text[..at].chars().next_back();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '/' || c == '.') {
                continue;
            }
            let word: String = text[at..]
                .chars()
                .take_while(|&c| is_path_char(c))
                .collect();
            let word = word.trim_end_matches(['.', ',', '-']);
            if !word.contains("test-results") && !word.contains("node_modules") {
                found.extend(expand(word));
            }
        }
    }
    found
}

#[test]
fn every_file_the_docs_name_exists() {
    let mut missing = Vec::new();
    for (doc, text) in documents() {
        for path in named_paths(&text) {
            if !Path::new(ROOT).join(&path).exists() {
                missing.push(format!("{doc}: {path}"));
            }
        }
        if doc.ends_with(".md") {
            // A link is read from the folder of the file that holds it.
            let file = Path::new(ROOT).join(&doc);
            let folder = file.parent().expect("a file in a folder");
            for link in relative_links(&text) {
                if !folder.join(&link).exists() {
                    missing.push(format!("{doc}: link to {link}"));
                }
            }
        }
    }
    assert!(missing.is_empty(), "named but missing: {missing:#?}");
    assert!(
        named_paths("see crates/coach/src/words/{en,pt}.rs.")
            .contains(&"crates/coach/src/words/pt.rs".into()),
        "braces expand"
    );
    assert!(
        named_paths("[the README](../src/lib.rs)").is_empty(),
        "a relative link is not read as a path from the repository's root"
    );
    assert_eq!(
        relative_links("[a](../README.md#x), [b](https://e.org), [c](#y), [d](api.md)"),
        vec!["../README.md".to_string(), "api.md".to_string()],
        "relative links"
    );
}

#[tokio::test]
async fn the_query_limit_the_readme_states_is_the_one_enforced() {
    let readme = read("README.md");
    let kib: usize = readme
        .split("Queries over ")
        .nth(1)
        .and_then(|rest| rest.split(" KiB").next())
        .and_then(|n| n.trim().parse().ok())
        .expect("the README states the query limit as 'Queries over N KiB'");
    let base = spawn_app("").await;
    let query = |len: usize| {
        let head = "error=799.09&tentativas=";
        let mut q = String::from(head);
        while q.len() + 7 <= len {
            q.push_str("900.00,");
        }
        q
    };
    let (status, body) = get_json(&format!("{base}/error?{}", query(kib * 1024 + 8))).await;
    assert_eq!(
        (status, body["field"].as_str()),
        (400, Some("query")),
        "{body}"
    );
    let (status, body) = get_json(&format!("{base}/error?{}", query(kib * 1024 - 8))).await;
    assert_eq!(status, 200, "a query under the stated limit: {body}");
}

#[test]
fn the_embed_snippet_names_the_language() {
    let readme = read("README.md");
    let snippet = readme
        .split("```html")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the README's embed snippet");
    let src = snippet
        .split("src=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the iframe's src");
    assert!(
        src.contains("/embed?lang="),
        "a blog's iframe follows each visitor's browser without lang=: {src}"
    );
}
