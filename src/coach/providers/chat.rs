//! OpenAI-compatible chat completions (`POST {base}/chat/completions`): the
//! Hugging Face router today, and equally Ollama, llama.cpp's server, vLLM, TGI.

use serde_json::{json, Value};

use super::ProviderError;
use crate::coach::{
    prompt::{Prompt, END_MARKER},
    registry::ModelSpec,
};

/// The request body: system, few-shot pairs, the question.
pub fn body(spec: &ModelSpec, prompt: &Prompt) -> Value {
    json!({
        "model": spec.model,
        "messages": messages(prompt),
        "max_tokens": spec.max_new_tokens,
        "temperature": spec.temperature,
        "stop": [END_MARKER],
        "stream": false,
    })
}

/// The prompt as chat messages (also what text-generation templates render).
pub fn messages(prompt: &Prompt) -> Vec<Value> {
    let mut messages = vec![json!({"role": "system", "content": prompt.system})];
    for (user, assistant) in &prompt.examples {
        messages.push(json!({"role": "user", "content": user}));
        messages.push(json!({"role": "assistant", "content": assistant}));
    }
    messages.push(json!({"role": "user", "content": prompt.user}));
    messages
}

/// `choices[0].message.content`; anything else is a bad body.
pub fn text(json: &Value) -> Result<String, ProviderError> {
    json.pointer("/choices/0/message/content")
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| ProviderError::BadBody("no choices[0].message.content".into()))
}
