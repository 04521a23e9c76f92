//! What the service's test modules share: request `i` of a test and the
//! client asking for it.

use crate::{
    budget::{ClientKey, UpstreamBudget, DEFAULT_CONCURRENCY},
    input::CoachInput,
};
use vocabulary::Lang;

/// A day no test of routing runs out of (the default day is a free
/// account's 50 calls).
pub fn roomy() -> UpstreamBudget {
    UpstreamBudget::new(DEFAULT_CONCURRENCY, 1_000_000)
}

/// Request `i` in `lang`: a close-tier error that differs per request.
pub fn input_in(i: usize, lang: Lang) -> CoachInput {
    CoachInput {
        error: 600.0 + i as f64,
        attempts: vec![900.0],
        params: None,
        lesson: lesson::lessons::Which::One,
        two: None,
        model: None,
        lang,
    }
}

/// Request `i` in English.
pub fn input(i: usize) -> CoachInput {
    input_in(i, Lang::En)
}

/// The client asking for request `i`: one of its own, so no share runs out.
pub fn visitor(i: usize) -> ClientKey {
    ClientKey::from(std::net::IpAddr::from((i as u128).to_be_bytes()))
}
