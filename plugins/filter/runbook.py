# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""What stopped a runbook's run, as the engine's rescues note it (roles/runbook): one rule for every rescue; and how
many waves a runbook's playbook reads as plays."""

from ansible_collections.replication.recovery.plugins.module_utils._domain import no_value, parse_groups

# The most waves a runbook's playbook reads as plays (playbooks/parts/waves/12.yml; runbook_max_waves).
MOST_WAVE_PLAYS = 12


def stopped_by(failed_task, failed_result, in_tasks=None):
    """{task, message}: the task that failed - in the user's tasks ``in_tasks`` when given - and why. A step of the engine
    that records its failure gives its reason apart from the line it fails with (``stopped_because``)."""
    if failed_task is None and failed_result is None:
        # A rescue of a failed include: Ansible gives it neither the task nor its result, and says why in its own output.
        task, result = "an include", dict(msg="Ansible could not include its tasks (its output before says why)")
    else:
        task, result = (failed_task or {}).get("name") or "?", failed_result or {}
    return dict(task="%s (%s)" % (in_tasks, task) if in_tasks else task,
                message=result.get("stopped_because") or result.get("msg") or result.get("reason") or "failed")


def wave_plays(waves, *deciding):
    """How many waves' plays a runbook's playbook reads, from the extra variables it sees as it is read: as many as
    ``waves`` names - an extra variable is every project's, above their own variables, and a recovery plan or a plan file
    given with waves is refused by the run; without waves, the most when one of ``deciding`` is given (several projects, a
    recovery plan, a plan file: their waves are known only when the run reads them), else one. The most, too, when the
    waves cannot be read: the run refuses them by name. A run with more waves than its playbook read runs the rest in the
    last wave's play (roles/runbook/tasks/waves_left.yml)."""
    if no_value(waves):
        return MOST_WAVE_PLAYS if any(not no_value(value) for value in deciding) else 1
    try:
        return min(max(len(parse_groups(waves, "the waves")), 1), MOST_WAVE_PLAYS)
    except ValueError:
        return MOST_WAVE_PLAYS


class FilterModule(object):
    def filters(self):
        return {"stopped_by": stopped_by, "wave_plays": wave_plays}
