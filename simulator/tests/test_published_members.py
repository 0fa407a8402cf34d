"""Under its default settings the simulator serves only members the published interface lists (docs/wire.md),
so that a client written from the published models never meets one it does not know. The members it knows
beyond them (a subnet's address range, a region's disk types) come only under the setting unpublishedMembers."""

from .conftest import follow

# The published models, member by member (docs/wire.md, "Models"). None: an object whose members are not listed.
SUBNET = {"subnetId", "networkId", "name", "outpostArn"}
SECURITY_GROUP = {"securityGroupId", "networkId", "name"}
REGION = {"cloud", "computeLocations", "dedicatedHosts", "iamRoles", "id", "instanceTypes", "logicalLocations", "maxCoresPerMachineCpu",
          "maxCpusPerMachine", "maxMbRamPerMachine", "name", "networkAdapterTypes", "networkInterfaces", "outposts", "placementGroups",
          "scsiAdapterTypes", "securityGroups", "staticIps", "storageLocations", "subnets", "volumeEncryptionKeys", "zones"}
BLUEPRINT = {"id", "machineId", "region", "machineName", "instanceType", "subnetIDs", "securityGroupIDs", "privateIPs", "privateIPAction",
             "publicIPAction", "staticIp", "staticIpAction", "iamRole", "tenancy", "placementGroup", "runAfterLaunch", "tags", "disks",
             "recommendedInstanceType", "recommendedPrivateIP"}
KEY_VALUE = {"key", "value"}
BLUEPRINT_DISK = {"name", "type", "iops"}
MACHINE = {"id", "sourceProperties", "replicationInfo", "lifeCycle", "replicationStatus", "replica", "isAgentInstalled", "tags",
           "restoreServers", "license", "replicationConfiguration", "fromPointInTime"}
SOURCE_PROPERTIES = {"name", "machineCloudId", "machineCloudState", "os", "memory", "publicIps", "cpu", "disks", "installedApplications",
                     "runningServices"}
REPLICATION_INFO = {"lastConsistencyDateTime", "nextConsistencyEstimatedDateTime", "lastSeenDateTime", "lastScanStartDateTime",
                    "totalStorageBytes", "replicatedStorageBytes", "backloggedStorageBytes", "rescannedStorageBytes", "initiationStates"}
LIFE_CYCLE = {"agentInstallationDateTime", "connectionEstablishedDateTime", "lastTestLaunchDateTime", "lastRecoveryLaunchDateTime",
              "lastCutoverDateTime"}
REPLICA = {"id", "machine", "name", "machineCloudId", "machineCloudState", "publicIps", "regionId", "pointInTime", "cloudEndureCreationDateTime"}


def undeclared(value, members, where):
    """Each member of ``value`` that ``members`` does not list, as ``where.member``."""
    return ["%s.%s" % (where, key) for key in sorted(set(value) - members)]


def region_undeclared(region):
    where = "region %s" % region.get("name")
    found = undeclared(region, REGION, where)
    found += [name for subnet in region.get("subnets", []) for name in undeclared(subnet, SUBNET, where + " subnet")]
    found += [name for group in region.get("securityGroups", []) for name in undeclared(group, SECURITY_GROUP, where + " security group")]
    return found


def blueprint_undeclared(blueprint):
    where = "blueprint of %s" % blueprint.get("machineName")
    found = undeclared(blueprint, BLUEPRINT, where)
    found += [name for tag in blueprint.get("tags", []) for name in undeclared(tag, KEY_VALUE, where + " tag")]
    found += [name for disk in blueprint.get("disks", []) for name in undeclared(disk, BLUEPRINT_DISK, where + " disk")]
    return found


def machine_undeclared(machine):
    where = "machine %s" % machine["sourceProperties"].get("name")
    found = undeclared(machine, MACHINE, where)
    found += undeclared(machine["sourceProperties"], SOURCE_PROPERTIES, where + ".sourceProperties")
    found += undeclared(machine.get("replicationInfo", {}), REPLICATION_INFO, where + ".replicationInfo")
    found += undeclared(machine.get("lifeCycle", {}), LIFE_CYCLE, where + ".lifeCycle")
    return found


def everything_served(api, client, world):
    """Every region of every cloud credentials, and every blueprint, machine and replica of the DR project, once a
    machine is launched (so that replicas and life cycles are there too)."""
    project = world["project"]["id"]
    job = api.ok("POST", "/projects/%s/launchMachines" % project, status=202,
                 json={"launchType": "TEST", "items": [{"machineId": world["project"]["machines"]["m1"]}]})
    follow(api, client, project, job)
    regions = [region for credentials in api.ok("GET", "/cloudCredentials")["items"]
               for region in api.ok("GET", "/cloudCredentials/%s/regions" % credentials["id"])["items"]]
    regions.append(api.ok("GET", "/extendedAccountInfo")["genericRegion"])
    blueprints = api.ok("GET", "/projects/%s/blueprints" % project)["items"]
    machines = api.ok("GET", "/projects/%s/machines" % project, params={"all": "true"})["items"]
    replicas = [api.ok("GET", "/projects/%s/replicas/%s" % (project, machine["replica"])) for machine in machines if machine.get("replica")]
    return regions, blueprints, machines, replicas


def test_every_region_blueprint_machine_and_replica_has_only_published_members(api, client, replicating):
    regions, blueprints, machines, replicas = everything_served(api, client, replicating)
    assert len(regions) > 10 and blueprints and len(machines) == 3 and replicas
    found = [name for region in regions for name in region_undeclared(region)]
    found += [name for blueprint in blueprints for name in blueprint_undeclared(blueprint)]
    found += [name for machine in machines for name in machine_undeclared(machine)]
    found += [name for replica in replicas for name in undeclared(replica, REPLICA, "replica")]
    assert found == []


def test_the_unpublished_members_only_under_their_setting_which_a_reset_turns_off(api, client, replicating):
    credentials = api.ok("GET", "/cloudCredentials")["items"][0]["id"]
    path = "/cloudCredentials/%s/regions" % credentials

    def east():
        return next(region for region in api.ok("GET", path)["items"] if region["name"] == "us-east-1")

    assert client.get("/_simulator/settings").json()["unpublishedMembers"] is False
    assert "diskTypes" not in east() and not any("cidrBlock" in subnet for subnet in east()["subnets"])
    assert client.patch("/_simulator/settings", json={"unpublishedMembers": True}).json()["unpublishedMembers"] is True
    region = east()
    assert "gp3" in region["diskTypes"] and all(subnet["cidrBlock"] for subnet in region["subnets"])
    assert region_undeclared(region) != [] and api.ok("GET", "%s/%s" % (path, region["id"]))["diskTypes"] == region["diskTypes"]
    client.post("/_simulator/reset")
    assert client.get("/_simulator/settings").json()["unpublishedMembers"] is False
