# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""What the collection's readers answer - a project's jobs (or one, followed), its projects, its machines' points in time,
its recovery plans, audit log and safety lever - each a function of a reader (a session, module_utils._session, or a module) and the reader's options,
validated. The module answers it, and a runbook step reads it itself through a session of its connection
(plugin_utils._step): one definition of each read. What cannot be answered is refused (Refused). The machines' read,
which is longer, is module_utils._machine_info."""

from ansible_collections.replication.recovery.plugins.module_utils._audit import read_audit_log
from ansible_collections.replication.recovery.plugins.module_utils._client import PAGE_LIMIT, ServiceError
from ansible_collections.replication.recovery.plugins.module_utils._domain import JOB_STATUSES, JOB_TYPES, active, parse_moment
from ansible_collections.replication.recovery.plugins.module_utils._fleet import UnknownProject, read_fleet, select_projects, service_time
from ansible_collections.replication.recovery.plugins.module_utils._jobs import WAIT_ARGUMENT_SPEC, Jobs
from ansible_collections.replication.recovery.plugins.module_utils._launches import job_progress
from ansible_collections.replication.recovery.plugins.module_utils._lever import LEVER_PLAN, lever_of
from ansible_collections.replication.recovery.plugins.module_utils._machine_reads import project_machines, resolve_machines
from ansible_collections.replication.recovery.plugins.module_utils._machines import name_of
from ansible_collections.replication.recovery.plugins.module_utils._points import points_of_each, points_picked
from ansible_collections.replication.recovery.plugins.module_utils._session import Refused

# The readers' options (each module's; its documentation says each): AnsibleModule's argument specs.
JOB_INFO = dict(
    WAIT_ARGUMENT_SPEC,
    project=dict(type="str", required=True),
    job=dict(type="str"),
    types=dict(type="list", elements="str", choices=list(JOB_TYPES)),
    statuses=dict(type="list", elements="str", choices=list(JOB_STATUSES)),
    limit=dict(type="int"),
    return_after=dict(type="float"),
    progress=dict(type="bool", default=False),
    progress_when_ended=dict(type="bool", default=True),
    wait=dict(type="bool", default=False),
)
PROJECT_INFO = dict(
    name=dict(type="str"),
    names=dict(type="list", elements="str"),
    machines=dict(type="bool", default=False),
    lag_threshold=dict(type="int", default=600),
    stale_after=dict(type="int", default=900),
)
POINT_IN_TIME_INFO = dict(project=dict(type="str", required=True), machine=dict(type="str"), machines=dict(type="list", elements="str"),
                          at_or_before=dict(type="str"))
RECOVERY_PLAN_INFO = dict(project=dict(type="str", required=True), name=dict(type="str"))
AUDIT_LOG_INFO = dict(
    project=dict(type="str", required=True),
    since=dict(type="str"),
    until=dict(type="str"),
    events=dict(type="list", elements="str"),
    limit=dict(type="int"),
)
LEVER_READ = dict(project=dict(type="str", required=True))


def job_info(reader, params):
    """The project's jobs, newest first, of the types and statuses asked; or one job, waited for and with its progress when
    asked."""
    # A run reads its job at each look, by the project's ID: the project itself is not read.
    project = reader.project_to_read_under(params["project"])
    try:
        return _jobs_of(reader, project, params)
    except ServiceError as error:
        raise reader.not_found_under(project, error)


def _jobs_of(reader, project, params):
    if params["job"] is not None:
        jobs = Jobs.of(reader, project, params)
        job = jobs.get(params["job"])
        if params["wait"]:
            job = jobs.wait(job, return_after=params["return_after"])
        answer = dict(job=job, jobs=[job])
        if params["progress"] and (params["progress_when_ended"] or active(job)):
            answer["progress"] = job_progress(reader, project, job)
        return answer
    limit = params["limit"]
    found = []
    if limit == 0:
        return dict(jobs=found)
    for job in reader.client.items("/projects/%s/jobs" % project["id"], page_size=min(limit or PAGE_LIMIT, PAGE_LIMIT)):
        if (not params["types"] or job["type"] in params["types"]) and (not params["statuses"] or job["status"] in params["statuses"]):
            found.append(job)
            if len(found) == limit:
                break  # read no further page
    return dict(jobs=found)


def project_info(reader, params):
    """The projects named (by name or ID, or glob patterns; one, or all of them), with their machines when asked."""
    if params["name"] is not None:
        project = reader.lookup("project", params["name"], required=False)
        if project is None:
            return dict(projects=[])
        wanted = [project["id"]]
    else:
        wanted = params["names"]
    try:
        if params["machines"]:
            return read_fleet(reader.client, wanted, params["lag_threshold"], params["stale_after"], projects=reader.list("/projects"))
        # Copies: a session may share its projects with others of its connection (module_utils._session.shared_projects).
        return dict(projects=[dict(project) for project in select_projects(reader.list("/projects"), wanted)])
    except UnknownProject as error:
        raise Refused(str(error))


def point_in_time_info(reader, params):
    """Each of the machines (names or IDs) with its points in time, newest first, and the newest at or before the moment
    asked; or one machine, with its point so picked."""
    moment = _moment("at_or_before", params["at_or_before"])
    project = reader.lookup("project", params["project"])
    if params["machines"] is not None:
        return dict(machines=points_of_each(reader, project, params["machines"], moment))
    return points_picked(reader, project, resolve_machines(reader, project, [params["machine"]])[0], moment)


def recovery_plan_info(reader, params):
    """The project's recovery plans (or the one named), each step's machines named beside their IDs."""
    project = reader.lookup("project", params["project"])
    plans = reader.items_of("recovery_plan", project=project)
    if params["name"] is not None:
        plans = [plan for plan in [reader.lookup("recovery_plan", params["name"], required=False, project=project)] if plan]
    names = dict((machine["id"], name_of(machine)) for machine in project_machines(reader, project)) if plans else {}
    for plan in plans:
        for step in plan["steps"]["items"]:
            step["machine_names"] = [names.get(machine_id, machine_id) for machine_id in step.get("machineIDs", [])]
    return dict(recovery_plans=plans)


def audit_log_info(reader, params):
    """The project's audit log in the window asked (since, until: RFC 3339), oldest first, of the events asked."""
    project = reader.lookup("project", params["project"])
    entries = read_audit_log(reader.client, "/projects/%s/auditLog" % project["id"], _moment("since", params["since"]),
                             _moment("until", params["until"]), now=lambda: service_time(reader.client))
    if params["events"]:
        entries = [entry for entry in entries if entry.get("eventName") in params["events"]]
    if params["limit"] is not None:
        entries = entries[:params["limit"]]
    return dict(entries=entries)


def _moment(option, value):
    """A date-time option as epoch seconds (None when not given): module_utils._domain.parse_moment."""
    try:
        return None if value is None else parse_moment(value, option)
    except ValueError as error:
        raise Refused("%s. Nothing was changed." % error)


def lever_plan(reader, value):
    """The project (``value``: its name or ID) and the recovery plan that keeps its safety lever (None: released)."""
    # A rehearsal reads the lever at each of its looks, by the project's ID: the project itself is not read.
    project = reader.project_to_read_under(value)
    try:
        return project, reader.lookup("recovery_plan", LEVER_PLAN, required=False, project=project)
    except ServiceError as error:
        raise reader.not_found_under(project, error)


def lever_read(reader, params):
    """The project's safety lever as the service has it now (module_utils._lever)."""
    return dict(lever=lever_of(lever_plan(reader, params["project"])[1]))
