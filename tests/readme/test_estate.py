# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The estate walkthrough (docs/estate.md) as a reader takes it: its shell blocks in order, from a copy of the clone's
docs, against a simulator started with the page's own arguments - on a free port, which replaces 8080 in the page and
its files - with a home of its own (the agent's stand-in hosts and the default ledger are under it). The page's two
minutes' wait is the same two hours on the simulator's clock, made by moving the clock.

Run by `make test-readme` (in `make test`), with the staged collection on ANSIBLE_COLLECTIONS_PATH."""

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import urllib.request

import pytest

from test_readme import commands, free_port  # noqa: the README's test, beside this one

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.path.dirname(sys.executable)
PAGE = open(os.path.join(ROOT, "docs", "estate.md"), encoding="utf-8").read()
BLOCKS = [text for language, text in re.findall(r"^```(\w*)\n(.*?)^```", PAGE, re.S | re.M) if language == "sh"]
SIMULATOR = "127.0.0.1:8080"


@pytest.fixture
def simulator():
    [line] = [line for text in BLOCKS for line in commands(text) if "replication_service_simulator" in line]
    words = shlex.split(line.rstrip("&").strip())
    arguments = words[words.index("replication_service_simulator") + 1:]
    assert arguments[arguments.index("--seed") + 1] == "estate"
    port = free_port()
    arguments[arguments.index("--port") + 1] = str(port)
    process = subprocess.Popen([sys.executable, "-m", "replication_service_simulator"] + arguments, stdout=subprocess.PIPE, text=True)
    assert process.stdout.readline().startswith("http://127.0.0.1:%d" % port)
    yield "127.0.0.1:%d" % port
    process.terminate()
    process.wait()


def test_the_estate_walkthrough_runs_as_written(simulator, tmp_path):
    # A clone of the page's own, as written - its files take the service's address from the environment the page sets - and
    # the clone's .venv.
    clone = tmp_path / "clone"
    shutil.copytree(os.path.join(ROOT, "docs", "estate"), str(clone / "docs" / "estate"))
    assert not [path.name for path in (clone / "docs" / "estate").iterdir() if SIMULATOR.split(":")[1] in path.read_text()]
    os.symlink(os.path.dirname(BIN), str(clone / ".venv"))
    jump = ("python -c \"import urllib.request; urllib.request.urlopen(urllib.request.Request('http://%s/_simulator/clock', "
            "data=b'{\\\"advanceSeconds\\\": 7200}', headers={'content-type': 'application/json'}))\"" % simulator)
    lines = [line.replace(SIMULATOR, simulator) for text in BLOCKS for line in commands(text)
             if not line.startswith("make install") and "replication_service_simulator" not in line]
    assert "sleep 120" in lines
    script = "\n".join(["set -euo pipefail"] + [jump if line == "sleep 120" else line for line in lines])
    home = tmp_path / "home"
    home.mkdir()
    environment = dict((key, value) for key, value in os.environ.items() if key != "XDG_DATA_HOME")
    environment.update(HOME=str(home), PATH=BIN + ":" + os.environ["PATH"])
    done = subprocess.run(["bash", "-c", script], cwd=str(clone), env=environment, capture_output=True, text=True, check=False)
    output = done.stdout
    assert done.returncode == 0, output[-8000:] + done.stderr[-3000:]
    for said in ("would install the agent", "3 of 3 machines registered", "Launch policy of storefront: PLANNED",
                 "Launch policy of storefront: COMMITTED", "Application shop (dr_test): WAITING FOR APPROVAL",
                 "storefront: approved by Dana Night", "Application shop (dr_test): PASSED",
                 "Restore test of file-backups: PASSED", "The ledger is whole"):
        assert said in output, said
    # Where it started: every report there, nothing of the run left in the target cloud.
    walked = home / "estate-walkthrough"
    for directory in ("launch_policy_report", "application_report", "restore_test_report", "evidence_report"):
        assert (walked / directory).is_dir(), directory
    summary = (walked / "application_report" / "application_shop.md").read_text()
    assert "Furthest behind it: " in summary and "| storefront | storefront | critical | passed |" in summary, summary
    cloud = json.load(urllib.request.urlopen("http://%s/_simulator/cloud" % simulator))["items"]
    assert cloud == [], cloud
