# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""What stopped a runbook's run, as the engine's rescues note it (roles/runbook): one rule for every rescue."""


def stopped_by(failed_task, failed_result, in_tasks=None):
    """{task, message}: the task that failed - in the user's tasks ``in_tasks`` when given - and why. A step of the engine
    that records its failure gives its reason apart from the line it fails with (``stopped_because``)."""
    task = (failed_task or {}).get("name") or "?"
    result = failed_result or {}
    return dict(task="%s (%s)" % (in_tasks, task) if in_tasks else task,
                message=result.get("stopped_because") or result.get("msg") or result.get("reason") or "failed")


class FilterModule(object):
    def filters(self):
        return {"stopped_by": stopped_by}
