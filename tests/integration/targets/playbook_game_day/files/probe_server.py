"""A service a game day's probe watches: GET answers as the file MODE says - ok (200), bad (503) or flap (503, 200, 503, ...).

    python probe_server.py MODE_FILE      prints its URL, then serves until killed
"""

import itertools
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

FLAP = itertools.cycle([503, 200])


class Probe(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (http.server's name)
        with open(sys.argv[1], encoding="utf-8") as handle:
            mode = handle.read().strip()
        self.send_response(200 if mode == "ok" else 503 if mode == "bad" else next(FLAP))
        self.end_headers()

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    server = HTTPServer(("127.0.0.1", 0), Probe)
    print("http://127.0.0.1:%d/health" % server.server_address[1], flush=True)
    server.serve_forever()
