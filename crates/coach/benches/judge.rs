//! How long the reply checks take: [`judge::check`] of replies like the
//! ones small models write, each against the prompt its attempt makes.
//!
//! Each reply is checked 20,000 times in a row, five times over; the best
//! of the five (the least disturbed by the machine's other work) is printed
//! in microseconds a check. Then *cold*: 2,000 checks timed one by one, each
//! after 8 MB of other data went through the caches (as a server's other
//! work leaves them between two comments), their median. One
//! `judge_us NAME WARM cold COLD (verdict)` line a reply. A benchmark, not a
//! test: it asserts nothing.
//!
//! Run: `cargo bench -p coach --bench judge [-- NAME]`.

use std::{hint::black_box, time::Instant};

use coach::{input::CoachInput, judge, prompt};
use lesson::neuron::Params;
use vocabulary::Lang;

const ROUNDS: usize = 5;
const CHECKS: u32 = 20_000;
/// Checks timed one by one after the caches were filled with other data.
const COLD_CHECKS: usize = 2_000;
/// More than a core's L2 cache, and a good part of the L3.
const COLD_BYTES: usize = 8 << 20;

/// (name, language, reply) at the load benchmark's point: error 799.09 at
/// weight 0.1, bias 150, after 13,359.08 and 2,914.7.
const REPLIES: &[(&str, Lang, &str)] = &[
    ("load-bench", Lang::En, "Good step, keep going like this.|fim|"),
    ("en-8", Lang::En, "Nice drop! Now nudge the weight up a bit."),
    (
        "en-16",
        Lang::En,
        "Error 799.09 now, better than the last one. Raise the bias a little more and watch the red gaps shrink.",
    ),
    ("pt-8", Lang::Pt, "Boa queda! Agora aumente um pouco o peso."),
    ("zh", Lang::Zh, "误差降到了 799.09，继续把权重调大一点。"),
    ("nice", Lang::En, "Nice!"),
];

fn main() {
    // `cargo bench -p coach --bench judge -- NAME`: that reply only.
    let only: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let chosen = REPLIES
        .iter()
        .filter(|(name, ..)| only.as_deref().is_none_or(|o| o == *name));
    for &(name, lang, raw) in chosen {
        let input = CoachInput::new(
            799.09,
            vec![13_359.08, 2_914.7],
            Some(Params::new(0.1, 150.0)),
            None,
            lang,
        )
        .expect("the benchmark's input is valid");
        let prompt = prompt::build(&input);
        let verdict = match judge::check(raw, &prompt) {
            Ok(_) => "served".to_string(),
            Err(why) => format!("rejected: {why}"),
        };
        let best = (0..ROUNDS)
            .map(|_| {
                let start = Instant::now();
                for _ in 0..CHECKS {
                    let _ = black_box(judge::check(black_box(raw), &prompt));
                }
                start.elapsed().as_secs_f64() * 1e6 / f64::from(CHECKS)
            })
            .fold(f64::INFINITY, f64::min);
        // Cold: the caches filled with other data before each check, as a
        // server's other work leaves them between two comments.
        let mut junk = vec![0u8; COLD_BYTES];
        let mut cold: Vec<f64> = (0..COLD_CHECKS)
            .map(|i| {
                junk.iter_mut()
                    .step_by(64)
                    .for_each(|b| *b = b.wrapping_add(i as u8));
                black_box(&junk);
                let start = Instant::now();
                let _ = black_box(judge::check(black_box(raw), &prompt));
                start.elapsed().as_secs_f64() * 1e6
            })
            .collect();
        cold.sort_by(f64::total_cmp);
        let cold = cold[cold.len() / 2];
        println!("judge_us {name} {best:.2} cold {cold:.2} ({verdict})");
    }
}
