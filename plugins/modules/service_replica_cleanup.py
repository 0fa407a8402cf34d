#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: service_replica_cleanup
short_description: Terminate machines launched in the target cloud
version_added: 1.0.0
description:
  - Terminates target machines of a project (test, recovery and cutover machines, and restore
    servers) and waits for the cleanup job to end.
  - Chooses them by O(replicas), by O(machines), by O(launch_types), or takes all of them.
  - Recovery and cutover machines run production, and are terminated only when O(terminate_production) names them -
    a selection that takes one it does not name fails before anything is terminated; without any selection they are
    left as they are, and named in RV(kept_production).
  - Idempotent - when there is nothing to terminate, nothing is sent.
options:
  replicas:
    description:
      - Target machines to terminate, by ID. IDs that are no longer live are taken as already cleaned up.
      - An ID may name a target machine that its source machine no longer points at - after a failback, the recovery
        machine, as C(replica) then names the machine launched back. It is read, and terminated too when it is one of the
        project's and not terminated.
      - A machine's name or ID given here stands for that machine's target machines; a name that is no machine's fails the
        task, and so does one that two machines share (give the ID).
    type: list
    elements: str
  machines:
    description: Terminate the target machines (and restore servers) of these source machines, by name or ID.
    type: list
    elements: str
  launch_types:
    description:
      - Terminate only target machines of these launch types (V(debug) launches count as V(test));
        V(restore) means restore servers.
    type: list
    elements: str
    choices: [test, recovery, cutover, debug, restore]
  terminate_production:
    description:
      - Recovery and cutover machines that may be terminated - by the ID of the target machine, or by the name or ID of its
        source machine. Naming them here is the confirmation that they go, production or not.
      - A target machine that its source machine no longer points at (after a failback, its recovery machine) counts as
        production.
    type: list
    elements: str
    version_added: 2.0.0
extends_documentation_fragment:
  - replication.recovery.project
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.jobs
attributes:
  check_mode:
    support: full
    details: Nothing is terminated; the task says which target machines it would terminate.
  diff_mode:
    support: none
seealso:
  - module: replication.recovery.service_launch
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Remove every test machine of the project
  replication.recovery.service_replica_cleanup:
    project: production
    launch_types: [test]

- name: Remove what a launch made
  replication.recovery.service_replica_cleanup:
    project: production
    replicas: "{{ launch.launched | map(attribute='replica.id') | list }}"

- name: A rehearsal with recovery launches is over - its recovery machines go, named and confirmed
  replication.recovery.service_replica_cleanup:
    project: rehearsal
    launch_types: [recovery]
    terminate_production: [web-1, db-1]
"""

RETURN = r"""
removed:
  description: IDs of the target machines terminated (or, in check mode, that would be).
  returned: always
  type: list
  elements: str
removed_machines:
  description: Names of the source machines whose target machines were terminated (or, in check mode, would be).
  returned: always
  type: list
  elements: str
  sample: [web-1, db-1]
job:
  description: The cleanup job as the service describes it, with its log.
  returned: when a cleanup was started or followed
  type: dict
kept_production:
  description: Names of the source machines whose recovery or cutover machines were left, as no selection and no O(terminate_production) named them.
  returned: always
  type: list
  elements: str
  version_added: 2.0.0
"""

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils._jobs import WAIT_ARGUMENT_SPEC, Jobs, same_job
from ansible_collections.replication.recovery.plugins.module_utils._domain import CLEANUP_JOB, LAUNCH_TYPES, looks_like_id
from ansible_collections.replication.recovery.plugins.module_utils._machines import live_targets, name_of, runs_production
from ansible_collections.replication.recovery.plugins.module_utils._machine_reads import resolve_machines


class CleanupModule(ServiceModule):
    def work(self):
        params = self.params
        project = self.lookup("project", params["project"])
        jobs = Jobs.of(self, project)
        # Any running job (a launch, an earlier cleanup) is waited for, so the machines settle first.
        if jobs.wait_until_idle():
            self.forget("/projects/%s/machines" % project["id"])
        machines = resolve_machines(self, project, params["machines"])
        targets = live_targets(machines, params["launch_types"])
        if params["replicas"] is not None:
            targets = self.chosen(project, targets, params["replicas"])
        targets, kept = self.without_production(targets)
        removed = [replica for replica, unused_machine in targets]
        machine_ids = list(dict.fromkeys(machine["id"] for unused_replica, machine in targets))
        result = dict(removed=removed, removed_machines=list(dict.fromkeys(name_of(machine) for unused_replica, machine in targets)),
                      kept_production=kept)
        if removed:
            self.within_limits(len(machine_ids))
            job = jobs.run(lambda: self.client.delete("/projects/%s/replicas" % project["id"], dict(replicaIDs=removed)),
                           same_job(CLEANUP_JOB, machine_ids), wait=params["wait"], result=result)
            result.update(dict(job=job) if job else {})
        return result

    def without_production(self, targets):
        """The targets less the recovery and cutover machines that terminate_production does not name: left, and named,
        when nothing selected them; refused, before anything is terminated, when a selection did."""
        allowed = set(self.params["terminate_production"] or ())
        production = [(replica, machine) for replica, machine in targets if runs_production(replica, machine)
                      and not allowed & set((replica, machine["id"], name_of(machine)))]
        if production and any(self.params[option] is not None for option in ("replicas", "machines", "launch_types")):
            self.fail_json(msg="%s run%s production (recovery or cutover machines): name them in terminate_production to terminate them; "
                               "nothing was terminated." % (", ".join("%s's %s" % (name_of(machine), replica) for replica, machine in production),
                                                            "s" if len(production) == 1 else ""))
        return [target for target in targets if target not in production], list(dict.fromkeys(name_of(machine) for unused, machine in production))

    def chosen(self, project, targets, values):
        """The targets that ``values`` name: target machine IDs, or machines (by name or ID) for their targets."""
        by_replica, by_owner = {}, {}
        for replica, machine in targets:
            by_replica.setdefault(replica, []).append((replica, machine))
            by_owner.setdefault(machine["id"], []).append((replica, machine))
        machines = dict((value, self.lookup("machine", value, required=False, project=project))  # fails when a name is ambiguous
                        for value in values if value not in by_replica)
        unknown = [value for value, machine in machines.items() if machine is None and not looks_like_id(value)]
        if unknown:
            self.fail_json(msg="%r is neither a target machine's ID nor a machine of project %r." % (unknown[0], project["name"]))
        # Target machines no source machine points at (a failback's recovery machines): the service has no list of them.
        self.read_ahead(ones=["/projects/%s/replicas/%s" % (project["id"], value) for value, machine in machines.items() if machine is None])
        chosen, picked_before = [], set()  # the targets picked, in the order first picked; their target machines
        for value in values:
            picked = by_replica.get(value)
            if not picked:
                picked = by_owner.get(machines[value]["id"], []) if machines[value] is not None else self.unreferenced(project, value)
            for target in picked:
                if target[0] not in picked_before:  # a target machine is picked once, however many values name it
                    picked_before.add(target[0])
                    chosen.append(target)
        return chosen

    def unreferenced(self, project, replica_id):
        """A live target machine that no source machine points at any more, read by its ID (the service
        has no list of them); nothing when it is gone or terminated."""
        target = self.lookup("target_machine", replica_id, required=False, project=project)
        if not target or target.get("machineCloudState") == "terminated":
            return []
        owner = self.lookup("machine", target.get("machine"), required=False, project=project) if target.get("machine") else None
        return [(replica_id, owner or dict(id=target.get("machine"), sourceProperties=dict(name=target.get("name"))))]


def main():
    spec = dict(
        WAIT_ARGUMENT_SPEC,
        project=dict(type="str", required=True),
        replicas=dict(type="list", elements="str"),
        machines=dict(type="list", elements="str"),
        launch_types=dict(type="list", elements="str", choices=list(LAUNCH_TYPES)),
        terminate_production=dict(type="list", elements="str"),
    )
    CleanupModule(argument_spec=spec).run()


if __name__ == "__main__":
    main()
