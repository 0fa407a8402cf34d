# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The safety lever of a project: while it is engaged, no rehearsal (a DR test, a clean point search, a restore test, a
failover that rolls back in a test network, an application of DR tests, a game day) starts there, and one that runs stops
at its next look at the service; a failover that stays is never held back by it, and says so.

The interface has no writable object for the whole account, and every run rewrites a machine's tags whole: the lever
lives in each project, in a recovery plan of the collection's own (LEVER_PLAN) that no run launches and no other run
rewrites. The plan's one step has no machines; its name says the lever's state, who pulled it, when and why - so the
service's audit log keeps each pull with its reason (docs/wire.md: what the collection assumes of a plan)."""

import re

LEVER_PLAN = "replication.recovery safety lever"
ENGAGED, RELEASED = "engaged", "released"
STATES = (ENGAGED, RELEASED)
# "engaged by alice at 2026-11-28T05:00:00Z: the payments API is failing over": who may not hold ": ".
_SAID = re.compile(r"^(engaged|released) by (.+?) at (\S+): (.*)$", re.DOTALL)


def step_name(state, by, at, reason):
    """The text of the lever's one step: its state, who pulled it, when and why."""
    return "%s by %s at %s: %s" % (state, by, at, reason)


def lever_steps(state, by, at, reason):
    """The plan's steps as the service keeps them: one step, no machines, no wait."""
    return dict(items=[dict(name=step_name(state, by, at, reason), machineIDs=[], waitBefore="PT0S")])


def lever_of(plan):
    """The lever as a plan keeps it: state, by, at and reason; released when there is no plan. A plan whose text was edited
    out of its form by hand holds the lever engaged - a lever is never read as released by mistake - with the text as its
    reason."""
    if plan is None:
        return dict(state=RELEASED, by=None, at=None, reason=None)
    items = (plan.get("steps") or {}).get("items") or []
    found = _SAID.match(items[0].get("name") or "") if len(items) == 1 else None
    if found is None:
        return dict(state=ENGAGED, by=None, at=None, reason="the lever's plan %s was edited by hand (%s)" % (
            LEVER_PLAN, "; ".join(str(item.get("name")) for item in items) or "no steps"))
    return dict(zip(("state", "by", "at", "reason"), found.groups()))


def lever_in(plans):
    """The lever among a project's recovery plans (as the service lists them)."""
    return lever_of(next((plan for plan in plans if plan.get("name") == LEVER_PLAN), None))


def lever_said(lever, project):
    """The lever in words, as a run that obeys it or a failover that passes it says it."""
    pulled = " by %s at %s" % (lever["by"], lever["at"]) if lever.get("by") else ""
    return "the safety lever of project %s is %s%s: %s" % (project, lever["state"], pulled, lever.get("reason") or "no reason given")
