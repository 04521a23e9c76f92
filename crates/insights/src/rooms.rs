//! Class rooms (server only): a teacher creates one ([`Rooms::create`], a
//! random [`new_code`] and a size), hands out `/?room=CODE`, and projects its
//! live view. A visit that names a room joins it ([`Rooms::join`]) only when
//! the room was created and has a free seat; otherwise it is recorded
//! without a room, so nobody can put made-up visitors on a class's screen by
//! guessing or reading a code, and a room can never show more than its size.
//!
//! A seat is a visit's while it is current: active in the last [`CURRENT`]
//! (a visit begun, an attempt, a tool) and not left (the page's last beacon
//! says so). A room seats at most [`JOINS_PER_SEAT`] times its size of new
//! visits an hour, so a free seat cannot be taken and given back without end. Seats live in this process's memory, as does what the live view
//! shows ([`Rooms::current`]): the room's current visits, the most recently
//! active first. A seated visit has comment and beacon allowances of its own
//! (`server::limits` keys them by visit), so a class behind one school
//! address is not limited as one client; at most a room's size of them at
//! once.
//!
//! What a room stores is coarsened: its visits' start is kept to the hour
//! (rounded down), and their attempts' and tools' minutes as that hour plus
//! the minutes since the visit began ([`Seat::at`]), so durations stay true
//! while no stored minute can be lined up with a proxy's log of who opened
//! `/?room=CODE` when. (An attempt of a room's visit this process has
//! forgotten, after a restart, is kept to the hour too: the store's rule.)
//!
//! Several replicas each keep their own seats: a room's live view then shows
//! the learners of the replica that serves it.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, MutexGuard, PoisonError},
    time::Duration,
};

use rand::Rng;
use tokio::time::Instant;

use super::{
    sink::StoreError,
    store::Store,
    values::{Minute, RoomCode, VisitId},
};

/// How recently a visit must have been active to hold its seat (and to show
/// on the live view).
pub const CURRENT: Duration = Duration::from_secs(20 * 60);
/// A room's size when the teacher names none, and the largest.
pub const DEFAULT_SIZE: u32 = 40;
pub const MAX_SIZE: u32 = 500;
/// The most rooms kept at once.
pub const MAX_ROOMS: u64 = 10_000;
/// A code's characters: lower-case letters and digits that cannot be read as
/// one another (no 0/o, 1/l/i, u/v).
const ALPHABET: &[u8] = b"23456789abcdefghjkmnpqrstwxyz";
/// How long a seat is remembered after its visit began (its attempts are
/// stored for a day, `event::AFTER_START_MIN`).
const REMEMBERED: Duration = Duration::from_secs(25 * 60 * 60);
/// New visits a room seats an hour, per seat: a class reloads and switches
/// languages (each a new visit), but a stranger with the code who joins and
/// leaves over and over makes no more rows than this.
const JOINS_PER_SEAT: usize = 3;
const HOUR: Duration = Duration::from_secs(3600);
/// The most seats remembered at once (about 100 bytes each).
const MAX_SEATS: usize = 100_000;
/// How long a code nobody created is remembered as such.
const UNKNOWN_FOR: Duration = Duration::from_secs(60);
/// The most codes remembered.
const MAX_KNOWN: usize = 20_000;

/// A new room code: 8 random characters of [`ALPHABET`] as `abcd-2345`
/// (about 39 bits: not to be guessed).
pub fn new_code() -> RoomCode {
    let mut rng = rand::rng();
    let mut code = String::with_capacity(9);
    for i in 0..8 {
        if i == 4 {
            code.push('-');
        }
        code.push(char::from(ALPHABET[rng.random_range(0..ALPHABET.len())]));
    }
    RoomCode::parse(&code).unwrap_or_else(|_| unreachable!("the alphabet makes room codes"))
}

/// A visit's place in a room.
#[derive(Clone, Debug)]
struct Seat {
    room: RoomCode,
    began: Instant,
    /// Its start as stored: the hour it began in.
    start: Minute,
    last: Instant,
    left: bool,
}

impl Seat {
    fn current(&self, now: Instant) -> bool {
        !self.left && now.saturating_duration_since(self.last) < CURRENT
    }

    /// The minute to store for something the visit does now.
    fn at(&self, now: Instant) -> Minute {
        let minutes = now.saturating_duration_since(self.began).as_secs() / 60;
        Minute(self.start.0 + i64::try_from(minutes).unwrap_or(i64::MAX / 2))
    }
}

/// A visit's start in a room, as [`Rooms::join`] decides it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Joined {
    /// Seated: record the visit in the room, begun at this (coarsened) minute.
    Seated(Minute),
    /// The room has no free seat: record the visit without it.
    Full,
    /// Nobody created the room (or recording is off): without it.
    Unknown,
}

/// A room's visit as a later request finds it ([`Rooms::touch`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InRoom {
    /// The minute to store for what it does now.
    pub at: Minute,
    /// Whether it holds a seat now (its own allowances).
    pub seated: bool,
}

#[derive(Clone, Copy, Debug)]
enum Known {
    Size(u32),
    Unknown(Instant),
}

/// Why a room was not created.
#[derive(Debug, thiserror::Error)]
pub enum CreateError {
    #[error("recording is off on this server (JAY_INSIGHTS=off): a room would record nothing")]
    Off,
    #[error("the server keeps at most {MAX_ROOMS} rooms; they are purged with the insights")]
    TooMany,
    #[error(transparent)]
    Store(#[from] StoreError),
}

#[derive(Default)]
struct Seats {
    by_visit: HashMap<VisitId, Seat>,
    /// Each room's visits in `by_visit`.
    by_room: HashMap<RoomCode, Vec<VisitId>>,
}

impl Seats {
    /// Seats of `room` held now.
    fn held(&self, room: &RoomCode, now: Instant) -> usize {
        self.by_room.get(room).map_or(0, |visits| {
            visits
                .iter()
                .filter(|v| self.by_visit.get(*v).is_some_and(|s| s.current(now)))
                .count()
        })
    }

    /// Visits that joined `room` in the last hour.
    fn joined_lately(&self, room: &RoomCode, now: Instant) -> usize {
        self.by_room.get(room).map_or(0, |visits| {
            visits
                .iter()
                .filter_map(|v| self.by_visit.get(v))
                .filter(|s| now.saturating_duration_since(s.began) < HOUR)
                .count()
        })
    }

    /// Forgets seats of visits begun too long ago.
    fn forget_old(&mut self, now: Instant) {
        self.by_visit
            .retain(|_, s| now.saturating_duration_since(s.began) < REMEMBERED);
        let by_visit = &self.by_visit;
        self.by_room.retain(|_, visits| {
            visits.retain(|v| by_visit.contains_key(v));
            !visits.is_empty()
        });
    }
}

/// The rooms and their seats (see the module's docs).
pub struct Rooms {
    /// `None`: recording is off, so no room exists.
    store: Option<Arc<Store>>,
    known: Mutex<HashMap<RoomCode, Known>>,
    seats: Mutex<Seats>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Nothing panics while holding these; the maps stay consistent.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Rooms {
    pub fn new(store: Option<Arc<Store>>) -> Self {
        Self {
            store,
            known: Mutex::default(),
            seats: Mutex::default(),
        }
    }

    /// Creates a room of `size` learners (1 to [`MAX_SIZE`]) with a new code.
    pub async fn create(&self, size: u32) -> Result<RoomCode, CreateError> {
        let store = self.store.as_ref().ok_or(CreateError::Off)?;
        if store.rooms().await? >= MAX_ROOMS {
            return Err(CreateError::TooMany);
        }
        let size = size.clamp(1, MAX_SIZE);
        loop {
            let code = new_code();
            if store.create_room(&code, size, Minute::now()).await? {
                self.remember(&code, Known::Size(size));
                return Ok(code);
            }
        }
    }

    /// A created room's size (`None`: nobody created it).
    pub async fn size(&self, code: &RoomCode) -> Result<Option<u32>, StoreError> {
        let Some(store) = &self.store else {
            return Ok(None);
        };
        let cached = lock(&self.known).get(code).copied();
        match cached {
            Some(Known::Size(n)) => return Ok(Some(n)),
            Some(Known::Unknown(at)) if at.elapsed() < UNKNOWN_FOR => return Ok(None),
            _ => {}
        }
        let size = store.room_size(code).await?;
        let known = size.map_or_else(|| Known::Unknown(Instant::now()), Known::Size);
        self.remember(code, known);
        Ok(size)
    }

    /// Whether `code` is a room this process knows was created (no lookup).
    pub fn known(&self, code: &RoomCode) -> bool {
        matches!(lock(&self.known).get(code), Some(Known::Size(_)))
    }

    fn remember(&self, code: &RoomCode, known: Known) {
        let mut map = lock(&self.known);
        if map.len() >= MAX_KNOWN {
            map.clear();
        }
        map.insert(code.clone(), known);
    }

    /// `visit`'s start in `room`: seated if the room exists and has a free seat.
    pub async fn join(&self, visit: &VisitId, room: &RoomCode) -> Result<Joined, StoreError> {
        let Some(size) = self.size(room).await? else {
            return Ok(Joined::Unknown);
        };
        let now = Instant::now();
        let mut seats = lock(&self.seats);
        if let Some(seat) = seats.by_visit.get(visit) {
            // A start sent twice: the first decided.
            return Ok(if &seat.room == room {
                Joined::Seated(seat.start)
            } else {
                Joined::Full
            });
        }
        if seats.by_visit.len() >= MAX_SEATS {
            seats.forget_old(now);
        }
        let size = size as usize;
        if seats.by_visit.len() >= MAX_SEATS
            || seats.held(room, now) >= size
            || seats.joined_lately(room, now) >= size * JOINS_PER_SEAT
        {
            return Ok(Joined::Full);
        }
        let start = Minute(Minute::now().0.div_euclid(60) * 60);
        seats.by_visit.insert(
            visit.clone(),
            Seat {
                room: room.clone(),
                began: now,
                start,
                last: now,
                left: false,
            },
        );
        seats
            .by_room
            .entry(room.clone())
            .or_default()
            .push(visit.clone());
        Ok(Joined::Seated(start))
    }

    /// A room's visit doing something now: its stored minute, and whether it
    /// holds a seat (it takes a free one again after a pause). `None`: not a
    /// visit of a room this process knows.
    pub fn touch(&self, visit: &VisitId) -> Option<InRoom> {
        let now = Instant::now();
        let mut seats = lock(&self.seats);
        let seat = seats.by_visit.get(visit)?.clone();
        if now.saturating_duration_since(seat.began) >= REMEMBERED {
            return None;
        }
        let size = match lock(&self.known).get(&seat.room) {
            Some(Known::Size(n)) => *n as usize,
            _ => 0,
        };
        // Back after a pause (or from the browser's back-forward cache after
        // its page said it left): seated again if a seat is free.
        let seated = seat.current(now) || seats.held(&seat.room, now) < size;
        if let Some(s) = seats.by_visit.get_mut(visit) {
            if seated {
                s.last = now;
                s.left = false;
            }
        }
        Some(InRoom {
            at: seat.at(now),
            seated,
        })
    }

    /// `visit` has left its page: its seat is free.
    pub fn leave(&self, visit: &VisitId) {
        if let Some(seat) = lock(&self.seats).by_visit.get_mut(visit) {
            seat.left = true;
        }
    }

    /// The room's current visits, the most recently active first, at most
    /// its size; and how many are current in all.
    pub fn current(&self, room: &RoomCode) -> (Vec<VisitId>, usize) {
        let now = Instant::now();
        let seats = lock(&self.seats);
        let mut current: Vec<(&VisitId, Instant)> = seats
            .by_room
            .get(room)
            .into_iter()
            .flatten()
            .filter_map(|v| {
                let seat = seats.by_visit.get(v)?;
                seat.current(now).then_some((v, seat.last))
            })
            .collect();
        current.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        let all = current.len();
        let size = match lock(&self.known).get(room) {
            Some(Known::Size(n)) => *n as usize,
            _ => MAX_SIZE as usize,
        };
        let shown = current.into_iter().take(size).map(|(v, _)| v.clone());
        (shown.collect(), all)
    }
}

#[cfg(test)]
mod tests;
