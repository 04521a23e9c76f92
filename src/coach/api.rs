//! The page's server function: a thin wrapper over the same service as `GET /error`.

use leptos::{prelude::*, server_fn};

use super::{Comment, Lang};

/// A comment on the current attempt. `attempts` holds the earlier errors, oldest
/// first. Validation is the one `GET /error` uses.
// JSON, not the default form encoding: a form cannot carry an empty list.
#[server(prefix = "/api", endpoint = "comment", input = server_fn::codec::Json)]
pub async fn get_comment(
    error: f64,
    attempts: Vec<f64>,
    lang: Option<Lang>,
) -> Result<Comment, ServerFnError> {
    use super::{input::CoachInput, service::Coach};
    use std::sync::Arc;

    let coach = use_context::<Arc<Coach>>()
        .ok_or_else(|| ServerFnError::new("the coach is not running"))?;
    let input = CoachInput::new(error, attempts, None, lang.unwrap_or_default())
        .map_err(|e| ServerFnError::new(e.to_string()))?;
    Ok(coach.comment(input).await)
}
