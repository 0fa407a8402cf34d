# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The examples of the README and the guides (docs/*.md; the estate walkthrough has a test of its own), as a reader takes
them. Those aimed at the simulator (they name 127.0.0.1:8080) run against one, as written - the port aside, and the
simulator started by the test with the page's own arguments: running a playbook from a clone after `make install`, the
ransomware walkthrough, the DR test in an isolated network. Those aimed at a real service pass `ansible-playbook
--syntax-check`, and every YAML example parses.

Run by `make test-readme` (in `make test`), with the staged collection on ANSIBLE_COLLECTIONS_PATH."""

import json
import os
import re
import shlex
import socket
import subprocess
import sys
import time

import pytest
import yaml

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.path.dirname(sys.executable)
PAGES = ["README.md"] + sorted(os.path.join("docs", name) for name in os.listdir(os.path.join(ROOT, "docs")) if name.endswith(".md") and name != "estate.md")
BLOCKS = [block for page in PAGES for block in re.findall(r"^```(\w*)\n(.*?)^```", open(os.path.join(ROOT, page), encoding="utf-8").read(), re.S | re.M)]
SIMULATOR = "127.0.0.1:8080"


def commands(text):
    """The shell lines of a block, continuation lines joined, comments dropped."""
    joined = re.sub(r"\\\n\s*", " ", text)
    return [line.split(" #")[0].strip() for line in joined.splitlines() if line.strip() and not line.strip().startswith("#")]


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def simulator():
    """The simulator as the page starts it (its --seed and --time-scale), on a free port."""
    [line] = [line for language, text in BLOCKS for line in commands(text) if "replication_service_simulator" in line and "--seed ransomware" in line]
    words = shlex.split(line.rstrip("&").strip())
    arguments = words[words.index("replication_service_simulator") + 1:]
    port = free_port()
    arguments[arguments.index("--port") + 1] = str(port)
    process = subprocess.Popen([sys.executable, "-m", "replication_service_simulator", "--host", "127.0.0.1"] + arguments,
                               stdout=subprocess.PIPE, text=True)
    assert process.stdout.readline().startswith("http://127.0.0.1:%d" % port)
    yield "127.0.0.1:%d" % port
    process.terminate()
    process.wait()


def environment(tmp_path, collections):
    return dict(os.environ, ANSIBLE_COLLECTIONS_PATH=collections, XDG_DATA_HOME=str(tmp_path / "data"), PATH=BIN + ":" + os.environ["PATH"])


def run_as_written(lines, where, address, collections, tmp_path):
    """Shell lines of a page, in the directory ``where``: the simulator's address and the clone's .venv put right."""
    script = "\n".join(["set -euo pipefail"] + [line.replace(SIMULATOR, address).replace(".venv/bin/", BIN + "/") for line in lines])
    began = time.monotonic()
    done = subprocess.run(["bash", "-c", script], cwd=str(where), env=environment(tmp_path, collections), capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    return done.stdout, time.monotonic() - began


def simulator_block(marker):
    [text] = [text for language, text in BLOCKS if SIMULATOR in text and marker in text]
    return [line for line in commands(text) if "replication_service_simulator" not in line]


def test_from_a_clone_make_install_then_a_playbook_by_its_name(simulator, tmp_path):
    lines = simulator_block("make install")
    collections = tmp_path / "collections"
    install = [line for line in lines if line.startswith("make install")]
    assert install == ["make install"]
    done = subprocess.run(["make", "--no-print-directory", "install", "COLLECTIONS_PATH=%s" % collections, "STAGED=1"], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "replication.recovery 2" in done.stdout and "is installed in %s/ansible_collections/replication/recovery" % collections in done.stdout
    # The installed copy, not the staged one, runs the page's playbook; the simulator is this test's (make simulator's in the page).
    output, unused = run_as_written([line for line in lines if not line.startswith("make ")], tmp_path, simulator, str(collections), tmp_path)
    assert "DR test of demo: PASSED" in output


def test_the_dr_test_in_an_isolated_network_passes_as_written(simulator, tmp_path):
    [network] = [text for language, text in BLOCKS if language == "yaml" and text.startswith("dr_test_network:")]
    (tmp_path / "network.yml").write_text(network)
    output, unused = run_as_written(
        ["export REPLICATION_SERVICE_URL=http://%s/api/latest REPLICATION_SERVICE_USERNAME=demo@example.com "
         "REPLICATION_SERVICE_PASSWORD=demo-secret-1" % SIMULATOR,
         ".venv/bin/ansible-playbook replication.recovery.dr_test -e @network.yml -e dr_test_project=demo -e dr_test_poll_interval=1 "
         "-e dr_test_report_dir=isolated"], tmp_path, simulator, os.environ["ANSIBLE_COLLECTIONS_PATH"], tmp_path)
    report = json.load(open(str(tmp_path / "isolated" / "dr_test_demo.json")))
    assert report["result"] == "passed", report["failures"]
    db = next(machine for machine in report["machines"] if machine["name"] == "db-1")
    assert db["test_network"]["privateIPs"] == ["172.16.0.10"] and db["target"]["public_ips"] == []


def test_the_ransomware_walkthrough_finds_each_machines_clean_point(simulator, tmp_path):
    [checks] = [text for language, text in BLOCKS if language == "yaml" and text.startswith("# ransom_checks.yml")]
    (tmp_path / "ransom_checks.yml").write_text(checks.replace(SIMULATOR, simulator))
    output, seconds = run_as_written(simulator_block("clean_point_checks_tasks=$PWD/ransom_checks.yml"), tmp_path, simulator,
                                     os.environ["ANSIBLE_COLLECTIONS_PATH"], tmp_path)
    print("The ransomware walkthrough took %d s." % seconds)
    report = json.load(open(str(tmp_path / "clean_point_report" / "clean_point_demo.json")))
    found = dict((machine["name"], machine) for machine in report["machines"])
    assert report["result"] == "passed" and report["complete"], report["failures"]
    # As the page says: web-1 clean at its newest point, app-1 and db-1 at their last points before 7 and 20 hours ago.
    assert found["web-1"]["newest_failed"] is None
    for name, hours in (("app-1", 7), ("db-1", 20)):
        window_end = report["window"]["before"]
        assert found[name]["newest_failed"] is not None and found[name]["data_loss_seconds"] > (hours - 1) * 3600, found[name]
    assert "Fail over from it: -e failover_point_in_time=from:" in output and window_end


AIMED_ELSEWHERE = [line for language, text in BLOCKS if language in ("sh", "bash") and SIMULATOR not in text
                   for line in commands(text) if line.startswith("ansible-playbook ")]
GITLAB = [command for language, text in BLOCKS if language == "yaml" and "script:" in text
          for job in yaml.safe_load(text).values() for command in job["script"] if command.startswith("ansible-playbook ")]


@pytest.mark.parametrize("line", AIMED_ELSEWHERE + GITLAB)
def test_the_examples_aimed_at_a_real_service_are_playbooks_ansible_reads(line, tmp_path):
    words = [word for word in shlex.split(line.split(" | ")[0]) if word not in ("--check", "--diff")]
    for index, word in enumerate(words):
        if word.startswith("@"):
            (tmp_path / word[1:]).write_text("---\n{}\n")  # the user's own variables file
        if word == "-i":
            (tmp_path / words[index + 1]).write_text("all: {}\n")  # and inventory
    takes_a_value = ("-i", "-e", "-f", "-l", "--limit", "--extra-vars", "--inventory", "--forks")
    playbook = next(word for before, word in zip(words, words[1:]) if not word.startswith("-") and before not in takes_a_value)
    if playbook.endswith(".yml"):
        # The page's own playbook; or one of the reader's (configure-dns.yml), which only needs to exist here.
        texts = [text for language, text in BLOCKS if text.startswith("# %s" % playbook)] or ["- hosts: all\n  tasks: []\n"]
        (tmp_path / playbook).write_text(texts[0])
    done = subprocess.run([os.path.join(BIN, "ansible-playbook")] + words[1:] + ["--syntax-check"], cwd=str(tmp_path),
                          env=environment(tmp_path, os.environ["ANSIBLE_COLLECTIONS_PATH"]), capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("text", [text for language, text in BLOCKS if language == "yaml"])
def test_every_yaml_example_parses(text):
    assert yaml.safe_load(text) is not None
