#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: service_cloud_credentials_info
short_description: Read the cloud credentials of the Replication and Recovery Service, and their regions
version_added: 1.0.0
description:
  - Returns one set of cloud credentials, by name or ID, or all of them; optionally with the regions
    each can use (subnets, security groups, instance types, encryption keys).
  - The service never returns private keys.
options:
  name:
    description: Name or ID of the credentials to return. All of them if not given.
    type: str
  regions:
    description: Also return the regions of each set of credentials, one request each.
    type: bool
    default: false
extends_documentation_fragment:
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.connection.INFO
seealso:
  - module: replication.recovery.service_cloud_credentials
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: The credentials and what their regions offer
  replication.recovery.service_cloud_credentials_info:
    name: aws-dr-account
    regions: true
  register: aws

- name: Subnets of us-east-1
  ansible.builtin.debug:
    msg: "{{ (aws.cloud_credentials[0].regions | selectattr('name', 'equalto', 'us-east-1') | first).subnets }}"
"""

RETURN = r"""
cloud_credentials:
  description:
    - The credentials as the service describes them; empty when O(name) matches none.
    - With O(regions=true), each has a C(regions) list as the service describes them.
  returned: always
  type: list
  elements: dict
  sample:
    - id: d17e8db2-194a-4e5c-bdb1-e4dca17da47e
      name: aws-dr-account
      cloud: 73dea798-e232-5d2c-bc57-0e6f425a3a37
      publicKey: AKIAIOSFODNN7EXAMPLE
      accountIdentifier: "111122223333"
"""

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule


class CloudCredentialsInfoModule(ServiceModule):
    def work(self):
        credentials = self.items_of("cloud_credentials")
        if self.params["name"] is not None:
            credentials = [c for c in [self.lookup("cloud_credentials", self.params["name"], required=False)] if c]
        if self.params["regions"]:
            credentials = [dict(c, regions=self.items_of("region", credentials=c)) for c in credentials]
        return dict(cloud_credentials=credentials)


def main():
    CloudCredentialsInfoModule(argument_spec=dict(name=dict(type="str"), regions=dict(type="bool", default=False))).run()


if __name__ == "__main__":
    main()
