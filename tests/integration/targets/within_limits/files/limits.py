"""Runs of the collection on a service with limits, each judged by what the simulator saw (issue 51).

The simulator is this script's own (the suite's keeps no limits): two projects of 250 machines that replicate, and the
limits of the services of the family - 100 servers a job, 2 jobs at once in the account, 10 requests a second a
session. The runs are given the account's limits as AWX gives them, as text (replication_service_limits).
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import requests
from replication_service_simulator.local import LocalSimulator

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "dr_test_stopped", "files"))
from stopped import kill_run  # noqa: E402  pylint: disable=wrong-import-position

USERNAME, PASSWORD = "limits@example.test", "limits-password"
PROJECTS, SIZE = ("east", "west"), 250
LIMITS = {"servers_per_job": 100, "concurrent_jobs": 2}


class Simulator(LocalSimulator):
    """The target's own simulator, and a user's view of it."""

    def jobs(self, project_id):
        """Every job of the project, oldest first (read as a user would, past the limit of requests a second)."""
        items = self.get("/projects/%s/jobs" % project_id, params=dict(offset=0, limit=1500))["items"]
        return sorted(items, key=lambda job: job["creationDateTime"])

    def get(self, path, params=None):
        while True:
            answer = self.user.get(self.api + path, params=params, timeout=30)
            if answer.status_code != 429:
                answer.raise_for_status()
                return answer.json()
            time.sleep(float(answer.headers.get("Retry-After") or 1))

    def sign_in(self):
        self.user = requests.Session()
        answer = self.user.post(self.api + "/login", json={"username": USERNAME, "password": PASSWORD}, timeout=30)
        answer.raise_for_status()
        self.user.headers["X-XSRF-TOKEN"] = self.user.cookies.get("XSRF-TOKEN", "")


def world():
    machine = {"disks": [{"name": "/dev/sda", "size": 1000000000}], "agentInstalledSecondsAgo": 2 * 86400}
    return {"accounts": [{
        "name": "limits", "licenses": [{"type": "DR", "count": 1000, "expiresInDays": 365}], "maxProjectsAllowed": 10,
        "users": [{"username": USERNAME, "password": PASSWORD, "roles": ["ACCOUNT_OWNER"]}],
        "cloudCredentials": [{"name": "aws", "cloud": "AWS", "publicKey": "AKIALIMITS", "accountIdentifier": "565656787878"}],
        "projects": [{"name": project, "type": "DR", "cloudCredentials": ["aws"],
                      "replicationConfiguration": {"cloudCredentials": "aws", "region": "us-east-1", "subnet": "private-a"},
                      "machines": [dict(machine, name="%s-%03d" % (project, number)) for number in range(SIZE)]} for project in PROJECTS]}]}


def command(sim, work, args, limits=True):
    """ansible-playbook (or ansible) as AWX runs it: the connection in the environment, the limits as the text of a survey."""
    environment = dict(os.environ, REPLICATION_SERVICE_URL=sim.api, REPLICATION_SERVICE_USERNAME=USERNAME, REPLICATION_SERVICE_PASSWORD=PASSWORD,
                       PYTHONUNBUFFERED="1", XDG_DATA_HOME=os.path.join(work, "data"))
    extra = ["-e", json.dumps({"replication_service_limits": json.dumps(LIMITS)})] if limits else []
    return args + extra, environment


def run(sim, work, name, args, limits=True, background=False):
    args, environment = command(sim, work, args, limits)
    output = open(os.path.join(work, name + ".txt"), "w")
    process = subprocess.Popen(args, stdout=output, stderr=subprocess.STDOUT, env=environment, cwd=work, start_new_session=True)
    if background:
        return process, output.name
    process.wait(timeout=1800)
    with open(output.name) as handle:
        return process.returncode, handle.read()


def runbook(runbook_name, hosts, work, *extra):
    inventory = os.path.join(work, "projects.ini")
    with open(inventory, "w") as handle:
        handle.write("[projects]\n" + "".join("%s %s_project=%s\n" % (host, runbook_name, host) for host in hosts) + (
            "[projects:vars]\nansible_connection=local\nansible_python_interpreter=%s\n" % sys.executable))
    return ["ansible-playbook", "-i", inventory, "replication.recovery." + runbook_name, "-f", str(len(hosts)),
            "-e", "%s_hosts=projects" % runbook_name, "-e", "%s_report_dir=%s" % (runbook_name, os.path.join(work, "reports")),
            "-e", "%s_poll_interval=1" % runbook_name, "-e", "%s_progress_interval=5" % runbook_name] + list(extra)


def report(work, runbook_name, project):
    with open(os.path.join(work, "reports", "%s_%s.json" % (runbook_name, project))) as handle:
        return json.load(handle)


def overlapping(jobs):
    """The most of ``jobs`` that ran at once."""
    edges = sorted([(job["creationDateTime"], 1) for job in jobs] + [(job["endDateTime"], -1) for job in jobs], key=lambda edge: (edge[0], edge[1]))
    most = now = 0
    for unused, step in edges:
        now += step
        most = max(most, now)
    return most


def launched_once(jobs, job_type):
    """Every machine launched by exactly one job of the type: the machines those jobs took, each once."""
    taken = [machine for job in jobs if job["type"] == job_type for machine in job["participatingMachines"]]
    assert len(taken) == len(set(taken)), "a machine was launched twice"
    return len(taken)


def nothing_left(sim):
    left = sim.control("GET", "/cloud")["items"]
    assert not [item for item in left if item.get("state") != "terminated" and item.get("machineCloudState") != "terminated"], left[:3]


def refused_before_any_write(sim, work, ids):
    """A launch of 250 machines in one job, and a recovery plan of 150, each refused before anything is written."""
    began = time.time()
    plan_steps = [{"name": "all", "machines": ["east-%03d" % number for number in range(150)]}]
    code, output = run(sim, work, "plan", ["ansible", "localhost", "-m", "replication.recovery.service_recovery_plan", "-a",
                                           json.dumps({"project": "east", "name": "big", "steps": plan_steps})], limits=False)
    assert code == 0, output[-2000:]
    sim.control("DELETE", "/stats")
    code, output = run(sim, work, "refused_launch", ["ansible", "localhost", "-m", "replication.recovery.service_launch", "-a",
                                                     json.dumps({"project": "east", "service_limits": LIMITS})], limits=False)
    said = "A job takes at most 100 machines (service_limits.servers_per_job), and this job would take 250. Nothing was sent"
    assert code != 0 and said in output, output[-2000:]
    code, output = run(sim, work, "refused_plan", runbook("dr_test", ["east"], work, "-e", "dr_test_recovery_plan=big"))
    assert code != 0 and "A job takes at most 100 machines (service_limits.servers_per_job), and this job would take 150: the recovery plan big " \
        "runs in one job. Nothing was launched" in output, output[-3000:]
    assert sim.control("GET", "/stats")["writes"] == 0, sim.control("GET", "/stats")
    print("refused before any write: a launch of 250 machines and the run of a recovery plan of 150, 0 writes (%.0f s)" % (time.time() - began))


def two_projects_side_by_side(sim, work, ids):
    # --check first: it says how each wave goes out, and writes nothing.
    sim.control("DELETE", "/stats")
    code, output = run(sim, work, "two_projects_check", runbook("dr_test", PROJECTS, work, "--check"))
    assert code == 0 and sim.control("GET", "/stats")["writes"] == 0, output[-4000:]
    for project in PROJECTS:
        assert "%s: Wave 1 goes out in 3 jobs (84, 83, 83 machines), one after another: a job takes at most 100 machines (service_limits)." % (
            project) in output, output[-4000:]
    began = time.time()
    code, output = run(sim, work, "two_projects", runbook("dr_test", PROJECTS, work))
    assert code == 0, output[-4000:]
    every = []
    for project in PROJECTS:
        found = report(work, "dr_test", project)
        assert found["result"] == "passed" and found["counts"]["machines"] == SIZE == found["counts"]["passed"], found["failures"][:3]
        assert [len(wave["jobs"]) for wave in found["waves"]] == [3], found["waves"]
        jobs = sim.jobs(ids[project])
        launches = [job for job in jobs if job["type"] == "TEST_LAUNCH"]
        assert [len(job["participatingMachines"]) for job in launches] == [84, 83, 83], [len(job["participatingMachines"]) for job in launches]
        assert sorted(job["id"] for job in launches) == sorted(found["waves"][0]["jobs"])
        assert launched_once(jobs, "TEST_LAUNCH") == SIZE
        assert overlapping(jobs) == 1, "two jobs of one project ran at once"
        every.extend(jobs)
    assert overlapping(every) <= LIMITS["concurrent_jobs"]
    nothing_left(sim)
    print("a DR test of two projects of 250 machines: passed in 3 launch jobs a project (%d jobs in all, at most %d at once), %.0f s" % (
        len(every), overlapping(every), time.time() - began))


def one_job_at_a_time_in_the_account(sim, work, ids):
    """Two projects side by side in an account that runs one job at a time, the first launch slowed down so that the
    other project's launch is refused (HTTP 429) while it runs: both pass, the refused one sent again once there is room."""
    began = time.time()
    # No limit of requests a second here: every 429 is a job the account had no room for.
    sim.control("PATCH", "/settings", {"concurrentJobs": 1, "requestsPerSecond": 0})
    sim.control("POST", "/faults", {"rules": [{"jobTypes": ["TEST_LAUNCH"], "slowFactor": 6, "count": 1}]})
    before = dict((project, set(job["id"] for job in sim.jobs(ids[project]))) for project in PROJECTS)
    sim.control("DELETE", "/stats")
    try:
        code, output = run(sim, work, "one_at_a_time", runbook("dr_test", PROJECTS, work, "-e", "dr_test_machines=*-00?"))
        refused = sim.control("GET", "/stats")["refused"]
    finally:
        sim.control("DELETE", "/faults")
        sim.control("PATCH", "/settings", {"concurrentJobs": LIMITS["concurrent_jobs"], "requestsPerSecond": 10})
    assert code == 0, output[-4000:]
    jobs = [job for project in PROJECTS for job in sim.jobs(ids[project]) if job["id"] not in before[project]]
    assert overlapping(jobs) == 1 and refused.get("429", 0) >= 1, (overlapping(jobs), refused)
    for project in PROJECTS:
        assert report(work, "dr_test", project)["result"] == "passed"
    nothing_left(sim)
    print("two projects in an account of one job at a time: both passed, %d jobs one after another, %d launches or cleanups answered 429 "
          "and sent again (%.0f s)" % (len(jobs), refused["429"], time.time() - began))


def stopped_in_the_second_job(sim, work, ids, runbook_name, project, job_type, number, *extra):
    """Start the runbook, stop it with the signal ``number`` once its second launch job runs (SIGTERM: a stopped
    container; SIGINT: an operator's Ctrl-C; SIGKILL: a lost node, every process of the run at once - its workers
    included, which leave the run's process group), run it again."""
    before = set(job["id"] for job in sim.jobs(ids[project]))
    began = time.time()
    process, unused = run(sim, work, "%s_stopped" % runbook_name, runbook(runbook_name, [project], work, *extra), background=True)
    deadline = time.time() + 600
    while time.time() < deadline and process.poll() is None:
        launches = [job for job in sim.jobs(ids[project]) if job["id"] not in before and job["type"] == job_type]
        if len(launches) == 2 and launches[-1]["status"] in ("PENDING", "STARTED"):
            break
        time.sleep(0.2)
    assert process.poll() is None, "the run ended before its second job"
    if number == signal.SIGKILL:
        kill_run(process.pid)
    else:
        process.send_signal(number)
    process.wait(timeout=120)
    print("%s stopped by %s during its second job after %.0f s" % (runbook_name, signal.Signals(number).name, time.time() - began))
    code, output = run(sim, work, "%s_again" % runbook_name, runbook(runbook_name, [project], work, *extra))
    print("%s run again in %.0f s" % (runbook_name, time.time() - began))
    assert code == 0, output[-4000:]
    jobs = [job for job in sim.jobs(ids[project]) if job["id"] not in before]
    launches = [job for job in jobs if job["type"] == job_type]
    assert len(launches) == 3 and launched_once(jobs, job_type) == SIZE, [(job["id"], len(job["participatingMachines"])) for job in launches]
    found = report(work, runbook_name, project)
    assert found["waves"][0]["jobs"] == [job["id"] for job in launches], (found["waves"][0], [job["id"] for job in launches])
    for number, job in enumerate(launches[:2], 1):
        said = [line for line in output.splitlines() if "Wave 1 (job %d of 3) was launched by an earlier run" % number in line]
        assert len(said) == 1 and "(%s %s" % (job_type, job["id"]) in said[0], (said, output[-3000:])
    # Its first two jobs adopted, its third its own: the wave is no adopted one.
    assert [check["message"].endswith("(adopted from an earlier run)") for check in found["checks"] if check["name"].startswith("launch job")] == [
        True, True, False] and found["waves"][0]["adopted"] is False, found["checks"]
    return found, output


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--work", required=True)
    work = parser.parse_args().work
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    sim = Simulator(time_scale=60)
    try:
        sim.control("PATCH", "/settings", {"sessionLifetimeSeconds": 100 * 86400})
        seeded = sim.control("POST", "/seed", world())
        sim.control("PATCH", "/settings", {"serversPerJob": 100, "concurrentJobs": 2, "requestsPerSecond": 10})
        ids = dict((project, seeded["accounts"][0]["projects"][project]["id"]) for project in PROJECTS)
        sim.sign_in()
        refused_before_any_write(sim, work, ids)
        two_projects_side_by_side(sim, work, ids)
        one_job_at_a_time_in_the_account(sim, work, ids)
        found, unused = stopped_in_the_second_job(sim, work, ids, "dr_test", "west", "TEST_LAUNCH", signal.SIGTERM)
        assert found["result"] == "passed" and found["counts"]["passed"] == SIZE, found["failures"][:3]
        nothing_left(sim)
        print("a DR test stopped during its second job, run again: 3 launch jobs, each machine launched once, nothing left")
        found, unused = stopped_in_the_second_job(sim, work, ids, "dr_test", "west", "TEST_LAUNCH", signal.SIGINT)
        assert found["result"] == "passed" and found["counts"]["passed"] == SIZE, found["failures"][:3]
        nothing_left(sim)
        print("a DR test stopped by Ctrl-C during its second job, run again: 3 launch jobs, each machine launched once, nothing left")
        found, output = stopped_in_the_second_job(sim, work, ids, "failover", "east", "RECOVERY_LAUNCH", signal.SIGKILL)
        assert "Failover of east: COMMITTED" in output, output[-3000:]
        assert not [line for line in output.splitlines() if "runs production" in line], output[-3000:]
        print("a failover whose every process was killed during its second job, run again: COMMITTED, 3 launch jobs, "
              "each machine launched once")
    finally:
        sim.stop()


if __name__ == "__main__":
    main()
