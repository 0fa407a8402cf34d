"""The control interface under ``/_simulator/``: not part of the service.

Tests and benchmarks use it to reset and seed the state, move the clock, inject faults,
read request statistics and look into the target cloud.
"""

from typing import List, Literal, Optional

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field, model_validator

from .clock import iso, parse_micros
from .errors import not_found, unprocessable
from .seed import seed
from .state import Fault

router = APIRouter(prefix="/_simulator", tags=["simulator control"])


class Control(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ClockChange(Control):
    advanceSeconds: float = Field(0, ge=0)
    timeScale: Optional[float] = Field(None, ge=0)


class FaultRule(Control):
    method: str = "*"
    route: str = "*"
    status: Optional[int] = Field(None, ge=400, le=599)
    rate: Optional[float] = Field(None, ge=0, le=1)
    count: Optional[int] = Field(None, ge=1)
    latencyMs: int = Field(0, ge=0, le=60000)
    retryAfter: Optional[int] = Field(None, ge=0)
    retryAfterDate: bool = False
    dropAfterWrite: bool = False
    # Faults of jobs: machines that fail (by name, or a rate), a whole job that fails, slow jobs.
    failMachines: List[str] = []
    failRate: Optional[float] = Field(None, ge=0, le=1)
    failJob: bool = False
    slowFactor: Optional[float] = Field(None, ge=1)
    jobTypes: List[str] = []

    @model_validator(mode="after")
    def one_effect(self):
        request_fault = bool(self.status or self.latencyMs or self.dropAfterWrite)
        job_fault = bool(self.failMachines or self.failRate is not None or self.failJob or self.slowFactor)
        if request_fault == job_fault:
            raise ValueError("a fault needs one effect: status, latencyMs or dropAfterWrite on requests, "
                             "or failMachines, failRate, failJob or slowFactor on jobs")
        if self.status and self.dropAfterWrite:
            raise ValueError("status and dropAfterWrite exclude each other")
        if self.rate is not None and self.count is not None:
            raise ValueError("give rate or count, not both")
        return self


class FaultRules(Control):
    rules: List[FaultRule]


class Settings(Control):
    sessionLifetimeSeconds: Optional[float] = Field(None, gt=0)
    initiationStepSeconds: Optional[float] = Field(None, gt=0)
    keepEveryPointSeconds: Optional[float] = Field(None, ge=0, le=30 * 86400)
    unpublishedMembers: Optional[bool] = None
    # The service's limits: none by default (the published interface states none), and none again after a reset. 0 turns
    # one off again.
    requestsPerSecond: Optional[float] = Field(None, ge=0)
    serversPerJob: Optional[int] = Field(None, ge=0)
    concurrentJobs: Optional[int] = Field(None, ge=0)
    serversInActiveJobs: Optional[int] = Field(None, ge=0)
    failedLoginsBeforeLockout: Optional[int] = Field(None, ge=1)


class DriftRemoval(Control):
    subnets: List[str] = []
    securityGroups: List[str] = []
    instanceTypes: List[str] = []


class Drift(Control):
    regionId: str
    remove: DriftRemoval


class Damage(Control):
    machines: List[str] = Field(min_length=1)
    from_: Optional[str] = Field(None, alias="from")
    project: Optional[str] = None


class MachineControl(Control):
    agentConnected: Optional[bool] = None
    writeRateMbps: Optional[float] = Field(None, ge=0)


def _sim(request):
    return request.app.state.sim


@router.post("/reset")
async def reset(request: Request):
    sim = _sim(request)
    sim.reset()
    return {"now": iso(sim.now())}


@router.post("/seed")
async def seed_state(request: Request, description: dict):
    try:
        return seed(_sim(request), description)
    except (KeyError, StopIteration, TypeError, ValueError) as error:
        raise unprocessable("The seed description does not fit: %s %s." % (type(error).__name__, error))


@router.get("/clock")
async def get_clock(request: Request):
    sim = _sim(request)
    return {"now": iso(sim.now()), "timeScale": sim.clock.scale}


@router.post("/clock")
async def change_clock(change: ClockChange, request: Request):
    sim = _sim(request)
    if change.timeScale is not None:
        sim.clock.set_scale(change.timeScale)
    sim.clock.advance(change.advanceSeconds)
    return {"now": iso(sim.now()), "timeScale": sim.clock.scale}


@router.get("/stats")
async def get_stats(request: Request):
    return _sim(request).stats.to_wire()


@router.delete("/stats", status_code=204)
async def clear_stats(request: Request):
    _sim(request).stats.clear()
    return Response(status_code=204)


def _fault_wire(fault):
    if fault.for_jobs:
        return {"failMachines": fault.fail_machines, "failRate": fault.fail_rate, "failJob": fault.fail_job, "slowFactor": fault.slow,
                "jobTypes": fault.job_types, "count": fault.count}
    return {"method": fault.method, "route": fault.route, "status": fault.status, "rate": fault.rate, "count": fault.count,
            "latencyMs": fault.latency_ms, "retryAfter": fault.retry_after, "retryAfterDate": fault.retry_after_as_date,
            "dropAfterWrite": fault.drop_after_write}


@router.get("/faults")
async def list_faults(request: Request):
    return {"rules": [_fault_wire(f) for f in _sim(request).faults]}


@router.post("/faults")
async def add_faults(body: FaultRules, request: Request):
    """Add rules. Routes are path templates after the base URL, e.g. ``/projects/{projectId}/machines``."""
    sim = _sim(request)
    for rule in body.rules:
        sim.faults.append(Fault(method=rule.method.upper(), route=rule.route, status=rule.status, rate=rule.rate, count=rule.count,
                                latency_ms=rule.latencyMs, retry_after=rule.retryAfter, retry_after_as_date=rule.retryAfterDate,
                                drop_after_write=rule.dropAfterWrite,
                                fail_machines=rule.failMachines, fail_rate=rule.failRate, fail_job=rule.failJob, slow=rule.slowFactor,
                                job_types=rule.jobTypes))
    return {"rules": [_fault_wire(f) for f in sim.faults]}


@router.delete("/faults", status_code=204)
async def clear_faults(request: Request):
    _sim(request).faults.clear()
    return Response(status_code=204)


@router.get("/settings")
async def get_settings(request: Request):
    sim = _sim(request)
    limits = sim.limits
    return {"sessionLifetimeSeconds": sim.session_lifetime, "initiationStepSeconds": sim.step_seconds,
            "keepEveryPointSeconds": sim.keep_every_point, "unpublishedMembers": sim.unpublished_members,
            "requestsPerSecond": limits.requests_per_second, "serversPerJob": limits.servers_per_job, "concurrentJobs": limits.concurrent_jobs,
            "serversInActiveJobs": limits.servers_in_active_jobs, "failedLoginsBeforeLockout": limits.failed_logins_before_lockout}


@router.patch("/settings")
async def change_settings(body: Settings, request: Request):
    """The session idle lifetime (virtual seconds) and, for machines seeded from now on, the initiation step length and
    how long every point in time is kept before thinning; and whether regions carry the members the simulator knows beyond the
    published interface (a subnet's cidrBlock, a region's diskTypes), off by default and after every reset; and the
    service's limits (state.Limits), none by default and after every reset."""
    sim = _sim(request)
    if body.sessionLifetimeSeconds is not None:
        sim.session_lifetime = body.sessionLifetimeSeconds
    if body.initiationStepSeconds is not None:
        sim.step_seconds = body.initiationStepSeconds
    if body.keepEveryPointSeconds is not None:
        sim.keep_every_point = body.keepEveryPointSeconds
    if body.unpublishedMembers is not None:
        sim.unpublished_members = body.unpublishedMembers
    for member, name in (("requestsPerSecond", "requests_per_second"), ("serversPerJob", "servers_per_job"),
                         ("concurrentJobs", "concurrent_jobs"), ("serversInActiveJobs", "servers_in_active_jobs")):
        if member in body.model_fields_set:
            setattr(sim.limits, name, getattr(body, member) or None)
    if body.failedLoginsBeforeLockout is not None:
        sim.limits.failed_logins_before_lockout = body.failedLoginsBeforeLockout
    return await get_settings(request)


@router.patch("/machines/{machineId}")
async def control_machine(machineId: str, body: MachineControl, request: Request):
    """Disconnect a machine's agent (it goes stale) or change how fast its source writes (lag)."""
    sim = _sim(request)
    for project in sim.projects.values():
        machine = project.machines.get(machineId)
        if machine is not None:
            sim.sync(project, machine)
            if body.agentConnected is not None:
                machine.agent_connected = body.agentConnected
                sim.sync(project, machine)
            if body.writeRateMbps is not None:
                machine.replication.write_rate = body.writeRateMbps * 1000 * 1000 / 8
            return {"id": machine.id, "agentConnected": machine.agent_connected,
                    "writeRateMbps": machine.replication.write_rate * 8 / 1000 / 1000}
    raise not_found("Machine %s" % machineId)


@router.post("/damage")
async def damage(body: Damage, request: Request):
    """Damage the data of machines (names or IDs; of one project, by name or ID, if given) from a moment on, as
    ransomware does: every point in time taken at or after it carries the damage, which target machines launched
    from it show (``damaged`` in the cloud listing) and the file search finds (a ransom note, ``.locked`` files).
    ``from`` null heals them."""
    sim = _sim(request)
    try:
        moment = None if body.from_ is None else parse_micros(body.from_) / 1e6
    except ValueError:
        raise unprocessable("from: %r is not an RFC 3339 date-time." % body.from_)
    projects = [p for p in sim.projects.values() if body.project in (None, p.id, p.name)]
    damaged = []
    for value in body.machines:
        found = [(p, m) for p in projects for m in p.machines.values() if value in (m.id, m.name)]
        if not found:
            raise not_found("Machine %s" % value)
        for project, machine in found:
            machine.damaged_from = moment
            damaged.append({"id": machine.id, "name": machine.name, "projectId": project.id, "from": body.from_ and iso(moment)})
    return {"items": damaged}


@router.post("/drift")
async def drift(body: Drift, request: Request):
    """Delete subnets, security groups (by ID or name) or instance types from a region in every cloud
    account, as someone does in a real account: blueprints that name them go stale."""
    sim = _sim(request)
    gone = sim.drift.setdefault(body.regionId, {"subnets": set(), "securityGroups": set(), "instanceTypes": set()})
    for member in gone:
        gone[member].update(getattr(body.remove, member))
    return {"regionId": body.regionId, "removed": dict((member, sorted(values)) for member, values in gone.items())}


@router.get("/cloud")
async def cloud(request: Request):
    """Every machine that exists in the target cloud, and the replication artifacts kept there."""
    return _sim(request).cloud_inventory()


@router.get("/audit")
async def audit(request: Request, projectId: Optional[str] = None):
    entries = [e for e in _sim(request).audit if projectId is None or e["projectId"] == projectId]
    return {"items": [dict(e, time=iso(e["time"])) for e in entries]}


@router.get("/outbox")
async def outbox(request: Request, kind: Optional[Literal["invitation", "access"]] = None):
    """The e-mails the service sent: invitations carry the token that /setPassword takes; access mails a temporary token."""
    return {"items": [m for m in _sim(request).outbox if kind is None or m["kind"] == kind]}
