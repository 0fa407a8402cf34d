#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

# The module is an action plugin (plugins/action/application_step.py); this file documents it.

DOCUMENTATION = r"""
module: application_step
short_description: A step of the application runbook, on the controller
version_added: 2.0.0
description:
  - The steps the role C(replication.recovery.application) takes on the controller, between the runs of its nodes (each
    node a DR test or a failover of one project). It reads and writes the controller's files; the nodes' runs speak to
    the service. O(phase=begin) alone asks the service for its clock (a sign-in, the time, a sign-out; one for each other
    service a node's C(connection) names), for the moment of every node's points in time.
  - O(phase=begin) checks the application (every fault at once, before anything is written), orders its nodes by level,
    forecasts its RTO from the ledger of runs, takes an approval, and answers the nodes as hosts to add to the inventory.
    Each node's host carries C(runbook_points_as_of) - the service's now, when the run began, or the moment of O(plan) -
    so that every node takes its points in time as of one moment. An application run that did not end (stopped, or
    waiting for an approval) is resumed with its moment, and the nodes it ended are adopted. Under check mode it writes
    the plan that O(plan) carries out.
  - O(phase=level) says which nodes of a level run now. O(phase=approve), at a terminal, asks for the approval of each node
    that waits for one (without a terminal it asks nothing and does not wait). O(phase=node) keeps a node's outcome from
    its run's report. O(phase=result) says what the run came to and, once it ended, which nodes of a DR test kept test
    machines to clean up (each node keeps them for the nodes after it); O(phase=cleaned) keeps what their cleanup did.
    O(phase=end) writes the application's report (JSON, JUnit XML, Markdown, an HTML page with the graph) and enters it in
    the ledger.
  - Use the role or the playbook C(replication.recovery.application); this module is their plumbing, documented so that
    C(ansible-doc) shows what each task does.
options:
  phase:
    description: The step.
    type: str
    required: true
    choices: [begin, level, approve, node, result, cleaned, end]
  name:
    description: The application's name, in its files' names. With O(phase=begin).
    type: str
    default: application
  runbook:
    description: What each node runs, C(dr_test) or C(failover). With O(phase=begin).
    type: str
    default: dr_test
  nodes:
    description: The nodes, as the role's C(application_nodes) documents them. With O(phase=begin).
    type: raw
  plan:
    description:
      - A plan written by O(phase=begin) under check mode, carried out exactly - its nodes (O(nodes), when given too, must
        be the same) and the moment of its points in time. With O(phase=begin).
    type: path
  report_dir:
    description: Where the application's report and its run's state are written. With O(phase=begin).
    type: path
  approve:
    description: An approval, as the role's C(application_approve) documents it. With O(phase=begin).
    type: raw
  state:
    description: The application run's state directory, as O(phase=begin) answers it. With the other phases.
    type: path
  level:
    description: The level. With O(phase=level).
    type: int
  node:
    description: The node whose run ended. With O(phase=node).
    type: str
  report:
    description: The JSON report of the node's run. With O(phase=node); without it the node failed with O(error).
    type: path
  attempt:
    description: Which launch of the node this was, 0 for the first (a retry is 1, 2, ...). With O(phase=node).
    type: int
    default: 0
  began:
    description: When the node's level let it run (RFC 3339), as O(phase=level) answers it. With O(phase=node).
    type: str
  error:
    description: Why the node's run ended without a report (O(phase=node)), or why its cleanup failed (O(phase=cleaned)).
    type: str
  again:
    description: The levels run again, after approvals given at a terminal; a node ended already is not said again. With O(phase=level).
    type: bool
    default: false
  removed:
    description: The test machines the node's cleanup terminated. With O(phase=cleaned); with O(error), the cleanup failed.
    type: list
    elements: str
    default: []
  approval_timeout:
    description: Seconds to wait for each answer at a terminal; V(0) asks nothing. With O(phase=approve).
    type: int
    default: 300
  game_day:
    description:
      - The game day whose rehearsal the application's run is (its name, C(runbook_game_day)), kept in its report as
        C(game_day). With O(phase=end).
    type: str
  ledger_dir:
    description:
      - The ledger of runs (C(replication_recovery_ledger_dir)) - read by O(phase=begin) for the forecast, written by
        O(phase=end) once the run ended. The default ledger if not given.
    type: path
attributes:
  check_mode:
    details: Under check mode nothing is written but the plan; O(phase=begin) answers the plan and the forecast.
extends_documentation_fragment:
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.runbook.LEDGER
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Begin the application's run
  replication.recovery.application_step:
    phase: begin
    name: shop
    runbook: dr_test
    nodes:
      identity: {project: identity}
      db: {project: db, after: [identity]}
      app: {project: app, after: [db], approval: true}
    report_dir: /srv/reports
  register: application_begun
"""

RETURN = r"""
state:
  description: The application run's state directory.
  returned: O(phase=begin)
  type: str
hosts:
  description: The nodes as hosts to add, each with its level's group and its runbook's variables.
  returned: O(phase=begin)
  type: list
  elements: dict
levels:
  description: The nodes' names by level.
  returned: O(phase=begin)
  type: list
  elements: list
points_as_of:
  description: Per node, the moment (RFC 3339, its service's clock) as of which it takes its machines' points in time.
  returned: O(phase=begin)
  type: dict
plan:
  description: Under check mode, the plan written (C(application_<name>.<start>.plan.json)), for O(plan).
  returned: O(phase=begin), under check mode
  type: str
forecast:
  description:
    - The RTO forecast from the ledger, in seconds - C(p50_seconds), C(p90_seconds) (the sum over the levels of each
      level's slowest node), C(at_least) and C(unmeasured) (nodes the ledger never measured), C(levels), C(nodes).
  returned: O(phase=begin)
  type: dict
lines:
  description: What the step says, a line each.
  returned: O(phase=begin), O(phase=level), O(phase=approve), O(phase=end)
  type: list
  elements: str
decisions:
  description: Per node of the level, C(run) (whether it runs now), C(state) and C(reason).
  returned: O(phase=level)
  type: dict
outcome:
  description:
    - With O(phase=node), the node's outcome (C(state), C(failed_machines), C(optional_failed), C(retry_machines)).
    - With O(phase=end), the application's (C(result), C(waiting), C(nodes), C(report)).
  returned: O(phase=node), O(phase=end)
  type: dict
approved:
  description: The nodes approved at the terminal.
  returned: O(phase=approve)
  type: list
  elements: str
result:
  description: What the application's run came to so far.
  returned: O(phase=result)
  type: str
to_clean:
  description: Per node host, the machines whose test machines it kept and that the cleanup play terminates.
  returned: O(phase=result)
  type: dict
cleanup:
  description: What the node's cleanup did - C(proven), C(removed), C(error).
  returned: O(phase=cleaned)
  type: dict
message:
  description: Why the application failed.
  returned: O(phase=end), when it failed
  type: str
"""
