#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: service_project
short_description: Manage projects of the Replication and Recovery Service
version_added: 1.0.0
description:
  - Creates, updates and deletes a project, the unit that holds source machines, their
    replication configurations and the machines launched from them.
  - The project is found by O(name). Only the options you set are compared and changed.
options:
  name:
    description: Name of the project; unique in the account.
    type: str
    required: true
  state:
    description:
      - V(present) creates the project or brings it to the options given.
      - V(absent) deletes it with everything in it - its machines, their replication and points in
        time, its configurations and plans - B(except machines already launched in the target cloud,
        which stay there), as the service states it does. Clean those up first with
        M(replication.recovery.service_replica_cleanup) if they should go too.
    type: str
    choices: [present, absent]
    default: present
  type:
    description:
      - Kind of project. Set when the project is created (V(dr) if not given); a different value
        for an existing project fails, because the service cannot change it.
    type: str
    choices: [dr, migration, backup]
  target_cloud:
    description:
      - Cloud that machines are replicated into and launched in, by name (for example V(AWS)) or ID.
      - Set when the project is created (the cloud of O(cloud_credentials) if not given); it cannot change.
    type: str
  source_cloud:
    description: Cloud the source machines run in, by name (for example V(GENERIC) for a data centre) or ID.
    type: str
  source_cloud_credentials:
    description: Cloud credentials of the source cloud, by name or ID.
    type: str
  source_region:
    description:
      - Region the source machines run in, by ID or by name. A name is looked up among the regions
        of O(source_cloud_credentials), or else is the account's generic region.
    type: str
  cloud_credentials:
    description:
      - Cloud credentials of the target cloud, by name or ID. The order does not matter.
    type: list
    elements: str
  replication_configuration:
    description:
      - The replication configuration that new machines of the project use, by the name or ID of
        its region, or by its own ID. It must exist; create it with
        M(replication.recovery.service_replication_config), which can also make it the default.
    type: str
  licenses:
    description: IDs of the licenses the project's machines use. The order does not matter.
    type: list
    elements: str
  features:
    description: Feature switches of the project, as the service names them.
    type: dict
extends_documentation_fragment:
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.connection.STATE
seealso:
  - module: replication.recovery.service_project_info
  - module: replication.recovery.service_replication_config
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: A DR project replicating into AWS
  replication.recovery.service_project:
    name: production
    type: dr
    cloud_credentials:
      - aws-dr-account
    source_cloud: GENERIC

- name: Make the us-east-1 replication configuration the project's default
  replication.recovery.service_project:
    name: production
    replication_configuration: us-east-1

- name: Delete the project (launched machines stay in the target cloud)
  replication.recovery.service_project:
    name: old-migration
    state: absent
"""

RETURN = r"""
project:
  description:
    - The project as the service describes it after the task; in check mode, as it would be.
    - Absent when O(state=absent).
  returned: when O(state=present)
  type: dict
  sample:
    id: 0f8d5a43-3d5b-4a4e-9d43-7a6c2c0c1e11
    name: production
    type: DR
    targetCloudId: 5b9e2b7e-0a43-5c53-9e7c-6b0f6f0d2b51
    cloudCredentialsIDs: [d17e8db2-194a-4e5c-bdb1-e4dca17da47e]
    replicationConfiguration: 454ad2b0-5148-4a67-a4b2-d2b190c75c8b
    licensesIDs: [08052837-18cd-401f-9eb5-050b8391cd2f]
    usersIDs: []
    replicationReversed: false
"""

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils._domain import looks_like_id

OPTIONS = dict(
    name=dict(type="str", required=True, member="name"),
    state=dict(type="str", choices=["present", "absent"], default="present"),
    type=dict(type="str", choices=["dr", "migration", "backup"], member="type", convert=str.upper, create_only=True),
    target_cloud=dict(type="str", member="targetCloudId", lookup="cloud", create_only=True),
    source_cloud=dict(type="str", member="sourceCloudId", lookup="cloud"),
    source_cloud_credentials=dict(type="str", member="sourceCloudCredentialsId", lookup="cloud_credentials"),
    cloud_credentials=dict(type="list", elements="str", member="cloudCredentialsIDs", lookup="cloud_credentials", unordered=True),
    source_region=dict(type="str", member="sourceRegion", lookup="source_region"),
    replication_configuration=dict(type="str", member="replicationConfiguration", lookup="configuration"),
    licenses=dict(type="list", elements="str", member="licensesIDs", unordered=True),
    features=dict(type="dict", member="features"),
)


class ProjectModule(ServiceModule):
    def work(self):
        current = self.lookup("project", self.params["name"], required=False)
        if self.params["state"] == "absent":
            self.ensure_absent(current, lambda project: self.client.delete("/projects/" + project["id"]), members=["name"])
            return dict()
        return dict(project=self.ensure(current, self.desired(current), create=lambda body: self.client.post("/projects", body),
                                        update=lambda changes: self.client.patch("/projects/" + current["id"], changes)))

    def source_region(self, value, desired, **scope):
        """A region of the source cloud credentials; without them, only the generic region has a name."""
        if looks_like_id(value):
            return value
        if desired.get("sourceCloudCredentialsId"):
            return self.resolve("region", value, credentials=desired["sourceCloudCredentialsId"])
        generic = self.client.get("/extendedAccountInfo").get("genericRegion")
        if generic and value in (generic.get("name"), "generic", "Generic"):
            return generic["id"]
        self.fail_json(msg="Region %r was not found: without source_cloud_credentials only the generic region is known by name." % value)

    def configuration(self, value, current, **scope):
        """A configuration of the project by its ID, or by its region's ID or name."""
        if current is None:
            self.fail_json(msg="replication_configuration can only be set on an existing project: create the project, "
                               "then the configuration with replication.recovery.service_replication_config (default: true).")
        configs = self.list("/projects/%s/replicationConfigurations" % current["id"])
        for config in configs:
            if value in (config["id"], config.get("region")):
                return config["id"]
        for config in configs:
            region = self.lookup("region", value, required=False, credentials=config["cloudCredentials"])
            if region is not None and region["id"] == config["region"]:
                return config["id"]
        self.fail_json(msg="Project %r has no replication configuration for %r." % (current["name"], value))


def main():
    ProjectModule(argument_spec=OPTIONS).run()


if __name__ == "__main__":
    main()
