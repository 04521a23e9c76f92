//! Ids that verify, and every way one does not.

use super::*;

fn signer() -> Signer {
    Signer::new(FeedbackKey::from_base64(&"a".repeat(44)).expect("a key"))
}

fn comment() -> CommentId {
    CommentId {
        model: "qwen".into(),
        lang: Lang::Pt,
        tier: Tier::Close,
        lesson: Which::One,
        issued_s: 1_800_000_000,
        trains: true,
        nonce: 0x0123_4567_89ab_cdef,
    }
}

#[test]
fn an_id_names_what_wrote_the_comment_and_verifies() {
    let s = signer();
    let id = s.sign(&comment());
    assert!(id.len() < 64, "{id}");
    assert!(id
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
    assert_eq!(s.verify(&id, 1_800_000_100), Ok(comment()));
    let offline = CommentId {
        model: "offline".into(),
        lang: Lang::Zh,
        tier: Tier::Goal,
        lesson: Which::Two,
        trains: false,
        ..comment()
    };
    assert_eq!(s.verify(&s.sign(&offline), 1_800_000_000), Ok(offline));
    let two_trains = CommentId {
        lesson: Which::Two,
        ..comment()
    };
    assert_eq!(
        s.verify(&s.sign(&two_trains), 1_800_000_000),
        Ok(two_trains)
    );
    assert_eq!(comment().key(), "0123456789abcdef");
}

#[test]
fn a_forged_changed_or_foreign_id_is_refused_naming_id() {
    let s = signer();
    let id = s.sign(&comment());
    let now = 1_800_000_100;
    let other = Signer::new(FeedbackKey::random());
    let mut bytes = URL_SAFE_NO_PAD.decode(&id).expect("base64");
    bytes[19] ^= 1; // its flag flipped: votes on a forced model would train
    let flipped = URL_SAFE_NO_PAD.encode(&bytes);
    for bad in [
        String::new(),
        "x".into(),
        "not base64 !".into(),
        other.sign(&comment()),
        flipped,
        id[..id.len() - 2].to_string(),
        format!("{id}AA"),
        "A".repeat(10_000),
    ] {
        let refused = s.verify(&bad, now).expect_err(&bad);
        assert_eq!(refused.field, "id", "{bad}");
    }
}

#[test]
fn an_id_is_good_for_a_day() {
    let s = signer();
    let id = s.sign(&comment());
    let issued = comment().issued_s;
    let day = VOTE_WINDOW.as_secs();
    assert!(s.verify(&id, issued + day).is_ok());
    let late = s
        .verify(&id, issued + day + 1)
        .expect_err("a day and a second");
    assert!(late.message.contains("older than a day"), "{late:?}");
    assert!(
        s.verify(&id, issued - SKEW_S).is_ok(),
        "another replica's clock"
    );
    assert!(
        s.verify(&id, issued - SKEW_S - 1).is_err(),
        "from the future"
    );
}

#[test]
fn a_long_alias_is_cut_on_a_character_boundary() {
    let s = signer();
    let long = CommentId {
        model: "é".repeat(40),
        ..comment()
    };
    let back = s
        .verify(&s.sign(&long), comment().issued_s)
        .expect("verifies");
    assert_eq!(back.model, "é".repeat(32));
}
