//! The JSON bodies the app reads (`POST /api/comment`, `POST /insights/events`):
//! an extractor, [`AppJson`], whose rejection is the app's own [`ApiError`]
//! (the shape of axum's `examples/error-handling`). The body is read within
//! the route's limit (`413` however it is sent, with or without a length)
//! and decoded keeping the path of the first error, so a malformed body is a
//! `400` naming its field: one of the body's own names, never an arbitrary
//! key echoed back, else `body`.

use axum::{
    body::Body,
    extract::{FromRequest, Request},
    http::header::CONTENT_LENGTH,
};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use serde::de::DeserializeOwned;
use serde_path_to_error::Segment;
use vocabulary::FieldError;

use super::error::ApiError;

/// A body a route reads as JSON.
pub trait JsonBody: DeserializeOwned {
    /// Its fields, in the order a refusal lists them.
    const FIELDS: &'static [&'static str];
    /// The most bytes read.
    const LIMIT: usize;
}

/// A decoded [`JsonBody`], or the refusal that names what was wrong.
pub struct AppJson<T>(pub T);

impl<S: Send + Sync, T: JsonBody> FromRequest<S> for AppJson<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, _: &S) -> Result<Self, ApiError> {
        let declared = request
            .headers()
            .get(CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok());
        let bytes = read(request.into_body(), declared, T::LIMIT).await?;
        Ok(AppJson(decode(&bytes)?))
    }
}

/// The body's bytes, at most `limit` of them.
async fn read(
    body: Body,
    declared: Option<u64>,
    limit: usize,
) -> Result<axum::body::Bytes, ApiError> {
    if declared.is_some_and(|length| length > limit as u64) {
        return Err(ApiError::TooLarge { limit });
    }
    match Limited::new(body, limit).collect().await {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(e) if e.is::<LengthLimitError>() => Err(ApiError::TooLarge { limit }),
        Err(_) => Err(FieldError::new("body", "could not be read").into()),
    }
}

/// `bytes` decoded as `T`, or the field to blame. Decoded plainly first:
/// following the path costs every body, and only a refused one needs it.
pub fn decode<T: JsonBody>(bytes: &[u8]) -> Result<T, FieldError> {
    serde_json::from_slice(bytes).or_else(|_| decode_with_path(bytes))
}

/// [`decode`], keeping the path to the first error.
fn decode_with_path<T: JsonBody>(bytes: &[u8]) -> Result<T, FieldError> {
    let mut json = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut json).map_err(|e| {
        let key = e.path().iter().find_map(|segment| match segment {
            Segment::Map { key } => Some(key.clone()),
            _ => None,
        });
        blame::<T>(key.or_else(|| named(e.inner())), e.inner())
    })?;
    json.end().map_err(|e| blame::<T>(None, &e))?;
    Ok(value)
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

fn blame<T: JsonBody>(key: Option<String>, e: &serde_json::Error) -> FieldError {
    let message = e.to_string();
    let field = key.and_then(|key| T::FIELDS.iter().copied().find(|f| *f == key));
    match field {
        // A field named in full; the key's position would add nothing.
        Some(field) if message.starts_with("missing field") => FieldError::new(field, "required"),
        Some(field) if message.starts_with("invalid type: null") => FieldError::new(
            field,
            format!(
                "must be a number, not null (JSON has no NaN or Infinity: JSON.stringify writes them as null): {message}"
            ),
        ),
        Some(field) if message.starts_with("number out of range") => {
            FieldError::new(field, format!("must be a finite number: {message}"))
        }
        Some(field) => FieldError::new(field, message),
        None => {
            let fields = T::FIELDS
                .iter()
                .map(|f| format!("\"{f}\""))
                .collect::<Vec<_>>()
                .join(", ");
            FieldError::new("body", format!("must be a JSON object {{{fields}}}: {message}"))
        }
    }
}

#[cfg(test)]
mod tests;
