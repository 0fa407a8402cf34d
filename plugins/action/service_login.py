# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Runs service_login - in the controller's own process where it would run on the controller anyway
(plugin_utils._modules_here) - and hides its result from every output, at any verbosity.

A module cannot mark a return value ``no_log``; an action plugin can mark the whole result.
The registered variable keeps the session, so later tasks can use it. A failed login stays
visible: its error holds no secret.
"""

from ansible_collections.replication.recovery.plugins.plugin_utils._modules_here import ModuleHere


class ActionModule(ModuleHere):

    def run(self, tmp=None, task_vars=None):
        result = super(ActionModule, self).run(tmp, task_vars)
        if "session" in result:
            result["_ansible_no_log"] = True
        return result
