"""The wire form of the simulator's objects: docs/wire.md member names, no member without a value."""

from .clock import iso
from .replication import CONTINUOUS


def drop_none(mapping):
    return {key: value for key, value in mapping.items() if value is not None}


def user(sim, u, with_token=False):
    return drop_none({
        "id": u.id,
        "username": u.username,
        "account": u.account_id,
        "roles": list(u.roles),
        "status": u.status,
        "apiToken": u.api_token if with_token else None,
        "hasPassword": u.password is not None,
        "termsAccepted": u.terms_accepted,
        "selfLink": "/api/latest/users/" + u.id,
        "settings": {"sendNotifications": {"projectIDs": list(u.notify_project_ids)}},
    })


def account(sim, a):
    return drop_none({
        "id": a.id,
        "ownerId": a.owner_id,
        "defaultLicenseType": a.default_license_type,
        "maxProjectsAllowed": a.max_projects,
    })


def license_(sim, lic):
    used = sum(1 for p in sim.projects.values() for m in p.machines.values() if m.license_id == lic.id)
    return drop_none({
        "id": lic.id,
        "type": lic.type,
        "count": lic.count,
        "used": used,
        "expirationDateTime": iso(lic.expiration),
        "durationFromStartOfUse": lic.duration,
        "features": dict(lic.features) if lic.features else None,
    })


def credentials(sim, c):
    # The private key is write-only: it is never part of an answer.
    return {
        "id": c.id,
        "name": c.name,
        "cloud": c.cloud_id,
        "publicKey": c.public_key,
        "accountIdentifier": c.account_identifier,
    }


def project(sim, p):
    return drop_none({
        "id": p.id,
        "name": p.name,
        "type": p.type,
        "targetCloudId": p.target_cloud_id,
        "sourceCloudId": p.source_cloud_id,
        "sourceRegion": p.source_region,
        "replicationConfiguration": p.config_id,
        "cloudCredentialsIDs": list(p.credentials_ids),
        "sourceCloudCredentialsId": p.source_credentials_id,
        "licensesIDs": list(p.license_ids),
        "usersIDs": list(p.user_ids),
        "agentInstallationToken": p.agent_token,
        "replicationReversed": p.replication_reversed,
        "features": dict(p.features) if p.features else None,
    })


def config(sim, c):
    return drop_none({key: (list(value) if isinstance(value, list) else value) for key, value in c.items()})


def machine(sim, p, m):
    rep = m.replication
    ready = p.config_id is not None
    now = sim.now()
    next_consistency = rep.next_consistency(now, ready)
    info = drop_none({
        "lastConsistencyDateTime": iso(rep.last_consistency) if rep.last_consistency is not None else None,
        "nextConsistencyEstimatedDateTime": iso(next_consistency) if next_consistency is not None else None,
        "lastSeenDateTime": iso(rep.last_seen),
        "lastScanStartDateTime": iso(rep.scan_start) if rep.scan_start is not None else None,
        "totalStorageBytes": rep.total,
        "replicatedStorageBytes": rep.total if rep.phase == CONTINUOUS else int(rep.replicated),
        "backloggedStorageBytes": int(rep.backlog),
        "rescannedStorageBytes": 0,
        "initiationStates": {
            "items": [
                {"startDateTime": iso(state["startDateTime"]), "steps": state["steps"]}
                for state in rep.initiation_states(ready)
            ]
        },
    })
    life_cycle = {"agentInstallationDateTime": iso(m.installed_at)}
    if rep.established is not None:
        life_cycle["connectionEstablishedDateTime"] = iso(rep.established)
    for key, value in m.life_cycle.items():
        life_cycle[key] = iso(value)
    lic = sim.licenses.get(m.license_id) if m.license_id else None
    config = sim.default_config(p)
    return drop_none({
        "id": m.id,
        "sourceProperties": m.source,
        "replicationInfo": info,
        "lifeCycle": life_cycle,
        "replicationStatus": rep.status,
        "replica": m.replica_id,
        "isAgentInstalled": True,
        "tags": list(m.tags),
        "restoreServers": list(m.restore_servers),
        "license": {"licenseId": lic.id, "startOfUseDateTime": iso(m.installed_at)} if lic else None,
        "replicationConfiguration": machine_replication_configuration(config, m) if config else None,
    })


# The members of a replication configuration that are a machine's own replication settings.
MACHINE_REPLICATION_MEMBERS = (
    "subnetId", "replicatorSecurityGroupIDs", "replicationServerType", "useDedicatedServer", "usePrivateIp", "volumeEncryptionAllowed",
    "volumeEncryptionKey", "replicationTags", "bandwidthThrottling", "proxyUrl", "zone", "storageLocationId", "computeLocationId",
    "logicalLocationId", "subnetHostProject", "archivingEnabled", "objectStorageLocation",
)


def machine_replication_configuration(config, m):
    """The settings the machine replicates with: its project's default configuration, with its own bandwidth limit."""
    settings = drop_none({member: config.get(member) for member in MACHINE_REPLICATION_MEMBERS})
    if m.throttle:
        settings["bandwidthThrottling"] = m.throttle
    return settings


def replica(sim, r):
    return drop_none({
        "id": r.id,
        "machine": r.machine_id,
        "name": r.machine_name,
        "machineCloudId": r.cloud_id,
        "machineCloudState": r.state,
        "publicIps": list(r.public_ips),
        "regionId": r.region_id,
        "pointInTime": r.point_in_time,
        "cloudEndureCreationDateTime": iso(r.created),
    })


def audit_entry(entry):
    return drop_none({
        "username": entry["username"],
        "eventName": entry["eventName"],
        "description": entry["description"],
        "timestamp": iso(entry["time"]),
        "jobId": entry["jobId"],
        "changedFields": entry["changedFields"],
        "participatingMachines": entry["participatingMachines"],
    })


def job(sim, j):
    return drop_none({
        "id": j.id,
        "type": j.type,
        "status": j.status,
        "creationDateTime": iso(j.created),
        "endDateTime": iso(j.ended) if j.ended is not None else None,
        "initiatedBy": j.initiated_by,
        "participatingMachines": list(j.machine_ids),
        "log": [{"message": message, "logDateTime": iso(when)} for when, message in j.log],
    })


def plan(sim, p):
    return {"id": p["id"], "name": p["name"], "steps": {"items": [drop_none(dict(step)) for step in p["steps"]["items"]]}}


def blueprint(sim, b):
    return drop_none({key: (list(value) if isinstance(value, list) else value) for key, value in b.items()})
