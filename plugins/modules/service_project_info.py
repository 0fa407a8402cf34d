#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: service_project_info
short_description: Read projects of the Replication and Recovery Service
version_added: 1.0.0
description:
  - Returns one project, by name or ID, or all projects the user may see.
options:
  name:
    description: Name or ID of the project to return. All projects if not given.
    type: str
extends_documentation_fragment:
  - replication.recovery.connection
  - replication.recovery.connection.INFO
seealso:
  - module: replication.recovery.service_project
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Every project
  replication.recovery.service_project_info:
  register: all_projects

- name: One project
  replication.recovery.service_project_info:
    name: production
  register: production

- name: Its ID
  ansible.builtin.debug:
    msg: "{{ production.projects[0].id }}"
"""

RETURN = r"""
projects:
  description: The projects, as the service describes them; empty when O(name) matches none.
  returned: always
  type: list
  elements: dict
  sample:
    - id: 0f8d5a43-3d5b-4a4e-9d43-7a6c2c0c1e11
      name: production
      type: DR
      replicationConfiguration: 454ad2b0-5148-4a67-a4b2-d2b190c75c8b
      cloudCredentialsIDs: [d17e8db2-194a-4e5c-bdb1-e4dca17da47e]
"""

from ansible_collections.replication.recovery.plugins.module_utils.base import ServiceModule


class ProjectInfoModule(ServiceModule):
    def work(self):
        projects = self.list("/projects")
        if self.params["name"] is not None:
            project = self.find(projects, "Project", self.params["name"])
            projects = [project] if project else []
        return dict(projects=projects)


def main():
    ProjectInfoModule(argument_spec=dict(name=dict(type="str"))).run()


if __name__ == "__main__":
    main()
