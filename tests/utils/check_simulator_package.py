"""Check the simulator as its package installs it. Run with the Python of the virtual environment it
was installed into: starts the environment's console command, reads the URL it prints, logs in as
the demo user, stops it.

    VENV/bin/python tests/utils/check_simulator_package.py
"""

import http.cookiejar
import json
import os
import subprocess
import sys
import urllib.request

from replication_service_simulator.seed import DEMO_PASSWORD


def main():
    command = os.path.join(sys.prefix, "bin", "replication-service-simulator")
    server = subprocess.Popen([command, "--port", "0", "--seed", "demo"], stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().strip()
        if not url.startswith("http://127.0.0.1:"):
            raise SystemExit("the simulator printed %r, not its URL" % url)
        cookies = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(cookies))
        body = json.dumps({"username": "demo@example.com", "password": DEMO_PASSWORD}).encode()
        login = urllib.request.Request(url + "/login", data=body, headers={"Content-Type": "application/json"}, method="POST")
        with opener.open(login, timeout=10) as answer:
            user = json.load(answer)
        if user.get("username") != "demo@example.com" or "session" not in [cookie.name for cookie in cookies]:
            raise SystemExit("the login answered %r without a session" % user)
        print("%s, started by %s, answered a login of %s" % (url, command, user["username"]))
    finally:
        server.terminate()
        server.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
