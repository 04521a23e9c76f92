//! Shared by the integration tests: the real application on a free port.

use std::sync::Arc;

use jay_trainer::{
    coach::service::Coach,
    server::{config::Guard, startup::Application},
};
use leptos::config::LeptosOptions;

/// Serves `coach` behind `guard` on 127.0.0.1, port 0; the base URL.
pub async fn serve(coach: Coach, guard: &Guard) -> String {
    let options = LeptosOptions::builder()
        .output_name("jay-trainer")
        .site_addr(std::net::SocketAddr::from(([127, 0, 0, 1], 0)))
        .build();
    let app = Application::with_coach(options, Arc::new(coach), guard)
        .await
        .expect("bind a free port");
    let addr = app.local_addr().expect("address");
    tokio::spawn(app.run_until_stopped());
    format!("http://{addr}")
}
