"""make bench, at the scale of real projects: a whole DR test beside a hand-written one, and the simulator under load.

    python tests/bench/scale.py --output .build/bench/scale.json [--sizes 5,200,1000] [--repeat 2]

For each size N: a project of N machines that replicate continuously (simulator at 600 times real
time, so a launch job takes well under a second); then, in the same run and against the same
simulator, the hand-written uri playbook (tests/bench/uri_dr_test.yml: log in, launch, wait, clean
up, wait), the direct client (tests/bench/direct_dr_test.py: one session, the requests the interface forces on a DR test)
and the collection's dr_test playbook with its built-in checks, RPO and RTO targets of a
day. Measured for each: wall time, HTTP requests, and the controller's time in each phase (the
callback in tests/bench/callback_plugins; "start" is the rest: ansible-playbook's own start - its imports, the playbook
parsed - and end); for the DR test also its result and the RTO of the
slowest and the fastest machine (one launch job launches them all). Each of --repeat (3) rounds - the uri playbook, the
direct client, then the DR test - gives two ratios (the DR test's time over each yardstick's); the median of each counts.
With Chromium installed (make test-browser installs it), the time it takes to open the run's HTML page.

Then a committed failover of --failover machines (200), and the failback that removes the recovery
machines: wall time, requests, result.

Then the time to the first launch request of a failover of --first-launch machines (1000), beside a hand-written uri
failover that also reads every machine's points first (tests/bench/uri_failover.yml): from the start of ansible-playbook to the
service's first launch request.

Then an estate (--estate, 20 projects of 500 machines, and the same projects' size at a tenth of them): the inventory plugin's
machines and projects, the health playbook, and a DR test of every project side by side (the projects as hosts, --estate-forks
of them at once, 20) - wall time, requests a machine, and the controller's peak memory (ansible-playbook and its workers).

Then the blueprints of --test-network machines (1000) switched to an isolated test network and put back, each a
module run (wall time, requests), and a whole DR test in that network.

Then a clean point search (--clean-point, 50 machines x 100 points in time each), each machine damaged from its own
moment: rounds, launches, wall time and requests, and whether each machine's clean point is the newest before its damage.

Then a fleet (--fleet, 10 projects of 100 machines): the inventory plugin's source machines and
projects, and the health playbook, each timed and counted in requests.

Then the event source for Event-Driven Ansible (--events, 10 projects of 100 machines) watching that
fleet: the requests of each look and its time, and how long it takes to tell a machine paused.

Then the agent role over --agent local hosts (200) standing in for SSH targets, with forks: wall time and requests,
and a second run that installs nothing. Then a launch policy over --launch-policy machines (1000), every blueprint
changed: wall time, requests and writes, and a second run that writes nothing.

Then the simulator alone, with one project of 1000 machines: the time of each request that lists
the machines, launches all of them and polls the launch job (p50, p95, max).

Figures, not tests: the script fails only when a DR test, the failover or the failback does not pass. The targets the project
holds itself to are written beside the figures (met or not).
"""

import argparse
import asyncio
import json
import os
import runpy
import shutil
import statistics
import subprocess
import sys
import threading
import time
from datetime import datetime, timezone

import requests
from replication_service_simulator.local import LocalSimulator

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
USERNAME, PASSWORD = "bench@example.test", "bench-password-0"
HOUR = 3600
DAY = 86400


def parse_time(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def iso_time(seconds):
    """As the service writes date-times (so that they compare as text)."""
    return datetime.fromtimestamp(seconds, timezone.utc).isoformat(timespec="microseconds")


def world(size, projects=("bench",), age=2 * DAY):
    """An account whose projects each have ``size`` machines that replicate continuously (for ``age`` seconds)."""
    machine = {"disks": [{"name": "/dev/sda", "size": 1000000000}], "agentInstalledSecondsAgo": age}
    return {"accounts": [{
        "name": "bench", "licenses": [{"type": "DR", "count": 5000, "expiresInDays": 365}], "maxProjectsAllowed": 100,
        "users": [{"username": USERNAME, "password": PASSWORD, "roles": ["ACCOUNT_OWNER"]}],
        "cloudCredentials": [{"name": "aws", "cloud": "AWS", "publicKey": "AKIABENCH", "accountIdentifier": "777788889999"}],
        "projects": [{"name": project, "type": "DR", "cloudCredentials": ["aws"],
                      "replicationConfiguration": {"cloudCredentials": "aws", "region": "us-east-1", "subnet": "private-a"},
                      "machines": [dict(machine, name="%s-m-%04d" % (project, number)) for number in range(size)]}
                     for project in projects],
    }]}


class Simulator(LocalSimulator):
    def fresh(self, size, projects=("bench",), age=2 * DAY, keep_every_point=HOUR):
        self.control("POST", "/reset")
        self.control("PATCH", "/settings", {"sessionLifetimeSeconds": 100 * DAY, "keepEveryPointSeconds": keep_every_point})
        return self.control("POST", "/seed", world(size, projects, age))


def playbook(sim, args, env_extra=None, command="ansible-playbook"):
    """Run ansible-playbook (or another of Ansible's commands); answers (seconds, requests, its exit status)."""
    run = measured(sim, args, env_extra, command)
    return run["seconds"], run["requests"], run["exit_status"]


def measured(sim, args, env_extra=None, command="ansible-playbook", memory=False):
    """Run ansible-playbook (or another of Ansible's commands) and answer what it took: seconds, requests, exit_status, the
    seconds from its start to the service's first launch request (first_launch_seconds, None without one) and, with
    ``memory``, the controller's peak memory - the proportional set size of the command and all its processes together
    (peak_bytes), sampled every half second; and its requests by route (routes, "METHOD route": count), most first."""
    env = dict(os.environ, REPLICATION_SERVICE_URL=sim.api, REPLICATION_SERVICE_USERNAME=USERNAME,
               REPLICATION_SERVICE_PASSWORD=PASSWORD, ANSIBLE_CALLBACK_PLUGINS=os.path.join(ROOT, "tests", "bench", "callback_plugins"),
               ANSIBLE_CALLBACKS_ENABLED="phase_times", **(env_extra or {}))
    sim.control("DELETE", "/stats")
    began, began_at, peak = time.monotonic(), time.time(), [0]
    process = subprocess.Popen([os.path.join(os.path.dirname(sys.executable), command)] + args, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    sampler = None
    if memory:
        def sample():
            while process.poll() is None:
                peak[0] = max(peak[0], tree_memory(process.pid))
                time.sleep(0.5)
        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
    output = process.communicate()[0]
    seconds = time.monotonic() - began
    if sampler:
        sampler.join()
    if process.returncode != 0:
        sys.stdout.write(output[-4000:])
    stats = sim.control("GET", "/stats")
    launches = [row["first"] for row in stats["requests"] if row["method"] == "POST" and row["route"].endswith("/launchMachines")]
    return dict(seconds=round(seconds, 2), requests=stats["total"], exit_status=process.returncode,
                first_launch_seconds=round(min(launches) - began_at, 2) if launches else None, peak_bytes=peak[0] if memory else None,
                routes=dict(("%s %s" % (row["method"], row["route"]), row["count"])
                            for row in sorted(stats["requests"], key=lambda row: -row["count"])))


def tree_memory(pid):
    """The memory of the process ``pid`` and all its descendants: the sum of their proportional set sizes (the pages a
    forked worker shares with its parent count once between them), in bytes."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open("/proc/%s/stat" % entry) as handle:
                    children.setdefault(int(handle.read().rsplit(")", 1)[1].split()[1]), []).append(int(entry))
            except (OSError, ValueError, IndexError):
                continue
    total, todo = 0, [pid]
    while todo:
        member = todo.pop()
        todo.extend(children.get(member, []))
        try:
            with open("/proc/%d/smaps_rollup" % member) as handle:
                total += next(int(line.split()[1]) for line in handle if line.startswith("Pss:")) * 1024
        except (OSError, StopIteration, ValueError):
            continue
    return total


def phases(path, seconds):
    """The playbook's phases (callback_plugins/phase_times.py), and ``start``: the rest of its ``seconds`` - ansible-playbook's
    own start (Python, Ansible's imports, the inventory, the playbook parsed, its plays' imports and roles' files read) and
    end, before and after every task."""
    with open(path) as handle:
        timings = json.load(handle)
    return dict(timings["phases"], start=round(max(seconds - timings["total"], 0.0), 3))


# The most the DR test may take beside the uri playbook, by size (the size itself when not listed, 3x).
RATIO_TARGETS = {200: 2, 1000: 2}
# And beside the direct client (tests/bench/direct_dr_test.py): the targets of the engine as one run object.
DIRECT_RATIO_TARGETS = {200: 1.5, 1000: 1.3}
REPORT_SECONDS_AT_1000 = 3


def render_seconds(page):
    """How long headless Chromium takes to open the page and draw it (a screenshot), start included; None without
    Chromium (make test-browser installs it)."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        return None
    shot = page + ".png"
    began = time.monotonic()
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1280,1600",
                    "--screenshot=%s" % shot, "file://" + page], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120, check=True)
    seconds = round(time.monotonic() - began, 2)
    os.unlink(shot)
    return seconds


def dr_test_at(sim, size, repeat, report_dir):
    sim.fresh(size)
    uri_runs, direct_runs, dr_runs = [], [], []
    timings = os.path.join(report_dir, "phases.json")
    for unused in range(repeat):
        seconds, requests_sent, status = playbook(sim, [os.path.join(ROOT, "tests", "bench", "uri_dr_test.yml"), "-e", "project=bench"],
                                                  env_extra=dict(BENCH_PHASES=timings))
        if status != 0:
            raise SystemExit("the uri playbook failed at %d machines" % size)
        uri_runs.append(dict(seconds=round(seconds, 2), requests=requests_sent, phases=phases(timings, seconds)))
        direct = measured(sim, [os.path.join(ROOT, "tests", "bench", "direct_dr_test.py"), "--project", "bench", "--poll-interval", "1"],
                          command="python")
        if direct["exit_status"] != 0:
            raise SystemExit("the direct client failed at %d machines" % size)
        direct_runs.append(dict(seconds=direct["seconds"], requests=direct["requests"], routes=direct["routes"]))
        run = measured(sim, [
            "replication.recovery.dr_test", "-e", "dr_test_project=bench", "-e", "dr_test_poll_interval=1",
            "-e", "dr_test_rpo_target=%d" % DAY, "-e", "dr_test_rto_target=%d" % DAY, "-e", "dr_test_report_dir=%s" % report_dir],
            env_extra=dict(BENCH_PHASES=timings))
        seconds, requests_sent, status = run["seconds"], run["requests"], run["exit_status"]
        with open(os.path.join(report_dir, "dr_test_bench.json")) as handle:
            report = json.load(handle)
        rtos = [machine["rto_seconds"] for machine in report["machines"] if machine["rto_seconds"] is not None]
        dr_runs.append(dict(seconds=round(seconds, 2), requests=requests_sent, result=report["result"], exit_status=status,
                            rto_slowest=max(rtos) if rtos else None, rto_fastest=min(rtos) if rtos else None,
                            rto_spread=round(max(rtos) / min(rtos), 3) if rtos else None, phases=phases(timings, seconds), routes=run["routes"]))
    # Each DR test beside the uri playbook run just before it (the machine's load changes between pairs): the median pair.
    pairs = sorted(zip(uri_runs, dr_runs), key=lambda pair: pair[1]["seconds"] / pair[0]["seconds"])
    uri, dr = pairs[(len(pairs) - 1) // 2]
    ratio = round(dr["seconds"] / uri["seconds"], 2)
    # And beside the direct client of the same round (tests/bench/direct_dr_test.py): the median of the rounds' ratios.
    direct_ratios = sorted(round(dr_run["seconds"] / direct_run["seconds"], 2) for direct_run, dr_run in zip(direct_runs, dr_runs))
    direct_ratio = direct_ratios[(len(direct_ratios) - 1) // 2]
    targets = dict(requests_at_most_2n_plus_30=dr["requests"] <= 2 * size + 30,
                   rto_spread_at_most_1_5=dr["rto_spread"] is not None and dr["rto_spread"] <= 1.5, passed=dr["result"] == "passed")
    targets["wall_time_ratio_at_most_%d" % RATIO_TARGETS.get(size, 3)] = ratio <= RATIO_TARGETS.get(size, 3)
    if size in DIRECT_RATIO_TARGETS:
        targets["direct_client_ratio_at_most_%s" % DIRECT_RATIO_TARGETS[size]] = direct_ratio <= DIRECT_RATIO_TARGETS[size]
    if size >= 1000:
        targets["report_under_%d_s" % REPORT_SECONDS_AT_1000] = dr["phases"].get("report", 0) < REPORT_SECONDS_AT_1000
    page_seconds = render_seconds(os.path.join(report_dir, "dr_test_bench.html"))
    if page_seconds is not None:
        targets["page_opens_under_2_s"] = page_seconds < 2
    return dict(
        machines=size, uri_playbook=uri, dr_test=dr, wall_time_ratio=ratio, page_seconds=page_seconds,
        direct_client=direct_runs[(len(direct_runs) - 1) // 2], direct_client_ratio=direct_ratio, direct_client_ratios=direct_ratios,
        requests_per_machine=round(dr["requests"] / size, 2), targets=targets,
        runs=dict(uri_playbook=uri_runs, direct_client=direct_runs, dr_test=dr_runs),
        pair_ratios=[round(dr_run["seconds"] / uri_run["seconds"], 2) for uri_run, dr_run in pairs],
    )


def limits_at(sim, size, report_dir):
    """A DR test of ``size`` machines on a service without limits, then with those of the services of its family (100
    servers a job, 2 jobs at once, 10 requests a second a session) stated in replication_service_limits: wall time,
    requests, the service's refusals (429s answered), launch jobs. On the clock of the integration targets (60x): at the
    bench's 600x, a run held to 10 requests a second spends hours of the service's time, and its points age as they
    would not."""
    runs = {}
    for name, limits in (("off", None), ("on", dict(servers_per_job=100, concurrent_jobs=2))):
        sim.fresh(size)
        sim.control("POST", "/clock", {"advanceSeconds": 0, "timeScale": 60})
        if limits:
            sim.control("PATCH", "/settings", {"serversPerJob": 100, "concurrentJobs": 2, "requestsPerSecond": 10})
        args = ["replication.recovery.dr_test", "-e", "dr_test_project=bench", "-e", "dr_test_poll_interval=1", "-e", "dr_test_rpo_target=%d" % DAY,
                "-e", "dr_test_rto_target=%d" % DAY, "-e", "dr_test_report_dir=%s" % report_dir]
        seconds, requests_sent, status = playbook(sim, args + (["-e", json.dumps(dict(replication_service_limits=limits))] if limits else []))
        refused = sim.control("GET", "/stats").get("refused") or {}
        with open(os.path.join(report_dir, "dr_test_bench.json")) as handle:
            report = json.load(handle)
        runs[name] = dict(seconds=round(seconds, 2), requests=requests_sent, answered_429=refused.get("429", 0), refused=refused,
                          launch_jobs=sum(len(wave.get("jobs") or []) for wave in report["waves"]), result=report["result"], exit_status=status)
    sim.control("POST", "/clock", {"advanceSeconds": 0, "timeScale": 600})
    return dict(machines=size, off=runs["off"], on=runs["on"], targets=dict(
        passed_both=runs["off"]["result"] == runs["on"]["result"] == "passed", jobs_within_the_limit=runs["on"]["launch_jobs"] == -(-size // 100)))


def first_launch_at(sim, size, report_dir):
    """What the collection adds to a failover's RTO before the service starts working: the seconds from the start of
    ansible-playbook to the first launch request, for a failover of ``size`` machines and a hand-written uri failover that
    also reads every machine's points in time first."""
    runs = {}
    for name, args in (("uri_failover", [os.path.join(ROOT, "tests", "bench", "uri_failover.yml"), "-e", "project=bench"]),
                       ("failover", ["replication.recovery.failover", "-e", "failover_project=bench", "-e", "failover_poll_interval=1",
                                     "-e", "failover_report_dir=%s" % report_dir])):
        # Every point kept: the uri playbook reads points for minutes, hours of the service's time at 600x, and a launch
        # from a point thinned meanwhile is refused (the collection reads again; a hand-written playbook does not).
        sim.fresh(size, keep_every_point=30 * DAY)
        runs[name] = measured(sim, args)
    ratio = round(runs["failover"]["first_launch_seconds"] / runs["uri_failover"]["first_launch_seconds"], 2) \
        if runs["failover"]["first_launch_seconds"] and runs["uri_failover"]["first_launch_seconds"] else None
    return dict(machines=size, uri_failover=runs["uri_failover"], failover=runs["failover"], ratio=ratio,
                targets=dict(first_launch_within_1_5x_uri=ratio is not None and ratio <= 1.5,
                             passed=runs["failover"]["exit_status"] == 0 and runs["uri_failover"]["exit_status"] == 0))


def estate_at(sim, projects, per_project, work_dir, forks):
    """An estate of ``projects`` projects of ``per_project`` machines, each step on its own: the inventory of its machines
    and of its projects, the fleet's health, and a DR test of every project side by side (the inventory plugin's project
    hosts, ``forks`` of them at once)."""
    names = ["estate-%02d" % number for number in range(projects)]
    # Every point kept: at 600x a DR test of 20 projects side by side on two cores lasts hours of the service's time, and
    # points pinned at its start would thin out under it - read again and launched again, which is not what this measures.
    sim.fresh(per_project, names, keep_every_point=30 * DAY)
    machines = projects * per_project
    figures = dict(projects=projects, machines=machines, forks=min(forks, projects))
    directory = os.path.join(work_dir, "estate-%d" % machines)
    os.makedirs(directory, exist_ok=True)
    configs = {}
    for kind in ("machines", "projects"):
        configs[kind] = os.path.join(directory, "%s.service.yml" % kind)
        with open(configs[kind], "w") as handle:
            handle.write("plugin: replication.recovery.service\nhosts: %s\n" % kind)
        figures["inventory_" + kind] = measured(sim, ["-i", configs[kind], "--list", "--output", os.path.join(directory, kind + ".json")],
                                                command="ansible-inventory", memory=True)
    figures["health"] = measured(sim, ["replication.recovery.health", "-e", "health_report_dir=%s" % directory, "-e", "health_fail=false"],
                                 memory=True)
    figures["dr_test"] = measured(sim, ["replication.recovery.dr_test", "-i", configs["projects"], "-e", "dr_test_hosts=service_projects",
                                        "-f", str(min(forks, projects)), "-e", "dr_test_poll_interval=1", "-e", "dr_test_rpo_target=%d" % DAY,
                                        "-e", "dr_test_rto_target=%d" % DAY, "-e", "dr_test_report_dir=%s" % directory], memory=True)
    passed = 0
    for name in names:
        with open(os.path.join(directory, "dr_test_%s.json" % name)) as handle:
            report = json.load(handle)
        passed += report["counts"]["passed"] if report["result"] == "passed" else 0
    figures["dr_test"].update(passed=passed, requests_per_machine=round(figures["dr_test"]["requests"] / machines, 2))
    figures["peak_bytes"] = max(figures[run]["peak_bytes"] for run in ("inventory_machines", "inventory_projects", "health", "dr_test"))
    figures["targets"] = dict(
        every_machine_passed=passed == machines,
        dr_test_requests_at_most_2_1_a_machine=figures["dr_test"]["requests"] <= 2.1 * machines,
        # The reads: a few requests a project, whatever its size (a page holds a project's machines).
        reads_at_most_5_a_project=all(figures[run]["requests"] <= 5 * projects + 5 for run in ("inventory_machines", "inventory_projects", "health")),
        peak_memory_under_2_gib=figures["peak_bytes"] < 2 * 1024 ** 3)
    return figures


def estates(sim, shape, work_dir, forks):
    """The estate at its size and at a tenth of its projects: wall time at the size within 12 times that at the tenth."""
    projects, per_project = (int(part) for part in shape.split("x"))
    small, large = estate_at(sim, max(1, projects // 10), per_project, work_dir, forks), estate_at(sim, projects, per_project, work_dir, forks)
    for figures in (small, large):
        figures["seconds"] = round(sum(figures[run]["seconds"] for run in ("inventory_machines", "inventory_projects", "health", "dr_test")), 2)
    ratio = round(large["seconds"] / small["seconds"], 2)
    return dict(small=small, large=large, wall_time_ratio=ratio, targets=dict(
        wall_time_within_12x=ratio <= 12, every_machine_passed=small["targets"]["every_machine_passed"] and large["targets"]["every_machine_passed"]))


def failover_and_failback_at(sim, size, report_dir):
    """A committed failover of ``size`` machines, then the failback that removes the recovery machines."""
    sim.fresh(size)
    figures = dict(machines=size)
    for runbook, extra in (("failover", []), ("failback", ["-e", "failback_clean_recovery=true"])):
        seconds, requests_sent, status = playbook(sim, ["replication.recovery." + runbook, "-e", "%s_project=bench" % runbook,
                                                        "-e", "%s_poll_interval=1" % runbook, "-e", "%s_report_dir=%s" % (runbook, report_dir)]
                                                  + extra)
        with open(os.path.join(report_dir, "%s_bench.json" % runbook)) as handle:
            report = json.load(handle)
        figures[runbook] = dict(seconds=round(seconds, 2), requests=requests_sent, requests_per_machine=round(requests_sent / size, 2),
                                result=report["result"], exit_status=status, worst_rto_seconds=report["measures"]["rto_seconds"])
    figures["targets"] = dict(passed=figures["failover"]["result"] == figures["failback"]["result"] == "passed",
                              failover_requests_at_most_2n_plus_60=figures["failover"]["requests"] <= 2 * size + 60,
                              failback_requests_at_most_3_a_machine=figures["failback"]["requests"] <= 3 * size)
    return figures


TEST_NETWORK = {"subnets": ["isolated-a"], "security_groups": ["isolated"], "public_ip_action": "DONT_ALLOCATE"}


def test_network_at(sim, size, report_dir):
    """The switch of ``size`` machines' blueprints to a test network and their restore, each as one module run; then a DR
    test in that network, beside the plain one."""
    sim.fresh(size)
    figures = dict(machines=size)
    for state in ("switched", "restored"):
        module_args = dict(project="bench", state=state, **(dict(network=TEST_NETWORK) if state == "switched" else {}))
        seconds, requests_sent, status = playbook(sim, ["localhost", "-m", "replication.recovery.service_test_network", "-a",
                                                        json.dumps(module_args)], command="ansible")
        figures[state] = dict(seconds=round(seconds, 2), requests=requests_sent, exit_status=status)
    seconds, requests_sent, status = playbook(sim, [
        "replication.recovery.dr_test", "-e", "dr_test_project=bench", "-e", "dr_test_poll_interval=1", "-e", "dr_test_check_public_ip=false",
        "-e", json.dumps(dict(dr_test_network=TEST_NETWORK)), "-e", "dr_test_report_dir=%s" % report_dir])
    with open(os.path.join(report_dir, "dr_test_bench.json")) as handle:
        report = json.load(handle)
    figures["dr_test"] = dict(seconds=round(seconds, 2), requests=requests_sent, result=report["result"], exit_status=status)
    figures["targets"] = dict(
        switch_and_restore_requests_at_most_2n_plus_20=figures["switched"]["requests"] + figures["restored"]["requests"] <= 2 * size + 20,
        passed=report["result"] == "passed" and figures["switched"]["exit_status"] == figures["restored"]["exit_status"] == 0)
    return figures


def clean_point_at(sim, size, points, report_dir):
    """A clean point search of ``size`` machines over ``points`` points in time each, every machine damaged from its own
    point on (a few never): rounds, launches, time, requests, and whether each found point is the right one. The
    simulator keeps every point for five days, so that the window's points stay put while its clock runs at 600x."""
    seeded = sim.fresh(size, age=2 * DAY, keep_every_point=5 * DAY)["accounts"][0]["projects"]["bench"]["machines"]
    session = requests.Session()
    session.post(sim.api + "/login", json={"username": USERNAME, "password": PASSWORD}, timeout=30).raise_for_status()
    now = parse_time(session.get(sim.api + "/extendedAccountInfo", timeout=30).json()["dateTime"]["dateTime"])
    project = session.get(sim.api + "/projects", timeout=30).json()["items"][0]["id"]
    # Machines seeded a moment apart take their points a few (virtual) seconds apart. A closed window of points * 10 min
    # - 1 s that begins five minutes before one machine's point holds exactly ``points`` points of each.
    first = min(seeded.values())
    listed = session.get("%s/projects/%s/machines/%s/pointsintime" % (sim.api, project, first), timeout=30).json()["items"]
    taken = [parse_time(point["dateTime"]) for point in listed]
    start = next(moment for moment in taken if moment >= now - 40 * HOUR) - 300
    after, before = iso_time(start), iso_time(start + points * 600 - 1)
    expected, counts = {}, []
    for number, (name, machine_id) in enumerate(sorted(seeded.items())):
        inside = [point for point in session.get("%s/projects/%s/machines/%s/pointsintime" % (sim.api, project, machine_id), timeout=30).json()["items"]
                  if after <= point["dateTime"] <= before]
        counts.append(len(inside))
        first_bad = (number * 7) % (len(inside) + 3)  # spread over the points; past the end: never damaged
        if first_bad < len(inside):
            sim.control("POST", "/damage", {"machines": [machine_id], "from": inside[first_bad]["dateTime"]})
        expected[name] = inside[min(first_bad, len(inside)) - 1]["id"] if first_bad > 0 else None
    seconds, requests_sent, status = playbook(sim, [
        "replication.recovery.clean_point", "-e", "clean_point_project=bench", "-e", "clean_point_poll_interval=0.2",
        "-e", "clean_point_checks_tasks=%s" % os.path.join(ROOT, "tests", "bench", "clean_point_checks.yml"), "-e", "simulator_url=%s" % sim.root,
        "-e", "clean_point_report_dir=%s" % report_dir, "-e", "clean_point_after=%s" % after, "-e", "clean_point_before=%s" % before])
    with open(os.path.join(report_dir, "clean_point_bench.json")) as handle:
        report = json.load(handle)
    found = dict((machine["name"], (machine["clean_point"] or {}).get("id")) for machine in report["machines"])
    wrong = sorted(name for name in expected if found.get(name) != expected[name])
    # A DR test of the same machines with the same checks: what one round of the search is held to.
    sim.control("POST", "/damage", {"machines": list(seeded.values()), "from": None})
    dr_seconds, dr_requests, dr_status = playbook(sim, [
        "replication.recovery.dr_test", "-e", "dr_test_project=bench", "-e", "dr_test_poll_interval=0.2", "-e", "dr_test_report_dir=%s" % report_dir,
        "-e", "dr_test_checks_tasks=%s" % os.path.join(ROOT, "tests", "bench", "clean_point_checks.yml"), "-e", "simulator_url=%s" % sim.root])
    round_seconds = round(seconds / max(1, len(report["rounds"])), 2)
    return dict(machines=size, points_per_machine=[min(counts), max(counts)], seconds=round(seconds, 2), requests=requests_sent, rounds=len(report["rounds"]),
                rounds_at_most=report["rounds_at_most"], launches=report["launches"], exit_status=status, wrong=wrong[:10],
                round_seconds=round_seconds, dr_test_seconds=round(dr_seconds, 2), round_to_dr_test=round(round_seconds / dr_seconds, 2),
                targets=dict(rounds_within_bound=len(report["rounds"]) <= report["rounds_at_most"],
                             window_holds_the_points=min(counts) == max(counts) == points,
                             one_launch_a_round=report["launches"] == len(report["rounds"]), every_point_right=not wrong,
                             round_at_most_1_5_dr_test=dr_status == 0 and round_seconds <= 1.5 * dr_seconds))


def fleet_at(sim, projects, per_project, work_dir):
    """The whole fleet at once: the inventory plugin (source machines, then projects) and the health playbook."""
    names = ["fleet-%02d" % number for number in range(projects)]
    sim.fresh(per_project, names)
    figures = dict(projects=projects, machines=projects * per_project)
    for kind in ("machines", "projects"):
        config = os.path.join(work_dir, "%s.service.yml" % kind)
        with open(config, "w") as handle:
            handle.write("plugin: replication.recovery.service\nhosts: %s\n" % kind)
        seconds, requests_sent, status = playbook(sim, ["-i", config, "--list", "--output", os.path.join(work_dir, kind + ".json")],
                                                  command="ansible-inventory")
        with open(os.path.join(work_dir, kind + ".json")) as handle:
            hosts = len(json.load(handle)["_meta"]["hostvars"])
        figures["inventory_" + kind] = dict(seconds=round(seconds, 2), requests=requests_sent, hosts=hosts, exit_status=status)
    seconds, requests_sent, status = playbook(sim, ["replication.recovery.health", "-e", "health_report_dir=%s" % work_dir,
                                                    "-e", "health_fail=false"])
    with open(os.path.join(work_dir, "health.json")) as handle:
        report = json.load(handle)
    figures["health"] = dict(seconds=round(seconds, 2), requests=requests_sent, machines=report["counts"]["machines"],
                             result=report["result"], exit_status=status)
    figures["health_with_ledger"] = health_with_ledger(sim, report, work_dir)
    figures["targets"] = dict(
        requests_at_most_projects_plus_5=all(figures[run]["requests"] <= projects + 5 for run in ("inventory_machines", "inventory_projects", "health")),
        # One session for the reads (login, logout) and per project its audit log read (the module finds the project by
        # listing them: one more request).
        with_ledger_requests_at_most_health_plus_2_projects_plus_2=(
            figures["health_with_ledger"]["requests"] <= figures["health"]["requests"] + 2 * projects + 2),
        with_ledger_every_machine_proven=figures["health_with_ledger"]["unproven"] == 0,
        every_machine_seen=figures["inventory_machines"]["hosts"] == figures["health"]["machines"] == projects * per_project)
    return figures


def health_with_ledger(sim, report, work_dir):
    """The health playbook again, each project's machines proven by a passing DR test in a ledger (entered with
    ledger_entry, one per project): each project's audit log is read once more, from that proof on."""
    ledger = os.path.join(work_dir, "ledger")
    for project in report["projects"]:
        proof = os.path.join(work_dir, "proof_%s.json" % project["name"])
        with open(proof, "w") as handle:
            json.dump(dict(project=project["name"], started=report["service_time"], launch_requested=report["service_time"], result="passed",
                           machines=[dict(id=m["id"], name=m["name"], passed=True) for m in project["machines"]]), handle)
        playbook(sim, ["localhost", "-m", "replication.recovery.ledger_entry", "-a", "ledger_dir=%s runbook=dr_test report=%s" % (ledger, proof)],
                 command="ansible")
    seconds, requests_sent, status = playbook(sim, ["replication.recovery.health", "-e", "health_report_dir=%s" % work_dir,
                                                    "-e", "health_fail=false", "-e", "replication_recovery_ledger_dir=%s" % ledger])
    with open(os.path.join(work_dir, "health.json")) as handle:
        proven = json.load(handle)
    return dict(seconds=round(seconds, 2), requests=requests_sent, unproven=proven["counts"]["unproven"], result=proven["result"], exit_status=status)


def events_at(sim, projects, per_project, work_dir, interval=2.0):
    """The event source (run as ansible-rulebook runs it: its file, by path) watching ``projects`` of ``per_project``
    machines, a look every ``interval`` seconds: requests and time of each look, and how long after a machine is
    paused its event is on the queue. The licences are left out of the looks measured (read once a day)."""
    names = ["events-%02d" % number for number in range(projects)]
    seeded = sim.fresh(per_project, names)["accounts"][0]["projects"]
    collections = os.environ["ANSIBLE_COLLECTIONS_PATH"].split(":")[0]
    source = runpy.run_path(os.path.join(collections, "ansible_collections", "replication", "recovery", "extensions", "eda", "plugins",
                                         "event_source", "service_events.py"))
    state_file = os.path.join(work_dir, "events-state.json")
    if os.path.exists(state_file):
        os.unlink(state_file)
    told = []

    class Queue:
        async def put(self, event):
            told.append((time.monotonic(), event))

    loop = asyncio.new_event_loop()
    task = loop.create_task(source["main"](Queue(), dict(api_url=sim.api, username=USERNAME, password=PASSWORD, interval=interval,
                                                         state_file=state_file, license_interval=DAY)))
    runner = threading.Thread(target=loop.run_until_complete, args=(task,), daemon=True)
    runner.start()

    def next_look(after, seconds=120):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            written = os.stat(state_file).st_mtime_ns if os.path.exists(state_file) else None
            if written is not None and written != after:
                return written
            time.sleep(0.02)
        raise RuntimeError("the event source made no look in %d s" % seconds)

    try:
        seen = next_look(None)  # the first look: what the next are compared with
        looks = []
        for unused in range(5):
            sim.control("DELETE", "/stats")
            began = time.monotonic()
            seen = next_look(seen)
            looks.append(dict(requests=sim.control("GET", "/stats")["total"], seconds_between_looks=round(time.monotonic() - began, 2)))
        # A machine paused: how long until its event is on the queue.
        project = next(iter(seeded.values()))
        machine_id = next(iter(project["machines"].values()))
        session = requests.Session()
        session.post(sim.api + "/login", json={"username": USERNAME, "password": PASSWORD}, timeout=30).raise_for_status()
        project_id = next(p["id"] for p in session.get(sim.api + "/projects", timeout=30).json()["items"] if p["name"] == names[0])
        paused = time.monotonic()
        session.post("%s/projects/%s/pauseReplication" % (sim.api, project_id), json={"machineIDs": [machine_id]},
                     headers={"X-XSRF-TOKEN": session.cookies.get("XSRF-TOKEN")}, timeout=30).raise_for_status()
        deadline = paused + 60
        while time.monotonic() < deadline and not any(e["type"] == "replication_state_changed" and e["machine"]["id"] == machine_id
                                                      for unused, e in told):
            time.sleep(0.02)
        noticed = [moment for moment, e in told if e["type"] == "replication_state_changed" and e["machine"]["id"] == machine_id]
    finally:
        loop.call_soon_threadsafe(task.cancel)
        runner.join(timeout=30)
    # Each look after the first reads what it must; requests in a look include the (rare) new login.
    per_look = max(look["requests"] for look in looks)
    look_seconds = round(max(look["seconds_between_looks"] for look in looks) - interval, 2)  # a look: from one to the next, less the wait
    notice = round(noticed[0] - paused, 2) if noticed else None
    return dict(projects=projects, machines=projects * per_project, interval=interval, looks=looks, requests_per_look=per_look,
                look_seconds=look_seconds, seconds_to_notice=notice, paused_told=len(noticed),
                targets=dict(requests_per_look_at_most_3_per_project_plus_1=per_look <= 3 * projects + 1,
                             noticed_within_an_interval_and_a_look=notice is not None and notice <= interval + look_seconds + 1,
                             told_once=len(noticed) == 1))


def launch_policy_at(sim, size, work_dir):
    """The launch policy over ``size`` machines (every blueprint changes): wall time and requests against N + 60, then again
    (no write)."""
    sim.fresh(size)
    policy = os.path.join(work_dir, "policy.json")
    with open(policy, "w") as handle:
        json.dump(dict(launch_policy_project="bench", launch_policy_report_dir=os.path.join(work_dir, "policy_report"),
                       launch_policy_defaults=dict(instance_type="t3.small", tags=dict(owner="dr")),
                       launch_policy_rules=[dict(match=dict(name="bench-m-0*"), set=dict(instance_type="m5.large"))]), handle)
    runs = []
    for unused in range(2):
        seconds, requests_sent, status = playbook(sim, ["replication.recovery.launch_policy", "-e", "@" + policy])
        routes = dict(((row["method"], row["route"]), row["count"]) for row in sim.control("GET", "/stats")["requests"])
        runs.append(dict(seconds=round(seconds, 2), requests=requests_sent, exit_status=status,
                         writes=routes.get(("PATCH", "/projects/{projectId}/blueprints/{blueprintId}"), 0)))
    first, again = runs
    return dict(machines=size, first=first, again=again, targets=dict(
        passed=first["exit_status"] == again["exit_status"] == 0 and first["writes"] == size,
        requests_at_most_n_plus_60=first["requests"] <= first["writes"] + 60, second_run_writes_nothing=again["writes"] == 0))


def readiness_at(sim, sizes, work_dir):
    """The readiness of a project of each of ``sizes`` machines (every one ready): wall time and requests against the
    machines plus 12 (one read of the machines, one of each one's points), and no write."""
    runs = []
    for size in sizes:
        sim.fresh(size)
        seconds, requests_sent, status = playbook(sim, ["replication.recovery.readiness", "-e", "readiness_project=bench", "-e", "readiness_rpo_target=3600",
                                                        "-e", "readiness_report_dir=%s" % os.path.join(work_dir, "readiness_report")])
        stats = sim.control("GET", "/stats")
        routes = dict(((row["method"], row["route"]), row["count"]) for row in stats["requests"])
        with open(os.path.join(work_dir, "readiness_report", "readiness_bench.json")) as handle:
            report = json.load(handle)
        runs.append(dict(machines=size, seconds=round(seconds, 2), requests=requests_sent, writes=stats["writes"], exit_status=status,
                         points_reads=routes.get(("GET", "/projects/{projectId}/machines/{machineId}/pointsintime"), 0),
                         ready=report["counts"]["ready"], targets=dict(
                             passed=status == 0 and report["counts"]["ready"] == size, no_write=stats["writes"] == 0,
                             requests_at_most_machines_plus_12=requests_sent <= size + 12)))
    return runs


# The application of the bench: 10 nodes in 4 levels, a project of its own each.
APPLICATION_LEVELS = (("app-01",), ("app-02", "app-03", "app-04"), ("app-05", "app-06", "app-07"), ("app-08", "app-09", "app-10"))


def application_at(sim, size, work_dir):
    """An application of 10 nodes over 10 projects of ``size`` machines in 4 levels (APPLICATION_LEVELS): each node's DR
    test run alone, then the application's. Its wall time against the sum over the levels of the slowest node alone, its
    requests against the nodes' sum plus 10 a node."""
    names = [name for level in APPLICATION_LEVELS for name in level]
    sim.fresh(size, projects=names)
    report_dir = os.path.join(work_dir, "application_report")
    alone = {}
    for name in names:
        seconds, requests_sent, status = playbook(sim, ["replication.recovery.dr_test", "-e", "dr_test_project=" + name, "-e", "dr_test_poll_interval=1",
                                                        "-e", "dr_test_report_dir=" + report_dir])
        alone[name] = dict(seconds=round(seconds, 2), requests=requests_sent, exit_status=status)
    nodes = dict((name, dict(project=name, after=list(APPLICATION_LEVELS[number - 1]) if number else []))
                 for number, level in enumerate(APPLICATION_LEVELS) for name in level)
    variables = os.path.join(work_dir, "application.json")
    with open(variables, "w") as handle:
        json.dump(dict(application_name="bench", application_nodes=nodes, application_report_dir=report_dir, dr_test_poll_interval=1), handle)
    seconds, requests_sent, status = playbook(sim, ["replication.recovery.application", "-e", "@" + variables, "-f", "10"])
    levels_alone = round(sum(max(alone[name]["seconds"] for name in level) for level in APPLICATION_LEVELS), 2)
    nodes_requests = sum(run["requests"] for run in alone.values())
    return dict(nodes=len(names), levels=len(APPLICATION_LEVELS), machines_per_node=size, alone=alone, levels_alone_seconds=levels_alone,
                nodes_requests=nodes_requests, application=dict(seconds=round(seconds, 2), requests=requests_sent, exit_status=status),
                wall_time_ratio=round(seconds / levels_alone, 2), targets=dict(
                    passed=status == 0 and all(run["exit_status"] == 0 for run in alone.values()),
                    wall_time_at_most_1_3x_the_levels_alone=seconds <= 1.3 * levels_alone,
                    requests_at_most_the_nodes_plus_10_a_node=requests_sent <= nodes_requests + 10 * len(names)))


def agent_at(sim, size, work_dir, forks=25):
    """The agent role over ``size`` local hosts standing in for SSH targets (forks side by side), into an empty project:
    wall time and requests (the installer's download and registration included), then again (every host left alone)."""
    sim.fresh(0)
    root = os.path.join(work_dir, "agent_hosts")
    shutil.rmtree(root, ignore_errors=True)
    hosts = {}
    for number in range(size):
        name = "src-%04d" % number
        directory = os.path.join(root, name)
        os.makedirs(directory)
        hosts[name] = dict(ansible_connection="local", ansible_python_interpreter=sys.executable, agent_become=False, agent_machine_name=name,
                           agent_temp_dir=directory, agent_install_dir=os.path.join(directory, "agent"),
                           agent_installer_environment=dict(REPLICATION_AGENT_DIR=os.path.join(directory, "agent"),
                                                            REPLICATION_AGENT_HOSTNAME=name, REPLICATION_AGENT_DISK_BYTES="100000000"))
    inventory = os.path.join(work_dir, "agent_hosts.json")
    with open(inventory, "w") as handle:
        json.dump(dict(all=dict(hosts=hosts)), handle)
    runs = []
    for unused in range(2):
        seconds, requests_sent, status = playbook(sim, ["replication.recovery.agent", "-i", inventory, "-f", str(forks), "-e", "agent_project=bench",
                                                        "-e", "agent_poll_interval=1"])
        routes = dict(((row["method"], row["route"]), row["count"]) for row in sim.control("GET", "/stats")["requests"])
        runs.append(dict(seconds=round(seconds, 2), requests=requests_sent, exit_status=status,
                         registered=routes.get(("POST", "/_simulator/agents"), 0)))
    shutil.rmtree(root, ignore_errors=True)
    first, again = runs
    return dict(hosts=size, forks=forks, first=first, again=again, targets=dict(
        passed=first["exit_status"] == again["exit_status"] == 0 and first["registered"] == size,
        requests_at_most_2_a_host_plus_10=first["requests"] <= 2 * size + 10, second_run_installs_nothing=again["registered"] == 0))


def timed(samples, call):
    began = time.monotonic()
    answer = call()
    samples.append(time.monotonic() - began)
    answer.raise_for_status()
    return answer.json()


def percentiles(samples):
    ordered = sorted(samples)
    return dict(count=len(ordered), p50_ms=round(statistics.median(ordered) * 1000, 1),
                p95_ms=round(ordered[max(0, int(round(0.95 * len(ordered))) - 1)] * 1000, 1), max_ms=round(ordered[-1] * 1000, 1))


def simulator_under_load(sim, size=1000, launches=10):
    """Listing, launching and polling in a project of ``size`` machines, as a client on this machine sees it."""
    sim.fresh(size)
    client = requests.Session()
    client.post(sim.api + "/login", json={"username": USERNAME, "password": PASSWORD}).raise_for_status()
    xsrf = client.cookies["XSRF-TOKEN"]
    project = client.get(sim.api + "/projects").json()["items"][0]["id"]
    machines_url = "%s/projects/%s/machines" % (sim.api, project)
    listing, launching, polling = [], [], []
    for unused in range(launches):
        machines = timed(listing, lambda: client.get(machines_url, params={"all": "true"}))["items"]
        body = {"launchType": "TEST", "items": [{"machineId": machine["id"]} for machine in machines]}
        job = timed(launching, lambda: client.post("%s/projects/%s/launchMachines" % (sim.api, project), json=body,
                                                   headers={"X-XSRF-TOKEN": xsrf}))
        while job["status"] in ("PENDING", "STARTED"):
            time.sleep(0.05)
            job = timed(polling, lambda: client.get("%s/projects/%s/jobs/%s" % (sim.api, project, job["id"])))
    figures = dict(machines=size, list_machines=percentiles(listing), launch_all=percentiles(launching), poll_job=percentiles(polling))
    figures["targets"] = dict(p95_under_200_ms=all(figures[kind]["p95_ms"] < 200 for kind in ("list_machines", "launch_all", "poll_job")))
    return figures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--output", required=True)
    parser.add_argument("--sizes", default="5,200,1000")
    parser.add_argument("--repeat", type=int, default=3, help="pairs of the uri playbook and the DR test at each size: the median counts")
    parser.add_argument("--fleet", default="10x100", help="projects x machines per project, for the inventory and the health report")
    parser.add_argument("--failover", type=int, default=200, help="machines of the failover and the failback (0: none)")
    parser.add_argument("--test-network", type=int, default=1000, help="machines whose blueprints switch to a test network and back (0: none)")
    parser.add_argument("--clean-point", default="50x100", help="machines x points in time each, of the clean point search (0: none)")
    parser.add_argument("--events", default="10x100", help="projects x machines per project the event source watches (0: none)")
    parser.add_argument("--agent", type=int, default=200, help="local hosts the agent role installs on (0: none)")
    parser.add_argument("--launch-policy", type=int, default=1000, help="machines whose launch settings a policy sets (0: none)")
    parser.add_argument("--application", type=int, default=100, help="machines of each of the application's 10 nodes (0: none)")
    parser.add_argument("--readiness", default="200,1000", help="machines of each project whose readiness is read (0: none)")
    parser.add_argument("--limits", type=int, default=1000, help="machines of a DR test run without and within the service's limits (0: none)")
    parser.add_argument("--first-launch", type=int, default=1000, help="machines of the failover timed to its first launch request (0: none)")
    parser.add_argument("--estate-forks", type=int, default=20, help="forks of the estate's DR test (20: a project a fork)")
    parser.add_argument("--estate", default="20x500", help="projects x machines per project of the estate, also with a tenth of them (0: none)")
    args = parser.parse_args()
    report_dir = os.path.join(os.path.dirname(os.path.abspath(args.output)), "dr_test_scale")
    fleet_dir = os.path.join(os.path.dirname(os.path.abspath(args.output)), "fleet_scale")
    os.makedirs(fleet_dir, exist_ok=True)
    os.makedirs(report_dir, exist_ok=True)
    projects, per_project = (int(part) for part in args.fleet.split("x"))
    sim = Simulator(time_scale=600)
    try:
        results = dict(time_scale=600, dr_test=[dr_test_at(sim, int(size), args.repeat, report_dir) for size in args.sizes.split(",")],
                       limits=limits_at(sim, args.limits, report_dir) if args.limits else None,
                       first_launch=first_launch_at(sim, args.first_launch, report_dir) if args.first_launch else None,
                       estate=estates(sim, args.estate, fleet_dir, args.estate_forks) if args.estate != "0" else None,
                       failover=failover_and_failback_at(sim, args.failover, report_dir) if args.failover else None,
                       test_network=test_network_at(sim, args.test_network, report_dir) if args.test_network else None,
                       clean_point=clean_point_at(sim, *(int(part) for part in args.clean_point.split("x")), report_dir=report_dir)
                       if args.clean_point != "0" else None,
                       fleet=fleet_at(sim, projects, per_project, fleet_dir),
                       events=events_at(sim, *(int(part) for part in args.events.split("x")), work_dir=fleet_dir) if args.events != "0" else None,
                       agent=agent_at(sim, args.agent, fleet_dir) if args.agent else None,
                       launch_policy=launch_policy_at(sim, args.launch_policy, fleet_dir) if args.launch_policy else None,
                       application=application_at(sim, args.application, fleet_dir) if args.application else None,
                       readiness=readiness_at(sim, [int(size) for size in args.readiness.split(",")], fleet_dir) if args.readiness != "0" else None,
                       simulator=simulator_under_load(sim))
    finally:
        sim.stop()
    with open(args.output, "w") as handle:
        json.dump(results, handle, indent=2)
        handle.write("\n")
    columns = ("machines", "dr_test (s)", "uri (s)", "ratio", "requests", "per mach.", "RTO spread", "result", "ratio of each pair")
    print("%8s %12s %12s %7s %10s %9s %12s %-8s %s" % columns)
    for row in results["dr_test"]:
        dr = row["dr_test"]
        print("%8d %12.2f %12.2f %7.2f %10d %9.2f %12s %-8s %s" % (
            row["machines"], dr["seconds"], row["uri_playbook"]["seconds"], row["wall_time_ratio"], dr["requests"], row["requests_per_machine"],
            dr["rto_spread"], dr["result"], ", ".join("%.2f" % ratio for ratio in row["pair_ratios"])))
    print()
    print("beside the direct client (one session, the requests the interface forces):")
    for row in results["dr_test"]:
        print("%8d machines: direct client %.2f s, %d requests; the DR test %.2f times it (rounds: %s)" % (
            row["machines"], row["direct_client"]["seconds"], row["direct_client"]["requests"], row["direct_client_ratio"],
            ", ".join("%.2f" % ratio for ratio in row["direct_client_ratios"])))
    print()
    names = ["start", "sign in", "read", "resume", "launch", "look", "hosts", "checks", "cleanup", "report", "sign out", "other"]
    print("controller time per phase of the DR test (s):")
    print("%8s " % "machines" + " ".join("%9s" % name for name in names))
    for row in results["dr_test"]:
        print("%8d " % row["machines"] + " ".join("%9.2f" % row["dr_test"]["phases"].get(name, 0) for name in names))
    for row in results["dr_test"]:
        print("targets at %d machines: %s" % (row["machines"], ", ".join(
            "%s %s" % (name, "met" if met else "MISSED") for name, met in sorted(row["targets"].items()))))
    limits = results["limits"]
    if limits:
        print("DR test of %d machines without limits: %.2f s, %d requests, %d launch job(s); within 100 a job, 2 jobs at once, 10 requests a "
              "second: %.2f s, %d requests, %d answered 429, %d launch jobs; %s" % (
                  limits["machines"], limits["off"]["seconds"], limits["off"]["requests"], max(1, limits["off"]["launch_jobs"]), limits["on"]["seconds"],
                  limits["on"]["requests"], limits["on"]["answered_429"], limits["on"]["launch_jobs"],
                  ", ".join("%s %s" % (name, "met" if met else "MISSED") for name, met in sorted(limits["targets"].items()))))
    first = results["first_launch"]
    if first:
        print("time to the first launch request, failover of %d machines: %.2f s (the whole run %.2f s, %d requests); a uri failover that reads "
              "every machine's points first: %.2f s (%.2f s, %d requests); %.2fx; %s" % (
                  first["machines"], first["failover"]["first_launch_seconds"], first["failover"]["seconds"], first["failover"]["requests"],
                  first["uri_failover"]["first_launch_seconds"], first["uri_failover"]["seconds"], first["uri_failover"]["requests"], first["ratio"],
                  ", ".join("%s %s" % (name, "met" if met else "MISSED") for name, met in sorted(first["targets"].items()))))
    estate = results["estate"]
    if estate:
        for figures in (estate["small"], estate["large"]):
            print("estate of %d machines in %d projects (%d forks): %.2f s in all; inventory of machines %.2f s, %d requests, of projects %.2f s, %d requests; "
                  "health %.2f s, %d requests; DR test of every project side by side %.2f s, %d requests (%.2f a machine), %d passed; controller "
                  "peak memory %.0f MiB; %s" % (
                      figures["machines"], figures["projects"], figures["forks"], figures["seconds"], figures["inventory_machines"]["seconds"],
                      figures["inventory_machines"]["requests"], figures["inventory_projects"]["seconds"], figures["inventory_projects"]["requests"],
                      figures["health"]["seconds"], figures["health"]["requests"], figures["dr_test"]["seconds"], figures["dr_test"]["requests"],
                      figures["dr_test"]["requests_per_machine"], figures["dr_test"]["passed"], figures["peak_bytes"] / 1024 ** 2,
                      ", ".join("%s %s" % (name, "met" if met else "MISSED") for name, met in sorted(figures["targets"].items()))))
        print("estate: wall time at %d machines %.2fx that at %d; %s" % (
            estate["large"]["machines"], estate["wall_time_ratio"], estate["small"]["machines"],
            ", ".join("%s %s" % (name, "met" if met else "MISSED") for name, met in sorted(estate["targets"].items()))))
    failover = results["failover"]
    if failover:
        for runbook in ("failover", "failback"):
            print("%s of %d machines: %.2f s, %d requests (%.2f per machine), %s" % (
                runbook, failover["machines"], failover[runbook]["seconds"], failover[runbook]["requests"],
                failover[runbook]["requests_per_machine"], failover[runbook]["result"]))
        print("targets of the failover and failback: %s" % ", ".join(
            "%s %s" % (name, "met" if met else "MISSED") for name, met in sorted(failover["targets"].items())))
    network = results["test_network"]
    if network:
        plain = next((row["dr_test"] for row in results["dr_test"] if row["machines"] == network["machines"]), None)
        beside = " (plain: %.2f s, %d requests)" % (plain["seconds"], plain["requests"]) if plain else ""
        print("test network, %d blueprints: switched in %.2f s, %d requests; restored in %.2f s, %d requests; a DR test in it %.2f s, "
              "%d requests%s, %s" % (network["machines"], network["switched"]["seconds"], network["switched"]["requests"],
                                     network["restored"]["seconds"], network["restored"]["requests"], network["dr_test"]["seconds"],
                                     network["dr_test"]["requests"], beside, network["dr_test"]["result"]))
        print("targets of the test network: %s" % ", ".join(
            "%s %s" % (name, "met" if met else "MISSED") for name, met in sorted(network["targets"].items())))
    search = results["clean_point"]
    if search:
        print("clean point search, %d machines of %d to %d points: %d rounds (at most %d), %d launches, %.2f s (a round %.2f s, a DR test "
              "of the same machines and checks %.2f s: %.2fx), %d requests; %s" % (
                  search["machines"], search["points_per_machine"][0], search["points_per_machine"][1], search["rounds"], search["rounds_at_most"],
                  search["launches"], search["seconds"], search["round_seconds"], search["dr_test_seconds"], search["round_to_dr_test"],
                  search["requests"], ", ".join("%s %s" % (name, "met" if met else "MISSED") for name, met in sorted(search["targets"].items()))))
    fleet = results["fleet"]
    print("fleet, %d projects, %d machines: inventory of machines %.2f s, %d requests; of projects %.2f s, %d requests; "
          "health %.2f s, %d requests; with a ledger proving every machine %.2f s, %d requests" % (
              fleet["projects"], fleet["machines"], fleet["inventory_machines"]["seconds"], fleet["inventory_machines"]["requests"],
              fleet["inventory_projects"]["seconds"], fleet["inventory_projects"]["requests"], fleet["health"]["seconds"],
              fleet["health"]["requests"], fleet["health_with_ledger"]["seconds"], fleet["health_with_ledger"]["requests"]))
    watched = results["events"]
    if watched:
        targets = ", ".join("%s %s" % (name, "met" if met else "MISSED") for name, met in sorted(watched["targets"].items()))
        print("event source, %d projects, %d machines, a look every %s s: %d requests a look, a look %.2f s; a paused machine told after %s s "
              "(%d times); %s" % (watched["projects"], watched["machines"], watched["interval"], watched["requests_per_look"],
                                  watched["look_seconds"], watched["seconds_to_notice"], watched["paused_told"], targets))
    agent = results["agent"]
    if agent:
        print("agent role, %d local hosts, %d forks: %.2f s, %d requests (%d registered); again %.2f s, %d requests (%d registered); %s" % (
            agent["hosts"], agent["forks"], agent["first"]["seconds"], agent["first"]["requests"], agent["first"]["registered"],
            agent["again"]["seconds"], agent["again"]["requests"], agent["again"]["registered"],
            ", ".join("%s %s" % (name, "met" if met else "MISSED") for name, met in sorted(agent["targets"].items()))))
    policy = results["launch_policy"]
    if policy:
        print("launch policy, %d machines: %.2f s, %d requests, %d writes; again %.2f s, %d requests, %d writes; %s" % (
            policy["machines"], policy["first"]["seconds"], policy["first"]["requests"], policy["first"]["writes"], policy["again"]["seconds"],
            policy["again"]["requests"], policy["again"]["writes"],
            ", ".join("%s %s" % (name, "met" if met else "MISSED") for name, met in sorted(policy["targets"].items()))))
    application = results["application"]
    if application:
        print("application, %d nodes of %d machines in %d levels: %.2f s (the levels' slowest nodes alone %.2f s: %.2fx), %d requests (the nodes "
              "alone %d); %s" % (application["nodes"], application["machines_per_node"], application["levels"], application["application"]["seconds"],
                                 application["levels_alone_seconds"], application["wall_time_ratio"], application["application"]["requests"],
                                 application["nodes_requests"],
                                 ", ".join("%s %s" % (name, "met" if met else "MISSED") for name, met in sorted(application["targets"].items()))))
    for row in results["readiness"] or []:
        print("readiness, %d machines: %.2f s, %d requests (%d points reads), %d writes, %d ready; %s" % (
            row["machines"], row["seconds"], row["requests"], row["points_reads"], row["writes"], row["ready"],
            ", ".join("%s %s" % (name, "met" if met else "MISSED") for name, met in sorted(row["targets"].items()))))
    load = results["simulator"]
    print("simulator, %d machines: list p95 %s ms, launch p95 %s ms, poll p95 %s ms" % (
        load["machines"], load["list_machines"]["p95_ms"], load["launch_all"]["p95_ms"], load["poll_job"]["p95_ms"]))
    print("written to %s" % args.output)
    passed = all(row["dr_test"]["result"] == "passed" for row in results["dr_test"]) and (not failover or failover["targets"]["passed"]) and (
        not network or network["targets"]["passed"]) and (not search or all(search["targets"].values())) and (
        not agent or agent["targets"]["passed"]) and (not policy or policy["targets"]["passed"]) and (
        not application or application["targets"]["passed"]) and all(row["targets"]["passed"] for row in results["readiness"] or []) and (
        not first or first["targets"]["passed"]) and (not estate or estate["targets"]["every_machine_passed"])
    return 0 if passed and fleet["health"]["exit_status"] == 0 and fleet["health_with_ledger"]["exit_status"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
