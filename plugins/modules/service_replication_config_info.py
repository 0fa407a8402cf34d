#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: service_replication_config_info
short_description: Read the replication configurations of a Replication and Recovery Service project
version_added: 1.0.0
description:
  - Returns the replication configuration of a project for one region, or all of them.
options:
  region:
    description:
      - The region, by ID or by name, or the configuration's own ID. All configurations if not given.
      - A name is looked up among the regions of the project's configurations' credentials.
    type: str
extends_documentation_fragment:
  - replication.recovery.project
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.connection.INFO
seealso:
  - module: replication.recovery.service_replication_config
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Every configuration of the project
  replication.recovery.service_replication_config_info:
    project: production
  register: configs

- name: The one for us-east-1
  replication.recovery.service_replication_config_info:
    project: production
    region: us-east-1
  register: east
"""

RETURN = r"""
replication_configurations:
  description: The configurations, as the service describes them; empty when O(region) matches none.
  returned: always
  type: list
  elements: dict
  sample:
    - id: 454ad2b0-5148-4a67-a4b2-d2b190c75c8b
      region: 8c94d736-9a3e-5ef5-88c4-c3f1daf9ae3c
      cloudCredentials: d17e8db2-194a-4e5c-bdb1-e4dca17da47e
      subnetId: subnet-0b09c00dbba0e596a
      bandwidthThrottling: 0
default:
  description: ID of the project's default configuration, if it has one.
  returned: when the project has one
  type: str
"""

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils._domain import looks_like_id


class ReplicationConfigInfoModule(ServiceModule):
    def work(self):
        project = self.lookup("project", self.params["project"])
        configs = self.list("/projects/%s/replicationConfigurations" % project["id"])
        region = self.params["region"]
        if region is not None:
            configs = [config for config in configs if self.in_region(config, region)]
        result = dict(replication_configurations=configs)
        if project.get("replicationConfiguration"):
            result["default"] = project["replicationConfiguration"]
        return result

    def in_region(self, config, region):
        if looks_like_id(region):
            return region in (config["id"], config["region"])
        found = self.lookup("region", region, required=False, credentials=config["cloudCredentials"])
        return found is not None and found["id"] == config["region"]


def main():
    ReplicationConfigInfoModule(argument_spec=dict(project=dict(type="str", required=True), region=dict(type="str"))).run()


if __name__ == "__main__":
    main()
