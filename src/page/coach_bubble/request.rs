//! The page's calls to the server: `POST /api/comment` with its JSON body
//! (`src/server/routes/comment.rs`), and a visitor's vote on a comment,
//! `POST /api/feedback` (`src/server/routes/feedback.rs`), made with the
//! browser's own `fetch`, `AbortController` and `JSON`: a Rust HTTP client,
//! `serde_json` and their float parsing and printing would bring about 33 KB
//! gzipped into the WASM (its budget is 221.5 KB, `.ci/wasm-size`).

use vocabulary::Lang;

/// What the bubble shows of an answer (the fields of [`coach::Comment`] it needs).
#[derive(Clone, Debug, PartialEq)]
pub struct Said {
    pub comment: String,
    /// Alias of the model that wrote it.
    pub model: String,
    pub provider: String,
    /// The comment's own language.
    pub lang: Lang,
    /// The offline commentator answered instead of a model.
    pub fallback: bool,
    /// A limit kept the models out (the offline commentator answered).
    pub limited: bool,
    /// What a vote on it names (none from a server that signs no ids).
    pub id: Option<String>,
}

/// One question: the attempt, the earlier errors (oldest first), the page's language.
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    pub error: f64,
    /// The attempt's number in the visit, 1 for the first (every run
    /// counted: a start over goes on counting), for the insights.
    pub number: usize,
    pub attempts: Vec<f64>,
    pub weight: f64,
    pub bias: f64,
    pub lang: Lang,
}

/// Why no answer came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoAnswer {
    /// A newer attempt cancelled this call: nothing to show.
    Aborted,
    /// The network or the server failed, or the answer was not a comment.
    Failed,
}

/// The comment route's address.
pub const ENDPOINT: &str = "/api/comment";
/// The votes' address.
pub const FEEDBACK: &str = "/api/feedback";

/// Asks the coach; `signal` cancels the call.
#[cfg(feature = "hydrate")]
pub async fn ask(question: &Question, signal: &web_sys::AbortSignal) -> Result<Said, NoAnswer> {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;

    let fail = |_| NoAnswer::Failed;
    let body = js::body(question).map_err(fail)?;
    let sent = JsFuture::from(post(ENDPOINT, &body, Some(signal))?).await;
    // A cancelled call rejects with an `AbortError`, whichever step it was at.
    let aborted = |_| {
        if signal.aborted() {
            NoAnswer::Aborted
        } else {
            NoAnswer::Failed
        }
    };
    let response: web_sys::Response = sent.map_err(aborted)?.dyn_into().map_err(fail)?;
    if !response.ok() {
        return Err(NoAnswer::Failed);
    }
    let text = JsFuture::from(response.text().map_err(fail)?)
        .await
        .map_err(aborted)?;
    js::said(&text.as_string().ok_or(NoAnswer::Failed)?).ok_or(NoAnswer::Failed)
}

/// Tells the server what the visitor thinks of the comment `id` (`up`:
/// helpful), and does not wait: nothing comes back to show, and a vote that
/// does not arrive is lost quietly (the page never shows an error for it).
#[cfg(feature = "hydrate")]
pub fn vote(id: &str, up: bool) {
    if let Ok(body) = js::vote(id, up) {
        let _ = post(FEEDBACK, &body, None);
    }
}

/// Starts posting the JSON `body` to `endpoint`: `fetch`'s promise.
#[cfg(feature = "hydrate")]
fn post(
    endpoint: &str,
    body: &str,
    signal: Option<&web_sys::AbortSignal>,
) -> Result<js_sys::Promise, NoAnswer> {
    use wasm_bindgen::JsValue;

    let fail = |_| NoAnswer::Failed;
    let init = web_sys::RequestInit::new();
    init.set_method("POST");
    init.set_body(&JsValue::from_str(body));
    init.set_signal(signal);
    let headers = web_sys::Headers::new().map_err(fail)?;
    headers
        .set("content-type", "application/json")
        .map_err(fail)?;
    headers.set("accept", "application/json").map_err(fail)?;
    init.set_headers(&headers);
    let window = web_sys::window().ok_or(NoAnswer::Failed)?;
    Ok(window.fetch_with_str_and_init(endpoint, &init))
}

/// The JSON, written and read by the browser.
#[cfg(feature = "hydrate")]
mod js {
    use js_sys::{Array, Object, Reflect, JSON};
    use wasm_bindgen::JsValue;

    use super::{Question, Said};
    use vocabulary::Lang;

    /// `{"error":…, "attempts":[…], "weight":…, "bias":…, "lang":"pt",
    /// "attempt":…, "visit":…}`: `visit` is the id the head script made for
    /// the insights (`page::visit`); without one it is `undefined`, which
    /// `JSON.stringify` leaves out, and the server records nothing.
    pub fn body(q: &Question) -> Result<String, JsValue> {
        let attempts: Array = q.attempts.iter().map(|&e| JsValue::from_f64(e)).collect();
        object(&[
            ("error", JsValue::from_f64(q.error)),
            ("attempt", JsValue::from_f64(q.number as f64)),
            ("attempts", attempts.into()),
            ("weight", JsValue::from_f64(q.weight)),
            ("bias", JsValue::from_f64(q.bias)),
            ("lang", JsValue::from_str(q.lang.code())),
        ])
    }

    /// `{"id":…, "vote":"up"|"down", "visit":…}` (the visit: whose
    /// allowance a learner seated in a class room spends).
    pub fn vote(id: &str, up: bool) -> Result<String, JsValue> {
        object(&[
            ("id", JsValue::from_str(id)),
            ("vote", JsValue::from_str(if up { "up" } else { "down" })),
        ])
    }

    /// `pairs`, and the page's `visit`, as a JSON object.
    fn object(pairs: &[(&str, JsValue)]) -> Result<String, JsValue> {
        let object = Object::new();
        let visit = Reflect::get(&js_sys::global(), &JsValue::from_str("__jayVisit"))?;
        for (key, value) in pairs.iter().chain([&("visit", visit)]) {
            Reflect::set(&object, &JsValue::from_str(key), value)?;
        }
        JSON::stringify(&object)?
            .as_string()
            .ok_or_else(|| JsValue::from_str("JSON.stringify"))
    }

    /// The fields the bubble needs, `None` if the answer is not a comment.
    pub fn said(text: &str) -> Option<Said> {
        let answer = JSON::parse(text).ok()?;
        let get = |key: &str| Reflect::get(&answer, &JsValue::from_str(key)).ok();
        let string = |key: &str| get(key)?.as_string();
        Some(Said {
            comment: string("comment")?,
            model: string("model")?,
            provider: string("provider")?,
            lang: Lang::parse(&string("lang")?)?,
            fallback: get("fallback")?.as_bool()?,
            limited: get("limited").is_some_and(|v| !v.is_undefined() && !v.is_null()),
            id: string("id"),
        })
    }
}
