//! The integration tests, in one binary (as zero2prod's `tests/api/`): each
//! test file used to be its own binary, each linking axum, Leptos and the
//! whole app again. One module per concern; [`helpers`] starts the real
//! application on a free port.
#![cfg(feature = "ssr")]

#[cfg(unix)]
mod binary;
mod breakers;
mod budget;
mod caching;
mod callers;
mod coach;
mod comment_body;
mod docs;
mod feedback;
mod guard;
mod helpers;
mod hugging_face;
mod input_props;
mod insights;
mod insights_access;
mod insights_lessons;
mod insights_page;
mod insights_room;
mod judged;
mod languages;
mod lesson_two;
mod metrics;
mod page;
mod reload;
mod rooms;
mod routes;
#[cfg(unix)]
mod snapshot;
mod writes;
