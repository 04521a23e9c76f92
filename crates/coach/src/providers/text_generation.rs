//! The classic text-generation API (`{inputs, parameters, options}` →
//! `[{generated_text}]`), where the caller formats the model's chat template
//! itself. The template is Jinja, as in a model's `tokenizer_config.json`, and
//! is rendered with minijinja over the same messages the chat API sends;
//! [`Template`] compiled it when the registry was loaded.
//! Wire shapes only, like `chat`.

use serde_json::{json, Value};

use super::{chat::messages, ProviderError};
use crate::{
    model::{ModelSpec, Template},
    prompt::{Prompt, END_MARKER},
};

/// The request body: the prompt's messages through the model's template
/// (compiled once, when the registry was loaded).
pub fn body(
    spec: &ModelSpec,
    template: &Template,
    prompt: &Prompt,
) -> Result<Value, ProviderError> {
    let inputs = template
        .render(&messages(prompt))
        .map_err(|_| ProviderError::BadBody("template failed".into()))?;
    Ok(json!({
        "inputs": inputs,
        "parameters": {
            "max_new_tokens": spec.max_new_tokens,
            "temperature": spec.temperature,
            "return_full_text": false,
            "stop": [END_MARKER],
        },
        "options": {"wait_for_model": false, "use_cache": false},
    }))
}

/// `[{"generated_text": …}]` or a bare `{"generated_text": …}`, from the answer `body`.
pub fn text(body: &str) -> Result<String, ProviderError> {
    let json: Value = serde_json::from_str(body).map_err(|_| super::not_json())?;
    if json.get("error").is_some_and(|e| !e.is_null()) {
        return Err(super::error_in_200());
    }
    let item = if json.is_array() {
        json.get(0)
    } else {
        Some(&json)
    };
    item.and_then(|i| i.get("generated_text"))
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| ProviderError::BadBody("no generated_text".into()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{input::CoachInput, prompt::build};
    use vocabulary::Lang;

    fn compile(source: &str) -> Result<Template, minijinja::Error> {
        Template::compile(source)
    }

    #[test]
    fn the_template_renders_every_message_in_order() {
        let prompt = build(&CoachInput {
            error: 812.0,
            attempts: vec![],
            params: None,
            lesson: lesson::lessons::Which::One,
            two: None,
            model: None,
            lang: Lang::En,
        });
        let template = "{% for m in messages %}<|{{ m.role }}|>{{ m.content }}<|end|>{% endfor %}<|assistant|>";
        let out = compile(template)
            .unwrap()
            .render(&messages(&prompt))
            .unwrap();
        assert!(out.starts_with("<|system|>"));
        assert!(out.ends_with(&format!("<|user|>{}<|end|><|assistant|>", prompt.user)));
        assert_eq!(
            out.matches("<|assistant|>").count(),
            prompt.examples.len() + 1
        );
    }

    #[test]
    fn a_misspelt_name_in_a_template_is_refused_at_load() {
        assert!(compile("{% for m in messages %}{{ m.content }}{% endfor %}").is_ok());
        assert!(compile("{% for m in messages %}{{ m.contnet }}{% endfor %}").is_err());
        assert!(compile("{{ mesages[0].content }}").is_err());
        // The names a chat template may use are all there.
        assert!(
            compile("{{ bos_token }}{% if add_generation_prompt %}{{ eos_token }}{% endif %}")
                .is_ok()
        );
    }

    #[test]
    fn both_response_shapes_are_read() {
        assert_eq!(text(r#"[{"generated_text": "hi"}]"#).unwrap(), "hi");
        assert_eq!(text(r#"{"generated_text": "hi"}"#).unwrap(), "hi");
        assert!(text("[]").is_err());
        assert!(text(r#"{"text": "hi"}"#).is_err());
        assert!(text(r#"{"generated_text": "hi", "error": "busy"}"#).is_err());
    }
}
