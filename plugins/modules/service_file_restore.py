#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: service_file_restore
short_description: Find files in the points in time of a backup project, and restore them
version_added: 1.0.0
description:
  - With O(query), searches the machines' points in time and returns every matching file with the
    points in time where it exists. This only reads, in check mode too.
  - With O(files), restores each file from a point in time onto its machine, as one job, and waits
    for it. A restore is an action - a completed restore is not remembered, so running the task
    again restores the files again; a restore of the same machines still running is followed instead.
  - Only backup projects have files to search and restore; other projects fail the task with a clear message.
options:
  project:
    description: The backup project, by name or ID.
    type: str
    required: true
  query:
    description: Part of a file's path, or a glob with V(*) and V(?) matched against the whole path.
    type: str
  machines:
    description: With O(query), search only these machines, by name or ID. All machines if not given.
    type: list
    elements: str
  files:
    description: The files to restore.
    type: list
    elements: dict
    suboptions:
      machine:
        description: The machine, by name or ID.
        type: str
        required: true
      path:
        description: The file's full path.
        type: str
        required: true
      point_in_time:
        description:
          - V(latest) restores the file from the newest point in time that has it; an RFC 3339
            date-time, from the last point at or before it that has it; or the ID of a point in time.
        type: str
        default: latest
extends_documentation_fragment:
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.jobs
attributes:
  check_mode:
    support: full
    details: A search runs; a restore is only predicted.
  diff_mode:
    support: none
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Where does nginx.conf exist?
  replication.recovery.service_file_restore:
    project: file-servers
    query: nginx.conf
  register: found

- name: Restore yesterday's configuration and this morning's report
  replication.recovery.service_file_restore:
    project: file-servers
    files:
      - machine: web-1
        path: /etc/nginx/nginx.conf
        point_in_time: "2026-11-21T23:59:59Z"
      - machine: fs-1
        path: /srv/reports/daily.csv
"""

RETURN = r"""
files:
  description: With O(query), the files found, each with the points in time that have it, newest first.
  returned: with O(query)
  type: list
  elements: dict
  sample:
    - machine_id: 9db2cf6d-4b41-41b5-8f77-b40af8fa16ff
      machine_name: fs-1
      path: /etc/hosts
      points_in_time: [{id: 3e43acd2-a41a-5904-af27-4eca8be2f9b5, dateTime: "2026-11-22T08:00:00.000000+00:00"}]
restored:
  description: With O(files), each file and the point in time it is (or, in check mode, would be) restored from.
  returned: with O(files)
  type: list
  elements: dict
  sample:
    - {machine_name: fs-1, path: /etc/hosts, point_in_time: 3e43acd2-a41a-5904-af27-4eca8be2f9b5,
       point_in_time_date_time: "2026-11-22T08:00:00.000000+00:00"}
job:
  description: The FILE_RESTORE job as the service describes it, with its log.
  returned: when a restore was started or followed
  type: dict
"""

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils._jobs import WAIT_ARGUMENT_SPEC, Jobs, same_job
from ansible_collections.replication.recovery.plugins.module_utils._domain import FILE_RESTORE_JOB, parse_time
from ansible_collections.replication.recovery.plugins.module_utils._machines import name_of, pick_point
from ansible_collections.replication.recovery.plugins.module_utils._machine_reads import resolve_machines
from ansible_collections.replication.recovery.plugins.module_utils._points import point_in_time_option


class FileRestoreModule(ServiceModule):
    def work(self):
        project = self.lookup("project", self.params["project"])
        if project.get("type") != "BACKUP":
            self.fail_json(msg="Project %r is a %s project; only backup projects have files to search and restore." % (
                project["name"], project.get("type")))
        if self.params["query"] is not None:
            machines = resolve_machines(self, project, self.params["machines"])
            return dict(files=self.search_files(project, self.params["query"], machines))
        return self.restore(project)

    def search_files(self, project, query, machines):
        """Files matching ``query``, each with its points in time newest first."""
        answer = self.client.search("/projects/%s/findFiles" % project["id"], dict(query=query, machineIDs=[m["id"] for m in machines]))
        names = dict((m["id"], name_of(m)) for m in machines)
        return [dict(machine_id=item["machineId"], machine_name=names.get(item["machineId"], item["machineId"]), path=item["filePath"],
                     points_in_time=sorted(item["pointsInTime"], key=lambda p: parse_time(p["dateTime"]), reverse=True))
                for item in answer["items"]]

    def restore(self, project):
        items, restored = [], []
        for wanted in self.params["files"]:
            machine = resolve_machines(self, project, [wanted["machine"]])[0]
            point = self.point(project, machine, wanted)
            items.append(dict(machineId=machine["id"], filePath=wanted["path"], pointInTimeId=point["id"]))
            restored.append(dict(machine_name=name_of(machine), path=wanted["path"], point_in_time=point["id"],
                                 point_in_time_date_time=point.get("dateTime")))
        ids = list(dict.fromkeys(item["machineId"] for item in items))
        job = Jobs.of(self, project).run(lambda: self.client.post("/projects/%s/restoreFiles" % project["id"], dict(items=items)),
                                         same_job(FILE_RESTORE_JOB, ids), wait=self.params["wait"], result=dict(restored=restored))
        return dict(restored=restored, **(dict(job=job) if job else {}))

    def point(self, project, machine, wanted):
        """The point in time to restore a file from: given, or the latest (at or before a moment) that has the file."""
        point_id, moment = point_in_time_option(self, "point_in_time of %s" % wanted["path"], wanted["point_in_time"])
        if point_id is not None:
            return dict(id=point_id)
        found = [f for f in self.search_files(project, wanted["path"], [machine]) if f["path"] == wanted["path"]]
        point = pick_point(found[0]["points_in_time"], moment) if found else None
        if point is None:
            self.fail_json(msg="No point in time%s of %s has %s; nothing was restored." % (
                "" if moment is None else " at or before %s" % wanted["point_in_time"], name_of(machine), wanted["path"]))
        return point


def main():
    spec = dict(
        WAIT_ARGUMENT_SPEC,
        project=dict(type="str", required=True),
        query=dict(type="str"),
        machines=dict(type="list", elements="str"),
        files=dict(type="list", elements="dict", options=dict(
            machine=dict(type="str", required=True),
            path=dict(type="str", required=True),
            point_in_time=dict(type="str", default="latest"),
        )),
    )
    FileRestoreModule(argument_spec=spec, mutually_exclusive=[("query", "files")], required_one_of=[("query", "files")]).run()


if __name__ == "__main__":
    main()
