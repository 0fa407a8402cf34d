"""Jobs and the actions that start them: launches, cleanup, recovery plans; and reverse
replication and moving machines, which act at once."""

from fastapi import Depends, Request, Response

from . import views
from .actions import latest_point, new_job, plan, plan_cleanup, plan_launch, plan_recovery_plan
from .audit import changed_fields
from .auth import Caller, authenticated, writer
from .clock import parse_duration
from .errors import ServiceError, conflict, invalid, not_found, unprocessable
from .jobs import LAUNCH_JOB_TYPES, PLAN_JOB_TYPES
from .models import (Items, Job, LaunchMachinesParameters, MoveMachines, Project, RecoveryPlan, RecoveryPlanCreate,
                     ReplicaIDs, RunRecoveryPlan)
from .blueprints import ensure_blueprints
from .patching import settable
from .routing import Page, ServiceRouter, paging

router = ServiceRouter()


def _sim(request):
    return request.app.state.sim


# -- rules every action follows -----------------------------------------------------------------


def no_running_job(project):
    """Only one job runs at a time in a project."""
    job = project.running_job()
    if job is not None:
        raise invalid("Job %s (%s) is still running in this project; wait for it to end." % (job.id, job.type), code="jobAlreadyRunning")


def licensed(sim, project):
    if not any(sim.licenses[lid].expiration > sim.now() for lid in project.license_ids if lid in sim.licenses):
        raise ServiceError(402, "licenseExpired", "The project's license has expired; machines cannot be launched.")


def busy_machines(project, machine_ids):
    """409 when a running job involves any of these machines."""
    job = project.running_job()
    if job is not None and set(job.machine_ids) & set(machine_ids):
        raise conflict("Job %s (%s) is running for some of these machines." % (job.id, job.type))


def launch_items(sim, project, items):
    """[(machine, point or None)] for the request's items; 400 for machines or points the project lacks."""
    resolved = []
    for item in items:
        machine = project.machines.get(item.machineId)
        if machine is None:
            raise invalid("items: machine %s is not in this project." % item.machineId)
        if item.pointInTimeId is None:
            point = latest_point(sim, project, machine)
        else:
            sim.sync(project, machine)
            points = dict(machine.replication.points_in_time(sim.now(), machine.id))
            if item.pointInTimeId not in points:
                raise invalid("items: %s is not a point in time of machine %s." % (item.pointInTimeId, machine.name))
            point = (item.pointInTimeId, points[item.pointInTimeId])
        resolved.append((machine, point))
    return resolved


# -- jobs ---------------------------------------------------------------------------------------


@router.get("/projects/{projectId}/jobs", response_model=Items[Job], tags=["jobs"])
async def list_jobs(projectId: str, request: Request, page: Page = Depends(paging), caller: Caller = Depends(authenticated)):
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    return page.of(project.jobs[::-1], lambda job: views.job(sim, job))


@router.get("/projects/{projectId}/jobs/{jobId}", response_model=Job, tags=["jobs"])
async def get_job(projectId: str, jobId: str, request: Request, caller: Caller = Depends(authenticated)):
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    job = next((job for job in project.jobs if job.id == jobId), None)
    if job is None:
        raise not_found("Job %s" % jobId)
    return views.job(sim, job)


# -- launches and cleanup -----------------------------------------------------------------------


@router.post("/projects/{projectId}/launchMachines", response_model=Job, status_code=202, tags=["launches"])
async def launch_machines(projectId: str, body: LaunchMachinesParameters, request: Request, caller: Caller = Depends(writer)):
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    licensed(sim, project)
    no_running_job(project)
    if project.config_id is None:
        raise invalid("The project has no replication configuration to launch into.")
    items = launch_items(sim, project, body.items)
    machine_ids = [machine.id for machine, unused_point in items]
    job = new_job(sim, project, caller.user, LAUNCH_JOB_TYPES[body.launchType], machine_ids)
    scripts = body.debugScripts.model_dump() if body.debugScripts and body.launchType == "DEBUG" else None
    plan(job, lambda start: plan_launch(sim, project, job, items, body.launchType, start, debug_scripts=scripts))
    sim.record(caller.user, "MACHINES_LAUNCHED", "%s launch of %d machines." % (body.launchType, len(items)), project=project,
               machines=machine_ids, job_id=job.id)
    return views.job(sim, job)


@router.delete("/projects/{projectId}/replicas", response_model=Job, status_code=202, tags=["launches"])
async def cleanup_replicas(projectId: str, body: ReplicaIDs, request: Request, caller: Caller = Depends(writer)):
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    no_running_job(project)
    replicas = []
    for replica_id in dict.fromkeys(body.replicaIDs):
        replica = sim.replicas.get(replica_id)
        if replica is None or replica.project_id != project.id or replica.state == "terminated":
            raise invalid("replicaIDs: %s is not a running target machine of this project." % replica_id)
        replicas.append(replica)
    job = new_job(sim, project, caller.user, "CLEANUP", [r.machine_id for r in replicas])
    plan(job, lambda start: plan_cleanup(sim, job, replicas, start))
    sim.record(caller.user, "TARGET_MACHINES_CLEANED_UP", "Cleanup of %d target machines." % len(replicas), project=project,
               machines=job.machine_ids, job_id=job.id)
    return views.job(sim, job)


# -- recovery plans -----------------------------------------------------------------------------


def _check_plan(sim, project, name, steps, plan_id=None):
    if name is not None and any(p["name"] == name and p["id"] != plan_id for p in project.plans.values()):
        raise conflict("A recovery plan named %s exists." % name)
    for step in steps or []:
        for machine_id in step["machineIDs"]:
            if machine_id not in project.machines:
                raise invalid("steps: machine %s of step %s is not in this project." % (machine_id, step["name"]))
        try:
            parse_duration(step.get("waitBefore") or "PT0S")
        except ValueError as error:
            raise invalid("steps: waitBefore of step %s: %s." % (step["name"], error))


def _plan(project, plan_id):
    found = project.plans.get(plan_id)
    if found is None:
        raise not_found("Recovery plan %s" % plan_id)
    return found


@router.get("/projects/{projectId}/recoveryPlans", response_model=Items[RecoveryPlan], tags=["recovery plans"])
async def list_plans(projectId: str, request: Request, caller: Caller = Depends(authenticated)):
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    return {"items": [views.plan(sim, p) for p in project.plans.values()]}


@router.post("/projects/{projectId}/recoveryPlans", response_model=RecoveryPlan, status_code=202, tags=["recovery plans"])
async def create_plan(projectId: str, body: RecoveryPlanCreate, request: Request, caller: Caller = Depends(writer)):
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    steps = [step.model_dump(exclude_none=True) for step in body.steps.items]
    _check_plan(sim, project, body.name, steps)
    created = {"id": sim.new_id(), "name": body.name, "steps": {"items": steps}}
    project.plans[created["id"]] = created
    sim.record(caller.user, "RECOVERY_PLAN_CREATED", "Recovery plan %s created." % body.name, project=project)
    return views.plan(sim, created)


@router.get("/projects/{projectId}/recoveryPlans/{planId}", response_model=RecoveryPlan, tags=["recovery plans"])
async def get_plan(projectId: str, planId: str, request: Request, caller: Caller = Depends(authenticated)):
    sim = _sim(request)
    return views.plan(sim, _plan(sim.project(caller.user, projectId), planId))


@router.patch("/projects/{projectId}/recoveryPlans/{planId}", response_model=RecoveryPlan, tags=["recovery plans"])
async def patch_plan(projectId: str, planId: str, body: RecoveryPlan, request: Request, caller: Caller = Depends(writer)):
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    found = _plan(project, planId)
    values = settable(body.model_dump(exclude_none=True), views.plan(sim, found), ("name", "steps"))
    steps = values["steps"]["items"] if "steps" in values else None
    _check_plan(sim, project, values.get("name"), steps, plan_id=planId)
    before = views.plan(sim, found)
    if "name" in values:
        found["name"] = values["name"]
    if steps is not None:
        found["steps"] = {"items": steps}
    after = views.plan(sim, found)
    changes = changed_fields({"name": before["name"], "steps": before["steps"]}, {"name": after["name"], "steps": after["steps"]})
    if changes:
        sim.record(caller.user, "RECOVERY_PLAN_UPDATED", "Recovery plan %s updated." % found["name"], project=project, changed=changes)
    return after


@router.delete("/projects/{projectId}/recoveryPlans/{planId}", status_code=204, tags=["recovery plans"])
async def delete_plan(projectId: str, planId: str, request: Request, caller: Caller = Depends(writer)):
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    found = _plan(project, planId)
    del project.plans[planId]
    sim.record(caller.user, "RECOVERY_PLAN_DELETED", "Recovery plan %s deleted." % found["name"], project=project)
    return Response(status_code=204)


@router.post("/projects/{projectId}/runRecoveryPlan", response_model=Job, status_code=202, tags=["recovery plans"])
async def run_plan(projectId: str, body: RunRecoveryPlan, request: Request, caller: Caller = Depends(writer)):
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    found = project.plans.get(body.recoveryPlanID)
    if found is None:
        raise invalid("recoveryPlanID: %s is not a recovery plan of this project." % body.recoveryPlanID)
    if body.executionMode != "CLEANUP":
        licensed(sim, project)
    no_running_job(project)
    machine_ids = [mid for step in found["steps"]["items"] for mid in step["machineIDs"] if mid in project.machines]
    at_or_before = None
    if body.pointInTimeID is not None:
        at_or_before = _point_time(sim, project, machine_ids, body.pointInTimeID)
    job = new_job(sim, project, caller.user, PLAN_JOB_TYPES[body.executionMode], machine_ids)
    plan(job, lambda start: plan_recovery_plan(sim, project, job, found, body.executionMode, at_or_before, start))
    sim.record(caller.user, "RECOVERY_PLAN_RUN", "Recovery plan %s run in %s mode." % (found["name"], body.executionMode), project=project,
               machines=machine_ids, job_id=job.id)
    return views.job(sim, job)


def _point_time(sim, project, machine_ids, point_id):
    """The moment of a point in time of one of the plan's machines: the others use theirs at or before it."""
    for machine_id in machine_ids:
        machine = project.machines[machine_id]
        sim.sync(project, machine)
        for pid, taken in machine.replication.points_in_time(sim.now(), machine.id):
            if pid == point_id:
                return taken
    raise invalid("pointInTimeID: %s is not a point in time of the plan's machines." % point_id)


# -- reverse replication and moving machines ------------------------------------------------------


@router.post("/projects/{projectId}/reverseReplication", response_model=Project, tags=["replication"])
async def reverse_replication(projectId: str, request: Request, caller: Caller = Depends(writer)):
    """Allowed after a recovery or cutover launch; replication restarts in the other direction."""
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    no_running_job(project)
    if not project.reverse_allowed:
        raise ServiceError(422, "cannotReverse", "Replication can be reversed only after a recovery or cutover launch.")
    sim.sync_project(project)
    project.replication_reversed = not project.replication_reversed
    project.reverse_allowed = False
    for machine in project.machines.values():
        # Reversed, each machine replicates from its recovered (or cut over) target machine, if it has one.
        source = sim.replicas.get(machine.replica_id) if machine.replica_id and project.replication_reversed else None
        machine.reverse_source = source.id if source is not None and source.launch_type in ("RECOVERY", "CUTOVER") else None
        machine.replication.restart(sim.now())
        sim.sync(project, machine)
    sim.record(caller.user, "REPLICATION_REVERSED", "Replication of project %s now runs %s." % (
        project.name, "from the target back to the source" if project.replication_reversed else "from the source to the target"),
        project=project, machines=list(project.machines))
    return views.project(sim, project)


@router.post("/projects/{projectId}/moveMachines", status_code=204, tags=["machines"])
async def move_machines(projectId: str, body: MoveMachines, request: Request, caller: Caller = Depends(writer)):
    sim = _sim(request)
    source = sim.project(caller.user, projectId)
    destination = sim.project(caller.user, body.destinationProjectId)
    machines = [sim.machine(source, mid) for mid in dict.fromkeys(body.machineIDs)]
    if destination is source:
        raise conflict("The machines are in that project already.")
    if destination.type != source.type:
        raise conflict("Machines move only between projects of one type (%s, not %s)." % (source.type, destination.type))
    busy_machines(source, [m.id for m in machines])
    ids = [m.id for m in machines]
    sim.record(caller.user, "MACHINES_MOVED", "%d machines moved to project %s." % (len(ids), destination.name), project=source, machines=ids)
    for machine in machines:
        del source.machines[machine.id]
        machine.project_id = destination.id
        destination.machines[machine.id] = machine
        sim.sync(destination, machine)
        for replica in sim.replicas.values():
            if replica.machine_id == machine.id:
                replica.project_id, replica.project_name = destination.id, destination.name
        for key in [key for key, b in source.blueprints.items() if b["machineId"] == machine.id]:
            destination.blueprints[key] = source.blueprints.pop(key)
    ensure_blueprints(sim, destination)
    sim.record(caller.user, "MACHINES_MOVED", "%d machines moved from project %s." % (len(ids), source.name), project=destination, machines=ids)
    return Response(status_code=204)


def unprocessable_unless_backup(project):
    if project.type != "BACKUP":
        raise unprocessable("Only backup projects have that; project %s is a %s project." % (project.name, project.type))
