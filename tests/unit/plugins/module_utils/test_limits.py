# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The service's limits as a user states them (service_limits): checked, and a wave cut into jobs within them."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.replication.recovery.plugins.module_utils._limits import beyond, job_size, limits_of, parts


def test_limits_are_taken_as_given_or_as_json_text_from_the_environment():
    assert limits_of(None) == {} and limits_of({}) == {}
    assert limits_of({"servers_per_job": 100, "concurrent_jobs": None}) == {"servers_per_job": 100}
    assert limits_of('{"servers_per_job": "100", "servers_in_active_jobs": 500}') == {"servers_per_job": 100, "servers_in_active_jobs": 500}


@pytest.mark.parametrize("value, said", [
    ({"servers_per_job": 0}, "service_limits.servers_per_job must be a whole number of 1 or more, not 0."),
    ({"servers_per_job": "a hundred"}, "service_limits.servers_per_job must be a whole number of 1 or more, not 'a hundred'."),
    ({"servers_per_jobs": 100}, "service_limits has no servers_per_jobs: it takes servers_per_job, concurrent_jobs, servers_in_active_jobs."),
    ("[100]", "service_limits must be a dictionary of servers_per_job, concurrent_jobs, servers_in_active_jobs, not '[100]'."),
])
def test_a_limit_that_is_not_one_is_refused_by_name(value, said):
    with pytest.raises(ValueError) as refused:
        limits_of(value)
    assert str(refused.value) == said


def test_a_job_takes_no_more_than_either_limit_of_its_machines():
    assert job_size({}) is None and job_size({"concurrent_jobs": 2}) is None
    assert job_size({"servers_per_job": 100, "servers_in_active_jobs": 60}) == 60
    assert beyond({"servers_per_job": 100}, 100) is None and beyond({}, 10000) is None
    assert beyond({"servers_per_job": 100}, 250) == "A job takes at most 100 machines (service_limits.servers_per_job), and this job would take 250"
    assert beyond({"servers_per_job": 100, "servers_in_active_jobs": 80}, 90) == (
        "The account's running jobs take at most 80 machines in all (service_limits.servers_in_active_jobs), and this job would take 90")


def test_a_wave_is_cut_in_as_few_jobs_as_even_as_they_go_and_always_the_same():
    names = ["m-%03d" % number for number in range(250)]
    cut = parts(names, 100)
    assert [len(part) for part in cut] == [84, 83, 83] and [name for part in cut for name in part] == names
    assert parts(names, 100) == cut
    assert parts(names, 250) == [names] and parts(names, None) == [names] and parts([], 100) == [[]]
    assert [len(part) for part in parts(names, 1)] == [1] * 250
