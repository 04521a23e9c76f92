"""The tables of .ci/modelbench, from drive.py's attempts: the registry as
the app read it, then per language and per model (and language) what was
served, rejected and why, what went offline, and the tokens each comment
cost. Markdown, then one `modelbench {json}` line per model and language and
per language. Python 3 standard library only.
"""

import json
import sys
from collections import Counter, defaultdict

LANGS = ["en", "pt", "zh"]
TIERS = ["far", "close", "goal"]
# Outcomes of models that were not called (no request left the app).
NOT_CALLED = {
    "queue_full", "breaker_open", "busy", "daily_budget", "disabled", "no_token",
    "misconfigured", "unknown", "not_served", "other_language", "credits",
    "unauthorized",
}


def tier(error, lesson=1):
    if lesson == 2:
        return "far" if error > 5000 else ("close" if error >= 1420 else "goal")
    return "far" if error > 2000 else ("close" if error > 450 else "goal")


def percentile(values, p):
    """Nearest rank."""
    if not values:
        return None
    s = sorted(values)
    k = max(0, min(len(s) - 1, -(-len(s) * p // 100) - 1))
    return s[int(k)]


def served_by(r):
    """The model that wrote the comment, or None (offline, HTTP failure)."""
    body = r["body"]
    if r["status"] == 200 and body.get("fallback") is False:
        return body.get("model")
    return None


def called(t):
    return t.get("outcome", "?") not in NOT_CALLED


def table(title, rows):
    print(f"| {title} | " + " | ".join(LANGS) + " |")
    print("|---|" + "---:|" * len(LANGS))
    for name, cells in rows:
        print(f"| {name} | " + " | ".join(str(cells.get(lang, "–")) for lang in LANGS) + " |")
    print()


def registry(start):
    print("### The registry as the app read it (after its availability checks)")
    print()
    print("| model | id | languages (from) | availability |")
    print("|---|---|---|---|")
    for m in start:
        a = m["availability"]
        state = a["state"] + (f": {a['why']}" if a.get("why") else "")
        live = [p["provider"] for p in a.get("providers", []) if p.get("status") == "live"]
        if live:
            state += f" ({', '.join(live)})"
        if not m["enabled"]:
            state = "disabled"
        langs = ", ".join(m["languages"])
        print(f"| {m['alias']} | `{m['model']}` | {langs} ({m['languages_from']}) | {state} |")
    print()


def per_language(results, aliases):
    rows, lines = [], []
    by_lang = {lang: [r for r in results if r["lang"] == lang] for lang in LANGS}
    rows.append(("attempts", {lang: len(rs) for lang, rs in by_lang.items()}))
    for alias in aliases:
        rows.append((f"served by {alias}",
                     {lang: sum(served_by(r) == alias for r in rs) for lang, rs in by_lang.items()}))
    offline_asked, offline_unasked, why_unasked, http = {}, {}, defaultdict(Counter), {}
    for lang, rs in by_lang.items():
        off = [r for r in rs if r["status"] == 200 and r["body"].get("fallback") is True]
        asked = [r for r in off if any(called(t) for t in r["body"].get("tried", []))]
        offline_asked[lang] = len(asked)
        offline_unasked[lang] = len(off) - len(asked)
        for r in off:
            if r not in asked:
                tried = r["body"].get("tried", [])
                why = r["body"].get("limited") or ", ".join(
                    sorted({t["outcome"] for t in tried})) or "no model for the language"
                why_unasked[lang][why] += 1
        http[lang] = sum(r["status"] != 200 for r in rs)
    rows.append(("offline: every model asked failed or was rejected", offline_asked))
    rows.append(("offline: no model asked", offline_unasked))
    for why in sorted({w for c in why_unasked.values() for w in c}):
        rows.append((f"&nbsp;&nbsp;because: {why}", {lang: why_unasked[lang][why] for lang in LANGS}))
    if any(http.values()):
        rows.append(("HTTP failures", http))
    for t in TIERS:
        rows.append((f"served, {t}", {
            lang: f"{sum(served_by(r) is not None for r in rs if r['tier'] == t)} of "
                  f"{sum(r['tier'] == t for r in rs)}" for lang, rs in by_lang.items()}))
    print("### Per language: who served the visitor")
    print()
    table("", rows)
    for lang, rs in by_lang.items():
        lines.append({
            "lang": lang, "attempts": len(rs),
            "served": dict(Counter(a for a in map(served_by, rs) if a)),
            "offline_after_calls": offline_asked[lang], "offline_without_call": offline_unasked[lang],
            "offline_because": dict(why_unasked[lang]), "http_failures": http[lang],
        })
    return lines


def per_model(m, results):
    """One model's table (columns: languages) and its JSON lines."""
    alias = m["alias"]
    cells = {lang: {"calls": 0, "served": 0, "rejected": Counter(), "failed": Counter(),
                    "not_called": Counter(), "latencies": [], "prompt": 0,
                    "completion": 0, "answers": 0} for lang in LANGS}
    for r in results:
        c = cells[r["lang"]]
        for t in r["body"].get("tried", []) if r["status"] == 200 else []:
            if t.get("model") != alias:
                continue
            outcome = t.get("outcome", "?")
            if not called(t):
                c["not_called"][outcome] += 1
                continue
            c["calls"] += 1
            if t.get("latency_ms") is not None:
                c["latencies"].append(t["latency_ms"])
            if outcome.startswith("rejected: "):
                c["rejected"][outcome[len("rejected: "):]] += 1
            elif outcome != "ok":
                c["failed"][outcome] += 1
        c["served"] += served_by(r) == alias
        prompt, completion, answers = r.get("tokens", {}).get(alias, (0, 0, 0))
        c["prompt"] += prompt
        c["completion"] += completion
        c["answers"] += answers
    speaks = set(m["languages"])
    rows = [("asked in this language", {l: "yes" if l in speaks else "**no**" for l in LANGS}),
            ("model calls", {l: c["calls"] for l, c in cells.items()}),
            ("served", {l: c["served"] for l, c in cells.items()})]
    for key, label in (("rejected", "rejected: "), ("failed", "failed: "),
                       ("not_called", "not called: ")):
        for reason in sorted({k for c in cells.values() for k in c[key]}):
            rows.append((label + reason, {l: c[key][reason] for l, c in cells.items()}))

    def per(c, n):
        return f"{c['prompt'] / n:.0f} + {c['completion'] / n:.0f}" if n else "–"

    rows.append(("tokens per answer (prompt + completion)",
                 {l: per(c, c["answers"]) for l, c in cells.items()}))
    rows.append(("tokens per served comment (all its calls' tokens)",
                 {l: per(c, c["served"]) for l, c in cells.items()}))
    rows.append(("model call p50 / p95", {
        l: f"{percentile(c['latencies'], 50)} / {percentile(c['latencies'], 95)} ms"
        if c["latencies"] else "–" for l, c in cells.items()}))
    print(f"### {alias} (`{m['model']}`, languages from {m['languages_from']})")
    print()
    table("", rows)
    return [{
        "model": alias, "lang": l, "asked_in_language": l in speaks, "calls": c["calls"],
        "served": c["served"], "rejected": dict(c["rejected"]), "failed": dict(c["failed"]),
        "not_called": dict(c["not_called"]), "prompt_tokens": c["prompt"],
        "completion_tokens": c["completion"], "answers_with_usage": c["answers"],
        "p50_ms": percentile(c["latencies"], 50), "p95_ms": percentile(c["latencies"], 95),
    } for l, c in cells.items()]


def samples(results):
    """Ten served comments, taken in turn from each language, tiers spread."""
    pools = {lang: [r for r in results if r["lang"] == lang and served_by(r)] for lang in LANGS}
    picked = []
    while len(picked) < 10 and any(pools.values()):
        for lang in LANGS:
            if pools[lang] and len(picked) < 10:
                seen = Counter(s["tier"] for s in picked if s["lang"] == lang)
                pick = min(pools[lang], key=lambda r: seen[r["tier"]])
                pools[lang].remove(pick)
                picked.append(pick)
    print(f"### {len(picked)} comments served by the models")
    print()
    for s in picked:
        point = " (w, b given)" if s["with_point"] else ""
        print(f"- {s['lang']}, {s['tier']}, error {s['error']:.2f}{point}, {served_by(s)}: "
              f"{s['body'].get('comment')!r}")
    print()


def print_all(start, end, results):
    """Every table; 2 when no call reached a model."""
    print()
    registry(start)
    enabled = [m for m in end if m["enabled"]]
    lines = per_language(results, [m["alias"] for m in enabled])
    for m in enabled:
        lines += per_model(m, results)
    samples(results)
    for line in lines:
        print("modelbench " + json.dumps(line, ensure_ascii=False, sort_keys=True))
    reached = sum(called(t) and t.get("outcome") != "connection_failed"
                  for r in results for t in r["body"].get("tried", []))
    if reached == 0:
        print("modelbench: no call reached a model", file=sys.stderr)
        return 2
    return 0
