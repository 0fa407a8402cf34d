"""Source machines: listing, launch-time settings, tags, uninstall, bandwidth, points in time,
replicas, and starting, stopping and pausing replication."""

from typing import Optional

from fastapi import Depends, Query, Request, Response

from . import views
from .audit import changed_fields
from .auth import Caller, authenticated, writer
from .clock import iso
from .errors import invalid, not_found
from .models import (BandwidthThrottling, BandwidthThrottlingRequest, Items, Machine, MachineIDs,
                     MachinesListInvalidIDsAndJob, MachinesPatch, PointInTime, Replica)
from .api_jobs import busy_machines
from .patching import settable
from .routing import Page, ServiceRouter, paging

router = ServiceRouter()
MAX_TAGS = 50
MAX_TAG_LENGTH = 127


def _sim(request):
    return request.app.state.sim


def _check_tags(tags):
    if len(tags) > MAX_TAGS:
        raise invalid("A machine can have at most %d tags, not %d." % (MAX_TAGS, len(tags)), code="tagLimitReached")
    for tag in tags:
        if not 1 <= len(tag) <= MAX_TAG_LENGTH:
            raise invalid("A tag has 1 to %d characters; %r does not." % (MAX_TAG_LENGTH, tag[:40]), code="tagLengthError")


@router.get("/projects/{projectId}/machines", response_model=Items[Machine], tags=["machines"])
async def list_machines(projectId: str, request: Request, page: Page = Depends(paging), caller: Caller = Depends(authenticated),
                        all: bool = Query(False, description="Also machines whose replication is STOPPED."),
                        types: Optional[str] = Query(None, description="Accepted for compatibility; every machine here is a source machine.")):
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    sim.sync_project(project)
    machines = [m for m in project.machines.values() if all or m.replication.status != "STOPPED"]
    return page.of(machines, lambda machine: views.machine(sim, project, machine))


@router.get("/projects/{projectId}/machines/{machineId}", response_model=Machine, tags=["machines"])
async def get_machine(projectId: str, machineId: str, request: Request, caller: Caller = Depends(authenticated)):
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    return views.machine(sim, project, sim.machine(project, machineId))


def _set_tags(machine, tags):
    if tags is None or tags == machine.tags:
        return None
    change = changed_fields({"tags": machine.tags}, {"tags": tags})
    machine.tags = list(tags)
    return change


# A PATCH sets a machine's launch-time settings (its tags) only. Sent back as GET answered them,
# the members that move with time are ignored; the others must not try to change (patching.py).
LAUNCH_SETTINGS = ("tags",)
COMPUTED = ("replicationInfo", "lifeCycle")


def _launch_settings(sim, project, machine, sent):
    values = settable(sent.model_dump(exclude_none=True), views.machine(sim, project, machine), LAUNCH_SETTINGS, COMPUTED)
    if values.get("tags") is not None:
        _check_tags(values["tags"])
    return values.get("tags")


@router.patch("/projects/{projectId}/machines/{machineId}", response_model=Machine, tags=["machines"])
async def patch_machine(projectId: str, machineId: str, body: Machine, request: Request, caller: Caller = Depends(writer)):
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    machine = sim.machine(project, machineId)
    change = _set_tags(machine, _launch_settings(sim, project, machine, body))
    if change:
        sim.record(caller.user, "MACHINE_UPDATED", "Launch settings of %s updated." % machine.name, project=project, changed=change, machines=[machine.id])
    return views.machine(sim, project, machine)


@router.patch("/projects/{projectId}/machines", response_model=Items[Machine], tags=["machines"])
async def patch_machines(projectId: str, body: MachinesPatch, request: Request, caller: Caller = Depends(writer)):
    """All or nothing: every item is checked before any machine changes."""
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    if any(item.id is None for item in body.items):
        raise invalid("items: every machine needs its id.", status=422)
    machines = [sim.machine(project, item.id) for item in body.items]
    tags = [_launch_settings(sim, project, machine, item) for machine, item in zip(machines, body.items)]
    changed = []
    for machine, wanted in zip(machines, tags):
        if _set_tags(machine, wanted):
            changed.append(machine.id)
    if changed:
        sim.record(caller.user, "MACHINES_UPDATED", "Launch settings of %d machines updated." % len(changed), project=project, machines=changed)
    return {"items": [views.machine(sim, project, m) for m in machines]}


def _uninstall(sim, caller, project, machines):
    """Stated rule 3: replication, agent, disks and points in time go; launched machines stay."""
    busy_machines(project, [m.id for m in machines])
    sim.record(caller.user, "AGENT_UNINSTALLED", "Agent uninstalled from %s." % ", ".join(m.name for m in machines), project=project,
               machines=[m.id for m in machines])
    for machine in machines:
        del project.machines[machine.id]


@router.delete("/projects/{projectId}/machines/{machineId}", status_code=204, tags=["machines"])
async def uninstall_machine(projectId: str, machineId: str, request: Request, caller: Caller = Depends(writer)):
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    _uninstall(sim, caller, project, [sim.machine(project, machineId)])
    return Response(status_code=204)


@router.delete("/projects/{projectId}/machines", status_code=204, tags=["machines"])
async def uninstall_machines(projectId: str, body: MachineIDs, request: Request, caller: Caller = Depends(writer)):
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    machines = [sim.machine(project, mid) for mid in dict.fromkeys(body.machineIDs)]
    if machines:
        _uninstall(sim, caller, project, machines)
    return Response(status_code=204)


@router.get("/projects/{projectId}/machines/{machineId}/bandwidthThrottling", response_model=BandwidthThrottling, tags=["machines"])
async def get_throttling(projectId: str, machineId: str, request: Request, caller: Caller = Depends(authenticated)):
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    return {"bandwidthThrottling": sim.machine(project, machineId).throttle}


@router.patch("/projects/{projectId}/machines/{machineId}/bandwidthThrottling", response_model=BandwidthThrottling, tags=["machines"])
async def patch_throttling(projectId: str, machineId: str, body: BandwidthThrottlingRequest, request: Request, caller: Caller = Depends(writer)):
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    machine = sim.machine(project, machineId)  # brought up to now at the old rate
    if body.bandwidthThrottling != machine.throttle:
        change = changed_fields({"bandwidthThrottling": machine.throttle}, {"bandwidthThrottling": body.bandwidthThrottling})
        machine.throttle = body.bandwidthThrottling
        sim.record(caller.user, "BANDWIDTH_THROTTLING_UPDATED", "Bandwidth of %s set to %d Mbps." % (machine.name, machine.throttle),
                   project=project, changed=change, machines=[machine.id])
    return {"bandwidthThrottling": machine.throttle}


@router.get("/projects/{projectId}/machines/{machineId}/pointsintime", response_model=Items[PointInTime], tags=["machines"])
async def list_points_in_time(projectId: str, machineId: str, request: Request, page: Page = Depends(paging),
                              caller: Caller = Depends(authenticated)):
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    machine = sim.machine(project, machineId)
    points = machine.replication.points_in_time(sim.now(), machine.id)
    return page.of([{"id": pid, "dateTime": iso(taken)} for pid, taken in points])


@router.get("/projects/{projectId}/replicas/{replicaId}", response_model=Replica, tags=["machines"])
async def get_replica(projectId: str, replicaId: str, request: Request, caller: Caller = Depends(authenticated)):
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    replica = sim.replicas.get(replicaId)
    if replica is None or replica.project_id != project.id:
        raise not_found("Replica %s" % replicaId)
    return views.replica(sim, replica)


# -- start, stop, pause -----------------------------------------------------------------------

ELIGIBLE = {
    "STARTED": ("STARTED", "PAUSED", "STOPPED"),
    "STOPPED": ("STARTED", "PAUSED", "STOPPED"),
    "PAUSED": ("STARTED", "PAUSED"),
}
EVENTS = {"STARTED": "REPLICATION_STARTED", "STOPPED": "REPLICATION_STOPPED", "PAUSED": "REPLICATION_PAUSED"}


def _set_replication(request, project_id, body, caller, status):
    """Machines not in the project, or whose status does not allow the change, come back as invalid."""
    sim = _sim(request)
    project = sim.project(caller.user, project_id)
    if status == "STOPPED":
        busy_machines(project, body.machineIDs)
    sim.sync_project(project)
    now = sim.now()
    acted, invalid_ids = [], []
    for machine_id in dict.fromkeys(body.machineIDs):
        machine = project.machines.get(machine_id)
        if machine is None or machine.replication.status not in ELIGIBLE[status]:
            invalid_ids.append(machine_id)
            continue
        acted.append(machine)
    changed = [m for m in acted if m.replication.status != status]
    for machine in changed:
        machine.replication.set_status(status, now)
    if changed:
        sim.record(caller.user, EVENTS[status], "Replication %s for %s." % (status.lower(), ", ".join(m.name for m in changed)),
                   project=project, machines=[m.id for m in changed])
    return {"items": [views.machine(sim, project, m) for m in acted], "invalidMachineIDs": invalid_ids}


@router.post("/projects/{projectId}/startReplication", response_model=MachinesListInvalidIDsAndJob, tags=["replication"])
async def start_replication(projectId: str, body: MachineIDs, request: Request, caller: Caller = Depends(writer)):
    return _set_replication(request, projectId, body, caller, "STARTED")


@router.post("/projects/{projectId}/stopReplication", response_model=MachinesListInvalidIDsAndJob, tags=["replication"])
async def stop_replication(projectId: str, body: MachineIDs, request: Request, caller: Caller = Depends(writer)):
    return _set_replication(request, projectId, body, caller, "STOPPED")


@router.post("/projects/{projectId}/pauseReplication", response_model=MachinesListInvalidIDsAndJob, tags=["replication"])
async def pause_replication(projectId: str, body: MachineIDs, request: Request, caller: Caller = Depends(writer)):
    return _set_replication(request, projectId, body, caller, "PAUSED")
