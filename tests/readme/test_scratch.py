# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Every playbook of the collection run by its name from a scratch directory, with its default paths, against the
collection as `make install` installs it: each one's files are in the scratch directory, and the installed collection
is unchanged, file for file (a checksum before and after). Against the simulator's estate seed.

Run by `make test-readme` (in `make test`)."""

import hashlib
import json
import os
import subprocess
import sys

import pytest

from test_readme import free_port  # noqa: the README's test, beside this one

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.path.dirname(sys.executable)
PLAYBOOKS = sorted(name[:-4] for name in os.listdir(os.path.join(ROOT, "playbooks")) if name.endswith(".yml"))
CHECKS = """---
- name: The launched machine runs
  ansible.builtin.assert:
    that: runbook_machine.target.machineCloudState == 'running'
"""
SCENARIO = {"name": "scratch", "hypothesis": "storefront recovers", "blast_radius": {"projects": ["storefront"]}, "with": {"poll_interval": 1}}
NODES = {"application_nodes": {"db": {"project": "orders-db"}, "app": {"project": "orders-app", "after": ["db"]}}}
# Each playbook's arguments, as few as it takes - none of them a path of a report, a backup or a plan - and the files it
# writes where it is started (relative to the scratch directory).
RUNS = [
    ("health", ["-e", "health_fail=false"], ["health_report/health.json"]),
    ("readiness", ["-e", "readiness_project=storefront", "-e", "readiness_rpo_target=3600", "-e", "readiness_fail=false"],
     ["readiness_report/readiness_storefront.json"]),
    # Before the DR test: its report and the game day's own are in the DR test's default directory.
    ("game_day", ["-e", json.dumps(dict(game_day_scenario=json.dumps(SCENARIO)))],
     ["dr_test_report/dr_test_storefront.json", "dr_test_report/game_day_scratch.json"]),
    ("dr_test", ["-e", "dr_test_project=storefront", "-e", "dr_test_poll_interval=1"], ["dr_test_report/dr_test_storefront.json"]),
    ("application", ["-e", json.dumps(NODES), "-e", "dr_test_poll_interval=1"], ["application_report/application_application.json"]),
    ("clean_point", ["-e", "clean_point_project=orders-app", "-e", "clean_point_checks_tasks=checks.yml", "-e", "clean_point_poll_interval=1"],
     ["clean_point_report/clean_point_orders-app.json"]),
    ("restore_test", ["-e", "restore_test_project=file-backups", "-e", "restore_test_checks_tasks=checks.yml",
                      "-e", "restore_test_poll_interval=1"], ["restore_test_report/restore_test_file-backups.json"]),
    ("launch_policy", ["-e", "launch_policy_project=storefront", "-e", '{"launch_policy_defaults": {"instance_type": "m5.large"}}'],
     ["launch_policy_report/launch_policy_storefront.json"]),
    ("failover", ["-e", "failover_project=identity", "-e", "failover_poll_interval=1"], ["failover_report/failover_identity.json"]),
    ("failback", ["-e", "failback_project=identity", "-e", "failback_poll_interval=1", "-e", "failback_clean_recovery=true"],
     ["failback_report/failback_identity.json"]),
    ("agent", ["-i", "hosts.yml", "-e", "agent_project=onboarding", "-e", "agent_poll_interval=1"], []),
    ("protect", ["-e", "protect_project=scratch-dr", "-e", "protect_region=us-east-1", "-e", '{"protect_cloud_credentials": {"name": "estate-aws"}}',
                 "-e", "protect_start=false"], []),
    ("evidence", [], ["evidence_report/evidence.json"]),
]


def checksum(directory):
    digest = hashlib.sha256()
    for root, dirs, files in os.walk(directory):  # top-down, each level in order
        dirs[:] = sorted(name for name in dirs if name != "__pycache__")  # Python's byte-code caches of what it imported
        for name in sorted(files):
            path = os.path.join(root, name)
            digest.update(os.path.relpath(path, directory).encode("utf-8") + b"\0")
            with open(path, "rb") as handle:
                digest.update(handle.read())
    return digest.hexdigest()


@pytest.fixture(scope="module")
def estate():
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "replication_service_simulator", "--host", "127.0.0.1", "--port", str(port),
                                "--seed", "estate", "--time-scale", "60"], stdout=subprocess.PIPE, text=True)
    assert process.stdout.readline().startswith("http://127.0.0.1:%d" % port)
    yield "http://127.0.0.1:%d" % port
    process.terminate()
    process.wait()


def test_every_playbook_is_run_by_its_name_from_a_scratch_directory(estate, tmp_path):
    assert sorted(name for name, unused, unused in RUNS) == PLAYBOOKS, "every playbook has a run here"
    collections = tmp_path / "collections"
    done = subprocess.run(["make", "--no-print-directory", "install", "COLLECTIONS_PATH=%s" % collections, "STAGED=1"], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    installed = str(collections / "ansible_collections" / "replication" / "recovery")
    before = checksum(installed)
    scratch, home = tmp_path / "scratch", tmp_path / "home"
    scratch.mkdir()
    home.mkdir()
    (scratch / "checks.yml").write_text(CHECKS)
    with open(os.path.join(ROOT, "docs", "estate", "hosts.yml"), encoding="utf-8") as handle:
        (scratch / "hosts.yml").write_text(handle.read())
    environment = dict((key, value) for key, value in os.environ.items() if key not in ("XDG_DATA_HOME", "ANSIBLE_COLLECTIONS_PATH"))
    environment.update(HOME=str(home), PATH=BIN + ":" + os.environ["PATH"], ANSIBLE_COLLECTIONS_PATH=str(collections),
                       REPLICATION_SERVICE_URL=estate + "/api/latest", REPLICATION_SERVICE_USERNAME="ops@estate.example",
                       REPLICATION_SERVICE_PASSWORD="estate-secret-1")
    for name, arguments, files in RUNS:
        done = subprocess.run(["ansible-playbook", "replication.recovery." + name] + arguments + (["-e", "agent_become=false"] if name == "agent" else []),
                              cwd=str(scratch), env=environment, capture_output=True, text=True, check=False, stdin=subprocess.DEVNULL)
        assert done.returncode == 0, "%s: %s" % (name, done.stdout[-5000:] + done.stderr[-2000:])
        for path in files:
            assert (scratch / path).is_file(), "%s wrote no %s where it was started" % (name, path)
            assert str((scratch / path).parent) in done.stdout, "%s does not say where it wrote %s" % (name, path)
    assert checksum(installed) == before, "a playbook wrote inside the installed collection"
