//! Rooms and seats: only a created room takes visits, up to its size; a
//! seat is held while its visit is active and freed when it leaves or
//! pauses; the live view's visits are the most recently active; a room's
//! minutes are its visits' hour plus the minutes since each began. Time is
//! tokio's paused clock once the rooms are made (the store is not touched
//! after that).

use std::{sync::Arc, time::Duration};

use super::*;
use crate::tests::TestDb;

fn visit(n: usize) -> VisitId {
    VisitId::parse(&format!("learner-{n:04}-aaaaaaaaaaaa")).expect("an id")
}

async fn rooms(db: &TestDb) -> Rooms {
    let store = Store::connect(&db.url).await.expect("the store");
    Rooms::new(Some(Arc::new(store)))
}

#[tokio::test]
async fn only_a_created_room_seats_visits_and_never_more_than_its_size() {
    let db = TestDb::sqlite().await;
    let rooms = rooms(&db).await;
    let made = rooms.create(3).await.expect("a room");
    let code = made.as_str();
    assert_eq!(code.len(), 9, "{code}");
    assert!(
        code.bytes().all(|b| b == b'-' || ALPHABET.contains(&b)),
        "{code}"
    );
    let guessed = RoomCode::parse("class-7b").expect("a code");
    assert_eq!(
        rooms.join(&visit(0), &guessed).await.expect("join"),
        Joined::Unknown
    );
    assert!(!rooms.known(&guessed) && rooms.known(&made));

    tokio::time::pause();
    let hour = Minute(Minute::now().0.div_euclid(60) * 60);
    for n in 1..=3 {
        assert_eq!(
            rooms.join(&visit(n), &made).await.expect("join"),
            Joined::Seated(hour),
            "learner {n}: their start kept to the hour"
        );
    }
    assert_eq!(
        rooms.join(&visit(4), &made).await.expect("join"),
        Joined::Full
    );
    assert_eq!(
        rooms.join(&visit(2), &made).await.expect("again"),
        Joined::Seated(hour),
        "a start sent twice keeps its seat"
    );
    assert_eq!(rooms.touch(&visit(4)), None, "not in the room");

    // One leaves: the next one is seated.
    rooms.leave(&visit(2));
    assert_eq!(rooms.current(&made).1, 2);
    assert_eq!(
        rooms.join(&visit(5), &made).await.expect("join"),
        Joined::Seated(hour)
    );
    assert_eq!(
        rooms.join(&visit(6), &made).await.expect("join"),
        Joined::Full
    );
    db.finish().await;
}

#[tokio::test]
async fn seats_go_with_a_pause_and_the_view_shows_the_latest_active() {
    let db = TestDb::sqlite().await;
    let rooms = rooms(&db).await;
    let room = rooms.create(2).await.expect("a room");
    tokio::time::pause();
    rooms.join(&visit(1), &room).await.expect("join");
    tokio::time::advance(Duration::from_secs(60)).await;
    rooms.join(&visit(2), &room).await.expect("join");
    let (shown, all) = rooms.current(&room);
    assert_eq!((shown, all), (vec![visit(2), visit(1)], 2));
    // The first acts again: it is the latest.
    tokio::time::advance(Duration::from_secs(125)).await;
    let one = rooms.touch(&visit(1)).expect("in the room");
    assert!(one.seated);
    assert_eq!(
        one.at.0
            - rooms
                .join(&visit(1), &room)
                .await
                .map(|j| match j {
                    Joined::Seated(start) => start.0,
                    other => panic!("{other:?}"),
                })
                .expect("start"),
        3,
        "three whole minutes after it began"
    );
    assert_eq!(rooms.current(&room).0, vec![visit(1), visit(2)]);

    // The second pauses past CURRENT: its seat goes to a newcomer, and when
    // it comes back the room is full, so it has no seat (yet still dated as
    // the room keeps time).
    tokio::time::advance(CURRENT - Duration::from_secs(60)).await;
    rooms.touch(&visit(1));
    tokio::time::advance(Duration::from_secs(120)).await;
    assert_eq!(rooms.current(&room).0, vec![visit(1)]);
    assert!(matches!(
        rooms.join(&visit(3), &room).await.expect("join"),
        Joined::Seated(_)
    ));
    let back = rooms.touch(&visit(2)).expect("still a room's visit");
    assert!(!back.seated);
    assert_eq!(rooms.current(&room).1, 2);
    db.finish().await;
}

#[tokio::test]
async fn joining_and_leaving_over_and_over_seats_at_most_three_times_the_size_an_hour() {
    let db = TestDb::sqlite().await;
    let rooms = rooms(&db).await;
    let room = rooms.create(2).await.expect("a room");
    tokio::time::pause();
    let mut seated = 0;
    for n in 0..50 {
        if matches!(
            rooms.join(&visit(n), &room).await.expect("join"),
            Joined::Seated(_)
        ) {
            seated += 1;
        }
        rooms.leave(&visit(n));
    }
    assert_eq!(seated, 6, "2 seats × 3 an hour");
    tokio::time::advance(HOUR).await;
    assert!(matches!(
        rooms.join(&visit(99), &room).await.expect("join"),
        Joined::Seated(_)
    ));
    db.finish().await;
}

#[tokio::test]
async fn with_recording_off_there_are_no_rooms() {
    let rooms = Rooms::new(None);
    assert!(matches!(rooms.create(40).await, Err(CreateError::Off)));
    let code = new_code();
    assert_eq!(
        rooms.join(&visit(1), &code).await.expect("join"),
        Joined::Unknown
    );
    // Codes differ, and each parses as a room code.
    assert_ne!(new_code(), new_code());
}
