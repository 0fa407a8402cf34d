"""A runbook stopped at any moment and run again ends as a complete run would: the DR test, the restore test, and a
failover rehearsed in an isolated test network and rolled back (a game day's), whose blueprints end as they began.

For each step at which a stop can land - before the launch request, while the launch job runs, while the machines boot, while the checks run,
during the cleanup, as the report is written - a run of the runbook's playbook is stopped there, by one of the ways AWX,
a container runtime or a lost node stops a run - SIGINT to ansible-playbook, SIGTERM to it, SIGKILL to its whole process
tree - then run once more. The signals rotate over the steps, from a seed that is printed (give it again with --seed to
run the same cases): each step meets one signal a run, every signal meets the steps over the runs. The run after the stop
must pass and leave the target cloud empty. Stopped before its cleanup began, there is one launch job in all (the second
run adopted what the first launched); stopped later, the second run launched only after the first run's cleanup had
ended. Both runs enter their reports in a ledger of runs: it ends with the one report of the run that passed (two, when
a SIGINT did not stop the first run), the later one chained to the earlier. A DR test of the unproven machines
(dr_test_machines=unproven, the ledger proving all but one) killed while its launch job runs is adopted by the next,
which tests that one machine. A two-wave DR test whose waves are in the inventory's variables (its playbook reads one
wave's plays, and the last of them runs wave 2) killed while wave 2's launch job runs is adopted there by the next.

The cases run side by side, each worker on a simulator of its own (the target's, and --simulators - 1 more that this
script starts): every case resets its simulator.

    python stopped.py --simulator http://127.0.0.1:PORT --work DIR [--simulators 2] [--seed N] [--only NAME] [--runbook NAME]
"""

import argparse
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import requests

USERNAME, PASSWORD, PROJECT = "stop@example.test", "stop-password", "stop"
HERE = os.path.dirname(os.path.abspath(__file__))
# The runbooks stopped: the seed of their world, the job their launch runs as, what else they are given.
NETWORK = {"subnets": ["isolated-a"], "security_groups": ["isolated"]}  # a public address all the same: checks.yml wants one
RUNBOOKS = dict(
    dr_test=dict(seed="stop.json", launch="TEST_LAUNCH"),
    restore_test=dict(seed="restore.json", launch="RESTORE_LAUNCH"),
    failover=dict(seed="stop.json", launch="RECOVERY_LAUNCH",
                  extra=["-e", "failover_commit=false", "-e", json.dumps({"failover_network": json.dumps(NETWORK)})]),
)
PRINTING = threading.Lock()
# How each stop is brought about: held by the test's callback at the start of a task (HOLD_AT_TASK), or seen in the output
# (while a slowed job runs, or as a step goes from one of a run's phases to the next); and whether the stopped run's
# cleanup had begun.
POINTS = [
    dict(name="before the launch request", hold="look at its machines - wave 1", cleanup_began=False),
    dict(name="while the launch job runs", see=r"Launch job \S+ (PENDING|STARTED): ", cleanup_began=False,
         faults=[{"jobTypes": ["LAUNCH"], "slowFactor": 6, "count": 1}]),
    # The launch job ended: the wave's step looks at its machines next, waiting for them to boot (and looks at the lever).
    dict(name="as the launched machines are looked at", see=r"Launch job \S+ COMPLETED: ", cleanup_began=False),
    dict(name="while the checks run", see=r"TASK \[.*Hold the checks", cleanup_began=False, hold_checks=True),
    dict(name="during the cleanup", see=r"Cleanup job \S+ (PENDING|STARTED): ", cleanup_began=True,
         faults=[{"jobTypes": ["CLEANUP"], "slowFactor": 20, "count": 1}]),
    # The cleanup proven: the finish's step writes the report next, in the same task - a stop seen there lands before the
    # report is written or just after it is entered in the ledger (reported): either way the next run begins anew.
    dict(name="as the report is written", see=r"Terminated \d+ target machines", cleanup_began=True, reported_maybe=True),
    # The DR test of the unproven machines: the ledger proves app-1 and db-1, so both runs test web-1 alone.
    dict(name="while the launch job of the unproven machines runs", see=r"Launch job \S+ (PENDING|STARTED): ", cleanup_began=False,
         faults=[{"jobTypes": ["LAUNCH"], "slowFactor": 6, "count": 1}], unproven=True, signal="SIGKILL", runbooks=("dr_test",)),
    # The waves in the inventory's variables, which the playbook does not see as it is read: it reads one wave's plays, and
    # the last of them runs wave 2 itself (roles/runbook/tasks/waves_left.yml). Stopped while wave 2's launch job runs, the
    # next run adopts that launch there: one launch a wave.
    dict(name="while wave 2's launch job runs, the waves from the inventory", see=r"Launch job \S+ of wave 2 runs", cleanup_began=False,
         faults=[{"jobTypes": ["LAUNCH"], "slowFactor": 6, "count": 2}], inventory_waves="db-1; app-1, web-1", launches=2,
         signal="SIGKILL", runbooks=("dr_test",)),
]
SIGNALS = [("SIGINT", signal.SIGINT), ("SIGTERM", signal.SIGTERM), ("SIGKILL", signal.SIGKILL)]


class Simulator:
    def __init__(self, root):
        self.root = root.rstrip("/")
        self.api = self.root + "/api/latest"

    def control(self, method, path, body=None):
        answer = requests.request(method, self.root + "/_simulator" + path, json=body, timeout=60)
        answer.raise_for_status()
        return answer.json() if answer.content else None

    def fresh(self, seed):
        self.control("POST", "/reset")
        self.control("PATCH", "/settings", {"sessionLifetimeSeconds": 8640000})
        with open(os.path.join(HERE, seed)) as handle:
            self.control("POST", "/seed", json.load(handle))

    def jobs(self):
        """The project's jobs, oldest first."""
        session = requests.Session()
        session.post(self.api + "/login", json={"username": USERNAME, "password": PASSWORD}, timeout=30).raise_for_status()
        project = next(p for p in session.get(self.api + "/projects", timeout=30).json()["items"] if p["name"] == PROJECT)
        jobs = session.get("%s/projects/%s/jobs" % (self.api, project["id"]), timeout=30).json()["items"]
        return list(reversed(jobs))

    def machines(self):
        session = requests.Session()
        session.post(self.api + "/login", json={"username": USERNAME, "password": PASSWORD}, timeout=30).raise_for_status()
        project = next(p for p in session.get(self.api + "/projects", timeout=30).json()["items"] if p["name"] == PROJECT)
        now = session.get(self.api + "/extendedAccountInfo", timeout=30).json()["dateTime"]["dateTime"]
        return now, session.get("%s/projects/%s/machines" % (self.api, project["id"]), timeout=30).json()["items"]

    def cloud(self):
        return self.control("GET", "/cloud")["items"]

    def blueprints(self):
        """The project's blueprints, whole, by machine ID."""
        session = requests.Session()
        session.post(self.api + "/login", json={"username": USERNAME, "password": PASSWORD}, timeout=30).raise_for_status()
        project = next(p for p in session.get(self.api + "/projects", timeout=30).json()["items"] if p["name"] == PROJECT)
        return dict((b["machineId"], b) for b in session.get("%s/projects/%s/blueprints" % (self.api, project["id"]), timeout=30).json()["items"])

    def wait_until_continuous(self):
        """Seeded machines replicate from the start; their first points in time take a moment of clock."""
        for unused in range(120):
            session = requests.Session()
            session.post(self.api + "/login", json={"username": USERNAME, "password": PASSWORD}, timeout=30).raise_for_status()
            project = next(p for p in session.get(self.api + "/projects", timeout=30).json()["items"] if p["name"] == PROJECT)
            machines = session.get("%s/projects/%s/machines" % (self.api, project["id"]), timeout=30).json()["items"]
            if all(m.get("replicationInfo", {}).get("lastConsistencyDateTime") for m in machines):
                return
            time.sleep(1)
        raise SystemExit("the seeded machines never became consistent")


def prove(simulator, work, names):
    """Enter in the ledger a passing DR test of the machines ``names``, as of now on the service's clock."""
    now, machines = simulator.machines()
    report = os.path.join(work, "proof.json")
    with open(report, "w") as handle:
        json.dump(dict(project=PROJECT, started=now, launch_requested=now, result="passed",
                       machines=[dict(id=m["id"], name=m["sourceProperties"]["name"], passed=True)
                                 for m in machines if m["sourceProperties"]["name"] in names]), handle)
    subprocess.run(["ansible", "localhost", "-m", "replication.recovery.ledger_entry", "-a",
                    "ledger_dir=%s runbook=dr_test report=%s" % (os.path.join(work, "ledger"), report)], check=True, stdout=subprocess.DEVNULL)


def ledger_entries(directory):
    """The ledger's entries, oldest first."""
    names = sorted(name for name in os.listdir(directory) if re.match(r"^\d{8}\.json$", name)) if os.path.isdir(directory) else []
    entries = []
    for name in names:
        with open(os.path.join(directory, name)) as handle:
            entries.append(json.load(handle))
    return entries


def playbook(simulator, work, report_dir, runbook, extra=(), env=None):
    """Start the runbook's playbook as AWX does (credentials in the environment, inputs as text), in a
    process group of its own; its output goes to a file."""
    output = open(os.path.join(work, "output.txt"), "w")
    command = ["ansible-playbook", "replication.recovery." + runbook] + [
        argument for name, value in (("project", PROJECT), ("poll_interval", 1), ("progress_interval", 1), ("report_dir", report_dir),
                                     ("checks_tasks", os.path.join(HERE, "checks.yml")))
        for argument in ("-e", "%s_%s=%s" % (runbook, name, value))] + [
        "-e", "replication_recovery_ledger_dir=" + os.path.join(work, "ledger")] + list(extra)
    # Unbuffered: a stop is brought about by what the output says, and must land while it is so (written to a file, the
    # output would come in blocks, and a stop "during the cleanup" land after the report).
    environment = dict(os.environ, REPLICATION_SERVICE_URL=simulator.api, REPLICATION_SERVICE_USERNAME=USERNAME,
                       REPLICATION_SERVICE_PASSWORD=PASSWORD, PYTHONUNBUFFERED="1", **(env or {}))
    return subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, env=environment, start_new_session=True), output.name


def wait_for(path, pattern, process, seconds=180):
    began = time.monotonic()
    while time.monotonic() - began < seconds:
        with open(path) as handle:
            if re.search(pattern, handle.read()):
                return
        if process.poll() is not None:
            raise AssertionError("the run ended before %r appeared:\n%s" % (pattern, tail(path)))
        time.sleep(0.2)
    raise AssertionError("%r did not appear within %d s:\n%s" % (pattern, seconds, tail(path)))


def tail(path, lines=40):
    with open(path) as handle:
        return "".join(handle.readlines()[-lines:])


def run_tree(pid):
    """The process ``pid`` and all its descendants. Ansible's workers call setsid(), so they leave the run's
    process group (and session): only the tree of parents finds them."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open("/proc/%s/stat" % entry) as handle:
                    parent = int(handle.read().rsplit(")", 1)[1].split()[1])
            except (IOError, OSError, ValueError, IndexError):
                continue
            children.setdefault(parent, []).append(int(entry))
    tree, todo = [], [pid]
    while todo:
        tree.append(todo.pop())
        todo.extend(children.get(tree[-1], []))
    return tree


def kill_run(pid):
    """A lost node: every process of the run dies at once. Frozen first, so that none starts another meanwhile."""
    for unused in range(2):
        for member in run_tree(pid):
            try:
                os.kill(member, signal.SIGSTOP)
            except ProcessLookupError:
                pass
    for member in run_tree(pid):
        try:
            os.kill(member, signal.SIGKILL)
        except ProcessLookupError:
            pass


def stop(process, name, number, output):
    """Stop the run; answers a note when it had to be killed after all."""
    if number == signal.SIGKILL:
        kill_run(process.pid)
    else:
        process.send_signal(number)  # as AWX (through ansible-runner) and container runtimes do
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        # ansible-playbook itself at times does not end on one SIGINT (seen once in several full runs, on ansible-core
        # 2.19, while a worker ran the launch step). Whoever stops it then stops it harder, as ansible-runner's
        # cancel does: the whole process group is killed. What is tested is the next run.
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=60)
        return " (ansible-playbook did not end within a minute of %s and was killed; its last lines: %s)" % (
            name, " | ".join(line.strip() for line in tail(output, 4).splitlines()))
    if number != signal.SIGKILL:
        # Workers left behind end with the task they were running; give them the moment they take.
        try:
            os.killpg(process.pid, 0)
            time.sleep(2)
        except ProcessLookupError:
            pass
    return ""


def one_case(simulator, work, runbook, point, signal_name, number):
    simulator.fresh(RUNBOOKS[runbook]["seed"])
    simulator.wait_until_continuous()
    simulator.control("DELETE", "/faults")
    launch = RUNBOOKS[runbook]["launch"]
    if point.get("faults"):
        simulator.control("POST", "/faults", {"rules": [dict(rule, jobTypes=[launch if kind == "LAUNCH" else kind for kind in rule["jobTypes"]])
                                                        for rule in point["faults"]]})
    report_dir = os.path.join(work, "reports")
    shutil.rmtree(os.path.join(work, "ledger"), ignore_errors=True)
    # The controller's temporary directory of this case alone: what the stopped run left there is gone after the next.
    temporary = os.path.join(work, "tmp")
    shutil.rmtree(temporary, ignore_errors=True)
    os.makedirs(temporary)
    proven = 0
    if point.get("unproven"):
        prove(simulator, work, ["app-1", "db-1"])
        proven = 1
    unproven = (["-e", "dr_test_machines=unproven"] if point.get("unproven") else []) + RUNBOOKS[runbook].get("extra", [])
    if point.get("inventory_waves"):
        inventory = os.path.join(work, "waves_inventory.yml")
        localhost = {"ansible_connection": "local", "ansible_python_interpreter": "{{ ansible_playbook_python }}",
                     "dr_test_waves": point["inventory_waves"]}
        with open(inventory, "w") as handle:
            json.dump({"all": {"hosts": {"localhost": localhost}}}, handle)
        unproven += ["-i", inventory]
    extra = (["-e", "hold_checks=true"] if point.get("hold_checks") else []) + unproven
    blueprints = simulator.blueprints()
    process, output = playbook(simulator, work, report_dir, runbook, extra, env=dict({"HOLD_AT_TASK": point["hold"]} if point.get("hold") else {},
                                                                                     TMPDIR=temporary))
    wait_for(output, "HOLDING AT .*" + re.escape(point["hold"]) if point.get("hold") else point["see"], process)
    hung = stop(process, signal_name, number, output)
    stopped_output = tail(output, 15)
    with open(output) as handle:
        # ansible-playbook at times goes on after one SIGINT (seen on ansible-core 2.19 while a worker ran the
        # launch step) and ends the run whole, its cleanup included: then this case stopped nothing, and the
        # next run is a new DR test. Said, not hidden.
        ran_to_the_end = number == signal.SIGINT and "PLAY RECAP" in handle.read()
    if ran_to_the_end:
        point = dict(point, cleanup_began=True)
        hung += " (ansible-playbook did not stop on SIGINT: it ran to the end, its cleanup included)"
    simulator.control("DELETE", "/faults")

    again, output = playbook(simulator, work, report_dir, runbook, unproven, env={"TMPDIR": temporary})
    status = again.wait(timeout=600)
    with open(os.path.join(report_dir, "%s_%s.json" % (runbook, PROJECT))) as handle:
        report = json.load(handle)
    assert status == 0 and report["result"] == "passed", "the run after the stop failed (%s):\n%s\n%s" % (
        status, report["failures"], tail(output))
    if point.get("unproven"):
        assert [m["name"] for m in report["machines"]] == ["web-1"], report["machines"]
    assert simulator.cloud() == [], "the target cloud is not empty: %s" % simulator.cloud()
    assert simulator.blueprints() == blueprints, "the blueprints are not as they were: %s" % simulator.blueprints()
    left = [name for name in os.listdir(temporary) if name.startswith("replication-recovery-")]
    assert left == [], "the runs' directories left on the controller: %s" % left

    jobs = simulator.jobs()
    launches = [job for job in jobs if job["type"] == launch]
    cleanups = [job for job in jobs if job["type"] == "CLEANUP"]
    adopted = [check for check in report["checks"] if check["name"] == "earlier run" and "adopted" in check["message"]]
    if point["cleanup_began"]:
        assert len(launches) == 2, "%d launch jobs: %s" % (len(launches), [(j["id"], j["creationDateTime"]) for j in launches])
        first_cleanup_end = cleanups[0]["endDateTime"]
        assert launches[1]["creationDateTime"] >= first_cleanup_end, (
            "the second run launched at %s, while the stopped run's machines were up (its cleanup ended %s)" % (
                launches[1]["creationDateTime"], first_cleanup_end))
        assert not adopted
    else:
        assert len(launches) == point.get("launches", 1), "%d launch jobs after a stop %s: %s\n%s" % (
            len(launches), point["name"], launches, stopped_output)
        assert bool(adopted) == (point["name"] != "before the launch request"), report["checks"]
    assert all(job["status"] != "STARTED" and job["status"] != "PENDING" for job in jobs)
    # The ledger: the run that passed, entered once; a first run that ran to its end (or was stopped once it had entered its
    # report), entered before it.
    entries = ledger_entries(os.path.join(work, "ledger"))
    reported = point.get("reported_maybe") and len(entries) == proven + 2 and entries[-2]["result"] == "passed"
    if reported and not ran_to_the_end:
        hung += " (the stopped run had entered its report in the ledger)"
    assert len(entries) == proven + (2 if ran_to_the_end or reported else 1), [(e["sequence"], e["result"], e["run"]) for e in entries]
    assert entries[-1]["result"] == "passed" and entries[-1]["report"]["started"] == report["started"], entries[-1]["run"]
    assert [e["previous"] for e in entries[1:]] == [e["sha256"] for e in entries[:-1]]
    return "%d launch job%s, %d cleanup job%s%s" % (len(launches), "" if len(launches) == 1 else "s", len(cleanups),
                                                    "" if len(cleanups) == 1 else "s", ", the second run adopted the first's" if adopted else "") + hung


def simulators(first, more):
    """The target's simulator and ``more`` of this script's own, each on a free port; and a function that stops those."""
    started = [subprocess.Popen([sys.executable, "-m", "replication_service_simulator", "--host", "127.0.0.1", "--port", "0", "--seed", "empty",
                                 "--time-scale", "60", "--check-answers"], stdout=subprocess.PIPE, text=True) for unused in range(more)]
    roots = [first] + [process.stdout.readline().strip()[: -len("/api/latest")] for process in started]

    def stop_them():
        for process in started:
            process.terminate()
            process.wait(timeout=30)
    return [Simulator(root) for root in roots], stop_them


def cases(seed, only=None, runbook=None):
    """(runbook, point, signal name, signal) for each case: each point of each runbook once, the signals rotating from ``seed``."""
    chosen = [(name, point) for name in RUNBOOKS for point in POINTS if name in point.get("runbooks", RUNBOOKS)
              and (not only or only == point["name"]) and (not runbook or runbook == name)]
    rotated = [(name, point) for name, point in chosen if not point.get("signal")]
    found = []
    for index, (name, point) in enumerate(chosen):
        signal_name = point.get("signal") or SIGNALS[(seed + rotated.index((name, point))) % len(SIGNALS)][0]
        found.append((name, point, signal_name, dict(SIGNALS)[signal_name]))
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--simulator", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--simulators", type=int, default=2, help="how many run side by side (the target's and more of this script's)")
    parser.add_argument("--seed", type=int, help="where the rotation of signals begins; random if not given, and printed")
    parser.add_argument("--only", help="the name of one point, for a quicker look")
    parser.add_argument("--runbook", choices=sorted(RUNBOOKS), help="one runbook's cases only")
    args = parser.parse_args()
    seed = random.randrange(1000) if args.seed is None else args.seed
    todo = cases(seed, args.only, args.runbook)
    print("%d cases, the signals rotating from seed %d (give --seed %d to run the same ones again), %d side by side" % (
        len(todo), seed, seed, args.simulators), flush=True)
    return side_by_side(args, todo, lambda simulator, work, case: one_case(simulator, work, *case),
                        lambda case: "%s stopped %s by %s" % (case[0], case[1]["name"], case[2]))


def side_by_side(args, todo, run_case, said_of):
    """Run the cases side by side, each worker on a simulator of its own (the target's, and args.simulators - 1 more),
    in a work directory of its own; print each case's outcome as it ends. Answers the exit status: 1 when one failed."""
    pool, stop_them = simulators(args.simulator, max(0, args.simulators - 1))
    free = list(range(len(pool)))
    lock = threading.Lock()

    def run(case):
        with lock:
            worker = free.pop()
        work = os.path.join(args.work, str(worker))
        os.makedirs(work, exist_ok=True)
        began = time.monotonic()
        try:
            said, failed = "passed, the target cloud empty, %s" % run_case(pool[worker], work, case), False
        except AssertionError as error:
            said, failed = "FAILED: %s" % error, True
        finally:
            with lock:
                free.append(worker)
        with PRINTING:
            print("%s, then run again: %s (%.0f s)" % (said_of(case), said, time.monotonic() - began), flush=True)
        return failed

    try:
        with ThreadPoolExecutor(max_workers=len(pool)) as executor:
            failures = sum(executor.map(run, todo))
    finally:
        stop_them()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
