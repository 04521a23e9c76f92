//! Two buttons under each comment: helpful, not helpful. The chosen one
//! shows pressed (`aria-pressed`), the other may be chosen instead (the
//! server replaces the first vote), and a new comment starts unvoted. They
//! are always in the bubble, hidden (not removed: the layout never moves)
//! while there is no comment a vote could name. The vote goes to
//! `POST /api/feedback` on its own; nothing comes back to show
//! (`request::vote`).
//!
//! Light on the WASM: the buttons are the server's markup (in the page's
//! words; the browser keeps it at hydration), the group's one click handler
//! and [`show`] (called as a comment arrives or goes) set their state, and
//! the comment's id, on the elements themselves. As a component with
//! reactive attributes and an effect they cost the WASM 4.3 KB gzipped.

use crate::page::i18n::Texts;

/// The two buttons, as the server writes them (the icons are CSS).
#[cfg_attr(not(feature = "ssr"), allow(dead_code))]
pub fn buttons(t: &Texts) -> String {
    [("up", t.vote_up), ("down", t.vote_down)]
        .map(|(vote, label)| {
            format!(
                r#"<button type="button" class="vote {vote}" data-vote="{vote}" data-testid="vote-{vote}" aria-pressed="false" aria-label="{label}" title="{label}"></button>"#
            )
        })
        .concat()
}

pub use dom::{clicked, show};

/// The buttons' state, set on the elements (browser only); the comment's id
/// is the group's `data-comment`.
#[cfg(feature = "hydrate")]
mod dom {
    use wasm_bindgen::JsCast;

    /// The buttons for the comment `id` (`None`: no comment to vote on:
    /// hidden), neither pressed.
    pub fn show(id: Option<String>) {
        if let Ok(Some(group)) = leptos::prelude::document().query_selector(".votes") {
            group.set_class_name(if id.is_some() { "votes" } else { "votes idle" });
            let _ = group.set_attribute("data-comment", id.as_deref().unwrap_or_default());
            press(&group, "");
        }
    }

    /// Marks the button of `vote` (`up`, `down`) pressed and the other not.
    fn press(group: &web_sys::Element, vote: &str) {
        let buttons = group.children();
        for i in 0..buttons.length() {
            if let Some(button) = buttons.item(i) {
                let on = button.get_attribute("data-vote").as_deref() == Some(vote);
                let _ = button.set_attribute("aria-pressed", if on { "true" } else { "false" });
            }
        }
    }

    /// A click in the group: a vote, if it fell on a button not pressed yet
    /// and there is a comment to vote on.
    pub fn clicked(e: web_sys::MouseEvent) {
        let target = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        let Some(button) = target.and_then(|t| t.closest("button").ok().flatten()) else {
            return;
        };
        let Some(group) = button.parent_element() else {
            return;
        };
        let (Some(vote), Some(id)) = (
            button.get_attribute("data-vote"),
            group
                .get_attribute("data-comment")
                .filter(|id| !id.is_empty()),
        ) else {
            return;
        };
        if button.get_attribute("aria-pressed").as_deref() != Some("true") {
            press(&group, &vote);
            super::super::request::vote(&id, vote == "up");
        }
    }
}

/// The server renders no state and takes no click.
#[cfg(not(feature = "hydrate"))]
mod dom {
    pub fn show(_: Option<String>) {}

    pub fn clicked<E>(_: E) {}
}
