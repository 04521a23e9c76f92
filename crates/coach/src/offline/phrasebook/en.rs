//! The offline commentator's openers in English, by situation (see
//! [`super`] for the rules every phrase keeps and the `{…}` it may use).

#[cfg(test)]
use super::Keys;
use super::{Phrasebook, Row};

pub static PHRASES: Phrasebook = Phrasebook {
    first: Row {
        far: &[
            "{error} on the first try. That line is pricing houses on another planet.",
            "An opening error of {error}. The houses can't even see your line yet.",
            "First attempt, error {error}. The neuron is guessing prices for castles.",
            "{error} to start with. Plenty of room to come down from there.",
            "Attempt {attempt}: {error}. Somewhere, a house is laughing at that line.",
        ],
        middle: &[
            "First attempt: {error}, with {to_go} to go.",
            "A first try at {error}. The line and the houses have met, at least.",
            "Opening at {error}. The red gaps show where the line misses.",
            "{error} on the first attempt. Now the real tuning starts.",
            "Attempt {attempt}: {error}. The houses are in sight, not yet in reach.",
        ],
        close: &[
            "Close on the very first try: {error}, only {to_go} to go.",
            "{error} straight away: almost there, {to_go} to go.",
            "First attempt and already close: {error}.",
            "Nearly there on your first attempt: {error}.",
            "Sharp aim! {error} at once, only {to_go} left.",
        ],
        goal: &[
            "Below {goal} on the first try: {error}! Goal reached in {attempts}.",
            "Goal reached in {attempts}. Beginner's luck or pure skill?",
            "{error} straight away! The best any line can do is {min}.",
            "First try, {error}: you trained a neuron in one move.",
            "Straight to the goal with {error}. Can you reach {min}?",
        ],
    },
    new_best: Row {
        far: &[
            "Down to {error}, your lowest yet. The houses still need binoculars.",
            "{error}: the best so far, though the line is still shopping for castles.",
            "Heading the right way: {error}. The houses are still a long way off.",
            "A new low at {error}, with {to_go} still to go.",
            "Lowest error yet, {error}. The line is leaving outer space.",
            "Attempt {attempt} is your best: {error}. A long way still, but moving.",
        ],
        middle: &[
            "Better! {error} is your best so far.",
            "Nice move: down to {error}, a new best.",
            "New best at {error}. {to_go} to go.",
            "Attempt {attempt}, {error}: the lowest yet. The red gaps are shrinking.",
            "That helped: {error}, your best so far.",
            "Good step: {error}, the best of your attempts.",
        ],
        close: &[
            "So close! {error}, only {to_go} to go.",
            "New best, {error}: almost there.",
            "Nearly there: {error} is your best, {to_go} to go.",
            "{error}! The line is almost hugging the houses now.",
            "Getting warm: {error}, your best so far.",
            "Best yet at {error}. Fine-tuning time: {to_go} left.",
        ],
        goal: &[
            "Below {goal} with {error}! You trained a neuron by hand.",
            "{error}! No line can do better than {min}. Superb.",
            "Goal reached in {attempts}. Gradient descent would be proud.",
            "{error}: that line fits like a glove.",
            "You did it! Can you get all the way down to {min}?",
            "Neuron trained! {error} is your best yet.",
        ],
    },
    better: Row {
        far: &[
            "Back down to {error}, but your best is still {best}.",
            "{error}: lower than the last one, not yet lower than {best}.",
            "Recovering: {error}. Your best so far was {best}.",
            "Down again, to {error}. The houses remember {best}.",
        ],
        middle: &[
            "Better than the last one: {error}. Your best is {best}.",
            "{error}, an improvement. Can you beat your {best}?",
            "That's better, {error}, though {best} is still your record.",
            "Back on track at {error}. Best so far: {best}.",
            "Nice recovery: {error}. {best} is the one to beat.",
        ],
        close: &[
            "Better: {error}, only {to_go} to go. Your best is {best}.",
            "Close again at {error}. Your record: {best}.",
            "Almost back to your best, {best}: now {error}.",
            "Nearly there again: {error}, {to_go} to go.",
        ],
        goal: &[
            "Below {goal} again with {error}. Your best is {best}.",
            "Back under {goal}: {error}. Can you match your {best}?",
            "{error}, the goal again. Your record stands at {best}.",
            "Goal reached again: {error}. The floor is {min}.",
        ],
    },
    worse: Row {
        far: &[
            "{error}: worse than the last one. The houses are moving out of town.",
            "Oops, up to {error}. Your best is still {best}.",
            "That one went the wrong way: {error}.",
            "The error grew to {error}. The line is drifting off to the Moon.",
            "Back up to {error}. {best} was lower.",
            "Worse, at {error}. Your best so far is {best}.",
        ],
        middle: &[
            "Worse than the last one: {error}. Your best is still {best}.",
            "That move cost you: the error rose to {error}.",
            "Up to {error} this time. Your record is {best}.",
            "The error went up, to {error}. {best} is still your best.",
            "Wrong way: {error}, up from the last attempt.",
            "Hmm, {error}. That was worse; your best stays at {best}.",
        ],
        close: &[
            "{error}: slipped a little. Your best is {best}.",
            "A little worse: {error}, {to_go} to go.",
            "Up to {error}. Your best, {best}, showed the way.",
            "Slipped back to {error}, {to_go} to go.",
            "That nudge went the wrong way: {error}.",
        ],
        goal: &[
            "Still below {goal} at {error}, but {best} was lower.",
            "{error}: still under {goal}, a little above your best, {best}.",
            "The goal holds, though {error} is up from the last one.",
            "Still a pass at {error}. Your best remains {best}.",
        ],
    },
    stuck: Row {
        far: &[
            "{error} again. The line is taking a nap.",
            "About the same: {error}. The houses are still waiting.",
            "Still {error}, give or take. Nothing much changed.",
            "Hardly a change: {error}. The line is stuck in orbit.",
        ],
        middle: &[
            "About the same as the last one: {error}.",
            "Still around {error}. The line barely moved.",
            "{error} again, more or less. Best so far: {best}.",
            "No real change: {error}.",
            "Holding at {error}. Your best is {best}.",
        ],
        close: &[
            "Still {error}: only {to_go} to go.",
            "About the same, {error}. Just {to_go} left.",
            "Holding close, at {error}.",
            "{error} again, a mere {to_go} short.",
        ],
        goal: &[
            "Still below {goal}: {error}. The floor is {min}.",
            "Steady at {error}. Can you shave it down to {min}?",
            "{error} again: the goal holds.",
            "Holding below {goal} at {error}. The best possible is {min}.",
        ],
    },
    attempts_one: "{n} attempt",
    attempts_many: "{n} attempts",
    #[cfg(test)]
    keys: Keys {
        praise: &[
            "nice",
            "better",
            "great",
            "good",
            "superb",
            "bravo",
            "well done",
            "excellent",
            "perfect",
            "brilliant",
            "impressive",
            "sharp",
            "proud",
            "helped",
        ],
        closeness: &[
            "close", "almost", "nearly", "near", "warm", "fine-tun", "hugging", "only", "just",
            "mere",
        ],
        goal_claims: &[
            "goal", "450", "{goal}", "did it", "made it", "trained", "reached", "pass", "glove",
        ],
    },
};
