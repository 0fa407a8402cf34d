#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: service_cloud_credentials
short_description: Manage the cloud credentials the Replication and Recovery Service uses
version_added: 1.0.0
description:
  - Creates or updates the credentials of a cloud account that the service replicates into or
    launches machines in. They are found by O(name).
  - The service keeps the private key write-only; it never returns it, so it cannot be compared
    with O(private_key). Choose with O(update_private_key) when it is sent.
  - The service offers no way to delete cloud credentials, so neither does this module.
options:
  name:
    description: Name of the credentials. When two credentials share a name, the task fails and asks for the ID.
    type: str
    required: true
  cloud:
    description:
      - Cloud the credentials belong to, by name (for example V(AWS)) or ID.
      - Required to create credentials; it cannot change afterwards.
    type: str
  public_key:
    description: The public part of the credentials, for example an AWS access key ID.
    type: str
  private_key:
    description:
      - The secret part of the credentials, for example an AWS secret access key, as plain text;
        the module encodes it in base64 as the service expects.
      - Required to create credentials. Never shown in output, diff or the task's result.
    type: str
  account_identifier:
    description:
      - The cloud account the credentials belong to. If not given, the service derives it from the keys.
      - Replication configurations that move to credentials of another account restart initial
        sync (see M(replication.recovery.service_replication_config)).
    type: str
  update_private_key:
    description:
      - V(on_create) sends O(private_key) only when the credentials are created; later runs leave
        the stored key alone and report no change for it.
      - V(always) sends it on every run, which then always reports a change, since the service
        cannot say whether the key differs.
    type: str
    choices: [on_create, always]
    default: on_create
extends_documentation_fragment:
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.connection.STATE
seealso:
  - module: replication.recovery.service_cloud_credentials_info
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Credentials of the AWS account that receives the replicas
  replication.recovery.service_cloud_credentials:
    name: aws-dr-account
    cloud: AWS
    public_key: "{{ aws_access_key_id }}"
    private_key: "{{ aws_secret_access_key }}"

- name: Rotate the keys
  replication.recovery.service_cloud_credentials:
    name: aws-dr-account
    public_key: "{{ new_access_key_id }}"
    private_key: "{{ new_secret_access_key }}"
    update_private_key: always
"""

RETURN = r"""
cloud_credentials:
  description: The credentials as the service describes them (never with the private key); in check mode, as they would be.
  returned: always
  type: dict
  sample:
    id: d17e8db2-194a-4e5c-bdb1-e4dca17da47e
    name: aws-dr-account
    cloud: 73dea798-e232-5d2c-bc57-0e6f425a3a37
    publicKey: AKIAIOSFODNN7EXAMPLE
    accountIdentifier: "111122223333"
private_key_sent:
  description: Whether the private key was sent (or, in check mode, would be).
  returned: always
  type: bool
"""

import base64

from ansible.module_utils.common.text.converters import to_bytes, to_text

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule


def encoded(private_key):
    return to_text(base64.b64encode(to_bytes(private_key, errors="surrogate_or_strict")))


OPTIONS = dict(
    name=dict(type="str", required=True, member="name"),
    cloud=dict(type="str", member="cloud", lookup="cloud", create_only=True),
    public_key=dict(type="str", member="publicKey"),
    private_key=dict(type="str", no_log=True, member="privateKey", convert=encoded),
    account_identifier=dict(type="str", member="accountIdentifier"),
    update_private_key=dict(type="str", choices=["on_create", "always"], default="on_create", no_log=False),
)


class CloudCredentialsModule(ServiceModule):
    def work(self):
        params = self.params
        current = self.lookup("cloud_credentials", params["name"], required=False)
        missing = [option for option in ("cloud", "private_key") if params[option] is None]
        if current is None and missing:
            self.fail_json(msg="Cloud credentials %r do not exist; to create them give %s." % (params["name"], " and ".join(missing)))
        desired = self.desired(current)
        send_key = "privateKey" in desired and (current is None or params["update_private_key"] == "always")
        if not send_key:
            desired.pop("privateKey", None)
        credentials = self.ensure(current, desired, create=lambda body: self.client.post("/cloudCredentials", dict(body, cloudId=body.pop("cloud"))),
                                  update=lambda changes: self.client.patch("/cloudCredentials/" + current["id"], changes))
        credentials.pop("privateKey", None)
        return dict(cloud_credentials=credentials, private_key_sent=send_key)


def main():
    CloudCredentialsModule(argument_spec=OPTIONS).run()


if __name__ == "__main__":
    main()
