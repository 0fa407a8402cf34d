#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: service_safety_lever
short_description: Engage or release a project's safety lever, which stops every rehearsal there
version_added: 2.0.0
description:
  - While a project's safety lever is engaged, no rehearsal starts there - a DR test, a clean point search, a restore
    test, an application of DR tests, a game day is cancelled before its first write - and one that runs stops at its
    next look at the service, launches nothing more and cleans up what it launched. A failover or failback is never
    held back by it, and says that it is engaged.
  - The lever is kept in the service, so that every controller sees it - in a recovery plan of the collection's own,
    C(replication.recovery safety lever), whose one step has no machines and says the lever's state, who pulled it,
    when and why. Each pull is in the project's audit log with its reason. Never run or edit that plan; a plan edited
    out of its form holds the lever engaged.
  - Without O(state), reads the lever and changes nothing.
  - The playbook C(replication.recovery.game_day) pulls it over several projects at once (C(game_day_lever)).
options:
  state:
    description:
      - V(engaged) engages the lever; V(released) releases it. Omitted, the lever is read only.
      - Engaging an engaged lever again with the same reason and name changes nothing; with another reason, the reason
        is replaced. Releasing a lever that is not engaged changes nothing.
    type: str
    choices: [engaged, released]
  reason:
    description: Why the lever is pulled, kept with it and said by every run it stops. Required with O(state).
    type: str
  by:
    description:
      - Who pulls the lever (a person, a pager, an alert), kept with it. Defaults to O(username); required when signing
        in with O(api_token) alone.
      - It may not hold a colon followed by a space.
    type: str
extends_documentation_fragment:
  - replication.recovery.project
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.connection.STATE
seealso:
  - module: replication.recovery.service_recovery_plan_info
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Stop every rehearsal in production while the payments incident lasts
  replication.recovery.service_safety_lever:
    project: production
    state: engaged
    reason: "INC-2041: payments latency"
    by: on-call

- name: Release it once the incident is over
  replication.recovery.service_safety_lever:
    project: production
    state: released
    reason: "INC-2041 resolved"
    by: on-call

- name: Is it engaged?
  replication.recovery.service_safety_lever:
    project: production
  register: lever
"""

RETURN = r"""
lever:
  description: The lever after the task (in check mode, as it would be).
  returned: always
  type: dict
  contains:
    state:
      description: V(engaged) or V(released) (also when it was never pulled).
      type: str
    by:
      description: Who pulled it last; null when it was never pulled.
      type: str
    at:
      description: When it was pulled last, by the controller's clock (RFC 3339, UTC).
      type: str
    reason:
      description: Why it was pulled last.
      type: str
  sample: {state: engaged, by: on-call, at: "2026-11-28T05:00:00Z", reason: "INC-2041: payments latency"}
"""

from datetime import datetime, timezone
from functools import partial

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils._lever import LEVER_PLAN, RELEASED, STATES, lever_of, lever_steps
from ansible_collections.replication.recovery.plugins.module_utils._reads import lever_plan

OPTIONS = dict(
    project=dict(type="str", required=True),
    state=dict(type="str", choices=list(STATES)),
    reason=dict(type="str"),
    by=dict(type="str"),
)


class SafetyLeverModule(ServiceModule):
    def work(self):
        state, reason = self.params["state"], self.params["reason"]
        by = self.params["by"] or self.params["username"]
        if state and not (reason or "").strip():
            self.fail_json(msg="Give the reason the lever is %s (reason): every run it stops says it. Nothing was changed." % state)
        if state and not (by or "").strip():
            self.fail_json(msg="Give who pulls the lever (by): signed in with an API token alone, the module has no name for you. "
                               "Nothing was changed.")
        if state and ": " in by:
            self.fail_json(msg="by may not hold ': ' (it is %r). Nothing was changed." % by)
        project, current = lever_plan(self, self.params["project"])
        path = "/projects/%s/recoveryPlans" % project["id"]
        lever = lever_of(current)
        if not state or state == lever["state"] and (state == RELEASED or (lever["reason"], lever["by"]) == (reason, by)):
            return dict(lever=lever)
        at = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        pulled = dict(state=state, by=by, at=at, reason=reason)
        steps = lever_steps(state, by, at, reason)
        if current is None:
            write = partial(self.client.post, path, dict(name=LEVER_PLAN, steps=steps))
        else:
            write = partial(self.client.patch, "%s/%s" % (path, current["id"]), dict(steps=steps))
        self.change(write, before=without_moment(lever), after=without_moment(pulled))
        return dict(lever=pulled)


def without_moment(lever):
    """The lever for --diff: its moment left out, which differs in every pull."""
    return dict((key, value) for key, value in lever.items() if key != "at")


def main():
    SafetyLeverModule(argument_spec=OPTIONS).run()


if __name__ == "__main__":
    main()
