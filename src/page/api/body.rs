//! What `POST /api/comment` accepts, checked before the server function runs.
//!
//! server_fn answers `500` to a body it cannot read (one past the size limit
//! that did not declare its length) or cannot decode into the function's
//! arguments (a missing `error`, `null` where a number goes, `1e400`, text
//! that is not JSON). Here the body is read within the limit (`413` however
//! it is sent) and decoded into those same arguments ([`GetComment`], with
//! serde_json, as server_fn does) keeping the path of the first error, so a
//! malformed body gets a `400` naming its field in the JSON shape of
//! `/error`'s refusals. A body that decodes is handed on unchanged, and so
//! decodes the same way in server_fn; the values are then checked by the
//! function itself. Every answer of the route is `Cache-Control: no-store`.

use axum::{
    body::Body,
    extract::Request,
    http::{
        header::{CACHE_CONTROL, CONTENT_LENGTH},
        HeaderValue, Method, StatusCode,
    },
    middleware::Next,
    response::{IntoResponse, Response},
    Json,
};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use leptos::server_fn::ServerFn;
use serde_path_to_error::Segment;

use super::{CommentError, GetComment};
use coach::text::input::InputError;

/// The body's refusal: `413` past the limit, else `400`; JSON naming the field.
#[derive(Debug, PartialEq)]
pub enum Refusal {
    TooLarge(usize),
    Invalid(InputError),
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let (status, refusal) = match self {
            Refusal::TooLarge(limit) => (
                StatusCode::PAYLOAD_TOO_LARGE,
                CommentError {
                    error: format!("the body is larger than {limit} bytes"),
                    field: Some("body".into()),
                },
            ),
            Refusal::Invalid(e) => (StatusCode::BAD_REQUEST, CommentError::from(e)),
        };
        (status, Json(refusal)).into_response()
    }
}

/// The middleware: on `POST /api/comment`, the body read within `limit` bytes
/// and decoded, or its refusal; on the route, `no-store` whatever the answer.
pub async fn check(limit: usize, request: Request, next: Next) -> Response {
    if request.uri().path() != GetComment::PATH {
        return next.run(request).await;
    }
    let mut response = if request.method() == Method::POST {
        match read(limit, request).await {
            Ok(request) => next.run(request).await,
            Err(refusal) => refusal.into_response(),
        }
    } else {
        next.run(request).await
    };
    response
        .headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// The request with its body read and checked (and put back as it came).
async fn read(limit: usize, request: Request) -> Result<Request, Refusal> {
    let (parts, body) = request.into_parts();
    let declared = parts
        .headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|length| length > limit as u64) {
        return Err(Refusal::TooLarge(limit));
    }
    let bytes = match Limited::new(body, limit).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(e) if e.is::<LengthLimitError>() => return Err(Refusal::TooLarge(limit)),
        Err(_) => {
            return Err(Refusal::Invalid(InputError {
                field: "body".into(),
                message: "could not be read".into(),
            }))
        }
    };
    decode(&bytes).map_err(Refusal::Invalid)?;
    Ok(Request::from_parts(parts, Body::from(bytes)))
}

/// The server function's arguments, decoded as server_fn decodes them
/// (`serde_json::from_slice`), or the field to blame.
pub fn decode(body: &[u8]) -> Result<GetComment, InputError> {
    let mut json = serde_json::Deserializer::from_slice(body);
    let arguments = serde_path_to_error::deserialize(&mut json).map_err(|e| {
        let field = e
            .path()
            .iter()
            .find_map(|segment| match segment {
                Segment::Map { key } => Some(key.clone()),
                _ => None,
            })
            .or_else(|| named(e.inner()));
        blame(field, e.inner())
    })?;
    json.end().map_err(|e| blame(None, &e))?;
    Ok(arguments)
}

/// The field serde names in a message about the object as a whole
/// (``missing field `error` ``, ``duplicate field `lang` ``).
fn named(e: &serde_json::Error) -> Option<String> {
    let message = e.to_string();
    let rest = message
        .strip_prefix("missing field `")
        .or_else(|| message.strip_prefix("duplicate field `"))?;
    rest.split_once('`').map(|(field, _)| field.to_string())
}

fn blame(field: Option<String>, e: &serde_json::Error) -> InputError {
    let message = e.to_string();
    match field {
        // A field named in full; the key's position would add nothing.
        Some(field) if message.starts_with("missing field") => InputError {
            field,
            message: "required".into(),
        },
        Some(field) if message.starts_with("invalid type: null") => InputError {
            field,
            message: format!(
                "must be a number, not null (JSON has no NaN or Infinity: JSON.stringify writes them as null): {message}"
            ),
        },
        Some(field) if message.starts_with("number out of range") => InputError {
            field,
            message: format!("must be a finite number: {message}"),
        },
        Some(field) => InputError { field, message },
        None => InputError {
            field: "body".into(),
            message: format!(
                "must be a JSON object {{\"error\", \"attempts\", \"weight\", \"bias\", \"lang\", \"visit\", \"attempt\"}}: {message}"
            ),
        },
    }
}

#[cfg(test)]
mod tests;
