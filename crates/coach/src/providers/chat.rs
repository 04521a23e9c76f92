//! OpenAI-compatible chat completions (`POST {base}/chat/completions`): the
//! Hugging Face router today, and equally Ollama, llama.cpp's server, vLLM, TGI.
//!
//! Request and answer are typed: the body borrows the prompt's question and
//! sends the messages before it (the system text and the examples, written
//! once per language and tier by [`crate::prompt`]) as JSON escaped once per
//! choice ([`preamble`]), and the answer is read straight into the one field
//! used. Wire shapes only: the HTTP call, its secrets and its failures are
//! `http`'s.

mod preamble;

use serde::{de::IgnoredAny, ser::SerializeSeq, Deserialize, Serialize, Serializer};

use super::{ProviderError, Usage};
use crate::{
    model::ModelSpec,
    prompt::{Prompt, END_MARKER},
};

/// The request body: system, few-shot pairs, the question.
#[derive(Debug, Serialize)]
pub struct Body<'a> {
    model: &'a str,
    messages: Messages<'a>,
    max_tokens: u32,
    temperature: f32,
    stop: [&'a str; 1],
    stream: bool,
}

/// The messages: those before the question, as kept JSON, then the question.
#[derive(Debug)]
struct Messages<'a> {
    before: &'static preamble::Preamble,
    question: Message<'a>,
}

impl Serialize for Messages<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.before.len() + 1))?;
        for message in self.before {
            seq.serialize_element(message)?;
        }
        seq.serialize_element(&self.question)?;
        seq.end()
    }
}

/// One chat message.
#[derive(Debug, Serialize)]
pub struct Message<'a> {
    role: &'static str,
    content: &'a str,
}

pub fn body<'a>(spec: &'a ModelSpec, prompt: &'a Prompt) -> Result<Body<'a>, serde_json::Error> {
    Ok(Body {
        model: &spec.model,
        messages: Messages {
            before: preamble::of(prompt)?,
            question: question(prompt),
        },
        max_tokens: spec.max_new_tokens,
        temperature: spec.temperature,
        stop: [END_MARKER],
        stream: false,
    })
}

/// The prompt as chat messages (also what text-generation templates render).
pub fn messages(prompt: &Prompt) -> Vec<Message<'_>> {
    let mut messages = Vec::with_capacity(2 + 2 * prompt.examples.len());
    messages.extend(before_question(prompt));
    messages.push(question(prompt));
    messages
}

/// The system text, then each example's question and answer (`'static`
/// texts, as messages of any lifetime).
fn before_question<'a>(prompt: &Prompt) -> impl Iterator<Item = Message<'a>> {
    let (system, examples): (&'static str, &'static [(String, String)]) =
        (prompt.system, prompt.examples);
    let message = |role, content: &'a str| Message { role, content };
    std::iter::once(message("system", system)).chain(examples.iter().flat_map(
        move |(user, assistant)| [message("user", user), message("assistant", assistant)],
    ))
}

/// The visitor's question.
fn question(prompt: &Prompt) -> Message<'_> {
    Message {
        role: "user",
        content: &prompt.user,
    }
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
    use crate::{input::CoachInput, prompt::build_drawn, registry::Registry};
    use lesson::lessons::Which;
    use vocabulary::Lang;

    #[test]
    fn the_body_sends_every_message_in_order_as_plain_serialisation_would() {
        let registry = "[[models]]\nalias = \"m\"\nmodel = \"org/m\"\napi = \"chat\"\nbase_url = \"http://127.0.0.1:1/v1\"\n";
        let spec = Registry::parse_with_env(registry, |_| None)
            .unwrap()
            .models
            .remove(0);
        for lang in Lang::ALL {
            for lesson in Which::ALL {
                for error in [13_000.0, 600.0, 420.0] {
                    // Every choice of examples, each written twice (the
                    // second from what was kept).
                    for draw in (0..40).chain(0..40) {
                        let input = CoachInput {
                            error,
                            attempts: vec![900.0, error + 1.5],
                            params: None,
                            lesson,
                            two: None,
                            model: None,
                            lang,
                        };
                        let prompt = build_drawn(&input, draw);
                        let sent = serde_json::to_string(&body(&spec, &prompt).unwrap()).unwrap();
                        let sent: serde_json::Value = serde_json::from_str(&sent).unwrap();
                        let plain = serde_json::to_value(messages(&prompt)).unwrap();
                        assert_eq!(
                            sent["messages"], plain,
                            "{lang:?} {lesson:?} {error} {draw}"
                        );
                        assert_eq!(sent["model"], "org/m");
                        assert_eq!(sent["stop"][0], END_MARKER);
                    }
                }
            }
        }
    }

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
