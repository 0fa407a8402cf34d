# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Which machine a host is, the installers' command lines, and the token no result shows."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.replication.recovery.plugins.module_utils._agent import (
    installer_argv, match_hosts, powershell_quoted, windows_installer_command, without_token)


def machine(name, *addresses):
    return {"id": name + "-id", "sourceProperties": {"name": name, "publicIps": list(addresses)}}


MACHINES = [machine("web-1", "198.51.100.1"), machine("DB-1.example.com", "198.51.100.2"), machine("twin"), machine("Twin"),
            machine("app-1", "198.51.100.3"), machine("app-2", "198.51.100.3")]


def test_a_host_is_its_machine_by_short_name_in_any_case_then_by_address():
    found = match_hosts([dict(host="h1", name="web-1.prod.example.com"), dict(host="h2", name="db-1"),
                         dict(host="h3", name="renamed", addresses=["10.0.0.9", "198.51.100.1"]),
                         dict(host="h4", name="new-1", addresses=["10.0.0.10"])], MACHINES[:2])
    # h3 matches web-1 by its address, and so web-1 matches two hosts: neither is guessed.
    assert found["h2"] == (MACHINES[1], None) and found["h4"] == (None, None)
    assert found["h1"] == (None, "machine web-1 (web-1-id) matches hosts h1, h3") and found["h3"] == found["h1"]


def test_two_machines_that_match_one_host_are_named_never_guessed():
    found = match_hosts([dict(host="h1", name="twin"), dict(host="h2", name="other", addresses=["198.51.100.3"])], MACHINES)
    assert found["h1"] == (None, "2 machines match it: twin (twin-id), Twin (Twin-id)")
    assert found["h2"] == (None, "2 machines match it: app-1 (app-1-id), app-2 (app-2-id)")


def test_the_installers_command_lines():
    assert installer_argv("/usr/bin/python3", "/tmp/i.py", "t0k'en") == ["/usr/bin/python3", "/tmp/i.py", "-t", "t0k'en", "--no-prompt"]
    command = windows_installer_command("https://console.example.com/installer_win.exe", r"C:\Windows\Temp\installer_win.exe",
                                        "a'b$c", ["--force-volumes"])
    assert command == ("$ErrorActionPreference = 'Stop'; $ProgressPreference = 'SilentlyContinue'; Invoke-WebRequest -UseBasicParsing "
                       "-Uri 'https://console.example.com/installer_win.exe' -OutFile 'C:\\Windows\\Temp\\installer_win.exe'; "
                       "& 'C:\\Windows\\Temp\\installer_win.exe' '-t' 'a''b$c' '--no-prompt' '--force-volumes'; exit $LASTEXITCODE")
    assert powershell_quoted("it's") == "'it''s'"


def test_no_result_carries_the_token():
    result = dict(projects=[{"id": "p1", "agentInstallationToken": "secret", "name": "x"}], project={"agentInstallationToken": "s"},
                  diff=dict(before={"agentInstallationToken": "s"}, after={}), installation_token="named apart")
    assert without_token(result) == dict(projects=[{"id": "p1", "name": "x"}], project={}, diff=dict(before={}, after={}),
                                         installation_token="named apart")


def test_a_result_without_a_token_is_answered_itself_not_copied():
    # A result can be a project's machines and all their points in time: what holds no token is not copied.
    machines = [{"id": "m%d" % number, "points_in_time": [{"id": "p", "dateTime": "t"}]} for number in range(3)]
    result = dict(machines=machines, project={"agentInstallationToken": "s", "id": "p1"})
    answered = without_token(result)
    assert answered["machines"] is machines and answered["project"] == {"id": "p1"} and "agentInstallationToken" in result["project"]
