# Instructions a request, for .ci/loadbench, which sources this file and,
# with INSTRUCTIONS=1, calls instructions_measure instead of its timed rows.
#
# A 1-connection p50 on this shared machine moves by ±10 µs from one run to
# the next; valgrind's callgrind counts the instructions a server executes,
# the same for the same build and requests whatever else the machine does
# (docs/benchmarks/load-cpu.md). Each row starts its server under callgrind
# (recording off: `GET /error` and `POST /api/comment` of this build and of
# the build before, if any; the stack floor's `GET /error`), warms it up for
# $INSTRUCTIONS_WARMUP s (5), zeroes the counts, sends $INSTRUCTIONS_SECONDS s
# (20) of requests at one connection (visitors.lua: a new client each time),
# dumps, and divides the dump's total by the requests wrk counted. A server
# under callgrind answers a few hundred requests a second. Uses loadbench's
# helpers and variables (start_app, free_port, ready, thousands, $tmp, …).

# instructions_row NAME PID URL METHOD BODY [FROM]: one row's figure,
# printed; its instructions a request in $instr_last. A body with a visit
# and an attempt (recording's rows, with BENCH_VISITS set) numbers the
# measured requests' attempts from FROM, past the warm-up's.
instructions_row() {
  local name=$1 pid=$2 url=$3 method=$4 body=$5 from=${6:-0} n total
  load() {
    BENCH_METHOD=$method BENCH_BODY=$body BENCH_TYPE=application/json BENCH_THREADS=1 \
      BENCH_ATTEMPT_FROM=$2 wrk -t1 -c1 -d"$1s" -s "$lua" "$url"
  }
  load "${INSTRUCTIONS_WARMUP:-5}" 0 >/dev/null
  callgrind_control -z "$pid" >/dev/null 2>&1
  n=$(load "${INSTRUCTIONS_SECONDS:-20}" "$from" | sed -n 's/^figures requests=\([0-9]*\).*/\1/p')
  # The insights' writer commits what came within a second: counted too.
  sleep 1.5
  # The dump is numbered (.1, .2, …); the row before's was removed.
  callgrind_control -d "$pid" >/dev/null 2>&1
  total=
  for _ in $(seq 50); do
    total=$(awk '/^summary:/ { print $2; exit }' "$tmp/callgrind.$pid".[0-9]* 2>/dev/null || true)
    [ -n "$total" ] && break
    sleep 0.2
  done
  [ -n "$total" ] && [ "${n:-0}" -gt 0 ] || die "$name: no count (requests: ${n:-none})"
  rm -f "$tmp/callgrind.$pid".*
  instr_last=$((total / n))
  printf '| %s | %s | %s |\n' "$name" "$(thousands "$n")" "$(thousands "$instr_last")"
}

# instructions_wait PID URL: until URL answers (a server under callgrind
# takes seconds to start).
instructions_wait() {
  for _ in $(seq 300); do
    ready "$2" 2>/dev/null && return 0
    kill -0 "$1" 2>/dev/null || die "a server under callgrind stopped (its log in $tmp)"
    sleep 0.2
  done
  die "a server under callgrind did not answer $2 within a minute"
}

# instructions_server NAME BIN: a build's rows.
instructions_server() {
  local name=$1 port data
  port=$(free_port)
  data="$tmp/data-instructions-$port"
  mkdir -p "$data"
  bin=$2 start_app "$port" "$data" "$tmp/app-instructions-$port.log" JAY_INSIGHTS=off \
    valgrind --tool=callgrind --callgrind-out-file="$tmp/callgrind.%p"
  instr_pid=$!
  instructions_wait "$instr_pid" "http://127.0.0.1:$port/healthz"
  instructions_row "\`GET /error\`, $name" "$instr_pid" "http://127.0.0.1:$port$error_path" GET ""
  instructions_row "\`POST /api/comment\`, $name" "$instr_pid" "http://127.0.0.1:$port/api/comment" \
    POST "$comment_body"
  BENCH_VISITS=$pool instructions_row "\`POST /api/comment\` with a visit's attempt, recording off, $name" \
    "$instr_pid" "http://127.0.0.1:$port/api/comment" POST "$comment_template" 3
  instructions_stop
}

# instructions_recording NAME BIN: the same comments recorded (SQLite), each
# an attempt of one of $pool announced visits; a server under callgrind
# answers a few hundred a second, so a batch holds about one attempt of each
# visit it touches, as real traffic does. Then the ratio to the row before.
instructions_recording() {
  local name=$1 port data off=$instr_last
  port=$(free_port)
  data="$tmp/data-instructions-$port"
  mkdir -p "$data"
  bin=$2 start_app "$port" "$data" "$tmp/app-instructions-$port.log" \
    valgrind --tool=callgrind --callgrind-out-file="$tmp/callgrind.%p"
  instr_pid=$!
  instructions_wait "$instr_pid" "http://127.0.0.1:$port/healthz"
  recording_announce "http://127.0.0.1:$port"
  BENCH_VISITS=$pool instructions_row "\`POST /api/comment\` with a visit's attempt, recording on, $name" \
    "$instr_pid" "http://127.0.0.1:$port/api/comment" POST "$comment_template" 3
  instructions_stop
  recording_ratios+=("$name ×$(awk -v a="$instr_last" -v b="$off" 'BEGIN { printf "%.3f", a / b }')")
}

instructions_stop() {
  [ -n "$instr_pid" ] || return 0
  kill "$instr_pid" 2>/dev/null && wait "$instr_pid" 2>/dev/null || true
  instr_pid=
}

instructions_measure() {
  command -v callgrind_control >/dev/null || die "no valgrind (apt-get install valgrind)"
  step "instructions a request (callgrind, 1 connection, ${INSTRUCTIONS_SECONDS:-20}s a row)"
  local port
  port=$(free_port)
  PORT=$port UPSTREAM=$upstream valgrind --tool=callgrind --callgrind-out-file="$tmp/callgrind.%p" \
    "$floor_bin" >"$tmp/floor-instructions.log" 2>&1 &
  instr_pid=$!
  instructions_wait "$instr_pid" "http://127.0.0.1:$port/error"
  echo
  echo "| row | requests counted | instructions a request |"
  echo "|---|---:|---:|"
  instructions_row "the stack floor's \`GET /error\`" "$instr_pid" "http://127.0.0.1:$port/error" GET ""
  instructions_stop
  recording_ratios=()
  instructions_server "this build" "$bin"
  instructions_recording "this build" "$bin"
  if [ -n "$bin_before" ]; then
    instructions_server "the build before" "$bin_before"
    instructions_recording "the build before" "$bin_before"
  fi
  echo
  echo "recording on / off, instructions a comment with a visit's attempt: ${recording_ratios[*]} (target ≤ ×1.05)"
}
