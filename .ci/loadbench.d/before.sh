# The build before a change, measured in the same run as this one, for
# .ci/loadbench, which sources this file. With JAY_BIN_BEFORE and
# JAY_SITE_BEFORE (a server binary and its site), or BEFORE=<git revision>
# (built here once into target/before/<revision>/, from a worktree kept in
# target/before/tree, so a second run reuses both), loadbench starts that
# build beside its own, on the same instant upstream, runs the same
# `GET /error`, `POST /api/comment` and `GET /` rows against it, and prints
# the figures of both beside the targets:
#
#   /error and /api/comment at 32 connections: at least 0.14 of the upstream
#   direct's requests/s (nginx alone: the floor); added sequential p50 at
#   most 150 µs; peak RSS at most 40 MB; `GET /` p50 at 1 connection at most
#   0.5 ms (the whole server-rendered page, not only its render).
#
# Uses loadbench's helpers and variables (run, figure, rate, start_app, …).

# before_build: sets bin_before and site_before, or leaves them empty.
before_build() {
  bin_before=${JAY_BIN_BEFORE:-}
  site_before=${JAY_SITE_BEFORE:-}
  if [ -n "${BEFORE:-}" ]; then
    local rev out tree
    rev=$(git rev-parse --short "$BEFORE") || die "BEFORE=$BEFORE is no revision"
    out="$here/target/before/$rev"
    tree="$here/target/before/tree"
    if [ ! -x "$out/jay-trainer" ]; then
      step "the build before: $rev (a worktree in $tree, then its release build)"
      [ -d "$tree" ] || git worktree add --detach "$tree" "$rev" >&2
      git -C "$tree" checkout -q --detach "$rev"
      (cd "$tree" && { [ ! -f .ci/page-two ] || bash .ci/page-two >&2; } && cargo leptos build --release --precompress >&2)
      mkdir -p "$out"
      cp "$tree/target/release/jay-trainer" "$out/"
      rm -rf "$out/site" && cp -r "$tree/target/site" "$out/site"
    fi
    bin_before="$out/jay-trainer"
    site_before="$out/site"
  fi
  if [ -n "$bin_before" ]; then
    [ -x "$bin_before" ] || die "no server binary at $bin_before (JAY_BIN_BEFORE)"
    [ -d "$site_before/pkg" ] || die "no built site at $site_before (JAY_SITE_BEFORE)"
  fi
}

# before_measure: the before build's rows, then its peak RSS (after its own
# rows only; this build's is taken after its rows and /models). Its server
# runs on for sequential_measure; before_stop ends it.
before_measure() {
  [ -n "$bin_before" ] || return 0
  step "the build before: $bin_before"
  local port data
  port=$(free_port)
  data="$tmp/data-before"
  mkdir -p "$data"
  bin=$bin_before site=$site_before start_app "$port" "$data" "$tmp/app-before.log"
  app_before_pid=$!
  app_before="http://127.0.0.1:$port"
  for _ in $(seq 100); do
    ready "$app_before/healthz" 2>/dev/null && break
    kill -0 "$app_before_pid" 2>/dev/null || { cat "$tmp/app-before.log" >&2; die "the build before stopped"; }
    sleep 0.1
  done
  ready "$app_before/healthz" || die "the build before did not answer /healthz within 10 s"
  run before_error "$app_before$error_path" GET "" ""
  run before_comment "$app_before/api/comment" POST "$comment_body" application/json
  run before_page "$app_before/" GET "" ""
  peak_before_kb=$(awk '/^VmHWM/ { print $2 }' "/proc/$app_before_pid/status")
}

# before_stop: the build before's server stopped (after sequential_measure).
before_stop() {
  [ -n "$app_before_pid" ] || return 0
  kill "$app_before_pid" 2>/dev/null && wait "$app_before_pid" 2>/dev/null || true
  app_before_pid=
  app_before=
}

# before_report: the targets, this build and the one before.
before_report() {
  local up ratio_b ratio_a
  up=$(rate upstream "$connections")
  share() { awk -v r="$1" -v u="$up" 'BEGIN { printf "%.3f", r / u }'; }
  at_least() { if awk -v v="$1" -v l="$2" 'BEGIN { exit !(v >= l) }'; then echo yes; else echo no; fi; }
  echo
  echo "| target | before | this build | met |"
  echo "|---|---:|---:|---|"
  for row in "error:\`GET /error\`" "comment:\`POST /api/comment\`"; do
    local name=${row%%:*} label=${row#*:} after before=–
    after=$(share "$(rate "$name" "$connections")")
    [ -n "$bin_before" ] && before=$(share "$(rate "before_$name" "$connections")")
    echo "| $label at $connections connections, share of the upstream direct's req/s (≥ 0.14) | $before | $after | $(at_least "$after" 0.14) |"
  done
  local added_b=– rss_b=– page_b=–
  if [ -n "$bin_before" ]; then
    added_b="$seq_before µs"
    rss_b=$(awk -v k="$peak_before_kb" 'BEGIN { printf "%.1f MB", k / 1024 }')
    page_b=$(ms "$(figure before_page 1 p50_us)")
  fi
  echo "| added sequential p50 (≤ 150 µs) | $added_b | $added µs | $(met "$added" 150) |"
  echo "| peak RSS (≤ 40 MB) | $rss_b | $(awk -v k="$peak_kb" 'BEGIN { printf "%.1f MB", k / 1024 }') | $(met "$peak_kb" 40960) |"
  echo "| \`GET /\` p50 at 1 connection (≤ 0.5 ms) | $page_b | $(ms "$(figure page 1 p50_us)") | $(met "$(figure page 1 p50_us)" 500) |"
  echo "upstream direct at $connections connections: $(thousands "$up") req/s (the floor's)"
}
