"""The runbooks' HTML pages in a real browser, as a DR manager opens them: a DR test of 5 and of 1,000
machines against the simulator (60 times real time: faster, the point in time each machine was
launched from would be thinned out of the list before it is read, and the RPO left unmeasured), the
fleet's health of 1,000 machines, a clean point search of 5 machines, and a failover and its failback
of 5 machines with the table of machines the incident channel reads; each page rendered by
headless Chromium from the system's packages, the screenshot checked for the outcome's banner and
the charts' bars, and the browser's log checked for errors. The screenshots stay in $BROWSER_SHOTS
(.build/browser).

    python -m pytest tests/browser      (with the collection on ANSIBLE_COLLECTIONS_PATH)
"""

import json
import os
import re
import shutil
import subprocess
import sys
import time

import pytest
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "bench"))
from scale import DAY, Simulator, clean_point_at, failover_and_failback_at, playbook  # noqa: E402  (the bench's simulator, runs and runner)

PASSED_BANNER, FAILED_BANNER = (0x1B, 0x5E, 0x20), (0xB7, 0x1C, 0x1C)  # plugins/plugin_utils/_page.py
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
    image = rendered(os.path.join(reports, "dr_test_bench.html"), "dr_test_%d.png" % size, tmp_path)
    assert banner(image) == PASSED_BANNER
    # A chart: bars of machines within their targets, drawn in the first screen.
    assert drawn(image, WITHIN) > 2000


def rendered(page, name, tmp_path):
    """The page drawn by headless Chromium, once it logged no error of its own: the screenshot."""
    shots = os.environ.get("BROWSER_SHOTS") or str(tmp_path)
    os.makedirs(shots, exist_ok=True)
    shot = os.path.join(shots, name)
    run = subprocess.run([chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                          "--window-size=%d,%d" % (WIDTH, HEIGHT), "--enable-logging=stderr", "--v=0", "--screenshot=%s" % shot,
                          "file://" + page], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stdout[-3000:]
    # The page's own log: console messages and failed loads (Chromium's messages about D-Bus and the like are not the page's).
    page_errors = [line for line in run.stdout.splitlines() if re.search(r"CONSOLE|Uncaught|net::ERR_|Failed to load resource", line)]
    assert page_errors == []
    image = Image.open(shot).convert("RGB")
    assert image.size == (WIDTH, HEIGHT)
    return image


def banner(image):
    """The outcome first: the colour of the top of the page, when it is one colour edge to edge."""
    top = set(image.getpixel((x, 5)) for x in range(0, WIDTH, 40))
    return top.pop() if len(top) == 1 else top


def drawn(image, colour):
    return dict((colour_, count) for count, colour_ in image.getcolors(maxcolors=WIDTH * HEIGHT)).get(colour, 0)


def test_the_health_page_of_a_thousand_machines_in_chromium(simulator, tmp_path):
    simulator.fresh(1000)
    reports = str(tmp_path / "reports")
    status = playbook(simulator, ["replication.recovery.health", "-e", "health_report_dir=%s" % reports,
                                  "-e", "health_max_lag=%d" % DAY, "-e", "health_fail=false"])[2]
    assert status == 0
    with open(os.path.join(reports, "health.json")) as handle:
        report = json.load(handle)
    assert report["counts"]["machines"] == 1000
    image = rendered(os.path.join(reports, "health.html"), "health_1000.png", tmp_path)
    assert banner(image) == (PASSED_BANNER if report["result"] == "passed" else FAILED_BANNER)
    # The replication lag's histogram: machines within the threshold.
    assert drawn(image, WITHIN) > 2000


def test_the_clean_point_page_in_chromium(tmp_path):
    fast = Simulator(time_scale=600)  # the search's window stays put only at the bench's pace (scale.clean_point_at)
    try:
        reports = str(tmp_path / "reports")
        # Five points each: bench-m-0000 is damaged from its first point (no clean point: the search fails, naming it),
        # bench-m-0004 from its fifth, the others never.
        figures = clean_point_at(fast, 5, 5, reports)
    finally:
        fast.stop()
    assert figures["wrong"] == [] and figures["exit_status"] != 0, figures
    with open(os.path.join(reports, "clean_point_bench.json")) as handle:
        report = json.load(handle)
    assert report["failures"] == ["bench-m-0000: every point in the window fails"]
    image = rendered(os.path.join(reports, "clean_point_bench.html"), "clean_point_5.png", tmp_path)
    assert banner(image) == FAILED_BANNER
    # The data each machine gives up, one bar a machine with a clean point (no target: all drawn as within).
    assert drawn(image, WITHIN) > 500


def dom(page):
    """The page as Chromium built it."""
    run = subprocess.run([chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", "file://" + page],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, timeout=120, check=True)
    return run.stdout


def test_the_failover_and_failback_pages_name_each_machine_where_it_runs_in_chromium(simulator, tmp_path):
    reports = str(tmp_path / "reports")
    figures = failover_and_failback_at(simulator, 5, reports)
    assert figures["targets"]["passed"], figures
    for runbook in ("failover", "failback"):
        with open(os.path.join(reports, "%s_bench.json" % runbook)) as handle:
            report = json.load(handle)
        page = os.path.join(reports, "%s_bench.html" % runbook)
        image = rendered(page, "%s_5.png" % runbook, tmp_path)
        assert banner(image) == PASSED_BANNER
        built = dom(page)
        # The table of machines, as Chromium built it: a row a machine with its wave, instance ID, addresses, point in time.
        assert "<th>Instance ID</th><th>Addresses</th><th>Point in time</th><th>RPO</th><th>RTO</th><th>Checks</th>" in built
        for machine in report["machines"]:
            row = re.search(r"<tr><td>%s</td><td>1</td><td>passed</td><td>(i-[0-9a-f]+)</td><td>([^<]*)</td><td>([^<]*)</td>" % machine["name"],
                            built)
            assert row and row.group(1) == machine["target"]["cloud_id"], machine["name"]
            assert row.group(2) == ", ".join(machine["addresses"]) and (machine["point_in_time"]["id"] or "-") in row.group(3)
            assert "None" not in row.group(0)


def test_the_audit_programme_page_in_chromium(simulator, tmp_path):
    """A DR test over its RTO target entered in a ledger is a finding: judged 40 days later it is overdue (the page's banner
    failed, the finding named); waived until later, the programme passes and the page says who waived it and until when."""
    simulator.fresh(5)
    ledger, reports = str(tmp_path / "ledger"), str(tmp_path / "evidence")
    status = playbook(simulator, [
        "replication.recovery.dr_test", "-e", "dr_test_project=bench", "-e", "dr_test_poll_interval=1", "-e", "dr_test_rto_target=1",
        "-e", "dr_test_report_dir=%s" % str(tmp_path / "reports"), "-e", "replication_recovery_ledger_dir=%s" % ledger])[2]
    assert status != 0
    as_of = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 40 * DAY))
    evidence = ["replication.recovery.evidence", "-e", "replication_recovery_ledger_dir=%s" % ledger, "-e", "evidence_report_dir=%s" % reports,
                "-e", "evidence_as_of=%s" % as_of]
    status = playbook(simulator, evidence)[2]
    assert status != 0
    page = os.path.join(reports, "evidence_programme.html")
    with open(page, encoding="utf-8") as handle:
        assert "FAILED-RUN:bench:1" in handle.read()
    assert banner(rendered(page, "programme_overdue.png", tmp_path)) == FAILED_BANNER
    waiver = json.dumps([dict(finding="FAILED-RUN:bench:1", owner="cio@example.com", reason="CHG-7: new RTO target", expires="2099-01-01"),
                         dict(finding="NEVER-PROVEN:bench:*", owner="cio@example.com", reason="CHG-7: new RTO target", expires="2099-01-01")])
    # As an AWX survey gives it: the waivers' JSON text.
    status = playbook(simulator, evidence + ["-e", json.dumps(dict(evidence_waive=waiver))])[2]
    assert status == 0
    with open(page, encoding="utf-8") as handle:
        assert "waived by cio@example.com until 2099-01-01T23:59:59Z: CHG-7: new RTO target" in handle.read()
    assert banner(rendered(page, "programme_waived.png", tmp_path)) == PASSED_BANNER
