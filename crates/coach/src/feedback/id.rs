//! A comment's id: what wrote it, signed by the server, opaque to everyone
//! else ([`CommentId`], [`Signer`]).
//!
//! The id is `base64url(payload ‖ mac)`, without padding. The payload, 21
//! bytes and the alias: a version (1), a random 64-bit number, the second it
//! was issued (Unix time), the language's and the tier's places in
//! `Lang::ALL` and `Tier::ALL`, a flag byte (bit 0: its votes train the
//! router; bits 1–3: the lesson's number less one, so that an id issued
//! before lessons were named reads as lesson 1), the alias's length and the
//! alias. The MAC is HMAC-SHA256 (RFC
//! 2104) under the server's key over a context string and the payload, cut
//! to its first 16 bytes (128 bits, as RFC 2104 §5 allows), and compared in
//! constant time. A client can read an id's fields (nothing in them is
//! secret or personal), but cannot make one that verifies.

use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
use hmac::{Hmac, Mac};
use sha2::Sha256;

use super::{key::FeedbackKey, VOTE_WINDOW};
use crate::response::Tier;
use lesson::lessons::Which;
use vocabulary::{FieldError, Lang};

/// What a comment's id names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommentId {
    /// The model's alias, or `offline` for the built-in coach.
    pub model: String,
    pub lang: Lang,
    pub tier: Tier,
    /// The lesson the comment was about.
    pub lesson: Which,
    /// When it was issued, in seconds since 1970 (UTC).
    pub issued_s: u64,
    /// Whether votes on it teach the router: not for a model the caller
    /// forced (`model=`), whose record no client may farm, nor for the
    /// built-in coach, which the router does not pick.
    pub trains: bool,
    /// Random: tells this comment from every other.
    pub nonce: u64,
}

impl CommentId {
    /// The nonce as the store keys a vote: 16 hex digits.
    pub fn key(&self) -> String {
        format!("{:016x}", self.nonce)
    }
}

const VERSION: u8 = 1;
const HEAD: usize = 21;
const MAC_LEN: usize = 16;
/// Longest alias an id names (the registry allows 40 bytes).
const MAX_MODEL: usize = 64;
/// Mixed into every MAC: a key used elsewhere signs nothing that passes here.
const CONTEXT: &[u8] = b"jay-trainer comment id v1\0";
/// An id issued this far in the future (another replica's clock) still verifies.
const SKEW_S: u64 = 60;

type HmacSha256 = Hmac<Sha256>;

/// Signs and verifies comment ids under one key.
#[derive(Clone)]
pub struct Signer {
    /// The MAC keyed and fed [`CONTEXT`] once; each id clones it.
    keyed: HmacSha256,
}

impl std::fmt::Debug for Signer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Signer { key: [redacted] }")
    }
}

impl Signer {
    pub fn new(key: FeedbackKey) -> Self {
        // HMAC takes a key of any length (RFC 2104 §2): this never fails.
        let mut keyed = HmacSha256::new_from_slice(key.bytes())
            .unwrap_or_else(|_| unreachable!("HMAC takes a key of any length"));
        keyed.update(CONTEXT);
        Self { keyed }
    }

    fn mac(&self) -> HmacSha256 {
        self.keyed.clone()
    }

    /// The id of `comment` (an alias longer than an id holds is cut at a
    /// character boundary; the registry never makes one).
    pub fn sign(&self, comment: &CommentId) -> String {
        let model = cut(&comment.model, MAX_MODEL);
        let mut bytes = Vec::with_capacity(HEAD + model.len() + MAC_LEN);
        bytes.push(VERSION);
        bytes.extend_from_slice(&comment.nonce.to_be_bytes());
        bytes.extend_from_slice(&comment.issued_s.to_be_bytes());
        bytes.push(comment.lang.index() as u8);
        bytes.push(comment.tier as u8);
        bytes.push(u8::from(comment.trains) | (comment.lesson.number() - 1) << 1);
        bytes.push(model.len() as u8);
        bytes.extend_from_slice(model.as_bytes());
        let mut mac = self.mac();
        mac.update(&bytes);
        bytes.extend_from_slice(&mac.finalize().into_bytes()[..MAC_LEN]);
        URL_SAFE_NO_PAD.encode(bytes)
    }

    /// What `id` names, if this server's key signed it and it was issued
    /// within [`VOTE_WINDOW`] of `now_s` (seconds since 1970); otherwise a
    /// refusal naming `id`.
    pub fn verify(&self, id: &str, now_s: u64) -> Result<CommentId, FieldError> {
        let refuse = || FieldError::new("id", "is not a comment id this server issued");
        // The longest id: the head, the longest alias, the MAC, in base64.
        if id.len() > (HEAD + MAX_MODEL + MAC_LEN).div_ceil(3) * 4 {
            return Err(refuse());
        }
        let bytes = URL_SAFE_NO_PAD.decode(id).map_err(|_| refuse())?;
        let Some(body_len) = bytes.len().checked_sub(MAC_LEN).filter(|&n| n >= HEAD) else {
            return Err(refuse());
        };
        let (body, tag) = bytes.split_at(body_len);
        let mut mac = self.mac();
        mac.update(body);
        mac.verify_truncated_left(tag).map_err(|_| refuse())?;
        let id = decode(body).ok_or_else(refuse)?;
        if id.issued_s > now_s.saturating_add(SKEW_S) {
            return Err(refuse());
        }
        if now_s.saturating_sub(id.issued_s) > VOTE_WINDOW.as_secs() {
            return Err(FieldError::new(
                "id",
                "is older than a day: votes are taken for a day",
            ));
        }
        Ok(id)
    }
}

/// `text`'s first `max` bytes at most, ending on a character boundary.
fn cut(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// The fields of a payload whose MAC verified.
fn decode(body: &[u8]) -> Option<CommentId> {
    let word = |at: usize| -> Option<u64> {
        Some(u64::from_be_bytes(body.get(at..at + 8)?.try_into().ok()?))
    };
    if body.first() != Some(&VERSION) {
        return None;
    }
    let model_len = usize::from(*body.get(20)?);
    let model = std::str::from_utf8(body.get(HEAD..HEAD + model_len)?).ok()?;
    if body.len() != HEAD + model_len {
        return None;
    }
    Some(CommentId {
        nonce: word(1)?,
        issued_s: word(9)?,
        lang: *Lang::ALL.get(usize::from(body[17]))?,
        tier: *Tier::ALL.get(usize::from(body[18]))?,
        trains: body[19] & 1 == 1,
        lesson: Which::from_number((body[19] >> 1 & 7) + 1)?,
        model: model.to_string(),
    })
}

#[cfg(test)]
mod tests;
