# What recording costs a comment (at most 5 % more than with it
# off), for .ci/loadbench, which sources this file and calls the two
# functions: recording_measure after its own figures were taken (peak RSS,
# comments under load, so they stay as they were), recording_report after its
# table. They use loadbench's servers ($app records into SQLite in
# $tmp/data, $app_off runs with JAY_INSIGHTS=off), its wrk script ($lua) and
# helpers (figure, fig, step, die, median, thousands, ms, met, bad, sum_metric).

# The visits announced, and a comment's body: one attempt of one of them
# (visitors.lua fills in the visit and the attempt's number).
pool=2000
comment_template='{"error":799.09,"attempts":[13359.08,2914.7],"weight":0.1,"bias":150,"lang":"en","visit":"%VISIT%","attempt":%ATTEMPT%}'

# recording_announce URL [FIRST]: the $pool visits from number FIRST (0)
# announced to the server at URL, one request each, as the page's head script
# does (also used by instructions.sh).
recording_announce() {
  local i announced from=${2:-0}
  {
    for i in $(seq "$from" $((from + pool - 1))); do
      printf 'url = "%s/insights/events"\n' "$1"
      printf 'header = "Content-Type: application/json"\n'
      printf 'header = "X-Forwarded-For: 10.250.%d.%d"\n' $((i / 256)) $((i % 256))
      printf 'data = "{\\"visit\\":\\"loadbench-visit-%04d\\",\\"lang\\":\\"en\\",\\"layout\\":\\"page\\",\\"width\\":1280}"\n' "$i"
      printf 'output = "/dev/null"\n'
      printf 'write-out = "%%{http_code}\\n"\n'
      if [ "$i" -lt $((from + pool - 1)) ]; then printf 'next\n'; fi
    done
  } >"$tmp/announce.curl"
  announced=$(curl -sS -K "$tmp/announce.curl" | grep -c '^204$' || true)
  [ "$announced" -eq "$pool" ] || die "only $announced of $pool visits were announced (POST /insights/events answers 204)"
}

# recording_measure: 2,000 visits announced to the recording server, one
# request each, as the page's head script does; then POST /api/comment rows,
# each request an attempt of one of them (visitors.lua numbers them), off and
# on in pairs, $RECORDING_PAIRS pairs (5) at each connection count: on two
# shared cores one pair of 10 s runs moved by ±5 % (up to ±20 % at 32
# connections) from run to run, so the ratios are the pairs' medians. Every
# other pair runs the recording server first, and every run starts after the
# same 1.5 s of rest (which the recording server's writer needs to commit the
# run's last batch before its CPU is read), so that neither server always
# goes first, nor always right after the other's load. Even so, two servers
# alike in every way (both off) gave pairs from ×0.86 to ×1.21 at 32
# connections (docs/benchmarks/insights-noise.md): the writer's thread's
# share, printed too, is the steadier figure. Then what was recorded.
recording_measure() {
  step "recording's cost: 2,000 visits announced, then POST /api/comment with a visit and an attempt, recording off and on"
  recording_announce "$app"
  pairs=${RECORDING_PAIRS:-5}
  # Each recording run's attempt numbers start past the last one's (a run
  # numbers up to its requests / 2,000 + 1 a visit, plus those under way when
  # it stops), so none repeats. A visit's attempts are recorded up to the
  # 500th: when the next run could pass it (twice the last run's numbers),
  # the runs go on with the next 2,000 visits, announced then.
  attempt_from=0 step_on=0 block=0
  sent_on=0
  # The CPU time a process has used, in µs (user + system, /proc).
  tick_us=$((1000000 / $(getconf CLK_TCK)))
  cpu_us() { awk -v t="$tick_us" '{ print ($14 + $15) * t }' "/proc/$1/stat"; }
  # threads_us PID NAME: the same for the process's threads whose name
  # starts with NAME (a thread that ends between two reads takes its time
  # with it; those measured live through a run). `insights-writer`: the
  # writer's own thread, its batches and rollups, and SQLite's work for them
  # (which runs there); `sqlx-sqlite`: the threads sqlx runs its SQLite
  # connections on (the purges and the rooms; a build from before the
  # batches went through SQLite's own interface ran them there too).
  threads_us() {
    local task
    for task in /proc/"$1"/task/*; do
      case $(cat "$task/comm" 2>/dev/null) in "$2"*) cat "$task/stat" 2>/dev/null || true ;; esac
    done | awk -v t="$tick_us" '{ s += ($14 + $15) * t } END { print s + 0 }'
  }
  # rec NAME URL CONNECTIONS SECONDS PID: one run against the server PID; its
  # figures in fig[NAME,CONNECTIONS], with the CPU the server used for it
  # (cpu_us; on the recording server, until its writer has committed the
  # run's last batch: it waits at most a second for more). Each run is
  # followed by the same rest, whichever server it measured.
  rec() {
    local name=$1 url=$2 c=$3 secs=$4 pid=$5 t=1 line before db_before wr_before
    [ "$c" -gt 1 ] && t=$threads
    if [ "$pid" = "$app_pid" ] && [ $((attempt_from + 2 * step_on)) -gt 500 ]; then
      block=$((block + 1))
      [ "$block" -lt 5 ] || die "more than 10,000 visits needed (visitors.lua numbers them in four digits)"
      recording_announce "$app" $((block * pool))
      attempt_from=0
      sleep 1.5
    fi
    before=$(cpu_us "$pid") db_before=$(threads_us "$pid" sqlx-sqlite) wr_before=$(threads_us "$pid" insights-writer)
    line=$(BENCH_METHOD=POST BENCH_BODY=$comment_template BENCH_TYPE=application/json BENCH_THREADS=$t \
      BENCH_VISITS=$pool BENCH_VISIT_FROM=$((block * pool)) BENCH_ATTEMPT_FROM=$attempt_from \
      wrk -t"$t" -c"$c" -d"${secs}s" --latency -s "$lua" "$url" | tee "$tmp/wrk-$name-$c" | grep '^figures ')
    sleep 1.5
    line="$line cpu_us=$(($(cpu_us "$pid") - before)) db_us=$(($(threads_us "$pid" sqlx-sqlite) - db_before))"
    line="$line writer_us=$(($(threads_us "$pid" insights-writer) - wr_before))"
    echo "$name, $c connection(s), ${secs}s: $line" >&2
    fig[$name,$c]=$line
    if [ "${name%%#*}" = comment_on ]; then
      sent_on=$((sent_on + $(figure "$name" "$c" requests)))
      step_on=$((($(figure "$name" "$c" requests) + c) / pool + 2))
      attempt_from=$((attempt_from + step_on))
    fi
  }
  rec comment_off "$app_off/api/comment" 1 "$warmup" "$app_off_pid"
  rec comment_on "$app/api/comment" 1 "$warmup" "$app_pid"
  local order which
  for c in 1 "$connections"; do
    for k in $(seq 1 "$pairs"); do
      order="off on"
      if [ $((k % 2)) = 0 ]; then order="on off"; fi
      for which in $order; do
        if [ "$which" = on ]; then
          rec "comment_on#$k" "$app/api/comment" "$c" "$duration" "$app_pid"
        else
          rec "comment_off#$k" "$app_off/api/comment" "$c" "$duration" "$app_off_pid"
        fi
      done
    done
  done
  # The writer commits within a second; then the attempts are counted where
  # they went, and in the day counts /insights reads.
  sleep 2
  db="$tmp/data/insights.db"
  # (A build from before the rollups has no day counts: "–" for them.)
  recorded=$(sqlite3 "$db" "SELECT COUNT(*) FROM insights_attempts WHERE visit_id LIKE 'loadbench-visit-%'" || echo –)
  counted=$(sqlite3 "$db" "SELECT COALESCE(SUM(comments), 0) FROM insights_day_comments" 2>/dev/null || echo –)
  metrics=$(curl -fsS "$app/metrics" || true)
  dropped=$(sum_metric jay_insights_dropped_total)
  # The recording server's peak, now that it has also written every attempt
  # (the page's targets hold on the recording path too).
  recording_peak_kb=$(awk '/^VmHWM/ { print $2 }' "/proc/$app_pid/status")
}

# recording_report: each pair's two rows, the on/off ratios of every pair
# and their medians, and the attempts found in the database.
recording_report() {
  # On / off, for latency (p50) and for throughput (requests/s off / on), at
  # each connection count.
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "–" }'; }
  echo
  echo "Recording's cost to \`POST /api/comment\` (each request an attempt of one of $pool announced visits; the two servers alike but for JAY_INSIGHTS; $pairs pairs of runs, off first in the odd ones and on first in the even ones, each run after 1.5 s of rest):"
  echo
  # The server's CPU per request, in µs (the SQLite thread's alone: `cpu
  # NAME C db_us`; the writer's thread's: `cpu NAME C writer_us`).
  cpu() { awk -v us="$(figure "$1" "$2" "${3:-cpu_us}")" -v n="$(figure "$1" "$2" requests)" 'BEGIN { if (n > 0 && us != "") printf "%.1f", us / n; else print "–" }'; }
  # run_by_run C FIELD: the recording runs' µs a request of FIELD at C
  # connections, listed.
  run_by_run() {
    local k out=()
    for k in $(seq 1 "$pairs"); do out+=("$(cpu "comment_on#$k" "$1" "$2")"); done
    printf '%s µs, ' "${out[@]}" | sed 's/, $//'
  }
  echo "| server, run | req/s, 1 conn | p50 | p99 | CPU µs/req | req/s, $connections conn | p50 | p99 | CPU µs/req | non-2xx |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for k in $(seq 1 "$pairs"); do
    for row in "comment_off#$k:recording off (\`JAY_INSIGHTS=off\`), $k" "comment_on#$k:recording on (SQLite), $k"; do
      name=${row%%:*} label=${row#*:}
      echo "| $label | $(thousands "$(rate "$name" 1)") | $(ms "$(figure "$name" 1 p50_us)") | $(ms "$(figure "$name" 1 p99_us)") | $(cpu "$name" 1) |" \
        "$(thousands "$(rate "$name" "$connections")") | $(ms "$(figure "$name" "$connections" p50_us)") | $(ms "$(figure "$name" "$connections" p99_us)") | $(cpu "$name" "$connections") | $(bad "$name") |"
    done
  done
  echo
  costs=() own=()
  for c in 1 "$connections"; do
    p50s=() rpss=()
    for k in $(seq 1 "$pairs"); do
      p50s+=("$(ratio "$(figure "comment_on#$k" "$c" p50_us)" "$(figure "comment_off#$k" "$c" p50_us)")")
      rpss+=("$(ratio "$(rate "comment_off#$k" "$c")" "$(rate "comment_on#$k" "$c")")")
    done
    p50=$(median "${p50s[@]}") rps=$(median "${rpss[@]}")
    costs+=("$p50" "$rps")
    echo "recording on / off at $c connection(s), median of $pairs pairs: p50 ×$p50 ($(printf '×%s ' "${p50s[@]}" | sed 's/ $//')), time per request (requests/s off / on) ×$rps ($(printf '×%s ' "${rpss[@]}" | sed 's/ $//'))"
    cpus_on=() cpus_off=()
    for k in $(seq 1 "$pairs"); do
      cpus_on+=("$(cpu "comment_on#$k" "$c")") cpus_off+=("$(cpu "comment_off#$k" "$c")")
    done
    on=$(median "${cpus_on[@]}") off=$(median "${cpus_off[@]}")
    echo "the server's CPU per comment at $c connection(s), median of $pairs runs: $on µs recording, $off µs not: recording costs $(awk -v a="$on" -v b="$off" 'BEGIN { printf "%.1f", a - b }') µs a comment"
    echo "  of which the writer's own thread's (its batches, the rollups' arithmetic, SQLite's work for them), run by run: $(run_by_run "$c" writer_us)"
    echo "  and sqlx's SQLite threads' (the batches' SQLite work in builds from before it moved to the writer's thread), run by run: $(run_by_run "$c" db_us)"
    # The writer's thread alone, a steadier figure than the difference of
    # two servers' whole CPU (each of which moves with the machine): its µs
    # a comment against the same pair's comment without recording.
    shares=()
    for k in $(seq 1 "$pairs"); do
      shares+=("$(awk -v w="$(cpu "comment_on#$k" "$c" writer_us)" -v o="$(cpu "comment_off#$k" "$c")" 'BEGIN { if (o > 0 && w != "–") printf "%.1f", 100 * w / o; else print "–" }')")
    done
    echo "  the writer's thread against the comment's CPU without recording, pair by pair: $(printf '%s %%, ' "${shares[@]}" | sed 's/, $//') (median $(median "${shares[@]}") %)"
    own+=("$(median "${shares[@]}")")
  done
  worst=$(printf '%s\n' "${costs[@]}" | sort -g | tail -1)
  echo "target: a comment with recording on costs ≤ 1.05 × with it off: worst median ratio $worst, met: $(met "$worst" 1.05)"
  # The same cost read from the writer's thread alone: the request threads
  # run the same instructions with recording on and off, and this share
  # moves far less from run to run than the two servers' ratio
  # (docs/benchmarks/insights-noise.md).
  worst=$(printf '%s\n' "${own[@]}" | sort -g | tail -1)
  echo "target: recording's own CPU (its writer's thread) ≤ 5 % of a comment's without it: ${own[0]} % at 1 connection, ${own[1]} % at $connections (medians of the pairs), met: $(met "$worst" 5)"
  peak_mb=$(awk -v k="$recording_peak_kb" 'BEGIN { printf "%.1f", k / 1024 }')
  echo "target: the recording server's peak RSS after recording under load ≤ 40 MB: $peak_mb MB (VmHWM), met: $(met "$peak_mb" 40)"
  echo "attempts in the database after: $(thousands "$recorded") of $(thousands "$sent_on") responses wrk counted from the recording server (requests under way when a run stops are recorded but not counted) ($(thousands "$counted") in /insights' day counts; $(thousands "$dropped") events dropped)"
}
