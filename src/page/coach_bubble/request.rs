//! The page's call to the coach: `POST /api/comment` with its JSON body
//! (`src/server/routes/comment.rs`), made with the browser's own `fetch`,
//! `AbortController` and `JSON`: a Rust HTTP client, `serde_json` and their
//! float parsing and printing would bring about 33 KB gzipped into the WASM
//! (its budget is 220 KB, `.ci/wasm-size`).

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

/// Asks the coach; `signal` cancels the call.
#[cfg(feature = "hydrate")]
pub async fn ask(question: &Question, signal: &web_sys::AbortSignal) -> Result<Said, NoAnswer> {
    use wasm_bindgen::{JsCast, JsValue};
    use wasm_bindgen_futures::JsFuture;

    let fail = |_| NoAnswer::Failed;
    let body = js::body(question).map_err(fail)?;
    let init = web_sys::RequestInit::new();
    init.set_method("POST");
    init.set_body(&JsValue::from_str(&body));
    init.set_signal(Some(signal));
    let headers = web_sys::Headers::new().map_err(fail)?;
    headers
        .set("content-type", "application/json")
        .map_err(fail)?;
    headers.set("accept", "application/json").map_err(fail)?;
    init.set_headers(&headers);
    let window = web_sys::window().ok_or(NoAnswer::Failed)?;
    let sent = JsFuture::from(window.fetch_with_str_and_init(ENDPOINT, &init)).await;
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
        let object = Object::new();
        let attempts: Array = q.attempts.iter().map(|&e| JsValue::from_f64(e)).collect();
        let visit = Reflect::get(&js_sys::global(), &JsValue::from_str("__jayVisit"))?;
        for (key, value) in [
            ("error", JsValue::from_f64(q.error)),
            ("attempt", JsValue::from_f64(q.number as f64)),
            ("attempts", attempts.into()),
            ("weight", JsValue::from_f64(q.weight)),
            ("bias", JsValue::from_f64(q.bias)),
            ("lang", JsValue::from_str(q.lang.code())),
            ("visit", visit),
        ] {
            Reflect::set(&object, &JsValue::from_str(key), &value)?;
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
        })
    }
}
