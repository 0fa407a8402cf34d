# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The fleet: projects with their machines and how their replication is, read at the cost the
interface allows - one list of projects, one look at the service's clock, one list of machines per
project (the clock read again only next to machines that had to be read again) - and, when asked,
their target machines (one read each: the interface has no list of them).

The inventory plugin, service_project_info and the health role read it through here.
"""

import fnmatch

from ansible_collections.replication.recovery.plugins.module_utils._domain import LIFE_CYCLE_MEMBERS, iso_time, parse_time
from ansible_collections.replication.recovery.plugins.module_utils._machines import launch_type_of_replica, replication_facts


# The launches that prove a machine can be recovered: a test, or a real recovery.
TESTING = ("test", "recovery")


class UnknownProject(ValueError):
    """A project named, or a pattern, that matches no project the user sees."""


def service_time(client):
    """The service's own time, in epoch seconds: lags and ages are measured against it."""
    return parse_time(client.get("/extendedAccountInfo")["dateTime"]["dateTime"])


# Reads of the clock and the machines tried, when retries keep coming between them.
NEXT_TO_THE_CLOCK = 3


def read_next_to_the_clock(client, read, clock=None):
    """What ``read()`` answers (machines), and the service's time to measure it against: the clock, read just before.
    Read after the machines, a clock read that had to be retried would count the retries as the machines' silence - at
    the service's retry budget, every healthy machine stale. When the read itself had to be retried (or logged in again),
    its answer came that much later than the clock, which would hide a machine's silence as long: both are read again,
    up to three times. Answers (epoch seconds, what ``read`` answered). ``clock`` reads the service's time (service_time
    by default)."""
    clock = clock or (lambda: service_time(client))
    for unused in range(NEXT_TO_THE_CLOCK):
        now = clock()
        retries = client.retries
        answer = read()
        if client.retries == retries:
            break
    return now, answer


def read_by_the_clock(client, read, now, clock=None):
    """As read_next_to_the_clock, with the clock read already (``now``, just before): it is read again only when
    ``read()`` had to be retried. One clock serves many reads that follow each other without a retry."""
    retries = client.retries
    answer = read()
    if client.retries == retries:
        return now, answer
    return read_next_to_the_clock(client, read, clock)


def select_projects(projects, wanted):
    """The projects that ``wanted`` names - by name, ID or glob pattern - in the service's order;
    all of them when ``wanted`` is empty. A value that matches none fails, naming the known ones."""
    if not wanted:
        return list(projects)
    chosen = []
    for value in wanted:
        matches = [p for p in projects if p["id"] == value or p["name"] == value or fnmatch.fnmatchcase(p["name"], value)]
        if not matches:
            raise UnknownProject("Project %r matches no project. Known: %s." % (
                value, ", ".join(sorted(p["name"] for p in projects)) or "none"))
        chosen.extend(p for p in matches if p not in chosen)
    return [p for p in projects if p in chosen]


def read_fleet(client, wanted=None, lag_threshold=600, stale_after=900, projects=None):
    """The projects ``wanted`` (all if not given), each with its machines (stopped ones included) and
    their replication facts, and the service's time they were measured against: the clock read just
    before the machines (``service_time``), and read again, next to a project's machines, when they had
    to be read again (that project's ``service_time``; see read_next_to_the_clock). ``projects`` is the
    list of projects when the caller has read it already."""
    projects = select_projects(client.list("/projects") if projects is None else projects, wanted)
    first = now = service_time(client)
    fleet = []
    for project in projects:
        def machines_of(project=project):
            return client.list("/projects/%s/machines" % project["id"], dict(all="true"))
        now, machines = read_by_the_clock(client, machines_of, now)
        fleet.append(dict(project, service_time=iso_time(now),
                          machines=[dict(m, **replication_facts(m, now, lag_threshold, stale_after)) for m in machines]))
    return dict(projects=fleet, service_time=iso_time(first))


def read_targets(client, project, launch_types=None):
    """The live target machines of a project's machines (of those launch types, all if not given):
    one read each, and one list of the project's blueprints for the private addresses they were
    given. Answers (machine, target machine, its private IPs) triples."""
    targets = []
    for machine in project["machines"]:
        kind = launch_type_of_replica(machine)
        if not machine.get("replica") or (launch_types and kind not in launch_types):
            continue
        target = client.get("/projects/%s/replicas/%s" % (project["id"], machine["replica"]))
        if target.get("machineCloudState") != "terminated":
            targets.append((machine, dict(target, launch_type=kind)))
    if not targets:
        return []
    blueprints = client.list("/projects/%s/blueprints" % project["id"])
    return [(machine, target, private_ips(blueprints, machine, target)) for machine, target in targets]


def private_ips(blueprints, machine, target):
    """The private addresses a target machine was launched with, when its blueprint sets them
    (custom IPs). The service reports no other private addresses."""
    blueprint = next((b for b in blueprints if b.get("machineId") == machine["id"] and b.get("region") == target.get("regionId")), None)
    if blueprint and blueprint.get("privateIPAction") == "CUSTOM_IP":
        return list(blueprint.get("privateIPs") or [])
    return []


def last_launches(machine):
    """When the machine was last launched, by launch type (None: never), from its life cycle."""
    life_cycle = machine.get("lifeCycle", {})
    return dict((kind, life_cycle.get(member)) for kind, member in LIFE_CYCLE_MEMBERS)


def last_tested(machine):
    """When the machine was last DR-tested: its latest test or recovery launch, from its life cycle; None if never."""
    dates = [date for kind, date in last_launches(machine).items() if kind in TESTING and date]
    return max(dates, key=parse_time) if dates else None
