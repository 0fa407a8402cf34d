# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""service_job_info counts a job's machines only when asked, and a job that ended only when that is wanted too."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.replication.recovery.plugins.module_utils._session import Refused
from ansible_collections.replication.recovery.plugins.modules.service_job_info import JobInfoModule
from ansible_collections.replication.recovery.tests.unit.plugins.module_utils.path_client import PathClient, set_up_without_ansible

PROJECT = {"id": "p1", "name": "production"}
PARAMS = dict(project="production", job="j1", types=None, statuses=None, limit=None, return_after=None, progress=True,
              progress_when_ended=True, wait=False, wait_timeout=60, poll_interval=1)
MACHINES = [{"id": "m1", "sourceProperties": {"name": "web-1"}, "replica": "r1"}, {"id": "m2", "sourceProperties": {"name": "db-1"}}]


def job(status):
    return {"id": "j1", "type": "CLEANUP", "status": status, "participatingMachines": ["m1", "m2"],
            "creationDateTime": "2026-11-27T01:00:00+00:00"}


class JobInfo(JobInfoModule):
    """The module without AnsibleModule's set-up, over a client that answers from paths."""

    def __init__(self, client, **params):
        set_up_without_ansible(self, client, dict(PARAMS, **params))

    def fail_json(self, msg, **kwargs):
        raise AssertionError(msg)


@pytest.mark.parametrize("status, when_ended, counted", [
    ("STARTED", False, dict(machines=2, done=1, running=1, failed=0)),  # a job that goes on is counted
    ("COMPLETED", True, dict(machines=2, done=1, running=0, failed=1)),  # one that ended, when asked
    ("COMPLETED", False, None),  # not: and the machines are not read
])
def test_a_jobs_machines_are_counted_while_it_runs_and_once_it_ended_only_when_asked(status, when_ended, counted):
    client = PathClient({"/projects": [PROJECT], "/projects/p1/jobs/j1": job(status), "/projects/p1/machines": MACHINES})
    answer = JobInfo(client, progress_when_ended=when_ended).work()
    assert answer["job"]["status"] == status and answer.get("progress") == counted
    assert ("/projects/p1/machines" in client.requests) is (counted is not None)


class Refusing(JobInfo):
    """A look-up the module fails its task with fails it here with the same words."""

    def fail_json(self, msg, **kwargs):
        raise Refused(msg)


def test_given_the_projects_id_a_look_at_its_job_is_one_request_and_what_is_not_found_is_named():
    project_id = "0b6cbb1e-0000-4000-8000-000000000001"
    jobs = "/projects/%s/jobs" % project_id
    client = PathClient({"/projects/" + project_id: dict(PROJECT, id=project_id), jobs + "/j1": job("STARTED"), jobs: []})
    assert JobInfo(client, project=project_id, progress=False).work()["job"]["status"] == "STARTED"
    assert client.requests == [jobs + "/j1"]
    with pytest.raises(Refused, match="^The project has no job j2.$"):
        Refusing(client, project=project_id, job="j2", progress=False).work()
    unknown = "0b6cbb1e-0000-4000-8000-000000000002"
    for given in (dict(job="j1"), dict(job=None)):
        with pytest.raises(Refused, match="^Project %s was not found.$" % unknown):
            Refusing(client, project=unknown, progress=False, **given).work()
