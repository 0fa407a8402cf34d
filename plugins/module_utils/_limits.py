# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The service's limits, as its operator states them (the connection option service_limits): the published interface
states none, but the services of its family take at most so many machines in a job, and so many jobs and machines in
running jobs at once per account. A job past a limit given is never sent - it is refused before anything is written,
naming the limit - and the runbooks send a larger wave as several jobs (``parts``). A job refused for the account's
jobs at once (HTTP 429) is sent again by the caller once one ends: the service did not act on it."""

from ansible.module_utils.common.validation import check_type_dict, check_type_int

LIMITS = ("servers_per_job", "concurrent_jobs", "servers_in_active_jobs")
# The limits that bound one job's machines, and how a refusal says each.
_JOB_LIMITS = (("servers_per_job", "A job takes at most %d machines"),
               ("servers_in_active_jobs", "The account's running jobs take at most %d machines in all"))


def limits_of(value):
    """The limits given (a dictionary, or its JSON text from the environment), each a whole number of 1 or more; those
    not given are left out. ValueError names what is wrong."""
    if not value:
        return {}
    if not isinstance(value, dict):
        try:
            value = check_type_dict(value)
        except (TypeError, ValueError):
            raise ValueError("service_limits must be a dictionary of %s, not %r." % (", ".join(LIMITS), value))
    unknown = sorted(set(value) - set(LIMITS))
    if unknown:
        raise ValueError("service_limits has no %s: it takes %s." % (", ".join(unknown), ", ".join(LIMITS)))
    limits = {}
    for name in LIMITS:
        if value.get(name) in (None, ""):
            continue
        try:
            number = check_type_int(value[name])
        except (TypeError, ValueError):
            number = None
        if number is None or number < 1:
            raise ValueError("service_limits.%s must be a whole number of 1 or more, not %r." % (name, value[name]))
        limits[name] = number
    return limits


def job_size(limits):
    """The most machines one job may take under ``limits``; None when nothing bounds it."""
    sizes = [limits[name] for name, unused in _JOB_LIMITS if limits.get(name)]
    return min(sizes) if sizes else None


def beyond(limits, count):
    """Why a job of ``count`` machines cannot be sent under ``limits`` (the limit named); None when it can."""
    for name, said in _JOB_LIMITS:
        if limits.get(name) and count > limits[name]:
            return "%s (service_limits.%s), and this job would take %d" % (said % limits[name], name, count)
    return None


def parts(names, size):
    """``names`` in jobs of at most ``size`` machines (None: one job), in their order and as even as they go: 250 in
    jobs of at most 100 are 84, 83 and 83. The same names and size always make the same parts - what a run again
    matches with the jobs an earlier run launched."""
    names = list(names)
    if not size or len(names) <= size:
        return [names]
    count = -(-len(names) // size)
    small, larger = divmod(len(names), count)
    cut, made = 0, []
    for index in range(count):
        length = small + (1 if index < larger else 0)
        made.append(names[cut:cut + length])
        cut += length
    return made
