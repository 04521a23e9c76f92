#!/usr/bin/env python3
"""The attempts of .ci/modelbench, sent one at a time to the app's /error;
report.py prints what they found. Python 3 standard library only.

Every tier (far > 2000, close 450-2000, goal <= 450), in en, pt and zh, each
point once with its weight and bias (the app then knows the point, states its
facts to the model and holds the answer to them) and once with the error
alone; each with a short history. The points are real: their errors are
computed here as the app computes them (mean squared error over the three
houses), so the app's 0.5 % agreement check passes.

With JAY_MODELBENCH_LESSON=2 the attempts are lesson 2's (`lesson=2`, ten
houses, `w1`, `w2`, `b`; tiers far > 5000, close 1420-5000, goal < 1420).

Before the attempts it waits for the app's availability checks (`/models`:
no enabled model `unchecked`); after each it reads `/models` again, so the
tokens each model's answers billed are known per attempt, and so per model
and language.
"""

import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

import record
import report

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


LESSON = int(os.environ.get("JAY_MODELBENCH_LESSON", "1"))

HOUSES_TWO = [((2104, 3), 399.9), ((1600, 3), 329.9), ((2400, 3), 369.0),
              ((1416, 2), 232.0), ((3000, 4), 539.9), ((1985, 4), 299.9),
              ((1534, 3), 314.9), ((1427, 3), 198.999), ((1380, 3), 212.0),
              ((1494, 3), 242.5)]


def error_two(w1, w2, b):
    return sum((x1 * w1 + x2 * w2 + b - price) ** 2
               for (x1, x2), price in HOUSES_TWO) / len(HOUSES_TWO)


# Lesson 2: ((w1, w2, b), history).
POINTS_TWO = [
    # far
    ((0.0, 0.0, 0.0), []),  # 108268.39
    ((0.3, 50.0, 0.0), [108268.39]),  # 161286.01: worse
    ((0.15, 0.0, 0.0), [161286.01]),  # 3152.14: better (close)
    # close
    ((0.1, 0.0, 150.0), [108268.39]),  # 3431.91: the start
    ((0.1, 0.0, 130.5), [108268.39, 3431.91]),  # 3051.66: better
    ((0.1794, 0.0, -15.1), [3431.91, 3051.66]),  # 1423.44: the area alone
    # goal
    ((0.19, -12.0, 0.0), [3051.66, 1423.44]),  # 1415.37
    ((0.1861, -10.0, 3.6), [1423.44, 1415.37]),  # 1406.05: the floor
]


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


def models(app):
    status, body = get_json(app + "/models", 10)
    if status != 200:
        raise SystemExit(f"drive.py: GET /models answered {status}: {body}")
    return body["models"]


def tokens(listed):
    return {m["alias"]: (m["tokens"]["prompt"], m["tokens"]["completion"],
                         m["tokens"]["answers"]) for m in listed}


def checked(app, wait_s):
    """/models once no enabled model is `unchecked` (or after `wait_s`)."""
    until = time.monotonic() + wait_s
    while True:
        listed = models(app)
        pending = [m["alias"] for m in listed
                   if m["enabled"] and m["usable"] and m["availability"]["state"] == "unchecked"]
        if not pending or time.monotonic() > until:
            return listed
        time.sleep(0.5)


def warm_up(model_server):
    """One short completion per model the server lists, so that the first
    attempt does not pay the load."""
    _, listed = get_json(model_server + "/models", 10)
    spent = []
    for entry in listed.get("data", []):
        body = json.dumps({
            "model": entry["id"],
            "messages": [{"role": "user", "content": "Say hello."}],
            "max_tokens": 8,
        }).encode()
        req = urllib.request.Request(
            model_server + "/chat/completions", data=body,
            headers={"Content-Type": "application/json"})
        started = time.monotonic()
        with urllib.request.urlopen(req, timeout=120) as r:
            r.read()
        spent.append((entry["id"], (time.monotonic() - started) * 1000))
    return spent


def attempts():
    for lang in report.LANGS:
        if LESSON == 2:
            for point, history in POINTS_TWO:
                error = round(error_two(*point), 2)
                for with_point in (True, False):
                    yield lang, point, None, error, history, with_point
            continue
        for w, b, history in POINTS:
            error = round(error_at(w, b), 2)
            for with_point in (True, False):
                yield lang, w, b, error, history, with_point


def attempt(app, timeout, lang, w, b, error, history, with_point):
    q = {"error": f"{error:.2f}", "lang": lang, "format": "json"}
    if history:
        q["tentativas"] = ",".join(f"{h:.2f}" for h in history)
    if LESSON == 2:
        q["lesson"] = "2"
        if with_point:
            q["w1"], q["w2"], q["b"] = (f"{v:g}" for v in w)
    elif with_point:
        q["weight"] = f"{w:g}"
        q["bias"] = f"{b:g}"
    started, since = time.monotonic(), time.time()
    try:
        status, body = get_json(app + "/error?" + urllib.parse.urlencode(q), timeout)
    except Exception as e:  # a dead app, a timeout: recorded, not fatal
        status, body = 0, {"error": repr(e)}
    return {"lang": lang, "error": error, "tier": report.tier(error, LESSON),
            "with_point": with_point, "status": status,
            "wall_ms": (time.monotonic() - started) * 1000, "body": body,
            # What record.join() pairs the model's replies with.
            "asked": {"lang": lang, "error": error, "attempts": history,
                      "weight": w if with_point and LESSON == 1 else None,
                      "bias": b if with_point and LESSON == 1 else None,
                      "lesson": LESSON,
                      "two": list(w) if with_point and LESSON == 2 else None,
                      "start": since, "end": time.time()}}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--app", required=True)
    ap.add_argument("--model-server", help="the local model server, warmed up first")
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--record", nargs=2, metavar=("CALLS_JSONL", "REPLIES_JSONL"),
                    help="pair record.py's calls with their attempts into REPLIES_JSONL")
    args = ap.parse_args()

    if args.model_server:
        for model, ms in warm_up(args.model_server):
            print(f"warm-up completion, {model}: {ms:.0f} ms", file=sys.stderr)
    start = checked(args.app, 30)
    before = tokens(start)
    results = []
    todo = list(attempts())
    for i, point in enumerate(todo, 1):
        r = attempt(args.app, args.timeout, *point)
        after = tokens(models(args.app))
        r["tokens"] = {alias: tuple(a - b for a, b in zip(t, before.get(alias, (0, 0, 0))))
                       for alias, t in after.items() if t != before.get(alias)}
        before = after
        results.append(r)
        body = r["body"]
        outcomes = ", ".join(f"{t.get('model')} {t.get('outcome')} {t.get('latency_ms')} ms"
                             for t in body.get("tried", [])) or "no call"
        who = "offline" if body.get("fallback", True) else body.get("model")
        print(f"[{i:2}/{len(todo)}] {r['lang']} {r['tier']:5} {r['error']:>9.2f} "
              f"{'w,b' if r['with_point'] else '   '} -> {r['status']} {who} ({outcomes}): "
              f"{body.get('comment', body.get('error'))!r}", file=sys.stderr)

    if args.record:
        calls_path, replies_path = args.record
        with open(calls_path, encoding="utf-8") as f:
            calls = [json.loads(line) for line in f if line.strip()]
        replies = record.join([r["asked"] for r in results], calls)
        with open(replies_path, "w", encoding="utf-8") as f:
            for row in replies:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        print(f"recorded: {len(replies)} replies of {len(calls)} calls into {replies_path}",
              file=sys.stderr)
    return report.print_all(start, models(args.app), results)


if __name__ == "__main__":
    sys.exit(main())
