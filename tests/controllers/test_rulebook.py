"""The collection's example rulebook in ansible-rulebook (the Java runtime from the system's packages), its
event source watching the simulator: a machine whose replication is paused gives one event, and the rule's
action runs once - also while the service answers 503 and ends the session meanwhile; the source restarted
with its state file tells nothing it told already. A project's safety lever engaged and released by the game_day
playbook gives one event each, which the rule tells with who and why."""

import os
import re
import signal
import subprocess
import time

import pytest

RULEBOOK = "replication.recovery.service_events"
PAUSED = "Replication of web-1 in demo is paused (it was continuous), by demo@example.com."


def start(tmp_path, simulator, collections_path, name):
    inventory = tmp_path / "inventory.yml"
    inventory.write_text("all:\n  hosts:\n    localhost:\n      ansible_connection: local\n")
    variables = tmp_path / "vars.yml"
    variables.write_text("interval: 1\nstate_file: %s\n" % (tmp_path / "state.json"))
    log = open(str(tmp_path / name), "w")
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=collections_path, REPLICATION_SERVICE_URL=simulator.api,
               REPLICATION_SERVICE_USERNAME="demo@example.com", REPLICATION_SERVICE_PASSWORD="demo-secret-1")
    process = subprocess.Popen(["ansible-rulebook", "--rulebook", RULEBOOK, "--inventory", str(inventory), "--vars", str(variables), "-v"],
                               stdout=log, stderr=subprocess.STDOUT, env=env, cwd=str(tmp_path), start_new_session=True)
    return process, log


def stop(process, log):
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)
    log.close()


def wait_for(condition, what, process, log_path, seconds=90):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        if process.poll() is not None:
            break
        time.sleep(0.5)
    with open(log_path) as handle:
        pytest.fail("%s did not happen (ansible-rulebook %s):\n%s" % (what, "ended" if process.poll() is not None else "runs", handle.read()[-4000:]))


def looks(state_file):
    """How many times the source wrote its state: once a look."""
    return os.stat(state_file).st_mtime_ns if os.path.exists(state_file) else None


def three_looks(state_file, process, log):
    for unused in range(3):
        seen = looks(state_file)
        wait_for(lambda: looks(state_file) != seen, "another look", process, log.name)  # pylint: disable=cell-var-from-loop


def web_1(simulator):
    project = simulator.call("GET", "/projects")["items"][0]
    machine = next(m for m in simulator.call("GET", "/projects/%s/machines" % project["id"])["items"] if m["sourceProperties"]["name"] == "web-1")
    return project["id"], machine["id"]


def told(path):
    with open(path) as handle:
        text = handle.read()
    return text, len(re.findall(r"replication_state_changed demo web-1\b", text))


def test_a_paused_machine_gives_one_event_its_action_runs_and_a_restart_tells_it_not_again(tmp_path, simulator, collections_path):
    state_file = str(tmp_path / "state.json")
    simulator.synced()
    project, machine = web_1(simulator)

    process, log = start(tmp_path, simulator, collections_path, "first.log")
    try:
        wait_for(lambda: looks(state_file) is not None, "the first look", process, log.name)
        # The service in trouble meanwhile: the machines' list answers 503 three times, the account's read 401 once.
        simulator.faults([{"method": "GET", "route": "/projects/{projectId}/machines", "status": 503, "count": 3},
                          {"method": "GET", "route": "/extendedAccountInfo", "status": 401, "count": 1}])
        simulator.call("POST", "/projects/%s/pauseReplication" % project, {"machineIDs": [machine]})
        wait_for(lambda: PAUSED in open(log.name).read(), "the rule's action", process, log.name)
        three_looks(state_file, process, log)  # the change is not told again
    finally:
        stop(process, log)
    text, events = told(log.name)
    assert events == 1 and text.count(PAUSED) == 1, text[-4000:]
    assert "watch_failed" not in text  # the faults were met by the client's retries and a new session
    assert "demo-secret-1" not in text

    # Restarted with its state file: three looks, and nothing about web-1.
    process, log = start(tmp_path, simulator, collections_path, "second.log")
    try:
        three_looks(state_file, process, log)
    finally:
        stop(process, log)
    text, events = told(log.name)
    assert events == 0 and PAUSED not in text, text[-4000:]
    assert "Waiting for events" in text


def pull(simulator, collections_path, tmp_path, state, reason):
    """The safety lever of demo pulled as the on-call engineer pulls it: the game_day playbook."""
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=collections_path, REPLICATION_SERVICE_URL=simulator.api,
               REPLICATION_SERVICE_USERNAME="demo@example.com", REPLICATION_SERVICE_PASSWORD="demo-secret-1")
    subprocess.run(["ansible-playbook", "replication.recovery.game_day", "-e", "game_day_projects=demo", "-e", "game_day_lever=" + state,
                    "-e", "game_day_lever_reason=" + reason, "-e", "game_day_lever_by=on-call"], env=env, cwd=str(tmp_path), check=True,
                   stdout=subprocess.DEVNULL)


def test_the_safety_lever_engaged_and_released_each_give_one_event_and_the_rule_tells_who_and_why(tmp_path, simulator, collections_path):
    state_file = str(tmp_path / "state.json")
    process, log = start(tmp_path, simulator, collections_path, "lever.log")
    try:
        wait_for(lambda: looks(state_file) is not None, "the first look", process, log.name)
        pull(simulator, collections_path, tmp_path, "engaged", "INC-7")
        engaged = "The safety lever of demo is engaged by on-call: INC-7."
        wait_for(lambda: engaged in open(log.name).read(), "the lever_engaged rule", process, log.name)
        pull(simulator, collections_path, tmp_path, "released", "INC-7-resolved")
        released = "The safety lever of demo is released by on-call: INC-7-resolved."
        wait_for(lambda: released in open(log.name).read(), "the lever_released rule", process, log.name)
        three_looks(state_file, process, log)  # neither is told again
    finally:
        stop(process, log)
    with open(log.name) as handle:
        text = handle.read()
    assert text.count(engaged) == 1 and text.count(released) == 1, text[-4000:]
