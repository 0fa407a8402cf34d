# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Runs service_audit_log_info - in the controller's own process where it would run on the controller anyway (plugin_utils._modules_here)."""

from ansible_collections.replication.recovery.plugins.plugin_utils._modules_here import ModuleHere


class ActionModule(ModuleHere):
    """service_audit_log_info's action: Ansible's own for a module, without a process of its own on the controller."""
