"""The DR test's HTML page in a real browser, as a DR manager opens it: a DR test of 5 and of 1,000
machines against the simulator (60 times real time: faster, the point in time each machine was
launched from would be thinned out of the list before it is read, and the RPO left unmeasured), its page rendered by headless Chromium from
the system's packages, the screenshot checked for the outcome's banner and the charts' bars, and
the browser's log checked for errors. The screenshots stay in $BROWSER_SHOTS (.build/browser).

    python -m pytest tests/browser      (with the collection on ANSIBLE_COLLECTIONS_PATH)
"""

import json
import os
import re
import shutil
import subprocess
import sys

import pytest
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "bench"))
from scale import DAY, Simulator, playbook  # noqa: E402  (the bench's simulator and playbook runner)

PASSED_BANNER = (0x1B, 0x5E, 0x20)  # plugins/plugin_utils/_page.py
WITHIN = (0x43, 0xA0, 0x47)
WIDTH, HEIGHT = 1280, 1600


def chromium():
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        pytest.fail("Chromium is not installed: make test-browser installs it from Debian's packages.")
    return found


@pytest.fixture(scope="module")
def simulator():
    sim = Simulator(time_scale=60)
    yield sim
    sim.stop()


@pytest.mark.parametrize("size", [5, 1000])
def test_the_dr_test_page_in_chromium(simulator, size, tmp_path):
    simulator.fresh(size)
    reports = str(tmp_path / "reports")
    seconds, unused, status = playbook(simulator, [
        "replication.recovery.dr_test", "-e", "dr_test_project=bench", "-e", "dr_test_poll_interval=1",
        "-e", "dr_test_rpo_target=%d" % DAY, "-e", "dr_test_rto_target=%d" % DAY, "-e", "dr_test_report_dir=%s" % reports])
    assert status == 0
    with open(os.path.join(reports, "dr_test_bench.json")) as handle:
        report = json.load(handle)
    assert report["result"] == "passed" and report["measures"]["rpo_seconds"] is not None and report["counts"]["passed"] == size
    page = os.path.join(reports, "dr_test_bench.html")
    shots = os.environ.get("BROWSER_SHOTS") or str(tmp_path)
    os.makedirs(shots, exist_ok=True)
    shot = os.path.join(shots, "dr_test_%d.png" % size)
    run = subprocess.run([chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                          "--window-size=%d,%d" % (WIDTH, HEIGHT), "--enable-logging=stderr", "--v=0", "--screenshot=%s" % shot,
                          "file://" + page], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stdout[-3000:]
    # The page's own log: console messages and failed loads (Chromium's messages about D-Bus and the like are not the page's).
    page_errors = [line for line in run.stdout.splitlines() if re.search(r"CONSOLE|Uncaught|net::ERR_|Failed to load resource", line)]
    assert page_errors == []
    image = Image.open(shot).convert("RGB")
    assert image.size == (WIDTH, HEIGHT)
    # The outcome first: the top of the page is the passed banner, edge to edge.
    top = [image.getpixel((x, 5)) for x in range(0, WIDTH, 40)]
    assert top.count(PASSED_BANNER) == len(top)
    # A chart: bars of machines within their targets, drawn in the first screen.
    bars = dict((colour, count) for count, colour in image.getcolors(maxcolors=WIDTH * HEIGHT)).get(WITHIN, 0)
    assert bars > 2000, bars
