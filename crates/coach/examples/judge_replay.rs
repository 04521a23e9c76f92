//! Holds recorded model replies to this build's reply checks: one JSON line
//! in per reply (`lang`, `error`, `attempts`, `weight` and `bias` or null,
//! `lesson` and lesson 2's point `two` when recorded, `model`, `raw`: what
//! `.ci/modelbench` with `JAY_MODELBENCH_RECORD` keeps),
//! one JSON line out with its `verdict` (`served`, or the rejection as the
//! app's `tried` names it) and the `text` that would be shown. The same
//! replies through two builds' checks: `.ci/judge-replay`.
//!
//!     cargo run -q -p coach --example judge_replay < replies.jsonl

use std::io::{self, BufRead, Write};

use coach::{input::CoachInput, judge, prompt};
use lesson::neuron::Params;
use serde::Deserialize;
use vocabulary::Lang;

#[derive(Deserialize)]
struct Recorded {
    lang: Lang,
    error: f64,
    #[serde(default)]
    attempts: Vec<f64>,
    weight: Option<f64>,
    bias: Option<f64>,
    #[serde(default)]
    lesson: Option<u8>,
    #[serde(default)]
    two: Option<[f64; 3]>,
    #[serde(default)]
    model: Option<String>,
    raw: String,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for (n, line) in io::stdin().lock().lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let r: Recorded =
            serde_json::from_str(&line).map_err(|e| format!("line {}: {e}", n + 1))?;
        let params = r.weight.zip(r.bias).map(|(w, b)| Params::new(w, b));
        let input = if r.lesson == Some(2) {
            CoachInput::new_two(r.error, r.attempts.clone(), r.two, None, r.lang)
        } else {
            CoachInput::new(r.error, r.attempts.clone(), params, None, r.lang)
        }
        .map_err(|e| format!("line {}: {e}", n + 1))?;
        let (verdict, text) = match judge::check(&r.raw, &prompt::build(&input)) {
            Ok(text) => ("served".to_string(), Some(text)),
            Err(why) => (format!("rejected: {why}"), None),
        };
        let row = serde_json::json!({
            "lang": r.lang, "error": r.error, "with_point": params.is_some() || r.two.is_some(),
            "model": r.model, "raw": r.raw, "verdict": verdict, "text": text,
        });
        writeln!(out, "{row}")?;
    }
    Ok(())
}
