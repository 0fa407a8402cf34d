# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The replication agent's installer command line, built in Python (module_utils._agent) so that its quoting is
tested: the role replication.recovery.agent runs it on Linux hosts (arguments, no shell) and Windows hosts
(a PowerShell command line over WinRM)."""

from ansible.errors import AnsibleFilterError

from ansible_collections.replication.recovery.plugins.module_utils._agent import LINUX, WINDOWS, installer_argv, windows_installer_command
from ansible_collections.replication.recovery.plugins.module_utils._domain import parse_list


def agent_installer_command(token, system, installer, url=None, python="python3", extra=None):
    """Linux: the installer's arguments; Windows: the PowerShell command line that downloads it from ``url`` and runs it."""
    if not token:
        raise AnsibleFilterError("The agent installation token is empty: give agent_installation_token, or read it from the project.")
    try:
        extra = parse_list(extra, "agent_installer_args")
    except ValueError as error:
        raise AnsibleFilterError(str(error))
    if system == LINUX:
        return installer_argv(python, installer, token, extra)
    if system == WINDOWS:
        if not url:
            raise AnsibleFilterError("The Windows installer is downloaded in the same command line: give its url.")
        return windows_installer_command(url, installer, token, extra)
    raise AnsibleFilterError("system must be %s or %s, not %r." % (LINUX, WINDOWS, system))


class FilterModule(object):
    def filters(self):
        return {"agent_installer_command": agent_installer_command}
