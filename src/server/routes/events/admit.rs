//! Who a report's events are charged to, and what becomes of a start that
//! names a room: the two allowances of the route's docs, a seat in the room
//! or none, and a room's visit's tools dated as the room keeps time.

use std::net::IpAddr;

use crate::server::limits::{ClientLimiter, ReportLimits as Limits};
use insights::{
    rooms::{InRoom, Joined},
    Event, Recorder, Refusal, RoomCode, Rooms, VisitId,
};

/// Whose allowances a report draws on.
#[derive(Clone, Copy)]
enum Client<'a> {
    Address(IpAddr),
    /// A visit seated in a room.
    Visit(&'a VisitId),
    /// Not known (never a request that came through the server's layers).
    Unknown,
}

impl Client<'_> {
    /// Takes one from `limiter`, or the seconds to wait.
    fn charge(self, limiter: &ClientLimiter) -> Result<(), u64> {
        let charged = match self {
            Client::Address(ip) => limiter.charge(ip),
            Client::Visit(v) => limiter.charge_visit(v.as_str()),
            Client::Unknown => return Ok(()),
        };
        match charged {
            Ok(charge) => {
                charge.keep();
                Ok(())
            }
            Err(wait) => Err(wait.as_secs_f64().ceil().max(1.0) as u64),
        }
    }
}

/// What admitting a report needs.
pub struct Admission<'a> {
    pub rooms: &'a Rooms,
    pub limits: &'a Limits,
    pub recorder: &'a Recorder,
}

impl Admission<'_> {
    /// Charges `events` (one report, of one visit) to their client, and
    /// settles a start's room; the seconds to wait when an allowance is spent
    /// (then nothing is to be recorded).
    pub async fn admit(&self, events: &mut [Event], address: Option<IpAddr>) -> Result<(), u64> {
        let Some(visit) = events.iter().find_map(visit_of).cloned() else {
            return Ok(());
        };
        let room = match events.first() {
            Some(Event::Visit(start)) => start.room.clone(),
            _ => None,
        };
        // A start in a room whose size is known takes its seat before it is
        // charged, so that a class's starts are each their own client; one
        // the server must look up is charged to its address first.
        let mut joined = None;
        if let Some(room) = room.as_ref().filter(|r| self.rooms.known(r)) {
            joined = Some(self.join(&visit, room).await);
        }
        let in_room = self.rooms.touch(&visit);
        let client = match (in_room, address) {
            (Some(InRoom { seated: true, .. }), _) => Client::Visit(&visit),
            (_, Some(ip)) => Client::Address(ip),
            (_, None) => Client::Unknown,
        };
        client.charge(&self.limits.reports)?;
        if let Some(Event::Visit(start)) = events.first_mut() {
            let joined = match (joined, &room) {
                (Some(joined), _) => joined,
                (None, Some(room)) => self.join(&visit, room).await,
                (None, None) => Joined::Unknown,
            };
            match joined {
                Joined::Seated(started) => start.started = started,
                other => {
                    if let Err(seconds) = client.charge(&self.limits.visits) {
                        self.recorder.refuse(Refusal::VisitsPerHour);
                        return Err(seconds);
                    }
                    if start.room.take().is_some() {
                        self.recorder.refuse(match other {
                            Joined::Full => Refusal::RoomFull,
                            _ => Refusal::UnknownRoom,
                        });
                    }
                }
            }
        }
        if let Some(in_room) = self.rooms.touch(&visit) {
            for event in events.iter_mut() {
                if let Event::Tool(t) = event {
                    t.at = in_room.at;
                }
            }
        }
        Ok(())
    }

    /// `visit` into `room`, or why not (a store that does not answer: not).
    async fn join(&self, visit: &VisitId, room: &RoomCode) -> Joined {
        self.rooms.join(visit, room).await.unwrap_or_else(|e| {
            tracing::warn!("insights: room {} not looked up: {e}", room.as_str());
            Joined::Unknown
        })
    }
}

fn visit_of(event: &Event) -> Option<&VisitId> {
    Some(match event {
        Event::Visit(v) => &v.id,
        Event::Tool(t) => &t.visit,
        Event::Attempt(a) => &a.visit,
        // A vote names no visit (and never comes through the page's reports).
        Event::Vote(_) => return None,
    })
}
