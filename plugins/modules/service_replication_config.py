#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: service_replication_config
short_description: Manage replication configurations of a Replication and Recovery Service project
version_added: 1.0.0
description:
  - Creates or updates the replication configuration of a project for one target region, which says
    where the replication servers run, on which network, how data is encrypted, tagged and throttled.
  - A project has at most one configuration per region; O(project) and O(region) find it.
  - Only the options you set are compared and changed.
  - Two changes make the service restart replication of every machine that uses the
    configuration from the beginning (a full initial sync, with no new points in time until it
    ends) - a new O(volume_encryption_key), and O(cloud_credentials) of another cloud account.
    Such a change fails with an explanation unless O(allow_resync=true).
  - The service offers no way to delete a replication configuration, so neither does this module.
options:
  region:
    description: The target region, by name (for example V(us-east-1)) or ID.
    type: str
    required: true
  cloud_credentials:
    description:
      - Credentials of the target cloud, by name or ID. When the configuration is created without
        them, the project's first cloud credentials are used.
      - Regions are looked up among the regions these credentials see.
    type: str
  subnet:
    description: Subnet of the region for the replication servers, by ID or name.
    type: str
  security_groups:
    description: Security groups of the region for the replication servers, by ID or name. The order does not matter.
    type: list
    elements: str
  server_type:
    description: Instance type of the replication servers, one the region offers.
    type: str
  use_dedicated_server:
    description: Whether each machine gets a replication server of its own.
    type: bool
  use_private_ip:
    description: Whether agents reach the replication servers over a private network.
    type: bool
  volume_encryption:
    description: Whether the replication disks are encrypted.
    type: bool
  volume_encryption_key:
    description:
      - The key the replication disks are encrypted with, one the region offers.
      - A new key restarts initial sync of the machines that use the configuration; see O(allow_resync).
    type: str
  replication_tags:
    description: Tags put on the replication servers and disks, as a dictionary of key and value.
    type: dict
  bandwidth_throttling:
    description: Bandwidth limit of replication in Mbps; V(0) means no limit.
    type: int
  proxy_url:
    description: Proxy through which agents reach the service.
    type: str
  zone:
    description: Availability zone of the replication servers, one the region offers.
    type: str
  storage_location_id:
    description: Storage location, where the cloud has one.
    type: str
  compute_location_id:
    description: Compute location, where the cloud has one.
    type: str
  logical_location_id:
    description: Logical location, where the cloud has one.
    type: str
  subnet_host_project:
    description: The project that hosts a shared subnet, where the cloud has them.
    type: str
  archiving_enabled:
    description: Whether old points in time are archived.
    type: bool
  object_storage_location:
    description: Object storage for archived points in time.
    type: str
  default:
    description: Make this the configuration new machines of the project use.
    type: bool
    default: false
  allow_resync:
    description:
      - Allow a change that restarts initial sync of the machines using this configuration (see the
        description). Without it such a change fails and nothing is sent.
    type: bool
    default: false
extends_documentation_fragment:
  - replication.recovery.project
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.connection.STATE
seealso:
  - module: replication.recovery.service_replication_config_info
  - module: replication.recovery.service_project
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Replicate into us-east-1, on private subnets, encrypted, and make it the default
  replication.recovery.service_replication_config:
    project: production
    region: us-east-1
    cloud_credentials: aws-dr-account
    subnet: private-a
    security_groups: [replication]
    server_type: t3.small
    volume_encryption: true
    replication_tags:
      team: dr
      cost-centre: "4711"
    default: true

- name: Limit bandwidth during office hours
  replication.recovery.service_replication_config:
    project: production
    region: us-east-1
    bandwidth_throttling: 200

- name: Move to a new encryption key, knowing that replication starts over
  replication.recovery.service_replication_config:
    project: production
    region: us-east-1
    volume_encryption_key: "{{ new_kms_key_arn }}"
    allow_resync: true
"""

RETURN = r"""
replication_configuration:
  description: The configuration as the service describes it after the task; in check mode, as it would be.
  returned: always
  type: dict
  sample:
    id: 454ad2b0-5148-4a67-a4b2-d2b190c75c8b
    region: 8c94d736-9a3e-5ef5-88c4-c3f1daf9ae3c
    cloudCredentials: d17e8db2-194a-4e5c-bdb1-e4dca17da47e
    subnetId: subnet-0b09c00dbba0e596a
    replicatorSecurityGroupIDs: [sg-0c1d2e3f4a5b6c7d8]
    replicationServerType: t3.small
    replicationTags: [{key: team, value: dr}]
    bandwidthThrottling: 0
resync_triggered:
  description: Whether the change restarted (or, in check mode, would restart) initial sync of the project's machines.
  returned: always
  type: bool
default:
  description: Whether the configuration is the project's default after the task.
  returned: always
  type: bool
"""

from ansible_collections.replication.recovery.plugins.module_utils._base import PREDICTED, ServiceModule, looks_like_id
from ansible_collections.replication.recovery.plugins.module_utils._compare import key_values

OPTIONS = dict(
    project=dict(type="str", required=True),
    region=dict(type="str", required=True),
    cloud_credentials=dict(type="str"),
    subnet=dict(type="str", member="subnetId", lookup="subnet"),
    security_groups=dict(type="list", elements="str", member="replicatorSecurityGroupIDs", lookup="security_group", unordered=True),
    server_type=dict(type="str", member="replicationServerType"),
    use_dedicated_server=dict(type="bool", member="useDedicatedServer"),
    use_private_ip=dict(type="bool", member="usePrivateIp"),
    volume_encryption=dict(type="bool", member="volumeEncryptionAllowed"),
    volume_encryption_key=dict(type="str", no_log=False, member="volumeEncryptionKey"),
    replication_tags=dict(type="dict", member="replicationTags", convert=key_values, unordered=True),
    bandwidth_throttling=dict(type="int", member="bandwidthThrottling"),
    proxy_url=dict(type="str", member="proxyUrl"),
    zone=dict(type="str", member="zone"),
    storage_location_id=dict(type="str", member="storageLocationId"),
    compute_location_id=dict(type="str", member="computeLocationId"),
    logical_location_id=dict(type="str", member="logicalLocationId"),
    subnet_host_project=dict(type="str", member="subnetHostProject"),
    archiving_enabled=dict(type="bool", member="archivingEnabled"),
    object_storage_location=dict(type="str", member="objectStorageLocation"),
    default=dict(type="bool", default=False),
    allow_resync=dict(type="bool", default=False),
)


class ReplicationConfigModule(ServiceModule):
    def work(self):
        project = self.lookup("project", self.params["project"])
        path = "/projects/%s/replicationConfigurations" % project["id"]
        configs = self.list(path)
        credentials_id = self.credentials_id(project, configs)
        region = self.lookup("region", self.params["region"], credentials=credentials_id)
        current = next((config for config in configs if config["region"] == region["id"]), None)
        desired = dict(self.desired(current, region=region), region=region["id"])
        if self.params["cloud_credentials"] is not None or current is None:
            desired["cloudCredentials"] = credentials_id
        resync = self.resync(project, current, desired)
        config = self.ensure(current, desired, create=lambda body: self.client.post(path, body),
                             update=lambda changes: self.client.patch("%s/%s" % (path, current["id"]), changes))
        is_default = project.get("replicationConfiguration") is not None and project["replicationConfiguration"] == config.get("id")
        if self.params["default"] and not is_default:
            self.change(lambda: self.client.patch("/projects/" + project["id"], dict(replicationConfiguration=config["id"])),
                        before=dict(default=False), after=dict(default=True))
            is_default = True
        return dict(replication_configuration=config, resync_triggered=resync, default=is_default)

    def credentials_id(self, project, configs):
        if self.params["cloud_credentials"] is not None:
            return self.resolve("cloud_credentials", self.params["cloud_credentials"])
        region = self.params["region"]
        for config in configs:
            if looks_like_id(region) and config["region"] == region:
                return config["cloudCredentials"]
        if configs and not looks_like_id(region):
            return configs[0]["cloudCredentials"]
        if project.get("cloudCredentialsIDs"):
            return project["cloudCredentialsIDs"][0]
        if PREDICTED in project["id"]:
            return "credentials of %s%s" % (project["name"], PREDICTED)  # a project check mode predicted
        self.fail_json(msg="Project %r has no cloud credentials: give cloud_credentials." % project["name"])

    def resync(self, project, current, desired):
        """Whether the change restarts initial sync (a new encryption key, or credentials of another cloud
        account, as the service states); fails unless allowed."""
        if current is None or project.get("replicationConfiguration") != current["id"]:
            return False
        reasons = []
        key = desired.get("volumeEncryptionKey")
        if key is not None and key != current.get("volumeEncryptionKey"):
            reasons.append("a new volume_encryption_key")
        if desired.get("cloudCredentials", current["cloudCredentials"]) != current["cloudCredentials"]:
            accounts = dict((c["id"], c.get("accountIdentifier")) for c in self.items_of("cloud_credentials"))
            if accounts.get(desired["cloudCredentials"]) != accounts.get(current["cloudCredentials"]):
                reasons.append("cloud_credentials of another cloud account")
        if reasons and not self.params["allow_resync"]:
            self.fail_json(msg="This change (%s) restarts replication of every machine of project %r from initial sync: "
                               "no new points in time until it ends. Set allow_resync: true to go ahead. Nothing was changed."
                               % (" and ".join(reasons), project["name"]))
        return bool(reasons)


def main():
    ReplicationConfigModule(argument_spec=OPTIONS).run()


if __name__ == "__main__":
    main()
