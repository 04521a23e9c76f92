//! The schema's migrations, compiled in (the binary needs no folder beside
//! it). Each is one text for both backends; the few words they spell
//! differently are marks filled in here for the store's backend ([`marks`]).

use std::borrow::Cow;

use futures::future::BoxFuture;
use sqlx::{
    error::BoxDynError,
    migrate::{Migration, MigrationSource, MigrationType},
};

use crate::{config::Backend, packed::Packing};

/// The migrations, oldest first: (version, description, SQL).
const MIGRATIONS: [(i64, &str, &str); 6] = [
    (
        1,
        "insights",
        include_str!("../migrations/0001_insights.sql"),
    ),
    (2, "rollups", include_str!("../migrations/0002_rollups.sql")),
    (3, "rooms", include_str!("../migrations/0003_rooms.sql")),
    (
        4,
        "teaching",
        include_str!("../migrations/0004_teaching.sql"),
    ),
    (5, "lessons", include_str!("../migrations/0005_lessons.sql")),
    (6, "arrival", include_str!("../migrations/0006_arrival.sql")),
];

/// The marks a migration may hold and what each is on `backend`: `{id}` the
/// type of a key the writer numbers (on SQLite `INTEGER PRIMARY KEY`, the
/// table's rowid, not an index beside it), `{agg}` the aggregate that joins
/// texts, `{error}`, `{weight}`, `{weight2}` and `{bias}` those columns of
/// `a` as texts that read back exactly.
fn marks(backend: Backend) -> [(&'static str, String); 6] {
    let postgres = backend == Backend::Postgres;
    let packing = Packing::new(postgres);
    let id = if postgres {
        "BIGINT PRIMARY KEY"
    } else {
        "INTEGER PRIMARY KEY"
    };
    [
        ("{id}", id.to_string()),
        ("{agg}", packing.aggregate().to_string()),
        ("{error}", packing.exact("a.error")),
        ("{weight}", packing.exact("a.weight")),
        ("{weight2}", packing.exact("a.weight2")),
        ("{bias}", packing.exact("a.bias")),
    ]
}

/// `sql` with its marks filled in for `backend`.
fn fill(sql: &'static str, backend: Backend) -> Cow<'static, str> {
    let marks = marks(backend);
    if !marks.iter().any(|(mark, _)| sql.contains(mark)) {
        return Cow::Borrowed(sql);
    }
    let mut filled = sql.to_string();
    for (mark, value) in marks {
        filled = filled.replace(mark, &value);
    }
    Cow::Owned(filled)
}

/// The migrations for one backend.
#[derive(Debug)]
pub(super) struct Embedded(pub Backend);

impl MigrationSource<'static> for Embedded {
    fn resolve(self) -> BoxFuture<'static, Result<Vec<Migration>, BoxDynError>> {
        Box::pin(async move {
            Ok(MIGRATIONS
                .iter()
                .map(|&(version, description, sql)| {
                    Migration::new(
                        version,
                        Cow::Borrowed(description),
                        MigrationType::Simple,
                        fill(sql, self.0),
                        false,
                    )
                })
                .collect())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mark_is_filled_on_both_backends_and_nothing_else_changes() {
        for backend in [Backend::Sqlite, Backend::Postgres] {
            for (_, _, sql) in MIGRATIONS {
                let filled = fill(sql, backend);
                for (mark, _) in marks(backend) {
                    assert!(!filled.contains(mark), "{mark} left in a migration");
                }
            }
        }
        let first = MIGRATIONS[0].2;
        assert!(matches!(fill(first, Backend::Sqlite), Cow::Borrowed(_)));
    }
}
