# The added sequential p50, for .ci/loadbench, which sources this file and
# calls sequential_measure after its rows (and the build before's, while that
# server still runs): $SEQUENTIAL_ROUNDS (3) rounds, each a run of
# $SEQUENTIAL_SECONDS (5) at one connection of the upstream direct, the stack
# floor, this build's `GET /error` and the build before's, one after the
# other. A row's own 10 s run is one sample, taken minutes from the
# upstream's; on this shared machine the hour moves every p50 by tens of µs,
# so the target is read from the median of the rounds' differences, each
# taken within a minute of its upstream. Uses loadbench's servers ($upstream,
# $floor, $app, $app_before), bodies, $lua and helpers (step, median).

# p50_once URL METHOD BODY TYPE: the p50 in µs of one run at one connection.
p50_once() {
  BENCH_METHOD=$2 BENCH_BODY=$3 BENCH_TYPE=$4 BENCH_THREADS=1 \
    wrk -t1 -c1 -d"${SEQUENTIAL_SECONDS:-5}s" --latency -s "$lua" "$1" |
    sed -n 's/^figures .* p50_us=\([0-9]*\).*/\1/p'
}

# sequential_measure: sets seq_added, seq_floor and seq_before (µs, medians;
# seq_before empty without a build before) and seq_rounds (each round's
# figures, for the report).
sequential_measure() {
  local rounds=${SEQUENTIAL_ROUNDS:-3} r up fl er be
  local -a added=() floor_added=() before_added=()
  step "added sequential p50: $rounds interleaved rounds of ${SEQUENTIAL_SECONDS:-5}s at 1 connection"
  seq_rounds=""
  for r in $(seq "$rounds"); do
    up=$(p50_once "$upstream" POST "$upstream_body" application/json)
    fl=$(p50_once "$floor/error" GET "" "")
    er=$(p50_once "$app$error_path" GET "" "")
    added+=($((er - up)))
    floor_added+=($((fl - up)))
    seq_rounds+="${seq_rounds:+; }upstream $up, floor $fl, /error $er"
    if [ -n "${app_before:-}" ]; then
      be=$(p50_once "$app_before$error_path" GET "" "")
      before_added+=($((be - up)))
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
}

# sequential_report: the rounds and their medians.
sequential_report() {
  echo "added sequential p50, median of the rounds (µs of p50 at 1 connection): $seq_added µs (rounds: $seq_added_all)${seq_before:+; the build before $seq_before µs (rounds: $seq_before_all)}; the stack floor alone $seq_floor µs"
  echo "  the rounds' p50s: $seq_rounds"
}
