//! OpenAI-compatible chat completions (`POST {base}/chat/completions`): the
//! Hugging Face router today, and equally Ollama, llama.cpp's server, vLLM, TGI.
//!
//! Request and answer are typed: the body borrows the prompt's text (written
//! once per language and tier, [`crate::prompt`]) instead of copying it
//! into a JSON tree, and the answer is read straight into the one field used.
//! Wire shapes only: the HTTP call, its secrets and its failures are `http`'s.

use serde::{de::IgnoredAny, Deserialize, Serialize};

use super::{ProviderError, Usage};
use crate::{
    model::ModelSpec,
    prompt::{Prompt, END_MARKER},
};

/// The request body: system, few-shot pairs, the question.
#[derive(Debug, Serialize)]
pub struct Body<'a> {
    model: &'a str,
    messages: Vec<Message<'a>>,
    max_tokens: u32,
    temperature: f32,
    stop: [&'a str; 1],
    stream: bool,
}

/// One chat message.
#[derive(Debug, Serialize)]
pub struct Message<'a> {
    role: &'static str,
    content: &'a str,
}

pub fn body<'a>(spec: &'a ModelSpec, prompt: &'a Prompt) -> Body<'a> {
    Body {
        model: &spec.model,
        messages: messages(prompt),
        max_tokens: spec.max_new_tokens,
        temperature: spec.temperature,
        stop: [END_MARKER],
        stream: false,
    }
}

/// The prompt as chat messages (also what text-generation templates render).
pub fn messages(prompt: &Prompt) -> Vec<Message<'_>> {
    let message = |role, content| Message { role, content };
    let mut messages = Vec::with_capacity(2 + 2 * prompt.examples.len());
    messages.push(message("system", prompt.system));
    for (user, assistant) in prompt.examples {
        messages.push(message("user", user));
        messages.push(message("assistant", assistant));
    }
    messages.push(message("user", &prompt.user));
    messages
}

/// The parts of an answer that are read.
#[derive(Deserialize)]
struct Answer {
    #[serde(default)]
    choices: Vec<Choice>,
    /// Some servers answer 200 with `{"error": …}`: that is a failure.
    #[serde(default)]
    error: Option<IgnoredAny>,
    /// The tokens billed (OpenAI's shape; Hugging Face's router, llama.cpp,
    /// vLLM and Ollama send it).
    /// Read loosely: a count that is not a count spoils no answer.
    #[serde(default)]
    usage: Option<serde_json::Value>,
}

#[derive(Deserialize)]
struct Choice {
    message: Option<Said>,
}

#[derive(Deserialize)]
struct Said {
    content: Option<String>,
}

/// `choices[0].message.content` of the answer `body`; anything else is a bad body.
pub fn text(body: &str) -> Result<String, ProviderError> {
    answer(body).map(|(text, _)| text)
}

/// [`text`], and the `usage` the answer gave, if it gave a believable one.
pub fn answer(body: &str) -> Result<(String, Option<Usage>), ProviderError> {
    let answer: Answer = serde_json::from_str(body).map_err(|_| super::not_json())?;
    if answer.error.is_some() {
        return Err(super::error_in_200());
    }
    let usage = answer.usage.and_then(|u| {
        let count = |key: &str| u.get(key).and_then(serde_json::Value::as_u64);
        Usage::new(count("prompt_tokens"), count("completion_tokens"))
    });
    let text = answer
        .choices
        .into_iter()
        .next()
        .and_then(|c| c.message?.content)
        .ok_or_else(|| ProviderError::BadBody("no choices[0].message.content".into()))?;
    Ok((text, usage))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_first_choice_and_refuses_the_rest() {
        let ok = r#"{"id":"x","choices":[{"index":0,"message":{"role":"assistant","content":"Nice!"}}],"usage":{}}"#;
        assert_eq!(text(ok).unwrap(), "Nice!");
        for bad in [
            "not json",
            "{}",
            r#"{"choices":[]}"#,
            r#"{"choices":[{"message":{"content":null}}]}"#,
            r#"{"choices":[{"message":{"content":"x"}}],"error":{"message":"overloaded"}}"#,
            r#"{"choices":[{"message":{"content":7}}]}"#,
        ] {
            assert!(text(bad).is_err(), "{bad}");
        }
        // The tokens billed are read beside the text; nonsense is not.
        let billed = r#"{"choices":[{"message":{"content":"ok"}}],"usage":{"prompt_tokens":412,"completion_tokens":23,"total_tokens":435}}"#;
        assert_eq!(
            answer(billed).unwrap(),
            ("ok".to_string(), Usage::new(Some(412), Some(23)))
        );
        let odd = r#"{"choices":[{"message":{"content":"ok"}}],"usage":{"prompt_tokens":-1}}"#;
        assert_eq!(answer(odd).unwrap(), ("ok".to_string(), None));
        // `"error": null` is no error.
        assert_eq!(
            text(r#"{"choices":[{"message":{"content":"ok"}}],"error":null}"#).unwrap(),
            "ok"
        );
    }
}
