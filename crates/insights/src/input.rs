//! The wire shapes the page sends about a visit (JSON, both targets: the
//! browser writes them, the server checks them): [`VisitInput`] when a visit
//! begins, [`ToolsInput`] for the tools it used since the last batch. Plain
//! strings and numbers, so that a bad one is refused naming its field
//! ([`FieldError`]) rather than failing the whole body.

use serde::{Deserialize, Serialize};

use super::{
    codes::{Device, Layout, Tool},
    event::{ToolUse, Visit},
    values::{FieldError, Minute, RoomCode, VisitId},
};
use lesson::lessons::Which;
use vocabulary::Lang;

/// A visit's first report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VisitInput {
    /// The visit's random id ([`VisitId`]).
    pub visit: String,
    /// `en`, `pt` or `zh` (a region is accepted: `pt-BR`).
    pub lang: String,
    /// `page` or `embed`.
    pub layout: String,
    /// The viewport's width in CSS pixels (only its class is kept).
    pub width: u32,
    /// `?room=CODE`, if the page had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room: Option<String>,
    /// The page's lesson, 1 (`/`, also when absent) or 2 (`/two`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lesson: Option<u32>,
}

impl VisitInput {
    /// The checked [`Visit`], begun at `now`.
    pub fn check(&self, now: Minute) -> Result<Visit, FieldError> {
        Ok(Visit {
            id: VisitId::parse(&self.visit)?,
            lesson: parse_lesson(self.lesson)?,
            lang: parse_lang(&self.lang)?,
            layout: Layout::parse(&self.layout)?,
            device: Device::from_width(self.width)?,
            room: RoomCode::parse_optional(self.room.as_deref())?,
            started: now,
        })
    }
}

/// Tools a visit used since its last report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolsInput {
    pub visit: String,
    /// Tool codes ([`Tool`]); repeats are allowed (each use counts).
    pub tools: Vec<String>,
}

impl ToolsInput {
    /// The most tools one report may carry.
    pub const MAX_TOOLS: usize = 64;

    /// The checked uses, each at `now`.
    pub fn check(&self, now: Minute) -> Result<Vec<ToolUse>, FieldError> {
        let visit = VisitId::parse(&self.visit)?;
        if self.tools.len() > Self::MAX_TOOLS {
            return Err(FieldError::new("tools", "must list at most 64 tools"));
        }
        self.tools
            .iter()
            .map(|code| {
                Ok(ToolUse {
                    visit: visit.clone(),
                    tool: Tool::parse(code)?,
                    at: now,
                })
            })
            .collect()
    }
}

/// A lesson by its number (absent: 1), named `lesson` when refused.
pub fn parse_lesson(number: Option<u32>) -> Result<Which, FieldError> {
    let Some(n) = number else {
        return Ok(Which::One);
    };
    u8::try_from(n)
        .ok()
        .and_then(Which::from_number)
        .ok_or_else(|| FieldError::new("lesson", "must be 1 or 2"))
}

/// A language the page speaks, named `lang` when refused.
pub fn parse_lang(tag: &str) -> Result<Lang, FieldError> {
    Lang::parse(tag).ok_or_else(|| FieldError::new("lang", "must be en, pt or zh"))
}
