# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)


class ModuleDocFragment(object):
    # The project option of every module that works inside one project.
    DOCUMENTATION = r"""
options:
  project:
    description:
      - The project, by name or ID. A name costs one list of the projects, an ID one read of that project.
    type: str
    required: true
"""
