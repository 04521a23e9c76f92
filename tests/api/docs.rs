//! The README and `models.toml` say what the code does: every file they name
//! exists, the query limit they state is the one `/error` enforces, and the
//! embed snippet they give a blog author names the page's language.

use std::path::Path;

use super::helpers::{get_json, spawn_app};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(name: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(name)).expect("a file of the repository")
}

/// `src/coach/text/{en,pt,zh}.rs` → the three paths.
fn expand(path: &str) -> Vec<String> {
    match (path.find('{'), path.find('}')) {
        (Some(open), Some(close)) if open < close => path[open + 1..close]
            .split(',')
            .flat_map(|part| expand(&format!("{}{part}{}", &path[..open], &path[close + 1..])))
            .collect(),
        _ => vec![path.to_string()],
    }
}

/// The repository paths a text names: words starting `src/`, `tests/`,
/// `benches/`, `end2end/` or `.ci/` (Playwright's report folders are made by
/// a run, not kept).
fn named_paths(text: &str) -> Vec<String> {
    let is_path_char = |c: char| c.is_ascii_alphanumeric() || "_./{},-".contains(c);
    let mut found = Vec::new();
    for start in ["src/", "tests/", "benches/", "end2end/", ".ci/"] {
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
    for doc in [
        "README.md",
        "models.toml",
        "Dockerfile",
        "docker-compose.yml",
    ] {
        for path in named_paths(&read(doc)) {
            if !Path::new(ROOT).join(&path).exists() {
                missing.push(format!("{doc}: {path}"));
            }
        }
    }
    assert!(missing.is_empty(), "named but missing: {missing:#?}");
    assert!(
        named_paths("see src/coach/text/{en,pt}.rs.").contains(&"src/coach/text/pt.rs".into()),
        "braces expand"
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
