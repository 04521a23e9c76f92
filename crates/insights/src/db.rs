//! The connection a batch is written through, one of two:
//!
//! - [`Db::Many`], sqlx's `Any` connection (PostgreSQL): each statement
//!   carries up to [`ROWS`] rows, its values marked by [`Marks`]; a statement
//!   is a round trip to the server, so rows go together.
//! - [`Db::One`], SQLite through its own interface (rusqlite), on the
//!   writer's thread: statements of [`FEW`] rows, the rest one by one, each
//!   prepared once and kept. sqlx's SQLite driver runs each connection on a
//!   thread of its own, copies every value into an argument it owns and
//!   hands it over; for a row of the attempts' twenty values that cost as
//!   much again as SQLite itself (`docs/benchmarks/insights-statements.md`:
//!   2.0 µs of CPU a row against 1.2). A statement of a few rows also holds
//!   a few tens of KB where a 200-row one held up to 280 KB, and none is
//!   prepared again however the batch is cut.
//!
//! What to write is the same for both: a statement's text for `n` rows
//! ([`Db::rows`] asks for [`FEW`] and 1 on SQLite), and each row's values
//! bound in order through [`Values`].

use rusqlite::types::ToSql;
use sqlx::{any::AnyArguments, error::BoxDynError, AnyConnection, Arguments};

use std::fmt::Write as _;

use crate::sink::StoreError;

/// Rows per statement on [`Db::Many`] (`benches/insights_writer.rs`, SQLite
/// through sqlx: one row a statement gave about 8,000 events a second; 50
/// rows 19,000; 200 rows 24,700; 500 rows 25,400).
pub const ROWS: usize = 200;

/// Rows per statement on [`Db::One`], the rest one by one: each run of a
/// statement begins and ends its own work (its cursors, a look at the
/// schema), which a few rows share; a statement of 16 rows holds a few
/// tens of KB.
const FEW: usize = 16;

/// How a statement of many rows marks its bound values: `$1, $2, …` for
/// PostgreSQL, `?` for SQLite, which reads `$1` too but finds each by name in
/// a list of them all: quadratic in a statement of hundreds (a sixth of the
/// writer's time at 550 values).
#[derive(Clone, Copy, Debug)]
pub struct Marks {
    numbered: bool,
}

impl Marks {
    pub fn new(postgres: bool) -> Self {
        Self { numbered: postgres }
    }

    /// Whether they are numbered (PostgreSQL's).
    pub fn numbered(self) -> bool {
        self.numbered
    }

    /// The mark of the `i`-th value (1-based), by its number: `$i` or `?i`
    /// (SQLite reads both; `?i` is not looked up by name).
    pub fn at(self, i: usize) -> String {
        let sign = if self.numbered { '$' } else { '?' };
        format!("{sign}{i}")
    }

    /// `n` marks from the `first` (1-based), in order.
    pub fn list(self, first: usize, n: usize) -> String {
        let mut out = String::with_capacity(n * 4);
        self.push_list(&mut out, first, n);
        out
    }

    /// `rows` tuples of `width` marks: `($1, $2), ($3, $4)`. One string
    /// written in place: a statement of 200 rows has thousands of marks.
    pub fn tuples(self, rows: usize, width: usize) -> String {
        let mut out = String::with_capacity(rows * (width * 4 + 4));
        for r in 0..rows {
            if r > 0 {
                out.push_str(", ");
            }
            out.push('(');
            self.push_list(&mut out, r * width + 1, width);
            out.push(')');
        }
        out
    }

    fn push_list(self, out: &mut String, first: usize, n: usize) {
        for i in first..first + n {
            if i > first {
                out.push_str(", ");
            }
            if self.numbered {
                // Writing to a String cannot fail.
                let _ = write!(out, "${i}");
            } else {
                out.push('?');
            }
        }
    }
}

/// Whether a statement of `rows` rows on [`Db::Many`], its batch cut in
/// chunks of `full`, stays prepared on its connection (`persistent`, sqlx's
/// cache of a hundred statements). A chunk of full size recurs in every
/// batch; each other size (a batch's last chunk) is a statement of its own,
/// and through sqlx a 200-row SQLite statement held 140–280 KB: kept, they
/// filled the cache, and the load run's recording server peaked at 58.4 MB,
/// not 46.0.
pub fn kept(rows: usize, full: usize) -> bool {
    rows == full
}

/// Where a batch is written.
pub enum Db<'c> {
    Many {
        conn: &'c mut AnyConnection,
        marks: Marks,
    },
    One(&'c mut rusqlite::Connection),
}

/// A row's values, bound in the order its statement names them.
pub trait Values<'q> {
    fn int(&mut self, value: i64);
    fn opt_int(&mut self, value: Option<i64>);
    fn real(&mut self, value: f64);
    fn text(&mut self, value: &'q str);
    fn opt_text(&mut self, value: Option<&'q str>);
    /// A text made for the row (`None`: NULL).
    fn owned_text(&mut self, value: Option<String>);
}

impl<'c> Db<'c> {
    /// Over sqlx's connection (`postgres`: its statements number their marks).
    pub fn many(conn: &'c mut AnyConnection, postgres: bool) -> Self {
        Self::Many {
            conn,
            marks: Marks::new(postgres),
        }
    }

    /// Runs `sql(marks, n)`, a statement of `n` rows, over all of `rows`,
    /// each bound by `bind`.
    pub async fn rows<'q, T>(
        &mut self,
        rows: &'q [T],
        sql: impl Fn(Marks, usize) -> String,
        bind: impl Fn(&mut dyn Values<'q>, &'q T),
    ) -> Result<(), StoreError> {
        match self {
            Self::Many { conn, marks } => {
                for chunk in rows.chunks(ROWS) {
                    let args = any_args(chunk, &bind).map_err(sqlx::Error::Encode)?;
                    sqlx::query_with(&sql(*marks, chunk.len()), args)
                        .persistent(kept(chunk.len(), ROWS))
                        .execute(&mut **conn)
                        .await?;
                }
                Ok(())
            }
            Self::One(conn) => {
                let marks = Marks::new(false);
                let (whole, rest) = rows.split_at(rows.len() / FEW * FEW);
                let execute =
                    |stmt: &mut rusqlite::Statement<'_>, _: &[T]| stmt.raw_execute().map(drop);
                each_statement(conn, &sql(marks, FEW), whole, FEW, &bind, execute)?;
                each_statement(conn, &sql(marks, 1), rest, 1, &bind, execute)
            }
        }
    }
}

/// Runs the statement `sql` of `per` rows (prepared once, kept) for each
/// `per` of `rows`, bound by `bind`, through `run`, which is given them.
fn each_statement<'q, T>(
    conn: &rusqlite::Connection,
    sql: &str,
    rows: &'q [T],
    per: usize,
    bind: impl Fn(&mut dyn Values<'q>, &'q T),
    mut run: impl FnMut(&mut rusqlite::Statement<'_>, &'q [T]) -> rusqlite::Result<()>,
) -> Result<(), StoreError> {
    if rows.is_empty() {
        return Ok(());
    }
    let mut stmt = conn.prepare_cached(sql)?;
    for chunk in rows.chunks(per) {
        let mut values = StatementValues::new(&mut stmt);
        for row in chunk {
            bind(&mut values, row);
        }
        values.done()?;
        run(&mut stmt, chunk)?;
        give_way();
    }
    Ok(())
}

/// Runs the one-row statement `sql` for each of `rows`, bound by `bind`,
/// through `run`, which is given the row.
pub fn one_each<'q, T>(
    conn: &rusqlite::Connection,
    sql: &str,
    rows: &'q [T],
    bind: impl Fn(&mut dyn Values<'q>, &'q T),
    mut run: impl FnMut(&mut rusqlite::Statement<'_>, &'q T) -> rusqlite::Result<()>,
) -> Result<(), StoreError> {
    each_statement(conn, sql, rows, 1, bind, |stmt, one| {
        one.iter().try_for_each(|row| run(stmt, row))
    })
}

/// Gives the core up (`sched_yield`) once each [`GIVE_WAY`] of the
/// thread's work. A batch on SQLite runs on the writer's thread with no
/// pause of its own (no statement waits on another thread), for tens of ms
/// under load; a request whose thread woke on the same core then waited for
/// the scheduler's slice to end: at one connection p99 went from 0.8–1.1 to
/// 1.3–1.9 ms.
pub fn give_way() {
    thread_local! {
        static SINCE: std::cell::Cell<Option<std::time::Instant>> = const { std::cell::Cell::new(None) };
    }
    SINCE.with(|since| {
        let now = std::time::Instant::now();
        match since.get() {
            Some(t) if now.duration_since(t) < GIVE_WAY => {}
            Some(_) => {
                std::thread::yield_now();
                since.set(Some(std::time::Instant::now()));
            }
            None => since.set(Some(now)),
        }
    });
}

/// How much of a batch's work runs between two [`give_way`]s.
const GIVE_WAY: std::time::Duration = std::time::Duration::from_micros(200);

/// `rows` bound by `bind` as sqlx's arguments of one statement.
pub fn any_args<'q, T>(
    rows: &'q [T],
    bind: impl Fn(&mut dyn Values<'q>, &'q T),
) -> Result<AnyArguments<'q>, BoxDynError> {
    let mut args = AnyValues::default();
    for row in rows {
        bind(&mut args, row);
    }
    args.done()
}

/// sqlx's arguments, the first error kept for the end.
#[derive(Default)]
struct AnyValues<'q> {
    args: AnyArguments<'q>,
    error: Option<BoxDynError>,
}

impl<'q> AnyValues<'q> {
    fn add<T>(&mut self, value: T)
    where
        T: 'q + sqlx::Encode<'q, sqlx::Any> + sqlx::Type<sqlx::Any>,
    {
        if self.error.is_none() {
            self.error = self.args.add(value).err();
        }
    }

    fn done(self) -> Result<AnyArguments<'q>, BoxDynError> {
        match self.error {
            Some(e) => Err(e),
            None => Ok(self.args),
        }
    }
}

impl<'q> Values<'q> for AnyValues<'q> {
    fn int(&mut self, value: i64) {
        self.add(value);
    }
    fn opt_int(&mut self, value: Option<i64>) {
        self.add(value);
    }
    fn real(&mut self, value: f64) {
        self.add(value);
    }
    fn text(&mut self, value: &'q str) {
        self.add(value);
    }
    fn opt_text(&mut self, value: Option<&'q str>) {
        self.add(value);
    }
    fn owned_text(&mut self, value: Option<String>) {
        self.add(value);
    }
}

/// A prepared statement's parameters, bound from the first; the first
/// error kept for the end.
struct StatementValues<'a, 's> {
    stmt: &'a mut rusqlite::Statement<'s>,
    next: usize,
    error: Option<rusqlite::Error>,
}

impl<'a, 's> StatementValues<'a, 's> {
    fn new(stmt: &'a mut rusqlite::Statement<'s>) -> Self {
        Self {
            stmt,
            next: 1,
            error: None,
        }
    }

    fn done(self) -> Result<(), rusqlite::Error> {
        self.error.map_or(Ok(()), Err)
    }

    fn bind(&mut self, value: &dyn ToSql) {
        if self.error.is_none() {
            self.error = self.stmt.raw_bind_parameter(self.next, value).err();
        }
        self.next += 1;
    }
}

impl<'q> Values<'q> for StatementValues<'_, '_> {
    fn int(&mut self, value: i64) {
        self.bind(&value);
    }
    fn opt_int(&mut self, value: Option<i64>) {
        self.bind(&value);
    }
    fn real(&mut self, value: f64) {
        self.bind(&value);
    }
    fn text(&mut self, value: &'q str) {
        self.bind(&value);
    }
    fn opt_text(&mut self, value: Option<&'q str>) {
        self.bind(&value);
    }
    fn owned_text(&mut self, value: Option<String>) {
        self.bind(&value);
    }
}

#[cfg(test)]
mod tests {
    use super::Marks;

    #[test]
    fn marks_number_for_postgres_and_ask_for_sqlite() {
        let (pg, lite) = (Marks::new(true), Marks::new(false));
        assert_eq!(pg.list(3, 2), "$3, $4");
        assert_eq!(lite.list(3, 2), "?, ?");
        assert_eq!(pg.tuples(2, 3), "($1, $2, $3), ($4, $5, $6)");
        assert_eq!(lite.tuples(2, 1), "(?), (?)");
        assert_eq!(pg.tuples(0, 3), "");
        assert_eq!(pg.list(1, 0), "");
        assert_eq!((pg.at(4).as_str(), lite.at(4).as_str()), ("$4", "?4"));
    }
}
