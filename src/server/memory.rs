//! Where the server's memory comes from and when it goes back: one
//! allocator, mimalloc (the global allocator in `src/main.rs`), for Rust and
//! SQLite alike, handing freed memory back to the system after 100 ms, with
//! SQLite's own count of its memory off (nothing reads it). Called
//! once in `main`, once logging is set up and before the configuration is
//! read or any database opened.
//!
//! Measured under a flood of recorded comments (`.ci/loadbench`,
//! docs/benchmarks/insights-recording.md): the insights' batches free megabytes every
//! second, which mimalloc kept for a second by default; and SQLite, left to
//! glibc's `malloc`, held a glibc arena of its own thread at 7 MB resident
//! for 3.8 MB in use (`sqlite3_memory_highwater`), never trimmed. Handed
//! back at once, each batch's memory was faulted in again, the request
//! threads' too (0.129 page faults a recorded comment against 0.070 with
//! recording off, at 32 connections). 100 ms met ×1.05 at 32 connections
//! but peaked at 40.6 MB while the writer's queue and batch plan still
//! freed two megabytes a second; with those kept, 37.2–39.2 MB
//! (docs/benchmarks/insights-statements.md).

use std::ffi::{c_int, c_void};

use libmimalloc_sys as mi;
use libsqlite3_sys as sqlite;

/// Sets the purge delay and SQLite's two settings, and logs whether SQLite
/// took them; `MIMALLOC_PURGE_DELAY` (mimalloc's own setting) wins over the
/// first.
pub fn tune() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // `mi_option_purge_delay` in mimalloc.h's `mi_option_e` (the Rust
        // bindings do not name it): milliseconds before freed memory is purged.
        const PURGE_DELAY: mi::mi_option_t = 15;
        // SAFETY: sets a number in mimalloc's option table; no pointer involved.
        unsafe { mi::mi_option_set(PURGE_DELAY, 100) }
    }
    let counting = sqlite_without_statistics();
    let allocator = sqlite_through_mimalloc();
    // SAFETY: a block of SQLite's own (its first use: the settings above are
    // taken from here on), asked of the allocator, then freed.
    let (ours, counted) = unsafe {
        let p = sqlite::sqlite3_malloc(64);
        let ours = !p.is_null() && mi::mi_is_in_heap_region(p);
        let counted = sqlite::sqlite3_memory_used() > 0;
        sqlite::sqlite3_free(p);
        (ours, counted)
    };
    if allocator == sqlite::SQLITE_OK && ours {
        tracing::info!("memory: SQLite allocates through mimalloc");
    } else {
        tracing::warn!(
            "memory: SQLite keeps its own allocator (sqlite3_config answered {allocator})"
        );
    }
    if counting == sqlite::SQLITE_OK && !counted {
        tracing::info!("memory: SQLite keeps no count of its memory");
    } else {
        tracing::warn!(
            "memory: SQLite keeps counting its memory (sqlite3_config answered {counting})"
        );
    }
}

/// Turns SQLite's count of the memory it holds (`SQLITE_CONFIG_MEMSTATUS`)
/// off, and returns SQLite's answer: kept on, every allocation and free of
/// its takes a process-wide mutex to add up figures nothing here reads (no
/// soft heap limit is set).
fn sqlite_without_statistics() -> c_int {
    let off: c_int = 0;
    // SAFETY: passes one int, the option's one argument in SQLite's documentation.
    unsafe { sqlite::sqlite3_config(sqlite::SQLITE_CONFIG_MEMSTATUS, off) }
}

/// Sends SQLite's allocations through mimalloc (`SQLITE_CONFIG_MALLOC`),
/// and returns SQLite's answer. Like the setting above, SQLite takes it
/// only before it is first used; later (a second call, a test that opened a
/// database first) it answers `SQLITE_MISUSE` and keeps glibc's, which
/// works as well, with more memory resident. The start-up log says which.
fn sqlite_through_mimalloc() -> c_int {
    let methods = sqlite::sqlite3_mem_methods {
        xMalloc: Some(malloc),
        xFree: Some(free),
        xRealloc: Some(realloc),
        xSize: Some(size),
        xRoundup: Some(roundup),
        xInit: Some(init),
        xShutdown: Some(shutdown),
        pAppData: std::ptr::null_mut(),
    };
    // SAFETY: SQLite copies the struct before the call returns; the
    // functions live as long as the process.
    unsafe { sqlite::sqlite3_config(sqlite::SQLITE_CONFIG_MALLOC, &raw const methods) }
}

/// SQLite never asks for a negative size; one would get nothing.
fn bytes(n: c_int) -> Option<usize> {
    usize::try_from(n).ok()
}

unsafe extern "C" fn malloc(n: c_int) -> *mut c_void {
    // SAFETY: mimalloc's malloc, for any size; null when it cannot.
    bytes(n).map_or(std::ptr::null_mut(), |n| unsafe { mi::mi_malloc(n) })
}

unsafe extern "C" fn free(p: *mut c_void) {
    // SAFETY: `p` came from `malloc` or `realloc` above (SQLite frees only
    // what it allocated), or is null, which mimalloc ignores.
    unsafe { mi::mi_free(p) }
}

unsafe extern "C" fn realloc(p: *mut c_void, n: c_int) -> *mut c_void {
    // SAFETY: as `free` for `p`.
    bytes(n).map_or(std::ptr::null_mut(), |n| unsafe { mi::mi_realloc(p, n) })
}

unsafe extern "C" fn size(p: *mut c_void) -> c_int {
    // SAFETY: as `free` for `p` (never null here: SQLite asks of its own blocks).
    let n = unsafe { mi::mi_usable_size(p) };
    c_int::try_from(n).unwrap_or(c_int::MAX)
}

unsafe extern "C" fn roundup(n: c_int) -> c_int {
    // SAFETY: asks mimalloc a size class; no pointer involved.
    let rounded = bytes(n).map_or(0, |n| unsafe { mi::mi_good_size(n) });
    c_int::try_from(rounded).unwrap_or(n)
}

unsafe extern "C" fn init(_: *mut c_void) -> c_int {
    sqlite::SQLITE_OK
}

unsafe extern "C" fn shutdown(_: *mut c_void) {}
