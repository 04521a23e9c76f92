//! The coach's bubble: after each attempt, `POST /api/comment` with lesson
//! 2's point and the run's earlier errors; a newer attempt aborts the call
//! still under way (its answer never shows). The comment, who wrote it, and
//! two vote buttons (`POST /api/feedback`, not awaited) are set on the
//! server's elements; the labels' words are the bubble's `data-*`.

use js_sys::{Reflect, JSON};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{AbortController, Document, Element, RequestInit, Response};

use crate::dom::{attr, text};
use vocabulary::Lang;

/// What the server answered, as far as the bubble shows it.
struct Said {
    comment: String,
    label: Label,
    lang: String,
    id: Option<String>,
}

enum Label {
    Model(String),
    Offline,
    Limited,
}

/// An attempt to comment on: its point, its error and its number in the
/// visit (1 for the first; a start over goes on counting).
pub(crate) struct Asked {
    pub point: [f64; 3],
    pub error: f64,
    pub number: usize,
}

/// `,"visit":"…"`: the visit's id the head script made for the insights
/// (`window.__jayVisit`, `page::visit` in the app), or nothing without one
/// (Do Not Track, or no script).
fn visit() -> String {
    let id = Reflect::get(&js_sys::global(), &JsValue::from_str("__jayVisit"))
        .ok()
        .and_then(|v| v.as_string())
        .filter(|v| {
            v.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        });
    id.map_or_else(String::new, |id| format!(r#","visit":"{id}""#))
}

/// Asks for a comment on the attempt `asked`, after `earlier` (the run's
/// errors, oldest first); aborts the call under way in `call`.
pub(crate) fn ask(
    doc: &Document,
    call: &mut Option<AbortController>,
    asked: Asked,
    earlier: &[f64],
    lang: Lang,
) {
    let Asked {
        point,
        error,
        number,
    } = asked;
    abort(call);
    let Ok(controller) = AbortController::new() else {
        return;
    };
    let signal = controller.signal();
    *call = Some(controller);
    let attempts: Vec<String> = earlier
        .iter()
        .rev()
        .take(100)
        .rev()
        .map(f64::to_string)
        .collect();
    let body = format!(
        r#"{{"lesson":2,"error":{error},"attempts":[{}],"w1":{},"w2":{},"b":{},"lang":"{}","attempt":{number}{}}}"#,
        attempts.join(","),
        point[0],
        point[1],
        point[2],
        lang.code(),
        visit()
    );
    state(doc, "typing");
    let doc = doc.clone();
    spawn_local(async move {
        match fetch("/api/comment", &body, Some(&signal)).await {
            Some(text) => match said(&text) {
                Some(said) => show(&doc, &said),
                None => failed(&doc),
            },
            None if signal.aborted() => {}
            None => failed(&doc),
        }
    });
}

/// Cancels the call under way, if any.
pub(crate) fn abort(call: &mut Option<AbortController>) {
    if let Some(old) = call.take() {
        old.abort();
    }
}

/// Back to waiting (a start over: nothing said is about the new run).
pub(crate) fn wait(doc: &Document, call: &mut Option<AbortController>) {
    abort(call);
    state(doc, "waiting");
    votes(doc, None);
}

/// A click in the vote group: a vote on the comment shown, if the button
/// is not pressed yet.
pub(crate) fn voted(doc: &Document, ev: &web_sys::Event) {
    let button = ev
        .target()
        .and_then(|t| t.dyn_into::<Element>().ok())
        .and_then(|el| el.closest("button[data-vote]").ok().flatten());
    let Some(button) = button else { return };
    let Some(group) = doc.get_element_by_id("two-votes") else {
        return;
    };
    let id = group
        .get_attribute("data-comment")
        .filter(|id| !id.is_empty());
    let (Some(vote), Some(id)) = (button.get_attribute("data-vote"), id) else {
        return;
    };
    if button.get_attribute("aria-pressed").as_deref() == Some("true") {
        return;
    }
    press(doc, &vote);
    // The visit: whose allowance a learner seated in a class room spends.
    let body = format!(r#"{{"id":"{id}","vote":"{vote}"{}}}"#, visit());
    spawn_local(async move {
        let _ = fetch("/api/feedback", &body, None).await;
    });
}

fn press(doc: &Document, vote: &str) {
    for name in ["up", "down"] {
        if let Ok(Some(b)) = doc.query_selector(&format!("#two-votes [data-vote=\"{name}\"]")) {
            let _ = b.set_attribute("aria-pressed", if name == vote { "true" } else { "false" });
        }
    }
}

fn votes(doc: &Document, id: Option<&str>) {
    if let Some(group) = doc.get_element_by_id("two-votes") {
        group.set_class_name(if id.is_some() { "votes" } else { "votes idle" });
        let _ = group.set_attribute("data-comment", id.unwrap_or_default());
    }
    press(doc, "");
}

fn state(doc: &Document, name: &str) {
    attr(doc, "two-bubble", "data-state", name);
    if let Some(bubble) = doc.get_element_by_id("two-bubble") {
        let _ = bubble
            .class_list()
            .toggle_with_force("typing", name == "typing");
    }
    if name != "said" {
        let waiting = name == "waiting";
        if !waiting {
            text(doc, "two-coach-text", "");
        }
        text(doc, "two-coach-model", "");
    }
}

fn show(doc: &Document, said: &Said) {
    state(doc, "said");
    text(doc, "two-coach-text", &said.comment);
    // The comment's own language, for a screen reader.
    if let Some(lang) = Lang::parse(&said.lang) {
        attr(doc, "two-coach-text", "lang", lang.html_tag());
    }
    let data = |name: &str| {
        doc.get_element_by_id("two-bubble")
            .and_then(|b| b.get_attribute(name))
            .unwrap_or_default()
    };
    let label = match &said.label {
        Label::Model(name) => name.clone(),
        Label::Offline => data("data-offline"),
        Label::Limited => data("data-limited"),
    };
    text(doc, "two-coach-model", &label);
    votes(doc, said.id.as_deref());
}

fn failed(doc: &Document) {
    state(doc, "failed");
    let line = doc
        .get_element_by_id("two-bubble")
        .and_then(|b| b.get_attribute("data-failed"))
        .unwrap_or_default();
    text(doc, "two-coach-text", &line);
}

/// Posts the JSON `body`; the answer's text when it is a 2xx.
async fn fetch(url: &str, body: &str, signal: Option<&web_sys::AbortSignal>) -> Option<String> {
    let init = RequestInit::new();
    init.set_method("POST");
    init.set_body(&JsValue::from_str(body));
    init.set_signal(signal);
    let headers = web_sys::Headers::new().ok()?;
    headers.set("content-type", "application/json").ok()?;
    headers.set("accept", "application/json").ok()?;
    init.set_headers(&headers);
    let promise = web_sys::window()?.fetch_with_str_and_init(url, &init);
    let response: Response = JsFuture::from(promise).await.ok()?.dyn_into().ok()?;
    if !response.ok() {
        return None;
    }
    JsFuture::from(response.text().ok()?)
        .await
        .ok()?
        .as_string()
}

/// The answer's fields the bubble shows; `None` if it is not a comment.
fn said(text: &str) -> Option<Said> {
    let answer = JSON::parse(text).ok()?;
    let get = |key: &str| Reflect::get(&answer, &JsValue::from_str(key)).ok();
    let string = |key: &str| get(key)?.as_string();
    let limited = get("limited").is_some_and(|v| !v.is_undefined() && !v.is_null());
    let label = if limited {
        Label::Limited
    } else if get("fallback")?.as_bool()? {
        Label::Offline
    } else {
        Label::Model(format!("{} · {}", string("model")?, string("provider")?))
    };
    Some(Said {
        comment: string("comment")?,
        label,
        lang: string("lang")?,
        id: string("id"),
    })
}
