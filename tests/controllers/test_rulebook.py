"""The collection's example rulebook in ansible-rulebook (the Java runtime from the system's packages), its
event source watching the simulator: a machine whose replication is paused gives one event, and the rule's
action runs once - also while the service answers 503 and ends the session meanwhile; the source restarted
with its state file tells nothing it told already. A project's safety lever engaged and released by the game_day
playbook gives one event each, which the rule tells with who and why; a game day stopped that the ledger of runs gains
gives one event. The lever rulebook engages the lever of the project a critical alert names, and not for another alert. With
feedback, ansible-rulebook hands the source its queue, a told event leaves the state file once its rule engine took it, and
ansible-rulebook killed before and after the rule's action runs it again when started: its effect is there once."""

import json
import os
import re
import signal
import urllib.request
import subprocess
import time

import pytest
import yaml

RULEBOOK = "replication.recovery.service_events"
PAUSED = "Replication of web-1 in demo is paused (it was continuous), by demo@example.com."


def start(tmp_path, simulator, collections_path, name, rulebook=RULEBOOK, more=(), variables_more=""):
    inventory = tmp_path / "inventory.yml"
    # The playbooks a rule runs use the Python that runs them, as an implicit localhost would.
    inventory.write_text("all:\n  hosts:\n    localhost:\n      ansible_connection: local\n"
                         "      ansible_python_interpreter: '{{ ansible_playbook_python }}'\n")
    variables = tmp_path / "vars.yml"
    variables.write_text("interval: 1\nstate_file: %s\nledger_dir: %s\n%s" % (tmp_path / "state.json", tmp_path / "ledger", variables_more))
    log = open(str(tmp_path / name), "w")
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=collections_path, REPLICATION_SERVICE_URL=simulator.api,
               REPLICATION_SERVICE_USERNAME="demo@example.com", REPLICATION_SERVICE_PASSWORD="demo-secret-1")
    process = subprocess.Popen(["ansible-rulebook", "--rulebook", rulebook, "--inventory", str(inventory), "--vars", str(variables), "-v"] + list(more),
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


def looked(state_file):
    """Whether the source has looked once. It writes its state before its first look too (what an earlier run left
    pending): a change made then would be in the first look, the state it begins from, and never told."""
    try:
        with open(state_file) as handle:
            return any(project.get("seen") for project in (json.load(handle).get("projects") or {}).values())
    except (OSError, ValueError):
        return False


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
        wait_for(lambda: looked(state_file), "the first look", process, log.name)
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
        wait_for(lambda: looked(state_file), "the first look", process, log.name)
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


def playbook(tmp_path, collections_path, simulator, text, *arguments):
    (tmp_path / "play.yml").write_text(text)
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=collections_path, REPLICATION_SERVICE_URL=simulator.api,
               REPLICATION_SERVICE_USERNAME="demo@example.com", REPLICATION_SERVICE_PASSWORD="demo-secret-1")
    subprocess.run(["ansible-playbook", "play.yml"] + list(arguments), env=env, cwd=str(tmp_path), check=True, stdout=subprocess.DEVNULL)


def test_a_game_day_stopped_that_the_ledger_gains_gives_one_event_and_the_rule_tells_what_stopped_it(tmp_path, simulator, collections_path):
    """The game day's report as it enters the ledger (the golden one, stopped by its probe), entered by ledger_entry."""
    with open(os.path.join(os.path.dirname(__file__), "..", "unit", "golden", "game_day.json")) as handle:
        report = json.load(handle)
    report.update(outcome="stopped", regression=None, stop_conditions=dict(report["stop_conditions"], stopped_by=dict(
        probe="storefront", at=report["generated"], failures=2, said="answered 503")))
    (tmp_path / "game_day.json").write_text(json.dumps(report))
    state_file = str(tmp_path / "state.json")
    process, log = start(tmp_path, simulator, collections_path, "game_day.log")
    try:
        wait_for(lambda: looked(state_file), "the first look", process, log.name)
        playbook(tmp_path, collections_path, simulator, "- hosts: localhost\n  gather_facts: false\n  tasks:\n"
                 "    - replication.recovery.ledger_entry: {ledger_dir: ledger, runbook: game_day, report: game_day.json}\n")
        stopped = "Game day %s of %s was stopped by its stop condition storefront (ledger entry 1)." % (report["scenario"]["name"], report["project"])
        wait_for(lambda: stopped in open(log.name).read(), "the game_day_stopped rule", process, log.name)
        three_looks(state_file, process, log)  # not told again
    finally:
        stop(process, log)
    with open(log.name) as handle:
        text = handle.read()
    assert text.count(stopped) == 1, text[-4000:]


def lever_of(simulator):
    """The step of demo's safety lever plan, as the service keeps it; None when it was never pulled."""
    project = simulator.call("GET", "/projects")["items"][0]["id"]
    plans = simulator.call("GET", "/projects/%s/recoveryPlans" % project)["items"]
    lever = [plan for plan in plans if plan["name"] == "replication.recovery safety lever"]
    return lever[0]["steps"]["items"][0]["name"] if lever else None


def test_the_lever_rulebook_engages_the_lever_of_the_project_a_critical_alert_names(tmp_path, simulator, collections_path):
    """Alertmanager's alerts as ansible.eda.alertmanager puts them on the queue (a source of the tests' own stands in for
    it: the collection needs no other collection): a warning and a resolved alert engage nothing; a critical one firing
    engages demo's lever, by alertmanager, its reason the alert."""
    rulebook = yaml.safe_load(open(os.path.join(collections_path, "ansible_collections", "replication", "recovery", "extensions", "eda", "rulebooks",
                                                "lever_on_alert.yml")))
    assert list(rulebook[0]["sources"][0]) == ["ansible.eda.alertmanager"]
    alert = dict(status="firing", labels=dict(alertname="StorefrontDown", severity="critical", replication_project="demo"),
                 annotations=dict(summary="the storefront answers 503"))
    rulebook[0]["sources"] = [dict(alerts=dict(alerts=[dict(alert, labels=dict(alert["labels"], severity="warning", alertname="StorefrontSlow")),
                                                       dict(alert, labels=dict(alert["labels"], alertname="StorefrontBack"), status="resolved"),
                                                       alert]))]
    (tmp_path / "lever_on_alert.yml").write_text(yaml.safe_dump(rulebook))
    process, log = start(tmp_path, simulator, collections_path, "alert.log", rulebook=str(tmp_path / "lever_on_alert.yml"),
                         more=["-S", os.path.join(os.path.dirname(__file__), "sources")])
    try:
        wait_for(lambda: lever_of(simulator) is not None, "the lever engaged", process, log.name, seconds=180)
        time.sleep(3)  # the two other alerts had their chance
    finally:
        stop(process, log)
    engaged = lever_of(simulator)
    assert re.match(r"^engaged by alertmanager at \S+: alert StorefrontDown - the storefront answers 503$", engaged), engaged
    with urllib.request.urlopen(simulator.api[:-len("/api/latest")] + "/_simulator/audit", timeout=30) as answer:
        pulls = [entry for entry in json.load(answer)["items"] if "safety lever" in entry["description"]]
    assert [entry["eventName"] for entry in pulls] == ["RECOVERY_PLAN_CREATED"], pulls  # pulled once: by the critical alert alone


# The action of the killed rulebook: it says it began (each run of it), waits for the test's word, takes its effect - a line
# that lineinfile writes once, however often it runs - and waits for a word again before it ends.
ACTION = """- hosts: localhost
  gather_facts: false
  tasks:
    - ansible.builtin.shell: echo began >> {work}/began.txt
    - ansible.builtin.wait_for: {{path: {work}/go.txt, timeout: 300}}
    - ansible.builtin.lineinfile: {{path: {work}/acted.txt, line: "{{{{ machine }}}} {{{{ state }}}}", create: true}}
    - ansible.builtin.wait_for: {{path: {work}/end.txt, timeout: 300}}
"""


RECAP = re.compile(r"localhost\S*\s*: .*changed=(\d+) ")


def lines(path):
    if not os.path.exists(path):
        return []
    with open(path) as handle:
        return handle.read().splitlines()


def test_with_feedback_killed_before_and_after_its_action_and_started_again_the_event_is_acted_on_once(tmp_path, simulator, collections_path):
    """The source with feedback, ansible-rulebook with a persistence ID and a database of its own (H2, drools_db_file_path),
    as a controller keeps a rulebook's state: killed by SIGKILL between the event's put and its rule's action, and again
    after the action took its effect but before it ended, and started again each time. The source told the event once (the
    rule engine had taken it); ansible-rulebook ran the rule's action again after each kill, and its effect is there once -
    the action is idempotent, as an action of a rulebook with feedback must be: delivery is at least once."""
    simulator.synced()
    project, machine = web_1(simulator)
    (tmp_path / "act.yml").write_text(ACTION.format(work=tmp_path))
    (tmp_path / "killed.yml").write_text(yaml.safe_dump([dict(name="killed", hosts="localhost", sources=[{"replication.recovery.service_events": dict(
        interval=1, state_file=str(tmp_path / "state.json"), feedback=True)}], rules=[dict(
            name="A paused machine", condition='event.type == "replication_state_changed" and event.state == "paused"',
            action=dict(run_playbook=dict(name=str(tmp_path / "act.yml"), extra_vars=dict(machine="{{ event.machine.name }}", state="{{ event.state }}"))))])]))
    persisted = dict(rulebook=str(tmp_path / "killed.yml"), more=["--persistence-id", "7"], variables_more="drools_db_file_path: %s\n" % (tmp_path / "drools"))
    began, acted, state_file = tmp_path / "began.txt", tmp_path / "acted.txt", str(tmp_path / "state.json")

    def killed_once(name, condition, what, before=lambda process, log: None):
        process, log = start(tmp_path, simulator, collections_path, name, **persisted)
        try:
            before(process, log)
            wait_for(condition, what, process, log.name)
        finally:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)
            log.close()

    def pause(process, log):
        wait_for(lambda: looked(state_file), "the first look", process, log.name)
        simulator.call("POST", "/projects/%s/pauseReplication" % project, {"machineIDs": [machine]})

    # Killed once the action began, before its effect: the rule engine had taken the event, so the source keeps none pending.
    killed_once("first.log", lambda: lines(began), "the action's beginning", before=pause)
    with open(state_file) as handle:
        assert lines(acted) == [] and json.load(handle)["pending"] == []
    # Started again: the action runs again, takes its effect, and is killed before it ends.
    (tmp_path / "go.txt").write_text("")
    killed_once("second.log", lambda: lines(acted) and len(lines(began)) == 2, "the action's effect")
    assert lines(acted) == ["web-1 paused"]
    # Started again: the action runs a third time, finds its effect there, and ends.
    (tmp_path / "end.txt").write_text("")
    process, log = start(tmp_path, simulator, collections_path, "third.log", **persisted)
    try:
        # Its end is the play's recap in the log: stopped before it, the action would be cut short, however slow the machine.
        wait_for(lambda: RECAP.search(told(log.name)[0]), "the action run again to its end", process, log.name)
        three_looks(state_file, process, log)
    finally:
        stop(process, log)
    assert lines(acted) == ["web-1 paused"] and lines(began) == ["began"] * 3
    assert [told(str(tmp_path / name))[1] for name in ("first.log", "second.log", "third.log")] == [1, 0, 0]
    assert not any(said in told(str(tmp_path / name))[0] for said in ("did not say within", "eda_feedback_queue")
                   for name in ("first.log", "second.log", "third.log"))
    text = told(log.name)[0]
    assert RECAP.search(text).group(1) == "1", text[-3000:]  # the shell task only
