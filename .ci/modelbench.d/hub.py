#!/usr/bin/env python3
"""The Hub's model API for .ci/modelbench, which has no network: `GET
/api/models/{owner}/{name}` answers the card metadata that cards.json holds
(copied from the real cards), and 404 with the Hub's error shape for any other
model. Python's standard library only.

    hub.py CARDS_JSON PORT
"""

import http.server
import json
import sys

CARDS = {}


class Hub(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        prefix = "/api/models/"
        card = CARDS.get(self.path[len(prefix):]) if self.path.startswith(prefix) else None
        status, body = (200, card) if card else (404, {"error": "Repository not found"})
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        CARDS.update(json.load(f))
    http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[2])), Hub).serve_forever()


if __name__ == "__main__":
    main()
