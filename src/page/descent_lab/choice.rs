//! The lab's two choices, as the `value`s of its radio buttons: where a run
//! starts, and its areas and rates ([`Preset`]). The server writes the buttons
//! ([`crate::page::descent_lab::markup`]); the browser reads a `change` event's
//! value back through [`Choice::of`], the one place both agree on the words.

use lesson::descent::{Rates, Scaling, Start};
use lesson::neuron::Params;

/// The lab's areas and rates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    /// Raw areas, one rate for both on the slider (2e-7 to begin with).
    Raw,
    /// Standardised areas, one rate for both (0.1 to begin with).
    Standardised,
    /// Raw areas with Jay's two rates ([`Rates::JAY`]); the slider has no say.
    Jays,
}

impl Preset {
    pub const ALL: [Self; 3] = [Self::Raw, Self::Standardised, Self::Jays];

    /// The radio button's value.
    #[must_use]
    pub fn value(self) -> &'static str {
        match self {
            Self::Raw => "raw",
            Self::Standardised => "standardise",
            Self::Jays => "jay-rates",
        }
    }

    /// What a run under this preset starts with.
    #[must_use]
    pub fn settings(self) -> (Scaling, Rates) {
        match self {
            Self::Raw | Self::Standardised => {
                let scaling = if self == Self::Raw {
                    Scaling::Raw
                } else {
                    Scaling::Standardised
                };
                (scaling, Rates::one(scaling.default_rate()))
            }
            Self::Jays => (Scaling::Raw, Rates::JAY),
        }
    }

    /// The preset a run's settings belong to (one rate on raw areas is
    /// [`Preset::Raw`] whatever its value).
    #[must_use]
    pub fn of(scaling: Scaling, rates: Rates) -> Self {
        match (scaling, rates.single()) {
            (Scaling::Standardised, _) => Self::Standardised,
            (Scaling::Raw, Some(_)) => Self::Raw,
            (Scaling::Raw, None) => Self::Jays,
        }
    }
}

/// The radio button's value for a start.
#[must_use]
pub fn start_value(start: Start) -> &'static str {
    match start {
        Start::Origin => "origin",
        Start::Jays => "jays",
        Start::Model(_) => "model",
    }
}

/// What a radio button chose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Choice {
    Start(Start),
    Preset(Preset),
}

impl Choice {
    /// The choice a radio button's `value` makes; the model's point is read
    /// now (`model`). Anything else (the rate slider's change) is `None`.
    #[must_use]
    pub fn of(value: &str, model: Params) -> Option<Self> {
        let start = [Start::Origin, Start::Jays, Start::Model(model)]
            .into_iter()
            .find(|&s| start_value(s) == value);
        start.map(Self::Start).or_else(|| {
            Preset::ALL
                .into_iter()
                .find(|p| p.value() == value)
                .map(Self::Preset)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lesson::descent::{Convention, LEARNING_RATES};

    #[test]
    fn every_value_reads_back_as_its_choice_and_nothing_else_does() {
        let model = Params::new(0.05, 260.0);
        for preset in Preset::ALL {
            assert_eq!(
                Choice::of(preset.value(), model),
                Some(Choice::Preset(preset))
            );
            let (scaling, rates) = preset.settings();
            assert_eq!(Preset::of(scaling, rates), preset);
        }
        for start in [Start::Origin, Start::Jays, Start::Model(model)] {
            assert_eq!(
                Choice::of(start_value(start), model),
                Some(Choice::Start(start))
            );
        }
        // The rate slider's change event bubbles to the same handler.
        assert_eq!(Choice::of("21", model), None);
        assert_eq!(Choice::of("", model), None);
    }

    #[test]
    fn the_presets_are_todays_two_single_rates_and_jays_pair() {
        assert_eq!(Preset::Raw.settings(), (Scaling::Raw, Rates::one(2e-7)));
        assert_eq!(
            Preset::Standardised.settings(),
            (Scaling::Standardised, Rates::one(0.1))
        );
        let (scaling, rates) = Preset::Jays.settings();
        assert_eq!(
            (scaling, rates.convention),
            (Scaling::Raw, Convention::HalfMse)
        );
        assert_eq!((rates.weight, rates.bias), (1e-8, 1.0));
        // The slider's rates on raw areas stay the raw preset.
        for rate in LEARNING_RATES {
            assert_eq!(Preset::of(Scaling::Raw, Rates::one(rate)), Preset::Raw);
        }
    }
}
