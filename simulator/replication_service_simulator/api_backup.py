"""Backup projects: find files in points in time, restore them, launch restore servers."""

from fastapi import Depends, Request

from . import files, views
from .actions import new_job, plan, plan_file_restore, plan_launch
from .api_jobs import launch_items, licensed, no_running_job, unprocessable_unless_backup
from .auth import Caller, poster, writer
from .clock import iso
from .errors import invalid
from .models import FindFilesParameters, FindFilesResults, Job, LaunchMachinesParameters, RestoreFilesParameters
from .routing import ServiceRouter

router = ServiceRouter()


def _sim(request):
    return request.app.state.sim


@router.post("/projects/{projectId}/findFiles", response_model=FindFilesResults, tags=["backup"])
async def find_files(projectId: str, body: FindFilesParameters, request: Request, caller: Caller = Depends(poster)):
    """A read sent as a POST; a substring of the path, or a glob with * and ?."""
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    unprocessable_unless_backup(project)
    items, invalid_ids = [], []
    for machine_id in dict.fromkeys(body.machineIDs):
        machine = project.machines.get(machine_id)
        if machine is None:
            invalid_ids.append(machine_id)
            continue
        sim.sync(project, machine)
        points = machine.replication.points_in_time(sim.now(), machine.id)
        for path, found_in in files.find(machine, body.query, points):
            items.append({"machineId": machine.id, "filePath": path,
                          "pointsInTime": [{"id": pid, "dateTime": iso(taken)} for pid, taken in found_in]})
    return {"count": len(items), "query": body.query, "items": items, "invalidMachineIDs": invalid_ids}


@router.post("/projects/{projectId}/restoreFiles", response_model=Job, status_code=202, tags=["backup"])
async def restore_files(projectId: str, body: RestoreFilesParameters, request: Request, caller: Caller = Depends(writer)):
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    unprocessable_unless_backup(project)
    no_running_job(project)
    items = []
    for item in body.items:
        machine = project.machines.get(item.machineId)
        if machine is None:
            raise invalid("items: machine %s is not in this project." % item.machineId)
        sim.sync(project, machine)
        points = dict(machine.replication.points_in_time(sim.now(), machine.id))
        if item.pointInTimeId not in points:
            raise invalid("items: %s is not a point in time of machine %s." % (item.pointInTimeId, machine.name))
        if item.filePath not in files.files_at(machine, points[item.pointInTimeId]):
            raise invalid("items: %s did not exist on %s at %s." % (item.filePath, machine.name, iso(points[item.pointInTimeId])))
        items.append((machine, item.filePath, (item.pointInTimeId, points[item.pointInTimeId])))
    job = new_job(sim, project, caller.user, "FILE_RESTORE", [machine.id for machine, unused_path, unused_point in items])
    plan(job, lambda start: plan_file_restore(sim, job, items, start))
    sim.record(caller.user, "FILES_RESTORED", "Restore of %d files." % len(items), project=project, machines=job.machine_ids, job_id=job.id)
    return views.job(sim, job)


@router.post("/projects/{projectId}/launchRestoreServers", response_model=Job, status_code=202, tags=["backup"])
async def launch_restore_servers(projectId: str, body: LaunchMachinesParameters, request: Request, caller: Caller = Depends(writer)):
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    unprocessable_unless_backup(project)
    licensed(sim, project)
    no_running_job(project)
    items = launch_items(sim, project, body.items)
    job = new_job(sim, project, caller.user, "RESTORE_LAUNCH", [machine.id for machine, unused_point in items])
    plan(job, lambda start: plan_launch(sim, project, job, items, "RESTORE", start))
    sim.record(caller.user, "RESTORE_SERVERS_LAUNCHED", "Restore servers for %d machines." % len(items), project=project,
               machines=job.machine_ids, job_id=job.id)
    return views.job(sim, job)
