#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: service_audit_log_info
short_description: Read the audit log of a project
version_added: 1.0.0
description:
  - Returns the audit log entries of a project, oldest first, within a time window if one is given.
  - Reads as many pages as the window holds; the service pages by time, so the module moves the
    window's start past each page.
options:
  since:
    description: Only entries at or after this RFC 3339 date-time.
    type: str
  until:
    description: Only entries at or before this RFC 3339 date-time. The service's current time if only O(since) is given.
    type: str
  events:
    description: Only entries with these event names (for example V(MACHINES_LAUNCHED)).
    type: list
    elements: str
  limit:
    description: At most this many entries, the oldest of the window.
    type: int
extends_documentation_fragment:
  - replication.recovery.project
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.connection.INFO
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: What happened in the project today
  replication.recovery.service_audit_log_info:
    project: production
    since: "{{ '%Y-%m-%dT00:00:00Z' | strftime }}"
  register: today
"""

RETURN = r"""
entries:
  description: The entries as the service describes them, oldest first.
  returned: always
  type: list
  elements: dict
  sample:
    - username: dr@example.com
      eventName: MACHINES_LAUNCHED
      description: TEST launch of 5 machines.
      timestamp: "2026-11-22T08:15:00.000000+00:00"
      jobId: 6a1f8c2e-0d4b-4e1a-9a55-2c7e3f0b9d11
"""

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils._reads import AUDIT_LOG_INFO, audit_log_info


class AuditLogInfoModule(ServiceModule):
    def work(self):
        return audit_log_info(self, self.params)


def main():
    AuditLogInfoModule(argument_spec=dict(AUDIT_LOG_INFO)).run()


if __name__ == "__main__":
    main()
