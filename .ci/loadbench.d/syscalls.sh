# The system calls of a comment, for .ci/loadbench, which sources this file
# and calls syscalls_measure after its rows and syscalls_report after its
# table: `strace -c -f` on the release server and on the stack floor, each
# for $SYSCALL_SECONDS (3) of `GET /error` at one connection, counted per
# request. Counts, not times (strace slows every call it sees). A wake-up of
# the runtime shows as a `write` to its eventfd and an `epoll_wait` more; a
# lock that two requests wanted at once, as `futex`. Uses loadbench's
# servers ($app, $app_pid, $floor, $floor_pid), $lua, $error_path, $tmp and
# helpers (step); without strace, or without the right to trace, the figures
# are "–".

# syscalls_count NAME PID URL: strace's summary of PID while wrk runs one
# connection against URL, into $tmp/strace-NAME; the requests wrk made into
# $tmp/strace-NAME.n.
syscalls_count() {
  local name=$1 pid=$2 url=$3 secs=${SYSCALL_SECONDS:-3}
  command -v strace >/dev/null || return 0
  timeout $((secs + 2)) strace -c -f -p "$pid" -o "$tmp/strace-$name" 2>/dev/null &
  local tracer=$!
  sleep 0.5
  BENCH_METHOD=GET wrk -t1 -c1 -d"${secs}s" -s "$lua" "$url" |
    sed -n 's/.* requests=\([0-9]*\).*/\1/p' >"$tmp/strace-$name.n"
  kill -INT "$tracer" 2>/dev/null || true
  wait "$tracer" 2>/dev/null || true
}

syscalls_measure() {
  step "system calls a comment: strace -c -f for ${SYSCALL_SECONDS:-3}s of GET /error at 1 connection, server and floor"
  syscalls_count app "$app_pid" "$app$error_path"
  syscalls_count floor "$floor_pid" "$floor/error"
}

# syscalls_of NAME: "writev 2.00, recvfrom 2.00, … (6.05 in all)", or "–".
syscalls_of() {
  local n
  n=$(cat "$tmp/strace-$1.n" 2>/dev/null || true)
  if [ ! -s "$tmp/strace-$1" ] || [ -z "$n" ] || [ "$n" -eq 0 ]; then
    echo "–"
    return
  fi
  # Every row: % time, seconds, usecs/call, calls, [errors,] name.
  awk -v n="$n" '
    $1 ~ /^[0-9.]+$/ && $NF == "total" { all = $4 }
    $1 ~ /^[0-9.]+$/ && $NF != "total" && $4 / n >= 0.005 {
      out = out sprintf("%s%s %.2f", out == "" ? "" : ", ", $NF, $4 / n)
    }
    END { printf "%s (%.2f in all, over %d requests)\n", out, all / n, n }' "$tmp/strace-$1"
}

syscalls_report() {
  echo
  echo "system calls a comment at 1 connection (strace -c -f): server: $(syscalls_of app); stack floor: $(syscalls_of floor)"
}
