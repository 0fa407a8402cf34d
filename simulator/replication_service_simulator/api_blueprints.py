"""Blueprints: how a machine is launched in one region. One per machine and region; the one for the
region a project replicates into exists from the start (blueprints.py)."""

import ipaddress

from fastapi import Depends, Request

from . import views
from .audit import changed_fields
from .auth import Caller, authenticated, writer
from .blueprints import computed, new_blueprint
from .errors import conflict, invalid, not_found
from .models import Blueprint, BlueprintCreate, BlueprintPatch, Items
from .patching import settable
from .routing import Page, ServiceRouter, paging

router = ServiceRouter()
READ_ONLY = ("id", "machineId", "region", "machineName", "recommendedInstanceType", "recommendedPrivateIP")
SETTABLE = tuple(member for member in BlueprintPatch.model_fields if member not in READ_ONLY)


def _sim(request):
    return request.app.state.sim


def _region_view(sim, project, region_id):
    """The region as the project's credentials see it: those of its configuration there, else its own."""
    view = sim.project_region(project, region_id)
    if view is not None:
        return view
    raise invalid("region: %s is not a region the project's cloud credentials can use." % region_id)


def _validate(sim, project, blueprint):
    region = _region_view(sim, project, blueprint["region"])
    if blueprint.get("instanceType") and blueprint["instanceType"] not in region["instanceTypes"]:
        raise invalid("instanceType: %s is not an instance type of region %s." % (blueprint["instanceType"], region["name"]))
    subnets = {s["subnetId"] for s in region["subnets"]}
    for subnet in blueprint.get("subnetIDs", []):
        if subnet not in subnets:
            raise invalid("subnetIDs: %s is not a subnet of region %s." % (subnet, region["name"]))
    groups = {g["securityGroupId"] for g in region["securityGroups"]}
    for group in blueprint.get("securityGroupIDs", []):
        if group not in groups:
            raise invalid("securityGroupIDs: %s is not a security group of region %s." % (group, region["name"]))
    if blueprint.get("iamRole") and blueprint["iamRole"] not in region["iamRoles"]:
        raise invalid("iamRole: %s is not an IAM role of region %s." % (blueprint["iamRole"], region["name"]))
    for address in blueprint.get("privateIPs", []) + ([blueprint["staticIp"]] if blueprint.get("staticIp") else []):
        try:
            ipaddress.IPv4Address(address)
        except ValueError:
            raise invalid("%s is not an IPv4 address." % address)


def _blueprint(project, blueprint_id):
    found = project.blueprints.get(blueprint_id)
    if found is None:
        raise not_found("Blueprint %s" % blueprint_id)
    return found


@router.get("/projects/{projectId}/blueprints", response_model=Items[Blueprint], tags=["blueprints"])
async def list_blueprints(projectId: str, request: Request, page: Page = Depends(paging), caller: Caller = Depends(authenticated)):
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    return page.of([views.blueprint(sim, b) for b in project.blueprints.values()])


@router.post("/projects/{projectId}/blueprints", response_model=Blueprint, status_code=201, tags=["blueprints"])
async def create_blueprint(projectId: str, body: BlueprintCreate, request: Request, caller: Caller = Depends(writer)):
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    machine = project.machines.get(body.machineId)
    if machine is None:
        raise invalid("machineId: %s is not a machine of this project." % body.machineId)
    if any(b["machineId"] == machine.id and b["region"] == body.region for b in project.blueprints.values()):
        raise conflict("Machine %s has a blueprint for that region already." % machine.name)
    values = body.model_dump(exclude_none=True)
    values.pop("id", None)
    values = settable(values, dict(computed(machine), machineId=machine.id, region=body.region), SETTABLE + ("machineId", "region"))
    blueprint = new_blueprint(sim, machine, body.region, values)
    _validate(sim, project, blueprint)
    project.blueprints[blueprint["id"]] = blueprint
    sim.record(caller.user, "BLUEPRINT_CREATED", "Blueprint of %s created." % machine.name, project=project, machines=[machine.id])
    return views.blueprint(sim, blueprint)


@router.get("/projects/{projectId}/blueprints/{blueprintId}", response_model=Blueprint, tags=["blueprints"])
async def get_blueprint(projectId: str, blueprintId: str, request: Request, caller: Caller = Depends(authenticated)):
    sim = _sim(request)
    return views.blueprint(sim, _blueprint(sim.project(caller.user, projectId), blueprintId))


@router.patch("/projects/{projectId}/blueprints/{blueprintId}", response_model=Blueprint, tags=["blueprints"])
async def patch_blueprint(projectId: str, blueprintId: str, body: BlueprintPatch, request: Request, caller: Caller = Depends(writer)):
    """The whole blueprint or a part; read-only members equal to the stored values are ignored."""
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    stored = _blueprint(project, blueprintId)
    values = settable(body.model_dump(exclude_none=True), views.blueprint(sim, stored), SETTABLE)
    merged = dict(stored, **values)
    _validate(sim, project, merged)
    changes = changed_fields(stored, values)
    stored.update(values)
    if changes:
        sim.record(caller.user, "BLUEPRINT_UPDATED", "Blueprint of %s updated." % stored["machineName"], project=project, changed=changes,
                   machines=[stored["machineId"]])
    return views.blueprint(sim, stored)
