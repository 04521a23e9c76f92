//! The test app that records the insights into a real SQLite file in its
//! own data folder, and what the tests ask of it: events written, rows
//! counted, comment requests and reports posted.

use std::{sync::Arc, time::Duration};

use coach::{providers::HttpProvider, registry::Registry, Coach};
use insights::{Insights, InsightsConfig, Recorder, Refusal};
use jay_trainer::server::config::Guard;
use reqwest::Client;
use serde_json::{json, Value};
use sqlx::{sqlite::SqliteConnectOptions, ConnectOptions, Connection};

/// The app recording into `insights.db` in its own data folder (removed
/// with this value).
pub struct Recording {
    pub base: crate::helpers::TestApp,
    pub dir: tempfile::TempDir,
    pub recorder: Recorder,
}

/// The app with `registry`, `JAY_INSIGHTS` = `insights`, behind one trusted proxy.
pub async fn spawn_recording(registry: &str, insights: &str) -> Recording {
    spawn_limited(registry, insights, 100_000).await
}

/// [`spawn_recording`] with `rate` comments a minute, `rate` at once.
pub async fn spawn_limited(registry: &str, insights: &str, rate: u32) -> Recording {
    let guard = Guard {
        rate_per_min: rate,
        rate_burst: rate,
        trusted_proxy_hops: 1,
        ..Guard::default()
    };
    spawn_guarded(registry, insights, guard).await
}

/// The app with `registry`, `JAY_INSIGHTS` = `insights`, behind `guard`,
/// recording into a fresh data folder.
pub async fn spawn_guarded(registry: &str, insights: &str, guard: Guard) -> Recording {
    let dir = crate::helpers::scratch("insights");
    let on = insights.to_string();
    let config = InsightsConfig::from_vars(
        |name| (name == "JAY_INSIGHTS").then(|| on.clone()),
        dir.path(),
    )
    .expect("config");
    let insights = Insights::start(&config).expect("store");
    let recorder = insights.recorder().clone();
    let registry =
        Registry::parse(&format!("strategy = \"thompson\"\n{registry}")).expect("registry");
    let coach = Coach::new(registry, None, Arc::new(HttpProvider::new(None)), Some(7));
    let base = crate::helpers::serve_recording(coach, &guard, insights).await;
    Recording {
        base,
        dir,
        recorder,
    }
}

impl Recording {
    /// Waits until the writer has committed `n` events in all (each batch
    /// commits within a second; the bound only stops a broken run).
    pub async fn written(&self, n: u64) {
        for _ in 0..400 {
            if self.recorder.stats().written >= n {
                return;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("{n} events not written: {:?}", self.recorder.stats());
    }

    /// Waits until the writer has dealt with `n` events in all: committed,
    /// or left out for want of their visit.
    pub async fn handled(&self, n: u64) {
        for _ in 0..400 {
            let stats = self.recorder.stats();
            if stats.written + stats.refused(Refusal::NoVisit) >= n {
                return;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("{n} events not handled: {:?}", self.recorder.stats());
    }

    /// A new class room of `size` learners, made as a teacher on this
    /// machine makes it; its code.
    pub async fn create_room(&self, size: u32) -> String {
        let made = self.create_room_answer(size).await;
        made["code"].as_str().expect("a code").to_string()
    }

    /// [`Recording::create_room`]'s whole answer (code, links, views, size).
    pub async fn create_room_answer(&self, size: u32) -> Value {
        let response = Client::new()
            .post(format!("{}/insights/rooms", self.base))
            .json(&json!({ "size": size }))
            .send()
            .await
            .expect("post");
        assert_eq!(response.status().as_u16(), 201);
        response.json().await.expect("json")
    }

    /// `sql`'s one number, from the database file.
    pub async fn count(&self, sql: &str) -> i64 {
        let mut db = SqliteConnectOptions::new()
            .filename(self.dir.path().join("insights.db"))
            .read_only(true)
            .connect()
            .await
            .expect("open the database");
        let n: i64 = sqlx::query_scalar(sql)
            .fetch_one(&mut db)
            .await
            .expect("query");
        let _ = db.close().await;
        n
    }

    /// Posts a comment request `body` with `headers`; its status and JSON.
    pub async fn comment(&self, body: &Value, headers: &[(&str, &str)]) -> (u16, Value) {
        let mut request = Client::new()
            .post(format!("{}/api/comment", self.base))
            .json(body);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let response = request.send().await.expect("post");
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    /// `/metrics`' text.
    pub async fn metrics(&self) -> String {
        reqwest::get(format!("{}/metrics", self.base))
            .await
            .expect("metrics")
            .text()
            .await
            .expect("text")
    }

    /// Posts `body` to the events route with `headers`.
    pub async fn report(&self, body: &str, headers: &[(&str, &str)]) -> (u16, Value) {
        let mut request = Client::new()
            .post(format!("{}/insights/events", self.base))
            .header("content-type", "text/plain;charset=UTF-8")
            .body(body.to_string());
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let response = request.send().await.expect("request");
        let status = response.status().as_u16();
        assert_eq!(response.headers()["cache-control"], "no-store", "{body}");
        let text = response.text().await.expect("body");
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }
}
