#!/usr/bin/env python3
"""A recording proxy between the app and the model server, for
.ci/modelbench's JAY_MODELBENCH_RECORD: every request is passed on as it came
and answered as the model server answered it; each chat completion's reply is
appended to a JSON-lines file with the time it was asked (`t`, Unix seconds),
the model id and the raw reply text, before any check of the app's. drive.py
notes when each attempt started and ended, and join() pairs every reply with
the attempt it was asked for, so `.ci/judge-replay` can hold the same replies
to two builds' reply checks. Python's standard library only.

    record.py UPSTREAM_URL PORT OUT_JSONL
"""

import http.server
import json
import sys
import threading
import time
import urllib.error
import urllib.request

UPSTREAM = ""
OUT = None
LOCK = threading.Lock()


class Proxy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def forward(self, body):
        req = urllib.request.Request(UPSTREAM + self.path, data=body, method=self.command)
        for name in ("Content-Type", "Authorization", "Accept"):
            if self.headers.get(name):
                req.add_header(name, self.headers[name])
        try:
            with urllib.request.urlopen(req, timeout=300) as r:
                return r.status, r.headers.get("Content-Type", "application/json"), r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers.get("Content-Type", "application/json"), e.read()

    def answer(self, status, content_type, data):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.answer(*self.forward(None))

    def do_POST(self):
        asked = time.time()
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        status, content_type, data = self.forward(body)
        if self.path.endswith("/chat/completions") and status == 200:
            try:
                reply = json.loads(data)["choices"][0]["message"]["content"]
                model = json.loads(body).get("model")
            except (ValueError, KeyError, IndexError, TypeError):
                reply, model = None, None
            if reply is not None:
                with LOCK:
                    OUT.write(json.dumps({"t": asked, "model": model, "raw": reply},
                                         ensure_ascii=False) + "\n")
                    OUT.flush()
        self.answer(status, content_type, data)

    def log_message(self, *args):
        pass


def join(attempts, calls):
    """Each recorded reply with the attempt whose request it was asked
    within: the attempt's language, error, earlier errors and point."""
    out = []
    for call in calls:
        for a in attempts:
            if a["start"] <= call["t"] <= a["end"]:
                row = {k: a.get(k) for k in ("lang", "error", "attempts", "weight", "bias",
                                             "lesson", "two")}
                row.update(model=call["model"], raw=call["raw"])
                out.append(row)
                break
    return out


def main():
    global UPSTREAM, OUT
    UPSTREAM = sys.argv[1].rstrip("/").removesuffix("/v1")
    OUT = open(sys.argv[3], "a", encoding="utf-8")
    http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[2])), Proxy).serve_forever()


if __name__ == "__main__":
    main()
