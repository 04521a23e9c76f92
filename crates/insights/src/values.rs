//! The checked values the insights are made of: ids and codes with a fixed
//! alphabet and length ([`VisitId`], [`RoomCode`], [`ModelName`], [`Reason`]),
//! whole [`Minute`]s; a refused one is a [`FieldError`] naming its field.
//! The texts are kept inline up to 24 bytes (`compact_str`): an event's
//! visit id, model and reason cost no allocation of their own, from the
//! request that makes it to the writer that drops it. Both targets; a leaf.

use compact_str::CompactString;
use serde::{Deserialize, Serialize};
pub use vocabulary::FieldError;

/// Whether `s` has `min..=max` bytes, all in `allowed`.
fn shaped(s: &str, min: usize, max: usize, allowed: impl Fn(u8) -> bool) -> bool {
    (min..=max).contains(&s.len()) && s.bytes().all(allowed)
}

/// A visit's id: random, made in the browser on every page load (no cookie,
/// no storage), 16–32 characters of `A-Z a-z 0-9 _ -` (e.g. 128 random bits
/// in base64url are 22).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VisitId(CompactString);

impl VisitId {
    pub const MIN_LEN: usize = 16;
    pub const MAX_LEN: usize = 32;

    pub fn parse(s: &str) -> Result<Self, FieldError> {
        let ok = shaped(s, Self::MIN_LEN, Self::MAX_LEN, |b| {
            b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
        });
        if ok {
            Ok(Self(CompactString::new(s)))
        } else {
            Err(FieldError::new(
                "visit",
                "must be 16–32 characters of A-Z, a-z, 0-9, _ and -",
            ))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A class room's code (`?room=CODE`): 1–24 characters of `A-Z a-z 0-9 -`,
/// kept in lower case (`Class-7B` and `class-7b` are one room).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RoomCode(CompactString);

impl RoomCode {
    pub const MAX_LEN: usize = 24;

    pub fn parse(s: &str) -> Result<Self, FieldError> {
        let s = s.trim();
        if shaped(s, 1, Self::MAX_LEN, |b| {
            b.is_ascii_alphanumeric() || b == b'-'
        }) {
            let mut code = CompactString::new(s);
            code.make_ascii_lowercase();
            Ok(Self(code))
        } else {
            Err(FieldError::new(
                "room",
                "must be 1–24 characters of A-Z, a-z, 0-9 and -",
            ))
        }
    }

    /// A room from a query parameter that may be absent or blank.
    pub fn parse_optional(s: Option<&str>) -> Result<Option<Self>, FieldError> {
        match s.map(str::trim) {
            None | Some("") => Ok(None),
            Some(code) => Self::parse(code).map(Some),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The name of the model that wrote a comment: a registry alias (1–40 of
/// `A-Z a-z 0-9 - _ .`, as `coach::registry` checks them) or `offline`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ModelName(CompactString);

impl ModelName {
    pub fn parse(s: &str) -> Result<Self, FieldError> {
        let ok = shaped(s, 1, 40, |b| {
            b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.'
        });
        if ok {
            Ok(Self(CompactString::new(s)))
        } else {
            Err(FieldError::new(
                "model",
                "must be 1–40 characters of A-Z, a-z, 0-9, -, _ and .",
            ))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A comment's random number, as its id names it (`coach::feedback`): 16
/// lowercase hex digits. Tells comments apart, and no more: it says nothing
/// of who read it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CommentKey(CompactString);

impl CommentKey {
    pub fn parse(s: &str) -> Result<Self, FieldError> {
        if shaped(s, 16, 16, |b| {
            b.is_ascii_digit() || (b'a'..=b'f').contains(&b)
        }) {
            Ok(Self(CompactString::new(s)))
        } else {
            Err(FieldError::new("id", "must be a comment's 16 hex digits"))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Why a model's comment was refused: one of the server's own short reasons
/// (`too long`, `wrong language`, …), 1–40 of `a-z 0-9`, space, `_ - : .`.
/// Never a visitor's words.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reason(CompactString);

impl Reason {
    pub fn parse(s: &str) -> Result<Self, FieldError> {
        let ok = shaped(s, 1, 40, |b| {
            b.is_ascii_lowercase() || b.is_ascii_digit() || b" _-:.".contains(&b)
        });
        if ok {
            Ok(Self(CompactString::new(s)))
        } else {
            Err(FieldError::new(
                "reason",
                "must be 1–40 characters of a-z, 0-9, space, _, -, : and .",
            ))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A time, in whole minutes since 1970-01-01 UTC: the only clock the
/// insights keep (a finer one could be matched against a server's access log).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Minute(pub i64);

impl Minute {
    pub const PER_DAY: i64 = 24 * 60;

    /// The minute `secs` seconds after the epoch falls in.
    pub fn from_unix_seconds(secs: i64) -> Self {
        Self(secs.div_euclid(60))
    }

    /// The current minute (server only: the browser never sends a time).
    #[cfg(feature = "ssr")]
    pub fn now() -> Self {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
        Self::from_unix_seconds(secs)
    }

    /// `days` whole days earlier.
    pub fn days_before(self, days: u32) -> Self {
        Self(self.0 - i64::from(days) * Self::PER_DAY)
    }

    /// The UTC day this minute falls in (days since 1970-01-01).
    pub fn day(self) -> i64 {
        self.0.div_euclid(Self::PER_DAY)
    }
}
