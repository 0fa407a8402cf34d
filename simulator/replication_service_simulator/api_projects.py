"""Projects, their replication configurations, tags, storage, users and audit log."""

from typing import Optional

from fastapi import Depends, Query, Request, Response

from . import catalog, views
from .audit import changed_fields
from .auth import Caller, admin, authenticated, writer
from .clock import iso, micros, parse_micros
from .errors import conflict, invalid, not_found, unprocessable
from .blueprints import ensure_blueprints
from .models import (AuditLog, Items, Project, ProjectCreate, ProjectStorage, ProjectUsersRequest,
                     ReplicationConfiguration, ReplicationConfigurationCreate, ReplicationConfigurationPatch)
from .patching import settable
from .routing import MAX_LIMIT, Page, ServiceRouter, paging
from .state import Project as ProjectRecord

router = ServiceRouter()
CONFIG_DEFAULTS = {
    "replicatorSecurityGroupIDs": [],
    "useDedicatedServer": False,
    "usePrivateIp": False,
    "volumeEncryptionAllowed": False,
    "replicationTags": [],
    "bandwidthThrottling": 0,
    "archivingEnabled": False,
}
CONFIG_MEMBERS = tuple(ReplicationConfigurationPatch.model_fields)
LICENSE_TYPES = {"DR": ("DR", "DR_TRIAL"), "MIGRATION": ("MIGRATION",), "BACKUP": ("BACKUP",)}
SNAPSHOT_SHARE = 0.02  # a point in time costs about this share of the machine's disks


def _sim(request):
    return request.app.state.sim


# -- projects ---------------------------------------------------------------------------------


def _check_project_members(sim, user, project, values):
    """400 for members that name things the account or project does not have."""
    account_id = user.account_id
    for cid in values.get("cloudCredentialsIDs") or []:
        if cid not in sim.credentials or sim.credentials[cid].account_id != account_id:
            raise invalid("cloudCredentialsIDs: %s is not cloud credentials of this account." % cid)
    source_creds = values.get("sourceCloudCredentialsId")
    if source_creds and (source_creds not in sim.credentials or sim.credentials[source_creds].account_id != account_id):
        raise invalid("sourceCloudCredentialsId: %s is not cloud credentials of this account." % source_creds)
    for lid in values.get("licensesIDs") or []:
        if lid not in sim.licenses or sim.licenses[lid].account_id != account_id:
            raise invalid("licensesIDs: %s is not a license of this account." % lid)
    if values.get("sourceRegion") and values["sourceRegion"] not in catalog.REGION_IDS:
        raise invalid("sourceRegion: %s is not a region." % values["sourceRegion"])
    if values.get("sourceCloudId") and values["sourceCloudId"] not in catalog.CLOUD_NAMES:
        raise invalid("sourceCloudId: %s is not a cloud." % values["sourceCloudId"])
    config_id = values.get("replicationConfiguration")
    if config_id and (project is None or config_id not in project.configs):
        raise invalid("replicationConfiguration: %s is not a replication configuration of this project." % config_id)
    name = values.get("name")
    if name and any(p.name == name and p is not project and p.account_id == account_id for p in sim.projects.values()):
        raise conflict("A project named %s exists." % name)


@router.get("/projects", response_model=Items[Project], tags=["projects"])
async def list_projects(request: Request, page: Page = Depends(paging), caller: Caller = Depends(authenticated)):
    sim = _sim(request)
    return page.of([views.project(sim, p) for p in sim.visible_projects(caller.user)])


@router.post("/projects", response_model=Project, status_code=201, tags=["projects"])
async def create_project(body: ProjectCreate, request: Request, caller: Caller = Depends(writer)):
    sim = _sim(request)
    user = caller.user
    account = sim.accounts[user.account_id]
    values = body.model_dump(exclude_none=True)
    if sum(1 for p in sim.projects.values() if p.account_id == account.id) >= account.max_projects:
        raise invalid("The account has reached its maximum of %d projects." % account.max_projects)
    _check_project_members(sim, user, None, values)
    target = body.targetCloudId
    if target is None:
        creds = [sim.credentials[cid] for cid in body.cloudCredentialsIDs or []]
        target = creds[0].cloud_id if creds else catalog.cloud_id("AWS")
    if "TARGET" not in catalog.CLOUD_ROLES.get(catalog.CLOUD_NAMES.get(target, ""), []):
        raise invalid("targetCloudId: %s is not a target cloud." % target)
    licenses = body.licensesIDs
    if licenses is None:
        licenses = [lic.id for lic in sim.account_licenses(account.id) if lic.type in LICENSE_TYPES[body.type]][:1]
    project = ProjectRecord(
        id=sim.new_id(), account_id=account.id, name=body.name, type=body.type, target_cloud_id=target,
        agent_token=sim.new_token(), source_cloud_id=body.sourceCloudId, source_region=body.sourceRegion,
        credentials_ids=list(body.cloudCredentialsIDs or []), source_credentials_id=body.sourceCloudCredentialsId,
        license_ids=list(licenses), user_ids=[] if user.sees_all_projects else [user.id], features=dict(body.features or {}),
    )
    sim.projects[project.id] = project
    sim.record(user, "PROJECT_CREATED", "Project %s created." % project.name, project=project)
    return views.project(sim, project)


@router.get("/projects/{projectId}", response_model=Project, tags=["projects"])
async def get_project(projectId: str, request: Request, caller: Caller = Depends(authenticated)):
    sim = _sim(request)
    return views.project(sim, sim.project(caller.user, projectId))


PROJECT_FIELDS = {
    "name": "name", "sourceCloudId": "source_cloud_id", "sourceRegion": "source_region",
    "replicationConfiguration": "config_id", "cloudCredentialsIDs": "credentials_ids",
    "sourceCloudCredentialsId": "source_credentials_id", "licensesIDs": "license_ids", "features": "features",
}


@router.patch("/projects/{projectId}", response_model=Project, tags=["projects"])
async def patch_project(projectId: str, body: Project, request: Request, caller: Caller = Depends(writer)):
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    values = settable(body.model_dump(exclude_none=True), views.project(sim, project), PROJECT_FIELDS)
    _check_project_members(sim, caller.user, project, values)
    sim.sync_project(project)  # the default configuration sets the machines' bandwidth
    before = views.project(sim, project)
    for member, value in values.items():
        setattr(project, PROJECT_FIELDS[member], value)
    ensure_blueprints(sim, project)  # every machine has a blueprint for the region it replicates into
    after = views.project(sim, project)
    changes = changed_fields(before, {key: after.get(key) for key in values})
    if changes:
        sim.record(caller.user, "PROJECT_UPDATED", "Project %s updated." % project.name, project=project, changed=changes)
    return after


@router.delete("/projects/{projectId}", status_code=204, tags=["projects"])
async def delete_project(projectId: str, request: Request, caller: Caller = Depends(writer)):
    """Stated rule 4: everything of the project goes, except machines launched in the target cloud."""
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    job = project.running_job()
    if job is not None:
        raise conflict("Job %s (%s) is running in this project; wait for it to end." % (job.id, job.type))
    del sim.projects[project.id]
    for user in sim.users.values():
        if project.id in user.notify_project_ids:
            user.notify_project_ids.remove(project.id)
    sim.record(caller.user, "PROJECT_DELETED", "Project %s deleted with %d machines." % (project.name, len(project.machines)), project=project)
    return Response(status_code=204)


@router.get("/projects/{projectId}/tags", response_model=Items[str], tags=["projects"])
async def list_tags(projectId: str, request: Request, page: Page = Depends(paging), caller: Caller = Depends(authenticated)):
    project = _sim(request).project(caller.user, projectId)
    return page.of(sorted({tag for machine in project.machines.values() for tag in machine.tags}))


@router.get("/projects/{projectId}/storage", response_model=ProjectStorage, tags=["projects"])
async def project_storage(projectId: str, request: Request, caller: Caller = Depends(authenticated)):
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    now = sim.now()
    disks = snapshots = running = 0
    for machine in project.machines.values():
        sim.sync(project, machine)
        rep = machine.replication
        if rep.has_disks():
            disks += rep.total
        snapshots += int(len(rep.points_in_time(now, machine.id)) * rep.total * SNAPSHOT_SHARE)
    for replica in sim.replicas.values():
        if replica.project_id == project.id and replica.state == "running":
            machine = project.machines.get(replica.machine_id)
            running += machine.replication.total if machine else 0
    return {
        "projectId": project.id,
        "pointsInTimeTotalBytes": snapshots,
        "runningMachinesTotalBytes": running,
        "calculationDateTime": iso(now),
        "workingStorage": {"disksTotalBytes": disks, "snapshotsTotalBytes": snapshots},
    }


def _change_project_users(request, body, caller, assign):
    sim = _sim(request)
    pairs = []
    for item in body.items:
        project = sim.project(caller.user, item.projectId)
        users = [sim.account_user(caller.user, uid) for uid in item.userIDs]
        pairs.append((project, users))
    for project, users in pairs:
        before = list(project.user_ids)
        for user in users:
            if assign and user.id not in project.user_ids:
                project.user_ids.append(user.id)
            elif not assign and user.id in project.user_ids:
                project.user_ids.remove(user.id)
        sim.record(caller.user, "PROJECT_USERS_ASSIGNED" if assign else "PROJECT_USERS_REMOVED", "Users of project %s changed." % project.name,
                   project=project, changed=changed_fields({"usersIDs": before}, {"usersIDs": project.user_ids}))
    return {"items": [views.project(sim, project) for project, unused_users in pairs]}


@router.post("/projects/assignUsers", response_model=Items[Project], tags=["projects"])
async def assign_users(body: ProjectUsersRequest, request: Request, caller: Caller = Depends(admin)):
    return _change_project_users(request, body, caller, assign=True)


@router.post("/projects/removeUsers", response_model=Items[Project], tags=["projects"])
async def remove_users(body: ProjectUsersRequest, request: Request, caller: Caller = Depends(admin)):
    return _change_project_users(request, body, caller, assign=False)


# -- replication configurations ---------------------------------------------------------------


def _validate_config(sim, user, project, config):
    """400 for anything the configuration's region and credentials do not offer; 409 for a second one in a region."""
    creds = sim.credentials.get(config["cloudCredentials"])
    if creds is None or creds.account_id != user.account_id:
        raise invalid("cloudCredentials: %s is not cloud credentials of this account." % config["cloudCredentials"])
    region = sim.region_of(creds, config["region"])
    if region is None:
        raise invalid("region: %s is not a region of cloud credentials %s." % (config["region"], creds.name))
    if any(other["region"] == config["region"] and other["id"] != config.get("id") for other in project.configs.values()):
        raise conflict("The project has a replication configuration for region %s already." % region["name"])
    subnets = {subnet["subnetId"] for subnet in region["subnets"]}
    if config.get("subnetId") and config["subnetId"] not in subnets:
        raise invalid("subnetId: %s is not a subnet of region %s." % (config["subnetId"], region["name"]))
    groups = {group["securityGroupId"] for group in region["securityGroups"]}
    for group in config.get("replicatorSecurityGroupIDs") or []:
        if group not in groups:
            raise invalid("replicatorSecurityGroupIDs: %s is not a security group of region %s." % (group, region["name"]))
    checks = (("replicationServerType", "instanceTypes", "an instance type"), ("volumeEncryptionKey", "volumeEncryptionKeys", "an encryption key"),
              ("zone", "zones", "a zone"))
    for member, offered, what in checks:
        if config.get(member) and region[offered] and config[member] not in region[offered]:
            raise invalid("%s: %s is not %s of region %s." % (member, config[member], what, region["name"]))
    return creds


@router.get("/projects/{projectId}/replicationConfigurations", response_model=Items[ReplicationConfiguration], tags=["replication configurations"])
async def list_configs(projectId: str, request: Request, page: Page = Depends(paging), caller: Caller = Depends(authenticated)):
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    return page.of([views.config(sim, c) for c in project.configs.values()])


@router.post("/projects/{projectId}/replicationConfigurations", response_model=ReplicationConfiguration, status_code=201,
             tags=["replication configurations"])
async def create_config(projectId: str, body: ReplicationConfigurationCreate, request: Request, caller: Caller = Depends(writer)):
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    config = dict(CONFIG_DEFAULTS)
    config.update(body.model_dump(exclude_none=True))
    _validate_config(sim, caller.user, project, config)
    config = {"id": sim.new_id(), **config}
    project.configs[config["id"]] = config
    sim.record(caller.user, "REPLICATION_CONFIGURATION_CREATED", "Replication configuration for region %s created." % config["region"], project=project)
    return views.config(sim, config)


@router.patch("/projects/{projectId}/replicationConfigurations/{configId}", response_model=ReplicationConfiguration,
              tags=["replication configurations"])
async def patch_config(projectId: str, configId: str, body: ReplicationConfiguration, request: Request, caller: Caller = Depends(writer)):
    """Stated rules 1 and 2: a new encryption key, or credentials of another cloud account, restart initial sync."""
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    config = project.configs.get(configId)
    if config is None:
        raise not_found("Replication configuration %s" % configId)
    changes = settable(body.model_dump(exclude_none=True), views.config(sim, config), CONFIG_MEMBERS)
    merged = dict(config, **changes)
    new_creds = _validate_config(sim, caller.user, project, merged)
    old_creds = sim.credentials.get(config["cloudCredentials"])
    resync = merged.get("volumeEncryptionKey") != config.get("volumeEncryptionKey") or (
        old_creds is None or old_creds.account_identifier != new_creds.account_identifier)
    sim.sync_project(project)
    before = dict(config)
    config.update(changes)
    restarted = []
    if resync and project.config_id == config["id"]:
        for machine in project.machines.values():
            machine.replication.restart(sim.now())
            restarted.append(machine.id)
    recorded = changed_fields(before, changes)
    if recorded:
        description = "Replication configuration %s updated." % config["id"]
        if restarted:
            description += " Replication restarted from initial sync for %d machines." % len(restarted)
        sim.record(caller.user, "REPLICATION_CONFIGURATION_UPDATED", description, project=project, changed=recorded, machines=restarted)
    return views.config(sim, config)


# -- the audit log ----------------------------------------------------------------------------


@router.get("/projects/{projectId}/auditLog", response_model=AuditLog, tags=["audit log"])
async def audit_log(projectId: str, request: Request, caller: Caller = Depends(authenticated),
                    limit: int = Query(MAX_LIMIT, description="Entries at most, 1 to 1500."),
                    fromDateTime: Optional[str] = Query(None), toDateTime: Optional[str] = Query(None)):
    """Entries of the project, oldest first, within the window if one is given."""
    sim = _sim(request)
    project = sim.project(caller.user, projectId)
    if (fromDateTime is None) != (toDateTime is None):
        raise unprocessable("fromDateTime and toDateTime go together: give both or neither.")
    if not 1 <= limit <= MAX_LIMIT:
        raise unprocessable("limit must be between 1 and %d, not %d." % (MAX_LIMIT, limit))
    entries = [entry for entry in sim.audit if entry["projectId"] == project.id]
    if fromDateTime is not None:
        try:
            start, end = parse_micros(fromDateTime), parse_micros(toDateTime)
        except ValueError:
            raise unprocessable("fromDateTime and toDateTime must be RFC 3339 date-times.")
        entries = [entry for entry in entries if start <= micros(entry["time"]) <= end]
    return {"items": [views.audit_entry(entry) for entry in entries[:limit]], "hasMoreResults": len(entries) > limit}
