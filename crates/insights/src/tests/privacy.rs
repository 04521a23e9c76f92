//! After a run, no IP address and no user agent is anywhere in the database:
//! every text column of every table is read and searched.

use std::sync::Arc;

use super::{data::history, on_both, TestDb};
use crate::{config::Backend, Event, Minute, Store, ToolsInput, VisitInput, Writer, WriterConfig};

on_both!(no_ip_or_user_agent_is_stored);

const IP: &str = "203.0.113.7";
const IP6: &str = "2001:db8::7";
const UA: &str = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36";

/// Whether `s` holds something shaped like an IPv4 or IPv6 address.
fn ip_like(s: &str) -> bool {
    let v4 = s
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .any(|t| {
            let parts: Vec<&str> = t.split('.').collect();
            parts.len() == 4 && parts.iter().all(|p| (1..=3).contains(&p.len()))
        });
    let v6 = s
        .split(|c: char| !(c.is_ascii_hexdigit() || c == ':'))
        .any(|t| t.matches(':').count() >= 2);
    v4 || v6
}

/// Whether `s` looks like (part of) a browser's or a tool's user agent.
fn ua_like(s: &str) -> bool {
    let s = s.to_ascii_lowercase();
    [
        "mozilla",
        "applewebkit",
        "gecko",
        "chrome/",
        "safari",
        "firefox",
        "curl/",
        "python-",
        "x11;",
        "windows nt",
        "iphone",
        "android",
    ]
    .iter()
    .any(|w| s.contains(w))
}

/// Every (table, column) holding text.
async fn text_columns(store: &Store) -> Vec<(String, String)> {
    let pool = &store.pool;
    match store.backend() {
        Backend::Sqlite => {
            let tables: Vec<String> =
                sqlx::query_scalar("SELECT name FROM sqlite_master WHERE type = 'table'")
                    .fetch_all(pool)
                    .await
                    .expect("tables");
            let mut out = Vec::new();
            for table in tables {
                let columns: Vec<(String, String)> = sqlx::query_as(&format!(
                    "SELECT name, type FROM pragma_table_info('{table}')"
                ))
                .fetch_all(pool)
                .await
                .expect("columns");
                out.extend(columns.into_iter().filter_map(|(c, ty)| {
                    let ty = ty.to_ascii_uppercase();
                    (ty.contains("TEXT") || ty.contains("CHAR")).then(|| (table.clone(), c))
                }));
            }
            out
        }
        Backend::Postgres => sqlx::query_as(
            "SELECT CAST(table_name AS TEXT), CAST(column_name AS TEXT) \
             FROM information_schema.columns WHERE table_schema = current_schema() \
             AND data_type IN ('text', 'character varying', 'character')",
        )
        .fetch_all(pool)
        .await
        .expect("columns"),
    }
}

/// Every text value in the database that looks like an address or a user agent.
async fn personal_values(store: &Store) -> Vec<String> {
    let columns = text_columns(store).await;
    assert!(
        columns.len() >= 10,
        "the insights' tables are read: {columns:?}"
    );
    let mut found = Vec::new();
    for (table, column) in columns {
        let values: Vec<String> = sqlx::query_scalar(&format!(
            "SELECT CAST({column} AS TEXT) FROM {table} WHERE {column} IS NOT NULL"
        ))
        .fetch_all(&store.pool)
        .await
        .expect("values");
        found.extend(
            values
                .into_iter()
                .filter(|v| ip_like(v) || ua_like(v))
                .map(|v| format!("{table}.{column} = {v:?}")),
        );
    }
    found
}

async fn no_ip_or_user_agent_is_stored(db: &TestDb) {
    assert!(
        ip_like(IP) && ip_like(IP6) && ua_like(UA),
        "the detectors detect"
    );
    assert!(!ip_like("qwen2.5-7b") && !ua_like("class-7b"));

    // A run as the server makes one: the page's bodies (with an address and a
    // user agent slipped in, as a careless client might), attempts, tools,
    // through the writer into the database.
    let body = format!(
        r#"{{"visit":"Zx8_Qm2-Lk9aBc3dEf4gHi","lang":"en","layout":"page","width":1280,
            "room":"class-7b","ip":"{IP}","user_agent":"{UA}","x_forwarded_for":"{IP6}"}}"#
    );
    let input: VisitInput = serde_json::from_str(&body).expect("the page's body");
    let visit = input.check(Minute::now()).expect("valid");
    let tools: ToolsInput = serde_json::from_str(&format!(
        r#"{{"visit":"Zx8_Qm2-Lk9aBc3dEf4gHi","tools":["map","nudge"],"ua":"{UA}"}}"#
    ))
    .expect("tools");
    let mut events = vec![Event::Visit(visit)];
    events.extend(
        tools
            .check(Minute::now())
            .expect("valid")
            .into_iter()
            .map(Event::Tool),
    );
    events.extend(history());

    let store = Arc::new(Store::open(&db.url).expect("store"));
    let config = WriterConfig {
        flush_every: std::time::Duration::from_millis(10),
        ..WriterConfig::default()
    };
    let (recorder, writer) = Writer::spawn(store.clone(), config);
    events.into_iter().for_each(|e| recorder.record(e));
    writer.stop().await;
    store.close().await;
    assert_eq!(recorder.stats().dropped(), 0);
    assert!(recorder.stats().written > 30);

    let found = personal_values(&db.store).await;
    assert!(found.is_empty(), "personal data stored: {found:?}");

    // The search reads every table: a value slipped in by hand is found.
    sqlx::query(&format!(
        "INSERT INTO insights_tools (visit_id, tool, first_min, uses) VALUES ('{IP}', 'map', 0, 1)"
    ))
    .execute(&db.store.pool)
    .await
    .expect("a planted row");
    assert_eq!(personal_values(&db.store).await.len(), 1);
}
