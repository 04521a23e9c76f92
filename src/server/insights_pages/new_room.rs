//! `POST /insights/rooms`: a teacher creates a class room (behind the pages'
//! [`super::Access`], like every insights page). The body is the `/insights`
//! form's `size=40&lang=pt` (`lang`: the page's words) or JSON `{"size": 40}`
//! (or nothing: [`DEFAULT_SIZE`]);
//! the answer is `201 Created` with `Location: /insights/room/CODE` and
//! `{"code", "link", "view", "size"}` (JSON), or, for the browser's form, a
//! page with the link to hand out and the live view's. A bad size is a `400`
//! naming `size`.
//!
//! The link's origin is the request's `Host` (and, behind a proxy the
//! operator trusts, its `X-Forwarded-Proto`), checked as a host name; a
//! request without a usable one gets a link from `/`.

use std::sync::Arc;

use axum::{
    body::Body,
    extract::State,
    http::{
        header::{ACCEPT, CACHE_CONTROL, CONTENT_TYPE, HOST, LOCATION},
        HeaderMap, HeaderValue, StatusCode,
    },
    response::{IntoResponse, Response},
    Json,
};
use serde_json::json;

use super::{
    notice::{Link, Notice},
    shell, text,
    words::language,
};
use insights::{
    rooms::{CreateError, DEFAULT_SIZE, MAX_SIZE},
    RoomCode, Rooms,
};
use vocabulary::{fill, Lang};

/// The largest body read.
const MAX_BODY: usize = 1024;

/// What the handler shares.
#[derive(Clone)]
pub struct Ctx {
    pub rooms: Arc<Rooms>,
    pub stylesheet: Arc<str>,
    /// Proxies trusted in front (`JAY_TRUSTED_PROXY_HOPS`): their
    /// `X-Forwarded-Proto` names the scheme of the link.
    pub trusted_hops: usize,
}

/// How the caller wants its answer.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Caller {
    /// A browser's form: a page.
    Form,
    Json,
}

/// The size asked for, or why it is refused.
fn size_of(caller: Caller, bytes: &[u8]) -> Result<u32, String> {
    let given: Option<String> = match caller {
        Caller::Form => form_urlencoded::parse(bytes)
            .find(|(k, _)| k == "size")
            .map(|(_, v)| v.trim().to_string()),
        Caller::Json if bytes.iter().all(u8::is_ascii_whitespace) => None,
        Caller::Json => {
            let value: serde_json::Value = serde_json::from_slice(bytes)
                .map_err(|e| format!("the body must be JSON such as {{\"size\": 40}}: {e}"))?;
            match value.get("size") {
                None | Some(serde_json::Value::Null) => None,
                Some(v) => Some(v.to_string()),
            }
        }
    };
    match given.filter(|s| !s.is_empty()) {
        None => Ok(DEFAULT_SIZE),
        Some(s) => s
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=MAX_SIZE).contains(n))
            .ok_or_else(|| format!("must be a whole number of learners from 1 to {MAX_SIZE}")),
    }
}

/// `scheme://host` of the request, when its `Host` is a plain host name.
fn origin(headers: &HeaderMap, trusted_hops: usize) -> Option<String> {
    let host = headers.get(HOST)?.to_str().ok()?;
    let plain = !host.is_empty()
        && host.len() <= 255
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b));
    if !plain {
        return None;
    }
    let forwarded = headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.rsplit(',').next())
        .map(str::trim)
        .filter(|p| *p == "https" || *p == "http");
    let scheme = if trusted_hops > 0 {
        forwarded.unwrap_or("http")
    } else {
        "http"
    };
    Some(format!("{scheme}://{host}"))
}

pub async fn create(State(ctx): State<Ctx>, headers: HeaderMap, body: Body) -> Response {
    let form = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
    let wants_json = headers
        .get(ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/json"));
    let caller = if form && !wants_json {
        Caller::Form
    } else {
        Caller::Json
    };
    let refuse = |status: StatusCode, field: Option<&str>, message: String| match caller {
        Caller::Form => text(
            status,
            field.map_or(message.clone(), |f| format!("{f}: {message}")),
        ),
        Caller::Json => {
            no_store((status, Json(json!({ "error": message, "field": field }))).into_response())
        }
    };
    let Ok(bytes) = axum::body::to_bytes(body, MAX_BODY).await else {
        return refuse(
            StatusCode::PAYLOAD_TOO_LARGE,
            Some("body"),
            format!("the body is larger than {MAX_BODY} bytes"),
        );
    };
    let size = match size_of(if form { Caller::Form } else { Caller::Json }, &bytes) {
        Ok(size) => size,
        Err(why) => return refuse(StatusCode::BAD_REQUEST, Some("size"), why),
    };
    let code = match ctx.rooms.create(size).await {
        Ok(code) => code,
        Err(e @ (CreateError::Off | CreateError::TooMany)) => {
            return refuse(StatusCode::CONFLICT, None, e.to_string())
        }
        Err(CreateError::Store(e)) => {
            tracing::warn!("room not created: {e}");
            return refuse(
                StatusCode::SERVICE_UNAVAILABLE,
                None,
                "the insights database is not answering; try again in a minute".into(),
            );
        }
    };
    let base = origin(&headers, ctx.trusted_hops).unwrap_or_default();
    let link = format!("{base}/?room={}", code.as_str());
    let view = format!("/insights/room/{}", code.as_str());
    // Lesson 2's link and live view, for a class that goes on to it.
    let two = (
        format!("{base}/two?room={}", code.as_str()),
        format!("{view}?lesson=2"),
    );
    tracing::info!("insights: room {} created, {size} seats", code.as_str());
    let mut response = match caller {
        Caller::Json => (
            StatusCode::CREATED,
            Json(json!({
                "code": code.as_str(), "link": link, "view": view, "size": size,
                "link_two": two.0, "view_two": two.1,
            })),
        )
            .into_response(),
        Caller::Form => {
            let asked = form_urlencoded::parse(&bytes)
                .find(|(k, _)| k == "lang")
                .map(|(_, v)| v.into_owned());
            let lang = shell::page_lang(asked.as_deref(), &headers);
            created_page(&ctx, lang, &code, size, [(&link, &view), (&two.0, &two.1)])
        }
    };
    if let Ok(location) = HeaderValue::from_str(&view) {
        response.headers_mut().insert(LOCATION, location);
    }
    no_store(response)
}

/// The page a browser's form opens on.
fn created_page(
    ctx: &Ctx,
    lang: Lang,
    code: &RoomCode,
    size: u32,
    [(link, view), (link_two, view_two)]: [(&str, &str); 2],
) -> Response {
    let w = language(lang).notice;
    let ready = fill(
        w.room_ready,
        &[("room", code.as_str()), ("size", &size.to_string())],
    );
    let view_in = format!("{view}?lang={}", lang.code());
    let view_two_in = format!("{view_two}&lang={}", lang.code());
    let back = format!("/insights?room={}&lang={}", code.as_str(), lang.code());
    let links = [
        Link {
            label: w.room_link,
            href: link,
            shown: None,
        },
        Link {
            label: w.room_view,
            href: &view_in,
            shown: None,
        },
        Link {
            label: w.room_link_two,
            href: link_two,
            shown: None,
        },
        Link {
            label: w.room_view_two,
            href: &view_two_in,
            shown: None,
        },
        Link {
            label: w.room_back,
            href: &back,
            shown: Some("/insights"),
        },
    ];
    Notice {
        lang,
        title: w.room_title,
        heading: w.room_title,
        lines: &[ready.as_str()],
        stylesheet: &ctx.stylesheet,
    }
    .with_links(StatusCode::CREATED, &links)
}

fn no_store(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_size_comes_from_the_form_or_json_and_defaults_to_40() {
        assert_eq!(size_of(Caller::Form, b"size=30"), Ok(30));
        assert_eq!(size_of(Caller::Form, b""), Ok(40));
        assert_eq!(size_of(Caller::Form, b"size="), Ok(40));
        assert_eq!(size_of(Caller::Json, br#"{"size": 12}"#), Ok(12));
        assert_eq!(size_of(Caller::Json, b" "), Ok(40));
        assert_eq!(size_of(Caller::Json, b"{}"), Ok(40));
        for bad in [&b"size=0"[..], b"size=501", b"size=many", b"size=-3"] {
            assert!(size_of(Caller::Form, bad).is_err(), "{bad:?}");
        }
        assert!(size_of(Caller::Json, br#"{"size": "x"}"#).is_err());
        assert!(size_of(Caller::Json, b"{").is_err());
    }

    #[test]
    fn the_link_is_the_requests_own_origin() {
        let mut h = HeaderMap::new();
        assert_eq!(origin(&h, 0), None);
        h.insert(HOST, HeaderValue::from_static("jay.example:7860"));
        assert_eq!(origin(&h, 0).as_deref(), Some("http://jay.example:7860"));
        h.insert("x-forwarded-proto", HeaderValue::from_static("https"));
        assert_eq!(origin(&h, 0).as_deref(), Some("http://jay.example:7860"));
        assert_eq!(origin(&h, 1).as_deref(), Some("https://jay.example:7860"));
        h.insert(HOST, HeaderValue::from_static("evil.example/\"><x"));
        assert_eq!(origin(&h, 1), None);
    }
}
