//! The availability checks' HTTP calls (what they find is read by
//! `coach::availability`): the model's info, else its server's list, with
//! the same key the model's calls carry and nowhere else; and its Hub
//! model card, with no key at all (a card is public, gated models' too).
//! Bounded like the calls: [`CHECK_TIMEOUT`], [`CHECK_BODY`], no redirect.

use std::time::Duration;

use url::Url;

use super::{read_capped, HttpProvider, BILL_TO_HEADER};
use crate::{
    availability,
    availability::Check,
    model::{Api, ModelSpec},
};

/// Longest a check's request may take.
pub const CHECK_TIMEOUT: Duration = Duration::from_secs(5);

/// Most of a check's answer that is read (a server's list of a few hundred
/// models fits; the router's one model is a few KiB).
pub const CHECK_BODY: usize = 1024 * 1024;

/// Where model cards are read, and of which models.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hub {
    /// The Hub's root (`https://huggingface.co`, or `JAY_HF_HUB_URL`).
    pub url: Url,
    /// Read for every `owner/name` model without `languages`, wherever it is
    /// served (set when `JAY_HF_HUB_URL` names a Hub); otherwise only for
    /// models on Hugging Face hosts.
    pub everywhere: bool,
}

/// The Hub's root.
const HUB: &str = "https://huggingface.co";

impl Default for Hub {
    fn default() -> Self {
        Self {
            url: Url::parse(HUB).unwrap_or_else(|_| unreachable!("a constant URL")),
            everywhere: false,
        }
    }
}

impl Hub {
    /// Whether `spec`'s card is read: no `languages` key, an `owner/name`
    /// id, and served where cards apply.
    fn reads_card_of(&self, spec: &ModelSpec) -> bool {
        let (id, _) = spec.checked_id();
        !spec.languages_given
            && id.split('/').count() == 2
            && (self.everywhere || spec.is_hugging_face())
    }
}

/// `base` with `segments` appended, each percent-encoded as needed (a model
/// id's `/` separates segments, as the router's paths want).
fn joined<'a>(base: &str, segments: impl IntoIterator<Item = &'a str>) -> Option<Url> {
    let mut url = Url::parse(base.trim_end_matches('/')).ok()?;
    url.path_segments_mut()
        .ok()?
        .pop_if_empty()
        .extend(segments);
    Some(url)
}

impl HttpProvider {
    /// Checks one chat model (see `coach::availability`).
    pub(super) async fn check_model(&self, spec: &ModelSpec) -> Check {
        if !matches!(spec.api, Api::Chat) {
            return Check::unknown("only chat models are checked");
        }
        let Ok(key) = self.key_for(spec) else {
            return Check::unknown("no key: never called");
        };
        let (id, pinned) = spec.checked_id();
        let base = &spec.base_url;
        let info = joined(base, ["models"].into_iter().chain(id.split('/')));
        let decided = self
            .get(info, key, spec)
            .await
            .and_then(|(status, body)| availability::model_info(status, &body, pinned));
        let availability = match decided {
            Some(found) => found,
            None => {
                // No answer at all reads as status 0: the model stays callable.
                let list = self.get(joined(base, ["models"]), key, spec).await;
                let (status, body) = list.unwrap_or_default();
                availability::model_list(status, &body, id, pinned)
            }
        };
        let card = if self.hub.reads_card_of(spec) {
            let card = joined(
                self.hub.url.as_str(),
                ["api", "models"].into_iter().chain(id.split('/')),
            );
            self.get(card, None, spec)
                .await
                .and_then(|(status, body)| availability::card_languages(status, &body))
        } else {
            None
        };
        Check { availability, card }
    }

    /// One GET: its status and (capped) body, or `None` when there was no
    /// answer (no usable URL, refused, timed out). `key` goes with it as the
    /// model's calls carry it; so does `X-HF-Bill-To`, to Hugging Face hosts
    /// only.
    async fn get(
        &self,
        url: Option<Url>,
        key: Option<&str>,
        spec: &ModelSpec,
    ) -> Option<(u16, String)> {
        let url = url?;
        let same_host = url.host_str() == spec.endpoint().host_str();
        let mut request = self.client.get(url).timeout(CHECK_TIMEOUT);
        if let Some(key) = key {
            request = request.bearer_auth(key);
        }
        if let Some(org) = self.bill_to_for(spec).filter(|_| same_host) {
            request = request.header(BILL_TO_HEADER, org);
        }
        let response = request.send().await.ok()?;
        let status = response.status().as_u16();
        let (body, _) = read_capped(response, CHECK_BODY).await.ok()?;
        Some((status, String::from_utf8_lossy(&body).into_owned()))
    }
}
