"""A simulator on a free port of this machine, for a test or a benchmark of one's own playbooks: started in a process of
its own, told what to do through the control interface (/_simulator, see the README), and stopped.

    with LocalSimulator(time_scale=60) as sim:
        sim.control("POST", "/seed", {"preset": "demo"})
        ...  # REPLICATION_SERVICE_URL=sim.api
"""

import json
import subprocess
import sys
import urllib.request


class LocalSimulator:
    def __init__(self, time_scale=60, seed=None, check_answers=False):
        command = [sys.executable, "-m", "replication_service_simulator", "--host", "127.0.0.1", "--port", "0", "--time-scale", str(time_scale)]
        command += (["--seed", seed] if seed else []) + (["--check-answers"] if check_answers else [])
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        # Its first line is the base URL of the interface it serves, once it serves it.
        self.api = self.process.stdout.readline().strip()
        self.root = self.api[: -len("/api/latest")]

    def control(self, method, path, body=None):
        """A call of the control interface; its answer (None when it has none). An error answer raises urllib's HTTPError."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.root + "/_simulator" + path, data=data, method=method,
                                         headers={} if data is None else {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as answer:
            content = answer.read()
        return json.loads(content) if content else None

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)

    def __enter__(self):
        return self

    def __exit__(self, *unused):
        self.stop()
