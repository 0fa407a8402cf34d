"""The simulator's state: accounts, users, projects, machines and the target cloud, in memory.

Route handlers are ``async`` functions with no awaits while they touch this state, so each
request sees and leaves it consistent without locks.
"""

import base64
import collections
import random
import secrets
import time
import uuid
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from . import catalog
from .clock import VirtualClock, iso, micros
from .errors import not_found
from .replication import MBPS, Replication

DEFAULT_BANDWIDTH_MBPS = 100
SESSION_LIFETIME = 3600.0
LOCKOUT_FAILURES = 5
LOCKOUT_WINDOW = 15 * 60.0


@dataclass
class Account:
    id: str
    name: str
    owner_id: Optional[str] = None
    default_license_type: str = "DR"
    max_projects: int = 100


@dataclass
class User:
    id: str
    account_id: str
    username: str
    roles: List[str]
    status: str = "CONFIRMED"
    password: Optional[str] = None
    api_token: str = ""
    terms_accepted: bool = True
    notify_project_ids: List[str] = field(default_factory=list)

    @property
    def read_only(self):
        return "GLOBAL_READONLY" in self.roles

    @property
    def admin(self):
        return bool({"ACCOUNT_ADMIN", "ACCOUNT_OWNER"} & set(self.roles))

    @property
    def sees_all_projects(self):
        return self.admin or self.read_only


@dataclass
class License:
    id: str
    account_id: str
    type: str
    count: int
    expiration: float
    duration: Optional[str] = None
    features: Dict[str, bool] = field(default_factory=dict)


@dataclass
class Credentials:
    id: str
    account_id: str
    name: str
    cloud_id: str
    public_key: str
    private_key: str
    account_identifier: str
    region_names: Dict[str, str] = field(default_factory=dict)  # renamed (generic) regions
    deleted_regions: List[str] = field(default_factory=list)

    @property
    def cloud_name(self):
        return catalog.CLOUD_NAMES[self.cloud_id]


@dataclass
class Machine:
    id: str
    project_id: str
    source: dict
    replication: Replication
    installed_at: float
    license_id: Optional[str] = None
    tags: List[str] = field(default_factory=list)
    throttle: int = 0
    replica_id: Optional[str] = None
    restore_servers: List[str] = field(default_factory=list)
    life_cycle: Dict[str, float] = field(default_factory=dict)
    agent_connected: bool = True
    # While the project replicates reversed: the recovered target machine this machine replicates from.
    reverse_source: Optional[str] = None
    # Data damaged (ransomware, corruption) from this moment on: points taken since carry the damage.
    damaged_from: Optional[float] = None

    @property
    def name(self):
        return self.source["name"]


@dataclass
class Project:
    id: str
    account_id: str
    name: str
    type: str
    target_cloud_id: str
    agent_token: str
    source_cloud_id: Optional[str] = None
    source_region: Optional[str] = None
    config_id: Optional[str] = None
    credentials_ids: List[str] = field(default_factory=list)
    source_credentials_id: Optional[str] = None
    license_ids: List[str] = field(default_factory=list)
    user_ids: List[str] = field(default_factory=list)
    replication_reversed: bool = False
    reverse_allowed: bool = False  # a recovery or cutover launch happened since the last reverse
    features: Dict[str, bool] = field(default_factory=dict)
    configs: Dict[str, dict] = field(default_factory=dict)
    machines: Dict[str, Machine] = field(default_factory=dict)
    jobs: List = field(default_factory=list)  # newest last
    plans: Dict[str, dict] = field(default_factory=dict)
    blueprints: Dict[str, dict] = field(default_factory=dict)

    def running_job(self):
        return next((job for job in self.jobs if job.running), None)


@dataclass
class Replica:
    """A machine launched in the target cloud. It may outlive its project and its source."""

    id: str
    project_id: str
    project_name: str
    machine_id: str
    machine_name: str
    launch_type: str
    cloud_id: str
    public_ips: List[str]
    region_id: Optional[str]
    point_in_time: Optional[str]
    created: float
    point_taken: Optional[float] = None
    state: str = "running"
    instance_type: Optional[str] = None
    subnet_id: Optional[str] = None
    private_ip: Optional[str] = None


@dataclass
class Session:
    id: str
    user_id: str
    xsrf: str
    last_used: float


@dataclass
class Fault:
    method: str
    route: str
    status: Optional[int] = None
    rate: Optional[float] = None
    count: Optional[int] = None
    latency_ms: int = 0
    retry_after: Optional[int] = None
    retry_after_as_date: bool = False
    drop_after_write: bool = False
    # Faults of jobs rather than of requests.
    fail_machines: List[str] = field(default_factory=list)
    fail_rate: Optional[float] = None
    fail_job: bool = False
    slow: Optional[float] = None
    job_types: List[str] = field(default_factory=list)

    @property
    def for_jobs(self):
        return bool(self.fail_machines or self.fail_rate is not None or self.fail_job or self.slow)

    def matches(self, method, route):
        return not self.for_jobs and self.method in ("*", method) and self.route in ("*", route)

    def matches_job(self, job_type):
        return self.for_jobs and (not self.job_types or job_type in self.job_types)


class Stats:
    def __init__(self):
        self.clear()

    def clear(self):
        self.total = 0
        self.writes = 0
        self.per_route = collections.Counter()
        self.first = {}  # (method, route): when it was first asked, on the host's clock (time.time())
        self.refusals = collections.Counter()  # answers of 400 and above, by status

    # Requests that change nothing although they are not GETs.
    NOT_WRITES = ("/login", "/logout", "/projects/{projectId}/findFiles")

    def record(self, method, route):
        self.total += 1
        if method not in ("GET", "HEAD") and route not in self.NOT_WRITES:
            self.writes += 1
        self.per_route[(method, route)] += 1
        self.first.setdefault((method, route), time.time())

    def refused(self, status):
        """Count an answer that is an error (a refusal, a fault): what a client had to wait out or give up on."""
        if status >= 400:
            self.refusals[status] += 1

    def to_wire(self):
        requests = [{"method": m, "route": r, "count": n, "first": self.first[(m, r)]}
                    for (m, r), n in sorted(self.per_route.items(), key=lambda kv: (kv[0][1], kv[0][0]))]
        return {"total": self.total, "writes": self.writes, "requests": requests,
                "refused": dict((str(status), count) for status, count in sorted(self.refusals.items()))}


@dataclass
class Limits:
    """The service's limits (PATCH /_simulator/settings). None by default - the published interface states none - and
    none again after a reset; the failed sign-ins before a lockout are the service's own (LOCKOUT_FAILURES)."""
    requests_per_second: Optional[float] = None  # per session, of the host's clock
    servers_per_job: Optional[int] = None
    concurrent_jobs: Optional[int] = None  # per account
    servers_in_active_jobs: Optional[int] = None  # per account
    failed_logins_before_lockout: int = LOCKOUT_FAILURES


class Simulator:
    """Everything the simulated service knows, and the settings of the simulator itself."""

    def __init__(self, seed="empty", time_scale=1.0, clock=None, check_answers=False):
        self.seed_name = seed
        self.check_answers = check_answers  # check every answer against its model (routing.py)
        self.clock = clock or VirtualClock(scale=time_scale)
        self.stats = Stats()
        self.faults = []
        self.session_lifetime = SESSION_LIFETIME
        self.step_seconds = 60.0
        self.keep_every_point = 3600.0
        self.reset()

    # -- basics ----------------------------------------------------------------------------

    def reset(self):
        self.rng = random.Random(self.seed_name)
        self.accounts: Dict[str, Account] = {}
        self.users: Dict[str, User] = {}
        self.licenses: Dict[str, License] = {}
        self.credentials: Dict[str, Credentials] = {}
        self.projects: Dict[str, Project] = {}
        self.replicas: Dict[str, Replica] = {}
        self.sessions: Dict[str, Session] = {}
        self.failed_logins: Dict[str, List[float]] = {}
        self.locked_until: Dict[str, float] = {}
        self.audit: List[dict] = []
        self.outbox: List[dict] = []
        self.ip_counter = 0
        self.faults = []
        # What was deleted in the cloud accounts behind the service's back, by region ID: subnets and
        # security groups (by ID or name) and instance types it no longer offers (control.py, /drift).
        self.drift: Dict[str, Dict[str, set]] = {}
        # Serve the members the simulator knows beyond the published interface (catalog.published)? A setting that a
        # reset turns off again, so that no test leaves it on for the next.
        self.unpublished_members = False
        self.limits = Limits()
        self.requests_of_session: Dict[str, collections.deque] = {}  # the host's times of each session's recent requests
        self.stats.clear()

    def now(self):
        return self.clock.now()

    def new_id(self):
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def new_token(self, nbytes=24):
        return base64.b64encode(secrets.token_bytes(nbytes)).decode()

    # -- look-ups, always within what the caller may see -------------------------------------

    def visible_projects(self, user):
        return [p for p in self.projects.values() if p.account_id == user.account_id and (user.sees_all_projects or user.id in p.user_ids)]

    def project(self, user, project_id):
        project = self.projects.get(project_id)
        if project is None or project.account_id != user.account_id or not (user.sees_all_projects or user.id in project.user_ids):
            raise not_found("Project %s" % project_id)
        self.sync_jobs(project)
        return project

    def machine(self, project, machine_id):
        machine = project.machines.get(machine_id)
        if machine is None:
            raise not_found("Machine %s" % machine_id)
        self.sync(project, machine)
        return machine

    def account_user(self, user, user_id):
        other = self.users.get(user_id)
        if other is None or other.account_id != user.account_id or other.status == "DELETED":
            raise not_found("User %s" % user_id)
        return other

    def account_credentials(self, user, credentials_id):
        creds = self.credentials.get(credentials_id)
        if creds is None or creds.account_id != user.account_id:
            raise not_found("Cloud credentials %s" % credentials_id)
        return creds

    def account_licenses(self, account_id):
        return [lic for lic in self.licenses.values() if lic.account_id == account_id]

    def regions_of(self, creds):
        names = catalog.REGION_NAMES[creds.cloud_name]
        views = []
        for name in names:
            view = catalog.region(creds.cloud_name, name, creds.account_identifier)
            if view["id"] in creds.deleted_regions:
                continue
            view["name"] = creds.region_names.get(view["id"], view["name"])
            views.append(self._drifted(view))
        return views

    def served_region(self, view):
        """A region as it is answered: the published members only, unless the setting unpublishedMembers is on."""
        return view if self.unpublished_members else catalog.published(view)

    def _drifted(self, view):
        """The region without what was deleted from it in the cloud."""
        gone = self.drift.get(view["id"])
        if gone:
            view["subnets"] = [s for s in view["subnets"] if not {s["subnetId"], s["name"]} & gone["subnets"]]
            view["securityGroups"] = [g for g in view["securityGroups"] if not {g["securityGroupId"], g["name"]} & gone["securityGroups"]]
            view["instanceTypes"] = [t for t in view["instanceTypes"] if t not in gone["instanceTypes"]]
        return view

    def project_region(self, project, region_id):
        """The region as the project's credentials see it: those of its configuration there, else its own; None if none can."""
        credentials = [c["cloudCredentials"] for c in project.configs.values() if c["region"] == region_id] + list(project.credentials_ids)
        for credentials_id in credentials:
            creds = self.credentials.get(credentials_id)
            view = self.region_of(creds, region_id) if creds else None
            if view is not None:
                return view
        return None

    def region_of(self, creds, region_id):
        for view in self.regions_of(creds):
            if view["id"] == region_id:
                return view
        return None

    # -- replication ------------------------------------------------------------------------

    def default_config(self, project):
        return project.configs.get(project.config_id) if project.config_id else None

    def bandwidth(self, project, machine):
        """Bytes per second: the machine's throttle, else the configuration's, else the link."""
        config = self.default_config(project) or {}
        mbps = machine.throttle or config.get("bandwidthThrottling") or DEFAULT_BANDWIDTH_MBPS
        return mbps * MBPS

    def sync(self, project, machine):
        # Reversed, a machine replicates from its recovered target machine: not while that one is gone.
        machine.replication.connected = machine.agent_connected and (not project.replication_reversed or self.source_up(machine))
        machine.replication.advance(self.now(), self.bandwidth(project, machine), project.config_id is not None)

    def source_up(self, machine):
        source = self.replicas.get(machine.reverse_source) if machine.reverse_source else None
        return source is not None and source.state == "running"

    def site_of(self, project):
        """The region a launch lands in: the configuration's; reversed, the original site's."""
        if project.replication_reversed:
            return project.source_region
        return (self.default_config(project) or {}).get("region")

    def sync_jobs(self, project):
        """Fire every job event that is due: launched machines appear, terminated ones go."""
        now = self.now()
        for job in project.jobs:
            if job.running:
                job.advance(now)

    def sync_project(self, project):
        """Bring every machine up to now; call before a change that alters their rates."""
        for machine in project.machines.values():
            self.sync(project, machine)

    # -- the audit log ------------------------------------------------------------------------

    def record(self, user, event, description, project=None, changed=None, machines=None, job_id=None):
        entry = {
            "projectId": project.id if project else None,
            "accountId": user.account_id if user else None,
            "username": user.username if user else None,
            "eventName": event,
            "description": description,
            "time": self.now(),
            "jobId": job_id,
            "changedFields": changed or None,
            "participatingMachines": [self._participant(project, machine_id) for machine_id in machines] if machines else None,
        }
        self.audit.append(entry)
        return entry

    @staticmethod
    def _participant(project, machine_id):
        """A machine as the audit log names it, as it was when the entry was written."""
        machine = project.machines.get(machine_id) if project else None
        if machine is None:
            return {"machineCloudEndureId": machine_id}
        return {"machineCloudEndureId": machine.id, "machineCloudId": machine.source.get("machineCloudId"), "machineCloudName": machine.name}

    # -- the target cloud ---------------------------------------------------------------------

    def cloud_inventory(self):
        for project in self.projects.values():
            self.sync_jobs(project)
        machines = [
            {
                "id": r.cloud_id,
                "replicaId": r.id,
                "projectId": r.project_id,
                "projectName": r.project_name,
                "sourceMachineId": r.machine_id,
                "sourceMachineName": r.machine_name,
                "launchType": r.launch_type,
                "state": r.state,
                "publicIps": r.public_ips,
                "privateIp": r.private_ip,
                "instanceType": r.instance_type,
                "subnetId": r.subnet_id,
                "regionId": r.region_id,
                "launchDateTime": iso(r.created),
                **self._launched_from(r),
            }
            for r in self.replicas.values()
            if r.state != "terminated"
        ]
        artifacts = []
        for project in self.projects.values():
            for machine in project.machines.values():
                self.sync(project, machine)
                artifacts.extend(self._artifacts(project, machine))
        return {"items": machines, "replicationArtifacts": artifacts}

    def _launched_from(self, replica):
        """The point in time a target machine was launched from, and whether its data is damaged: its source
        machine was damaged at or before that point was taken."""
        if replica.point_taken is None:
            return {}
        project = self.projects.get(replica.project_id)
        machine = project.machines.get(replica.machine_id) if project else None
        damaged_from = machine.damaged_from if machine is not None else None
        return {"pointInTimeId": replica.point_in_time, "pointInTimeDateTime": iso(replica.point_taken),
                "damaged": damaged_from is not None and micros(replica.point_taken) >= micros(damaged_from)}

    @staticmethod
    def _artifacts(project, machine):
        """What replication keeps in the target cloud for one machine: server, disks, snapshots."""
        rep = machine.replication
        names = []
        if rep.has_server():
            names.append(("replicationServer", "replicator-" + machine.name))
        if rep.has_disks():
            names.extend(("replicationDisk", "%s-%s" % (machine.name, disk["name"]))
                         for disk in machine.source.get("disks", []) if disk.get("isProtected", True))
        if rep.intervals:
            names.append(("snapshots", machine.name + "-snapshots"))
        return [{"kind": kind, "projectId": project.id, "machineId": machine.id, "name": name} for kind, name in names]


def launch_replica(sim, project, machine, launch_type, point_in_time=None, shape=None, when=None, point_taken=None):
    """Start a target machine for ``machine`` at ``when`` (now); a previous one is terminated first.

    ``shape`` (instance type, subnet, IPs) comes from the machine's blueprint, if it has one. Only
    a target machine in the same region is replaced: reversed, the recovered machine stays.
    """
    now = sim.now() if when is None else when
    old = replaced_by_launch(sim, project, machine)
    if old is not None and launch_type != "RESTORE":
        old.state = "terminated"
    shape = shape or {}
    sim.ip_counter += 1
    config = sim.default_config(project) or {}
    public_ips = ["203.0.113.%d" % (1 + (sim.ip_counter - 1) % 254)] if shape.get("publicIp", True) else []
    replica = Replica(
        id=sim.new_id(), project_id=project.id, project_name=project.name, machine_id=machine.id,
        machine_name=machine.name, launch_type=launch_type, cloud_id="i-%017x" % sim.rng.getrandbits(68),
        public_ips=public_ips, region_id=sim.site_of(project), point_in_time=point_in_time, created=now, point_taken=point_taken,
        instance_type=shape.get("instanceType"), subnet_id=shape.get("subnetId") or config.get("subnetId"),
        private_ip=shape.get("privateIp") or "10.0.%d.%d" % (sim.ip_counter // 250 % 250, 10 + sim.ip_counter % 240),
    )
    sim.replicas[replica.id] = replica
    if launch_type == "RESTORE":
        machine.restore_servers.append(replica.id)
        return replica
    machine.replica_id = replica.id
    machine.life_cycle[LIFE_CYCLE_MEMBER[launch_type]] = now
    if launch_type in ("RECOVERY", "CUTOVER"):
        project.reverse_allowed = True
    return replica


def replaced_by_launch(sim, project, machine):
    """The live target machine a launch of ``machine`` replaces: its previous one, in the region it lands in."""
    old = sim.replicas.get(machine.replica_id) if machine.replica_id else None
    if old is None or old.state == "terminated" or old.region_id != sim.site_of(project):
        return None
    return old


def terminate_replica(sim, replica):
    """Terminate a target machine; its source machine no longer points at it."""
    replica.state = "terminated"
    project = sim.projects.get(replica.project_id)
    machine = project.machines.get(replica.machine_id) if project else None
    if machine is not None:
        if machine.replica_id == replica.id:
            machine.replica_id = None
        if replica.id in machine.restore_servers:
            machine.restore_servers.remove(replica.id)


LIFE_CYCLE_MEMBER = {
    "TEST": "lastTestLaunchDateTime",
    "DEBUG": "lastTestLaunchDateTime",
    "RECOVERY": "lastRecoveryLaunchDateTime",
    "CUTOVER": "lastCutoverDateTime",
}
