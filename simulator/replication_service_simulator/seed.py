"""Seeding: the ``demo`` preset and full descriptions of accounts, users, projects and machines.

A description (``POST /_simulator/seed``)::

    {"accounts": [{
        "name": "acme", "maxProjectsAllowed": 100,
        "licenses": [{"type": "DR", "count": 100, "expiresInDays": 365}],
        "users": [{"username": "owner@acme.test", "password": "pw", "roles": ["ACCOUNT_OWNER"]}],
        "cloudCredentials": [{"name": "aws", "cloud": "AWS", "publicKey": "AKIA...", "accountIdentifier": "111122223333"}],
        "projects": [{
            "name": "dr", "type": "DR", "cloudCredentials": ["aws"], "users": ["someone@acme.test"],
            "replicationConfiguration": {"cloudCredentials": "aws", "region": "us-east-1", "subnet": "private-a"},
            "machines": [{"name": "web-1", "os": "Ubuntu 22.04", "memory": 4294967296,
                          "cpu": [{"cores": 2, "modelName": "Intel Xeon"}],
                          "disks": [{"name": "/dev/sda", "size": 2000000000}],
                          "agentInstalledSecondsAgo": 0, "writeRateMbps": 0.5,
                          "replicationStatus": "STARTED", "tags": [], "launched": "TEST",
                          "damagedSecondsAgo": 3600}]}]}]}

The answer maps every name to the ID it got, so tests can address what they seeded.
``damagedSecondsAgo`` damages the machine's data from that long ago on (``POST /_simulator/damage``).
The ``ransomware`` preset is the README's "Recovering from ransomware": the demo account, replicating
for three days, whose db-1 and app-1 were hit 20 and 7 hours ago. The ``estate`` preset is docs/estate.md's: an
application's tiers in DR projects, a backup project, an empty project for agents, and a partner's account.
"""

import base64

from . import catalog
from .blueprints import ensure_blueprints
from .errors import invalid
from .replication import MBPS, Replication
from .state import Account, Credentials, License, Machine, Project, User, launch_replica

DAY = 86400
GIB = 1024 ** 3


def _machine(name, os_name, cores, memory_gib, disks_gb, ago, apps=(), services=()):
    return {
        "name": name, "os": os_name, "memory": memory_gib * GIB, "cpu": [{"cores": cores, "modelName": "Intel(R) Xeon(R) Platinum 8259CL"}],
        "disks": [{"name": "/dev/sd" + chr(ord("a") + i), "size": int(size * 1e9)} for i, size in enumerate(disks_gb)],
        "installedApplications": list(apps), "runningServices": list(services), "agentInstalledSecondsAgo": ago,
    }


# The demo machines' agents went in about ten minutes ago: their initiation is nearly done and
# their small disks finish initial sync within a few simulated minutes of the start.
# The demo users' password. Ansible hides every occurrence of a no_log value in its output, so it
# must not be part of any name the demo prints (it was once "demo", and hid the demo project's name).
DEMO_PASSWORD = "demo-secret-1"

DEMO = {"accounts": [{
    "name": "demo",
    "licenses": [{"type": "DR", "count": 50, "expiresInDays": 365}],
    "users": [
        {"username": "demo@example.com", "password": DEMO_PASSWORD, "roles": ["ACCOUNT_OWNER"]},
        {"username": "readonly@example.com", "password": DEMO_PASSWORD, "roles": ["GLOBAL_READONLY"]},
    ],
    "cloudCredentials": [{"name": "demo-aws", "cloud": "AWS", "publicKey": "AKIADEMO00000000EXAMPLE", "accountIdentifier": "111122223333"}],
    "projects": [{
        "name": "demo", "type": "DR", "cloudCredentials": ["demo-aws"],
        "replicationConfiguration": {"cloudCredentials": "demo-aws", "region": "us-east-1", "subnet": "private-a",
                                     "securityGroups": ["replication"], "replicationServerType": "t3.small"},
        "machines": [
            _machine("web-1", "Ubuntu 22.04.4 LTS", 2, 4, [1.0], 630, ["nginx"], ["nginx", "sshd"]),
            _machine("web-2", "Ubuntu 22.04.4 LTS", 2, 4, [1.0], 620, ["nginx"], ["nginx", "sshd"]),
            _machine("app-1", "Red Hat Enterprise Linux 9.3", 4, 8, [1.0, 0.5], 610, ["openjdk-17"], ["app", "sshd"]),
            _machine("db-1", "Microsoft Windows Server 2022", 4, 16, [1.5, 1.0], 600, ["Microsoft SQL Server 2022"], ["MSSQLSERVER"]),
            _machine("db-2", "Microsoft Windows Server 2022", 4, 16, [1.5, 1.0], 600, ["Microsoft SQL Server 2022"], ["MSSQLSERVER"]),
        ],
    }],
}]}


def _hit(machine, installed_ago, damaged_ago=None):
    """A demo machine replicating for ``installed_ago`` seconds, its data damaged ``damaged_ago`` seconds ago."""
    return dict(machine, agentInstalledSecondsAgo=installed_ago, **({"damagedSecondsAgo": damaged_ago} if damaged_ago else {}))


_DEMO_MACHINES = DEMO["accounts"][0]["projects"][0]["machines"]
RANSOMWARE = {"accounts": [dict(DEMO["accounts"][0], projects=[dict(DEMO["accounts"][0]["projects"][0], machines=[
    _hit(_DEMO_MACHINES[0], 3 * 86400), _hit(_DEMO_MACHINES[2], 3 * 86400, 7 * 3600), _hit(_DEMO_MACHINES[3], 3 * 86400, 20 * 3600),
])])]}

# An estate to try the runbooks on (docs/estate.md): two accounts; DR projects for an application's tiers, each replicating
# for a day (points of every hour kept, those of the last hour every ten minutes); a backup project; an empty project for
# the agent walkthrough's local hosts; and a partner's project in an account of its own.
ESTATE_PASSWORD = "estate-secret-1"


def _estate_project(name, kind, credentials, region, machines):
    return {"name": name, "type": kind, "cloudCredentials": [credentials],
            "replicationConfiguration": {"cloudCredentials": credentials, "region": region, "subnet": "private-a",
                                         "securityGroups": ["replication"], "replicationServerType": "t3.small"},
            "machines": list(machines)}


ESTATE = {"accounts": [
    {"name": "estate",
     "licenses": [{"type": "DR", "count": 50, "expiresInDays": 365}, {"type": "BACKUP", "count": 20, "expiresInDays": 365}],
     "users": [{"username": "ops@estate.example", "password": ESTATE_PASSWORD, "roles": ["ACCOUNT_OWNER"]}],
     "cloudCredentials": [{"name": "estate-aws", "cloud": "AWS", "publicKey": "AKIAESTATE0000EXAMPLE", "accountIdentifier": "222233334444"}],
     "projects": [
         _estate_project("identity", "DR", "estate-aws", "us-east-1", [_machine("idp-1", "Ubuntu 22.04.4 LTS", 2, 4, [1.0], DAY)]),
         _estate_project("orders-db", "DR", "estate-aws", "us-east-1", [
             _machine("db-1", "Microsoft Windows Server 2022", 4, 16, [1.5], DAY, ["Microsoft SQL Server 2022"]),
             _machine("db-2", "Microsoft Windows Server 2022", 4, 16, [1.5], DAY, ["Microsoft SQL Server 2022"])]),
         _estate_project("orders-app", "DR", "estate-aws", "us-east-1", [
             _machine("app-1", "Red Hat Enterprise Linux 9.3", 4, 8, [1.0], DAY, ["openjdk-17"]),
             _machine("app-2", "Red Hat Enterprise Linux 9.3", 4, 8, [1.0], DAY, ["openjdk-17"])]),
         _estate_project("storefront", "DR", "estate-aws", "us-east-1", [
             _machine("web-1", "Ubuntu 22.04.4 LTS", 2, 4, [1.0], DAY, ["nginx"]),
             _machine("web-2", "Ubuntu 22.04.4 LTS", 2, 4, [1.0], DAY, ["nginx"])]),
         _estate_project("file-backups", "BACKUP", "estate-aws", "us-west-2", [
             _machine("files-1", "Ubuntu 22.04.4 LTS", 2, 4, [1.0], DAY), _machine("files-2", "Ubuntu 22.04.4 LTS", 2, 4, [1.0], DAY)]),
         _estate_project("onboarding", "DR", "estate-aws", "eu-west-1", []),
     ]},
    {"name": "partner",
     "licenses": [{"type": "DR", "count": 10, "expiresInDays": 365}],
     "users": [{"username": "ops@partner.example", "password": ESTATE_PASSWORD, "roles": ["ACCOUNT_OWNER"]}],
     "cloudCredentials": [{"name": "partner-aws", "cloud": "AWS", "publicKey": "AKIAPARTNER000EXAMPLE", "accountIdentifier": "999988887777"}],
     "projects": [_estate_project("partner-payments", "DR", "partner-aws", "eu-central-1", [
         _machine("pay-1", "Ubuntu 22.04.4 LTS", 2, 4, [1.0], DAY)])]},
]}

PRESETS = {"demo": DEMO, "ransomware": RANSOMWARE, "estate": ESTATE, "empty": {"accounts": []}}


def seed(sim, description):
    if "preset" in description:
        if description["preset"] not in PRESETS:
            raise invalid("Unknown preset %r; known: %s." % (description["preset"], ", ".join(PRESETS)), status=422)
        description = PRESETS[description["preset"]]
    return {"accounts": [_seed_account(sim, spec) for spec in description.get("accounts", [])]}


def _seed_account(sim, spec):
    now = sim.now()
    account = Account(id=sim.new_id(), name=spec.get("name", "account"), max_projects=spec.get("maxProjectsAllowed", 100),
                      default_license_type=spec.get("defaultLicenseType", "DR"))
    sim.accounts[account.id] = account
    answer = {"id": account.id, "name": account.name, "users": {}, "apiTokens": {}, "licenses": [], "cloudCredentials": {}, "projects": {}}
    for lic_spec in spec.get("licenses", [{"type": "DR", "count": 100, "expiresInDays": 365}]):
        lic = License(id=sim.new_id(), account_id=account.id, type=lic_spec.get("type", "DR"), count=lic_spec.get("count", 100),
                      expiration=now + lic_spec.get("expiresInDays", 365) * DAY, duration=lic_spec.get("durationFromStartOfUse"))
        sim.licenses[lic.id] = lic
        answer["licenses"].append(lic.id)
    users = {}
    for user_spec in spec.get("users", []):
        user = User(id=sim.new_id(), account_id=account.id, username=user_spec["username"].lower(), roles=list(user_spec.get("roles", ["USER"])),
                    password=user_spec.get("password"), api_token=user_spec.get("apiToken") or sim.new_token())
        sim.users[user.id] = user
        users[user.username] = user
        answer["users"][user.username] = user.id
        answer["apiTokens"][user.username] = user.api_token
        if "ACCOUNT_OWNER" in user.roles and account.owner_id is None:
            account.owner_id = user.id
    creds_by_name = {}
    for creds_spec in spec.get("cloudCredentials", []):
        cloud = creds_spec.get("cloud", "AWS")
        creds = Credentials(
            id=sim.new_id(), account_id=account.id, name=creds_spec["name"], cloud_id=catalog.cloud_id(cloud),
            public_key=creds_spec.get("publicKey", "AKIA" + creds_spec["name"].upper()),
            private_key=creds_spec.get("privateKey") or base64.b64encode(b"secret-" + creds_spec["name"].encode()).decode(),
            account_identifier=creds_spec.get("accountIdentifier") or catalog.account_identifier_for(cloud, creds_spec.get("publicKey", "")),
        )
        sim.credentials[creds.id] = creds
        creds_by_name[creds.name] = creds
        answer["cloudCredentials"][creds.name] = creds.id
    for project_spec in spec.get("projects", []):
        answer["projects"][project_spec["name"]] = _seed_project(sim, account, project_spec, users, creds_by_name, answer["licenses"])
    return answer


def _seed_project(sim, account, spec, users, creds_by_name, license_ids):
    project_type = spec.get("type", "DR")
    creds = [creds_by_name[name] for name in spec.get("cloudCredentials", [])]
    licenses = [lid for lid in license_ids if sim.licenses[lid].type.startswith(project_type)] or license_ids[:1]
    project = Project(
        id=sim.new_id(), account_id=account.id, name=spec["name"], type=project_type,
        target_cloud_id=creds[0].cloud_id if creds else catalog.cloud_id("AWS"), agent_token=sim.new_token(),
        source_cloud_id=catalog.cloud_id("GENERIC"), source_region=catalog.GENERIC_REGION_ID,
        credentials_ids=[c.id for c in creds], license_ids=licenses[:1],
        user_ids=[users[name.lower()].id for name in spec.get("users", [])],
    )
    sim.projects[project.id] = project
    answer = {"id": project.id, "machines": {}, "replicas": {}}
    if spec.get("replicationConfiguration"):
        config = _seed_config(sim, spec["replicationConfiguration"], creds_by_name)
        project.configs[config["id"]] = config
        project.config_id = config["id"]
        answer["replicationConfiguration"] = config["id"]
    for machine_spec in spec.get("machines", []):
        machine = _seed_machine(sim, project, machine_spec)
        answer["machines"][machine.name] = machine.id
        if machine_spec.get("launched"):
            answer["replicas"][machine.name] = launch_replica(sim, project, machine, machine_spec["launched"]).id
    ensure_blueprints(sim, project)
    return answer


def _seed_config(sim, spec, creds_by_name):
    creds = creds_by_name[spec["cloudCredentials"]]
    region = next(r for r in sim.regions_of(creds) if r["name"] == spec.get("region", "us-east-1"))
    config = {
        "id": sim.new_id(), "region": region["id"], "cloudCredentials": creds.id, "replicatorSecurityGroupIDs": [],
        "useDedicatedServer": False, "usePrivateIp": False, "volumeEncryptionAllowed": False, "replicationTags": [],
        "bandwidthThrottling": spec.get("bandwidthThrottling", 0), "archivingEnabled": False,
    }
    if spec.get("subnet"):
        config["subnetId"] = next(s["subnetId"] for s in region["subnets"] if spec["subnet"] in (s["name"], s["subnetId"]))
    for group in spec.get("securityGroups", []):
        config["replicatorSecurityGroupIDs"].append(next(g["securityGroupId"] for g in region["securityGroups"] if group in (g["name"], g["securityGroupId"])))
    if spec.get("replicationServerType"):
        config["replicationServerType"] = spec["replicationServerType"]
    return config


def _seed_machine(sim, project, spec):
    now = sim.now()
    installed = now - spec.get("agentInstalledSecondsAgo", 0)
    disks = [{"name": d.get("name", "disk%d" % i), "isProtected": d.get("isProtected", True), "size": int(d.get("size", 8 * GIB))}
             for i, d in enumerate(spec.get("disks", [{"name": "/dev/sda", "size": 8 * GIB}]))]
    source = {
        "name": spec["name"],
        "machineCloudId": spec.get("machineCloudId", "vm-%012x" % sim.rng.getrandbits(48)),
        "machineCloudState": "running",
        "os": spec.get("os", "Ubuntu 22.04.4 LTS"),
        "memory": int(spec.get("memory", 4 * GIB)),
        "publicIps": list(spec.get("publicIps", [])),
        "cpu": list(spec.get("cpu", [{"cores": 2, "modelName": "Intel(R) Xeon(R)"}])),
        "disks": disks,
        "installedApplications": {"items": [{"applicationName": name} for name in spec.get("installedApplications", [])]},
        "runningServices": {"items": [{"serviceName": name} for name in spec.get("runningServices", [])]},
    }
    total = sum(d["size"] for d in disks if d["isProtected"])
    replication = Replication(installed, total, step_seconds=sim.step_seconds, keep_every_point=sim.keep_every_point,
                              write_rate=spec.get("writeRateMbps", 0.2) * MBPS)
    machine = Machine(id=sim.new_id(), project_id=project.id, source=source, replication=replication, installed_at=installed,
                      license_id=project.license_ids[0] if project.license_ids else None, tags=list(spec.get("tags", [])))
    project.machines[machine.id] = machine
    sim.sync(project, machine)
    status = spec.get("replicationStatus", "STARTED")
    if status != "STARTED":
        machine.replication.set_status(status, now)
    if spec.get("damagedSecondsAgo") is not None:
        machine.damaged_from = now - spec["damagedSecondsAgo"]
    return machine
