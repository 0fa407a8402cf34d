# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The game day scenario of roles/game_day/README.md ("Try one on the simulator") as a reader takes it: its YAML saved as
the file it names, its command run as written from a directory of its own, against the simulator's demo seed - which
`make simulator` starts - on a free port, its clock moved past the initial sync.

Run by `make test-readme` (in `make test`), with the staged collection on ANSIBLE_COLLECTIONS_PATH."""

import json
import os
import re
import subprocess
import sys
import urllib.request

import pytest

from test_readme import commands, free_port  # noqa: the README's test, beside this one

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.path.dirname(sys.executable)
PAGE = open(os.path.join(ROOT, "roles", "game_day", "README.md"), encoding="utf-8").read()
SECTION = PAGE.split("## Try one on the simulator", 1)[1].split("\n## ", 1)[0]
[SCENARIO] = [text for language, text in re.findall(r"^```(\w*)\n(.*?)^```", SECTION, re.S | re.M) if language == "yaml"]
[COMMAND] = [line for language, text in re.findall(r"^```(\w*)\n(.*?)^```", SECTION, re.S | re.M) if language == "sh" for line in commands(text)]


@pytest.fixture
def simulator():
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "replication_service_simulator", "--host", "127.0.0.1", "--port", str(port), "--seed", "demo",
                                "--time-scale", "60"], stdout=subprocess.PIPE, text=True)
    assert process.stdout.readline().startswith("http://127.0.0.1:%d" % port)
    url = "http://127.0.0.1:%d" % port
    # Two hours on the simulator's clock: the demo's machines past their initial sync, as a reader finds them after a while.
    urllib.request.urlopen(urllib.request.Request(url + "/_simulator/clock", data=b'{"advanceSeconds": 7200}',
                                                  headers={"content-type": "application/json"}))
    yield url
    process.terminate()
    process.wait()


def test_the_readmes_game_day_scenario_runs_as_written_on_the_demo_seed(simulator, tmp_path):
    name = re.match(r"# (\S+\.yml)\n", SCENARIO).group(1)
    assert COMMAND == "ansible-playbook replication.recovery.game_day -e @%s" % name
    (tmp_path / name).write_text(SCENARIO)
    environment = dict(os.environ, PATH=BIN + ":" + os.environ["PATH"], HOME=str(tmp_path), REPLICATION_SERVICE_URL=simulator + "/api/latest",
                       REPLICATION_SERVICE_USERNAME="demo@example.com", REPLICATION_SERVICE_PASSWORD="demo-secret-1")
    environment.pop("XDG_DATA_HOME", None)
    done = subprocess.run(COMMAND.split(), cwd=str(tmp_path), env=environment, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert "Game day demo-night: PASSED" in done.stdout and "- borne out." in done.stdout, done.stdout[-3000:]
    report = json.loads((tmp_path / "dr_test_report" / "game_day_demo-night.json").read_text())
    assert report["outcome"] == "passed" and report["borne_out"] is True, report["outcome"]
    assert json.load(urllib.request.urlopen(simulator + "/_simulator/cloud"))["items"] == []
