# The added sequential p50, for .ci/loadbench, which sources this file and
# calls sequential_measure after its rows (and the build before's, while that
# server still runs): $SEQUENTIAL_ROUNDS (3) rounds, each a run of
# $SEQUENTIAL_SECONDS (5) at one connection of the upstream direct, the stack
# floor, this build's `GET /error` and the build before's, one after the
# other. A row's own 10 s run is one sample, taken minutes from the
# upstream's; on this shared machine the hour moves every p50 by tens of µs,
# so the target is read from the median of the rounds' differences, each
# taken within a minute of its upstream. The same runs count each server's
# CPU a request: its threads' time on a CPU (/proc, exact) and the kernel's
# sampled user and system time (which leave out interrupts). A p50 adds to
# that the waits between the processes, so the two tell a cut in the
# server's own work from the machine's hour. Uses loadbench's servers
# ($upstream, $floor, $app, $app_before and their pids), bodies, $lua and
# helpers (step, median).

# cpu_so_far PID: that process's time on a CPU so far, in ns (every thread's
# scheduler count), then its user and system time in clock ticks; nothing
# if it cannot be read.
cpu_so_far() {
  local ns
  ns=$(cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { if (NR) printf "%.0f", s }')
  [ -n "$ns" ] && echo "$ns $(awk '{ print $14, $15 }' "/proc/$1/stat" 2>/dev/null)"
}

# once URL METHOD BODY TYPE [PID]: one run at one connection: its p50 (µs)
# and, with PID, that process's CPU a request: on a CPU, user and system
# (µs), on one line ("p50 cpu user sys"; "-" where unknown).
once() {
  local line before= after=
  [ -z "${5:-}" ] || before=$(cpu_so_far "$5" || true)
  line=$(BENCH_METHOD=$2 BENCH_BODY=$3 BENCH_TYPE=$4 BENCH_THREADS=1 \
    wrk -t1 -c1 -d"${SEQUENTIAL_SECONDS:-5}s" --latency -s "$lua" "$1" | grep '^figures')
  [ -z "${5:-}" ] || after=$(cpu_so_far "$5" || true)
  awk -v line="$line" -v before="$before" -v after="$after" -v tick="$(getconf CLK_TCK)" 'BEGIN {
    p50 = line; sub(/.* p50_us=/, "", p50); sub(/ .*/, "", p50)
    n = line; sub(/.*requests=/, "", n); sub(/ .*/, "", n)
    if (split(before, b) < 3 || split(after, a) < 3 || n + 0 == 0) { print p50, "-", "-", "-"; exit }
    printf "%s %.1f %.1f %.1f\n", p50, (a[1] - b[1]) / 1e3 / n,
      (a[2] - b[2]) * 1e6 / tick / n, (a[3] - b[3]) * 1e6 / tick / n
  }'
}

# sequential_measure: sets seq_added, seq_floor and seq_before (µs, medians;
# seq_before empty without a build before), seq_rounds (each round's
# figures, for the report) and seq_cpu (the servers' CPU a request, medians).
sequential_measure() {
  local rounds=${SEQUENTIAL_ROUNDS:-3} r up fl er be fl_c fl_u fl_s er_c er_u er_s be_c be_u be_s
  local -a added=() floor_added=() before_added=() cpu_er=() cpu_fl=() cpu_be=()
  step "added sequential p50: $rounds interleaved rounds of ${SEQUENTIAL_SECONDS:-5}s at 1 connection"
  seq_rounds=""
  for r in $(seq "$rounds"); do
    read -r up _ < <(once "$upstream" POST "$upstream_body" application/json)
    read -r fl fl_c fl_u fl_s < <(once "$floor/error" GET "" "" "$floor_pid")
    read -r er er_c er_u er_s < <(once "$app$error_path" GET "" "" "$app_pid")
    added+=($((er - up)))
    floor_added+=($((fl - up)))
    cpu_er+=("$er_c $er_u $er_s") cpu_fl+=("$fl_c $fl_u $fl_s")
    seq_rounds+="${seq_rounds:+; }upstream $up, floor $fl, /error $er"
    if [ -n "${app_before:-}" ]; then
      read -r be be_c be_u be_s < <(once "$app_before$error_path" GET "" "" "$app_before_pid")
      before_added+=($((be - up)))
      cpu_be+=("$be_c $be_u $be_s")
      seq_rounds+=", before $be"
    fi
    echo "round $r: ${seq_rounds##*; }" >&2
  done
  seq_added=$(median "${added[@]}")
  seq_floor=$(median "${floor_added[@]}")
  seq_before=
  [ ${#before_added[@]} -eq 0 ] || seq_before=$(median "${before_added[@]}")
  seq_added_all=${added[*]}
  seq_before_all=${before_added[*]}
  seq_cpu="this build $(cpu_medians "${cpu_er[@]}")"
  [ ${#cpu_be[@]} -eq 0 ] || seq_cpu+="; the build before $(cpu_medians "${cpu_be[@]}")"
  seq_cpu+="; the stack floor $(cpu_medians "${cpu_fl[@]}")"
}

# cpu_medians "CPU USER SYS"...: the rounds' medians of each, for the report.
cpu_medians() {
  local -a c=() u=() k=()
  local one on user sys
  for one in "$@"; do
    read -r on user sys <<<"$one"
    c+=("$on") u+=("$user") k+=("$sys")
  done
  echo "$(median "${c[@]}") µs (user $(median "${u[@]}"), system $(median "${k[@]}"))"
}

# sequential_report: the rounds and their medians.
sequential_report() {
  echo "added sequential p50, median of the rounds (µs of p50 at 1 connection): $seq_added µs (rounds: $seq_added_all)${seq_before:+; the build before $seq_before µs (rounds: $seq_before_all)}; the stack floor alone $seq_floor µs"
  echo "  the rounds' p50s: $seq_rounds"
  echo "  the server's CPU a request in those runs, the rounds' medians: $seq_cpu"
}
