# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Target machines: whether machines already have them, and what they are, for modules that launch
or follow a job; and how far a job is with its machines."""

from ansible_collections.replication.recovery.plugins.module_utils._domain import (
    CLEANUP_JOBS, LAUNCH_JOBS, LAUNCHING_JOBS, LIFE_CYCLE_MEMBERS, PRODUCTION_KINDS, RESTORE, active, kind_of, parse_time)
from ansible_collections.replication.recovery.plugins.module_utils._machines import launch_type_of_replica, name_of
from ansible_collections.replication.recovery.plugins.module_utils._machine_reads import project_machines, restore_servers_of, target_machine_of
from ansible_collections.replication.recovery.plugins.module_utils._points import points_of, points_path


def _since(machine):
    kind = launch_type_of_replica(machine)
    return (machine.get("lifeCycle") or {}).get(dict(LIFE_CYCLE_MEMBERS)[kind]) or "at an unknown moment"


def launched_since(job, machine):
    """Whether the machine has a target machine launched since the job began."""
    life_cycle = machine.get("lifeCycle", {})
    launched_at = [parse_time(life_cycle[member]) for unused_kind, member in LIFE_CYCLE_MEMBERS if life_cycle.get(member)]
    return bool(machine.get("replica")) and bool(launched_at) and max(launched_at) >= parse_time(job["creationDateTime"])


class TargetMachines:
    """A mixin for ServiceModule subclasses that launch machines or report what was launched."""

    def forget_targets(self, project):
        """After another job ended: the machines and their target machines may have changed."""
        self.forget("/projects/%s/machines" % project["id"])
        self.forget("/projects/%s/replicas/" % project["id"])

    def live_target(self, project, machine, launch_type=None):
        """The machine's target machine, if it is live (and of that launch type); else None. For a restore launch, its
        newest restore server."""
        if launch_type is not None and kind_of(launch_type) == RESTORE:
            servers = [server for server in restore_servers_of(self, project, machine) if server.get("machineCloudState") != "terminated"]
            return servers[-1] if servers else None
        if not machine.get("replica"):
            return None
        if launch_type is not None and launch_type_of_replica(machine) != kind_of(launch_type):
            return None
        replica = target_machine_of(self, project, machine)
        return None if replica.get("machineCloudState") == "terminated" else replica

    def all_launched(self, project, machines, launch_type, points=None):
        """Whether every machine has a live target machine of this type (from ``points``, when given)."""
        for machine in machines:
            replica = self.live_target(project, machine, launch_type)
            if replica is None:
                return False
            if points and machine["id"] in points and replica.get("pointInTime") != points[machine["id"]]["id"]:
                return False
        return True

    def launched(self, project, machines, points=True, launch_type=None):
        """For each machine, its target machine (for a restore launch, its newest restore server) and (unless ``points`` is
        false: the caller knows them) the date-time of the point it was launched from."""
        restore = launch_type is not None and kind_of(launch_type) == RESTORE
        targets = [server for machine in machines for server in machine.get("restoreServers") or []] if restore else [
            machine["replica"] for machine in machines if machine.get("replica")]
        with_target = [machine for machine in machines if machine.get("restoreServers" if restore else "replica")]
        self.read_ahead(ones=["/projects/%s/replicas/%s" % (project["id"], target) for target in targets],
                        lists=[points_path(project, machine) for machine in with_target] if points else [])
        result = []
        for machine in machines:
            entry = dict(machine_id=machine["id"], machine_name=name_of(machine))
            replica = self.live_target(project, machine, launch_type) if restore else (
                target_machine_of(self, project, machine) if machine.get("replica") else None)
            if replica is not None:
                entry["target_machine"] = replica
                point = next((p for p in points_of(self, project, machine) if p["id"] == replica.get("pointInTime")), None) if points else None
                if point is not None:
                    entry["point_in_time_date_time"] = point["dateTime"]
            result.append(entry)
        return result

    def production_in_the_way(self, machines, allowed=()):
        """The machines (as listed) whose live target machine runs production - a recovery or cutover machine, as the list
        says - and that ``allowed`` (names or IDs) does not name: a launch (or a plan's cleanup) would terminate it."""
        return [machine for machine in machines if machine.get("replica") and launch_type_of_replica(machine) in PRODUCTION_KINDS
                and machine["id"] not in allowed and name_of(machine) not in allowed]

    def refuse_to_replace_production(self, project, machines):
        """Fail the task, before anything is written, when it would terminate production that was not named in
        replace_production."""
        in_the_way = self.production_in_the_way(machines, self.params.get("replace_production") or ())
        if in_the_way:
            self.fail_json(msg="%s %s a %s machine that runs production (launched %s): a launch terminates a machine's target machine "
                               "first. Name %s in replace_production to replace %s; nothing was launched." % (
                                   ", ".join(name_of(machine) for machine in in_the_way), "has" if len(in_the_way) == 1 else "have",
                                   " or ".join(sorted(set(launch_type_of_replica(machine) for machine in in_the_way))),
                                   ", ".join("%s %s" % (name_of(machine), _since(machine)) for machine in in_the_way),
                                   "it" if len(in_the_way) == 1 else "them", "it" if len(in_the_way) == 1 else "them"))

    def failed_in(self, job, machines, project=None):
        """The machines a finished job launched nothing for: no target machine (for a restore launch, no restore server)
        launched since it began."""
        if job.get("type") == LAUNCH_JOBS[RESTORE]:
            began = parse_time(job["creationDateTime"])
            return [machine for machine in machines if not any(parse_time(server["cloudEndureCreationDateTime"]) >= began
                                                               for server in restore_servers_of(self, project, machine)
                                                               if server.get("cloudEndureCreationDateTime"))]
        return [machine for machine in machines if not launched_since(job, machine)]


def job_progress(reader, project, job):
    """How far the job is with its machines, from one list of them: done, running, failed.

    A launching job is done with a machine once it has a target machine launched since the
    job began; a cleanup, once the machine has none. Machines not done when the job has
    ended failed. Other jobs say nothing per machine until they end.
    """
    wanted = set(job.get("participatingMachines", []))
    machines = [machine for machine in project_machines(reader, project) if machine["id"] in wanted]
    if job["type"] in LAUNCHING_JOBS:
        done = sum(1 for machine in machines if launched_since(job, machine))
    elif job["type"] in CLEANUP_JOBS:
        done = sum(1 for machine in machines if not machine.get("replica"))
    else:
        done = len(wanted) if job.get("status") == "COMPLETED" else 0
    ended = not active(job)
    return dict(machines=len(wanted), done=done, running=0 if ended else len(wanted) - done,
                failed=len(wanted) - done if ended else 0)
