//! The fixed codes the page sends and the store keeps: [`Layout`],
//! [`Device`] (from the viewport's width) and [`Tool`]; and those of a vote
//! on a comment: the comment's [`Tier`] and the [`Verdict`]. Both targets; the
//! codes are the serde names, the stored text and what `/insights` shows.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::values::FieldError;

/// Generates an enum of fixed codes with `code`, `parse` (naming `$field`)
/// and serde in the same codes.
macro_rules! codes {
    ($(#[$doc:meta])* $name:ident, $field:literal, { $($(#[$vdoc:meta])* $variant:ident = $code:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum $name {
            $($(#[$vdoc])* #[serde(rename = $code)] $variant),+
        }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// Its code, as sent, stored and shown.
            #[inline]
            pub fn code(self) -> &'static str {
                match self {
                    $($name::$variant => $code),+
                }
            }

            #[inline]
            pub fn parse(s: &str) -> Result<Self, FieldError> {
                Self::ALL
                    .iter()
                    .copied()
                    .find(|v| v.code() == s)
                    .ok_or_else(|| {
                        let codes: Vec<&str> = Self::ALL.iter().map(|v| v.code()).collect();
                        FieldError::new($field, format!("must be one of {}", codes.join(", ")))
                    })
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.code())
            }
        }
    };
}

codes!(
    /// Where the page was shown: `/` or `/embed`.
    Layout, "layout", { Page = "page", Embed = "embed" }
);

codes!(
    /// A coarse device class, from the viewport's width only ([`Device::from_width`]).
    Device, "device", { Phone = "phone", Tablet = "tablet", Desktop = "desktop" }
);

codes!(
    /// A tool of the page a visitor used.
    Tool, "tool", {
        /// The gradient descent lab.
        DescentLab = "descent_lab",
        /// The error map (the landscape).
        Map = "map",
        /// The best-response buttons.
        BestResponse = "best_response",
        /// A nudge button beside a slider.
        Nudge = "nudge",
        /// A value typed into a box.
        TypedValue = "typed_value",
        /// The page opened from a shared link (`?w=&b=`).
        SharedLink = "shared_link",
        /// The page's language switcher.
        LanguageSwitch = "language_switch",
    }
);

impl Device {
    /// Widths below this are phones.
    pub const TABLET_FROM: u32 = 600;
    /// Widths from this are desktops.
    pub const DESKTOP_FROM: u32 = 1024;

    /// The class of a viewport `width` CSS pixels wide (1–100,000).
    #[inline]
    pub fn from_width(width: u32) -> Result<Self, FieldError> {
        match width {
            0 | 100_001.. => Err(FieldError::new(
                "width",
                "must be the viewport's width in CSS pixels, 1 to 100000",
            )),
            w if w < Self::TABLET_FROM => Ok(Device::Phone),
            w if w < Self::DESKTOP_FROM => Ok(Device::Tablet),
            _ => Ok(Device::Desktop),
        }
    }
}

codes!(
    /// How far from the goal the comment's attempt was (the coach's tiers).
    Tier, "tier", { Far = "far", Close = "close", Goal = "goal" }
);

codes!(
    /// What a visitor said of a comment: helpful (`up`) or not (`down`).
    Verdict, "vote", { Up = "up", Down = "down" }
);
