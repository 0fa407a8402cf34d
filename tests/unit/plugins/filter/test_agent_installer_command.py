# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The agent installer's command line the role runs, Linux and Windows (no Windows host here: the line is what is tested)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible.errors import AnsibleFilterError

from ansible_collections.replication.recovery.plugins.filter.agent import agent_installer_command


def test_linux_arguments_carry_the_token_as_one_argument_with_no_shell():
    assert agent_installer_command("a b;$(rm -rf /)", "linux", "/tmp/installer_linux.py", python="/usr/bin/python3",
                                   extra="--force-volumes,--no-reboot") == [
        "/usr/bin/python3", "/tmp/installer_linux.py", "-t", "a b;$(rm -rf /)", "--no-prompt", "--force-volumes", "--no-reboot"]


def test_windows_command_line_downloads_then_runs_with_every_argument_quoted():
    line = agent_installer_command("it's$(x)", "windows", r"C:\Windows\Temp\installer_win.exe", url="https://c.example.com/installer_win.exe")
    assert line.startswith("$ErrorActionPreference = 'Stop'; ")
    assert "Invoke-WebRequest -UseBasicParsing -Uri 'https://c.example.com/installer_win.exe' -OutFile 'C:\\Windows\\Temp\\installer_win.exe';" in line
    assert line.endswith("& 'C:\\Windows\\Temp\\installer_win.exe' '-t' 'it''s$(x)' '--no-prompt'; exit $LASTEXITCODE")


@pytest.mark.parametrize("token,system,url,message", [
    ("", "linux", None, "The agent installation token is empty"),
    ("t", "windows", None, "The Windows installer is downloaded in the same command line: give its url."),
    ("t", "solaris", None, "system must be linux or windows, not 'solaris'."),
])
def test_bad_input_is_named(token, system, url, message):
    with pytest.raises(AnsibleFilterError, match=message.replace("(", r"\(").replace(")", r"\)")):
        agent_installer_command(token, system, "/tmp/i", url=url)
