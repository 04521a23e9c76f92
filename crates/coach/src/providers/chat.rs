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
    #[serde(default)]
    usage: Option<Billed>,
}

/// `usage`, read loosely: a count that is not a count, or a `usage` that is
/// no object, spoils no answer (the count is `None`), and the fields not
/// read are skipped, not copied.
#[derive(Default)]
struct Billed {
    prompt_tokens: Option<u64>,
    completion_tokens: Option<u64>,
}

impl<'de> Deserialize<'de> for Billed {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(BilledVisitor)
    }
}

struct BilledVisitor;

/// A key of `usage`, matched as it is read (no copy of it).
#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "snake_case")]
enum Field {
    PromptTokens,
    CompletionTokens,
    #[serde(other)]
    Other,
}

/// The next value as a token count, if it is one.
fn count<'de, A: serde::de::MapAccess<'de>>(map: &mut A) -> Result<Option<u64>, A::Error> {
    Ok(map.next_value::<serde_json::Value>()?.as_u64())
}

impl<'de> serde::de::Visitor<'de> for BilledVisitor {
    type Value = Billed;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Billed, A::Error> {
        let mut billed = Billed::default();
        while let Some(key) = map.next_key::<Field>()? {
            match key {
                Field::PromptTokens => billed.prompt_tokens = count(&mut map)?,
                Field::CompletionTokens => billed.completion_tokens = count(&mut map)?,
                Field::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(billed)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Billed, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Billed::default())
    }

    fn visit_bool<E>(self, _: bool) -> Result<Billed, E> {
        Ok(Billed::default())
    }

    fn visit_i64<E>(self, _: i64) -> Result<Billed, E> {
        Ok(Billed::default())
    }

    fn visit_u64<E>(self, _: u64) -> Result<Billed, E> {
        Ok(Billed::default())
    }

    fn visit_f64<E>(self, _: f64) -> Result<Billed, E> {
        Ok(Billed::default())
    }

    fn visit_str<E>(self, _: &str) -> Result<Billed, E> {
        Ok(Billed::default())
    }

    fn visit_unit<E>(self) -> Result<Billed, E> {
        Ok(Billed::default())
    }
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
    let usage = answer
        .usage
        .and_then(|u| Usage::new(u.prompt_tokens, u.completion_tokens));
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
        for odd in [
            r#"{"prompt_tokens":-1,"completion_tokens":2}"#,
            r#"{"prompt_tokens":"412","completion_tokens":2}"#,
            r#"{"prompt_tokens":{"n":1},"completion_tokens":[2]}"#,
            r#"{"completion_tokens":2}"#,
            r#""412 tokens""#,
            r#"[412, 23]"#,
            "412",
            "true",
            "null",
        ] {
            let body = format!(r#"{{"choices":[{{"message":{{"content":"ok"}}}}],"usage":{odd}}}"#);
            assert_eq!(answer(&body).unwrap(), ("ok".to_string(), None), "{odd}");
        }
        let extra = r#"{"choices":[{"message":{"content":"ok"}}],"usage":{"prompt_tokens_details":{"cached_tokens":0},"prompt_tokens":412,"completion_tokens":23}}"#;
        assert_eq!(
            answer(extra).unwrap(),
            ("ok".to_string(), Usage::new(Some(412), Some(23)))
        );
        // `"error": null` is no error.
        assert_eq!(
            text(r#"{"choices":[{"message":{"content":"ok"}}],"error":null}"#).unwrap(),
            "ok"
        );
    }
}
