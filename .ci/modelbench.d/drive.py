#!/usr/bin/env python3
"""The attempts of .ci/modelbench, sent one at a time to the app's /error, and
the tables. Python 3 standard library only.

Every tier (far > 2000, close 450-2000, goal <= 450), in en, pt and zh, each
point once with its weight and bias (the app then knows the point, states its
facts to the model and holds the answer to them) and once with the error
alone; each with a short history. The points are real: their errors are
computed here as the app computes them (mean squared error over the three
houses), so the app's 0.5 % agreement check passes.
"""

import argparse
import json
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter

HOUSES = [(2104, 399.9), (1600, 329.9), (2400, 369.0)]


def error_at(w, b):
    return sum((area * w + b - price) ** 2 for area, price in HOUSES) / len(HOUSES)


# (weight, bias, history): the history's errors, oldest first.
POINTS = [
    # far
    (0.1, 50, []),  # 13359.09
    (0.05, 0, [13359.09]),  # 70433.03: worse than the last
    (0.18, 0, [70433.03, 13359.09]),  # 2057.73: better
    # close
    (0.1, 150, [13359.09]),  # 799.09: the start
    (0.1, 163, [13359.09, 799.09]),  # 635.29: better
    (0.084, 226, [799.09, 635.29]),  # 1457.42: worse
    # goal
    (0.06, 245, [799.09, 635.29]),  # 448.20
    (0.059, 246, [635.29, 448.20]),  # 447.37
]
LANGS = ["en", "pt", "zh"]
# Outcomes that never reached the model (no call made).
NOT_CALLED = {
    "queue_full", "breaker_open", "busy", "daily_budget", "disabled",
    "no_token", "misconfigured", "unknown",
}


def tier(error):
    return "far" if error > 2000 else ("close" if error > 450 else "goal")


def get_json(url, timeout):
    req = urllib.request.Request(url, headers={"Accept": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read().decode("utf-8"))
    except urllib.error.HTTPError as e:
        body = e.read().decode("utf-8", "replace")
        try:
            return e.code, json.loads(body)
        except ValueError:
            return e.code, {"error": body}


def warm_up(model_server):
    """One short completion, so the first attempt does not pay the load."""
    body = json.dumps({
        "model": "smollm2",
        "messages": [{"role": "user", "content": "Say hello."}],
        "max_tokens": 8,
    }).encode()
    req = urllib.request.Request(
        model_server + "/chat/completions", data=body,
        headers={"Content-Type": "application/json"})
    started = time.monotonic()
    with urllib.request.urlopen(req, timeout=120) as r:
        r.read()
    return (time.monotonic() - started) * 1000


def percentile(values, p):
    """Nearest rank."""
    if not values:
        return None
    s = sorted(values)
    k = max(0, min(len(s) - 1, -(-len(s) * p // 100) - 1))
    return s[int(k)]


def attempts():
    for lang in LANGS:
        for w, b, history in POINTS:
            error = round(error_at(w, b), 2)
            for with_point in (True, False):
                yield lang, w, b, error, history, with_point


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--app", required=True)
    ap.add_argument("--model-server", required=True)
    ap.add_argument("--timeout", type=float, default=30)
    args = ap.parse_args()

    print(f"warm-up completion: {warm_up(args.model_server):.0f} ms", file=sys.stderr)
    results = []
    todo = list(attempts())
    for i, (lang, w, b, error, history, with_point) in enumerate(todo, 1):
        q = {"error": f"{error:.2f}", "lang": lang, "format": "json"}
        if history:
            q["tentativas"] = ",".join(f"{h:.2f}" for h in history)
        if with_point:
            q["weight"] = f"{w:g}"
            q["bias"] = f"{b:g}"
        url = args.app + "/error?" + urllib.parse.urlencode(q)
        started = time.monotonic()
        try:
            status, body = get_json(url, args.timeout)
        except Exception as e:  # a dead app, a timeout: recorded, not fatal
            status, body = 0, {"error": repr(e)}
        wall = (time.monotonic() - started) * 1000
        r = {"lang": lang, "error": error, "tier": tier(error), "with_point": with_point,
             "status": status, "wall_ms": wall, "body": body}
        results.append(r)
        outcomes = ", ".join(f"{t.get('outcome')} {t.get('latency_ms')} ms"
                             for t in body.get("tried", [])) or "no call"
        who = "offline" if body.get("fallback", True) else body.get("model")
        print(f"[{i:2}/{len(todo)}] {lang} {r['tier']:5} {error:>9.2f} "
              f"{'w,b' if with_point else '   '} -> {status} {who} ({outcomes}): "
              f"{body.get('comment', body.get('error'))!r}", file=sys.stderr)

    reached = 0
    print()
    for lang in LANGS:
        rs = [r for r in results if r["lang"] == lang]
        served = [r for r in rs if r["status"] == 200 and r["body"].get("fallback") is False]
        offline = [r for r in rs if r["status"] == 200 and r["body"].get("fallback") is True]
        http_fail = [r for r in rs if r["status"] != 200]
        no_call = [r for r in offline if not r["body"].get("tried")]
        rejected, other, latencies = Counter(), Counter(), []
        calls = 0
        for r in rs:
            for t in r["body"].get("tried", []) if r["status"] == 200 else []:
                outcome = t.get("outcome", "?")
                if outcome not in NOT_CALLED:
                    calls += 1
                    if t.get("latency_ms") is not None:
                        latencies.append(t["latency_ms"])
                    if outcome not in ("connection_failed",):
                        reached += 1
                if outcome.startswith("rejected: "):
                    rejected[outcome[len("rejected: "):]] += 1
                elif outcome != "ok":
                    other[outcome] += 1
        p50, p95 = percentile(latencies, 50), percentile(latencies, 95)
        n = len(rs)

        def pct(k):
            return f"{k} ({100 * k / n:.0f} %)" if n else str(k)

        def by(group, key):
            total = Counter(key(r) for r in rs)
            got = Counter(key(r) for r in group)
            return total, got

        print(f"### {lang}: {n} attempts, {calls} model calls")
        print()
        print("| | count |")
        print("|---|---:|")
        print(f"| served by the model | {pct(len(served))} |")
        for reason, k in sorted(rejected.items(), key=lambda x: (-x[1], x[0])):
            print(f"| rejected: {reason} | {k} |")
        print(f"| offline comment | {pct(len(offline))} |")
        print(f"| &nbsp;&nbsp;of which no model call (its breaker resting it) | {len(no_call)} |")
        for outcome, k in sorted(other.items(), key=lambda x: (-x[1], x[0])):
            print(f"| other failure: {outcome} | {k} |")
        if http_fail:
            print(f"| HTTP failures | {len(http_fail)} ({Counter(r['status'] for r in http_fail)}) |")
        total, got = by(served, lambda r: r["tier"])
        print("| served per tier (far / close / goal) | "
              + " / ".join(f"{got[t]} of {total[t]}" for t in ("far", "close", "goal")) + " |")
        total, got = by(served, lambda r: r["with_point"])
        print(f"| served with weight and bias / error only | {got[True]} of {total[True]} / "
              f"{got[False]} of {total[False]} |")
        lat = (f"{p50} / {p95} ms" if latencies else "–")
        print(f"| model call latency p50 / p95 | {lat} |")
        print()
        summary = {
            "lang": lang, "attempts": n, "calls": calls, "served": len(served),
            "rejected": dict(rejected), "offline": len(offline),
            "offline_without_call": len(no_call), "other": dict(other),
            "http_failures": len(http_fail), "p50_ms": p50, "p95_ms": p95,
        }
        print("modelbench " + json.dumps(summary, ensure_ascii=False, sort_keys=True))
        print()

    # Ten served comments, taken in turn from each language, tiers spread.
    served = {lang: [r for r in results if r["lang"] == lang and r["status"] == 200
                     and r["body"].get("fallback") is False] for lang in LANGS}
    samples = []
    while len(samples) < 10 and any(served.values()):
        for lang in LANGS:
            if served[lang] and len(samples) < 10:
                pool = served[lang]
                seen = Counter(s["tier"] for s in samples if s["lang"] == lang)
                pick = min(pool, key=lambda r: seen[r["tier"]])
                pool.remove(pick)
                samples.append(pick)
    print(f"### {len(samples)} comments served by the model")
    print()
    for s in samples:
        point = " (w, b given)" if s["with_point"] else ""
        print(f"- {s['lang']}, {s['tier']}, error {s['error']:.2f}{point}: "
              f"{s['body'].get('comment')!r}")
    print()
    if reached == 0:
        print("modelbench: no call reached the model", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
