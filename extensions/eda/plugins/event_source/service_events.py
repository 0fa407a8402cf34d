# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""replication.recovery.service_events: an event source for Event-Driven Ansible that watches the
Replication and Recovery Service and puts one event on the rulebook's queue per change. The watch
itself is plugins/plugin_utils/_events.py; this file reads the arguments, keeps the state file and
paces the looks."""

import asyncio
import json
import logging
import os
import sys

try:
    from ansible_collections.replication.recovery.plugins.plugin_utils import _events
except ImportError:
    # ansible-rulebook runs a source by its path: the directory that holds ansible_collections is
    # not always importable. It is seven levels above this file's directory.
    sys.path.append(os.path.abspath(os.path.join(os.path.dirname(__file__), *[os.pardir] * 7)))
    from ansible_collections.replication.recovery.plugins.plugin_utils import _events

from ansible_collections.replication.recovery.plugins.module_utils._client import HAS_REQUESTS
from ansible_collections.replication.recovery.plugins.module_utils._connection import connection_settings, make_client
from ansible_collections.replication.recovery.plugins.module_utils._domain import parse_flag, parse_number
from ansible_collections.replication.recovery.plugins.plugin_utils._files import write_json

DOCUMENTATION = r"""
---
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
short_description: Events of the Replication and Recovery Service, as they happen
description:
  - Watches the projects of the Replication and Recovery Service and puts one event on the rulebook's queue
    for each change - a job started, ended or failed; a machine's replication state changed; its lag crossed
    O(lag_threshold) up or down; its backlog kept growing; a machine registered or removed; a licence nearing
    its end; a project's safety lever engaged or released; with O(ledger_dir), a game day stopped.
  - Each look costs one read of the account (its projects and the service's clock) and, per project watched,
    one list of machines, one page of its newest jobs and its recovery plans (its safety lever - C(lever_engaged),
    C(lever_released)); the licences are read every O(license_interval)
    seconds. The first look at a project tells nothing - it is what the next looks are compared with.
  - With O(state_file), what was seen is kept between runs - a source restarted tells no change it already
    told, and tells what changed while it was stopped. The state is written before the events are put on
    the queue - a change is told at most once. With O(feedback) as well, a change is told until the rules have it - at
    least once - each event stays in the state file until ansible-rulebook says its rule engine has taken it, and a source
    restarted (killed, its activation restarted) tells those first, again.
  - Faults of the service are met as the collection's modules meet them - reads retried within
    O(retry_timeout), a new session after a 401. A look that still fails is told once, as C(watch_failed),
    and the watch goes on; C(watch_recovered) tells that it sees again.
  - An event never carries a secret - no password, token or session.
  - The published interface gives no end date of an API token - such an event cannot be told.
options:
  api_url:
    description: Base URL of the service's interface. If not set, E(REPLICATION_SERVICE_URL).
    type: str
  username:
    description: User to log in as, with O(password). If not set, E(REPLICATION_SERVICE_USERNAME).
    type: str
  password:
    description: Password of O(username). If not set, E(REPLICATION_SERVICE_PASSWORD).
    type: str
  api_token:
    description: API token of a user, used instead of O(username) and O(password). If not set, E(REPLICATION_SERVICE_API_TOKEN).
    type: str
  validate_certs:
    description: Whether to verify the service's TLS certificate. If not set, E(REPLICATION_SERVICE_VALIDATE_CERTS).
    type: bool
    default: true
  ca_path:
    description: A file of CA certificates to verify the service's certificate with. If not set, E(REPLICATION_SERVICE_CA_PATH).
    type: path
  timeout:
    description: Seconds to wait for each answer of the service. If not set, E(REPLICATION_SERVICE_TIMEOUT).
    type: int
    default: 30
  retry_timeout:
    description: Seconds within which reads and logins are retried after a fault of the service. If not set, E(REPLICATION_SERVICE_RETRY_TIMEOUT).
    type: int
    default: 60
  projects:
    description: The projects to watch, by name, ID or glob pattern; all that the user sees when not given.
    type: list
    elements: str
  interval:
    description: Seconds between looks.
    type: float
    default: 60
  lag_threshold:
    description: The lag, in seconds, whose crossing up (C(lag_over_threshold)) or down (C(lag_within_threshold)) is told.
    type: int
    default: 3600
  backlog_looks:
    description: Looks in a row in which a machine's backlog grew before C(backlog_growing) is told (once, until it stops growing).
    type: int
    default: 3
  license_days:
    description: Days before a licence's end from which C(license_expiring) is told (once per licence and end). V(0) tells none.
    type: int
    default: 30
  license_interval:
    description: Seconds, on the service's clock, between reads of the licences.
    type: float
    default: 3600
  audit:
    description:
      - Whether to read a project's audit log, since the last look, when a machine's replication changed in it or a
        machine left - its events then say who did it (C(by), C(audit_event)). One more request, only then.
    type: bool
    default: true
  ledger_dir:
    description:
      - A ledger of runs to watch too, the runbooks' C(replication_recovery_ledger_dir). Each game day entered in it that
        was stopped - by a stop condition or a project's safety lever - is told as C(game_day_stopped), with its scenario,
        project, what stopped it and its ledger entry. Only the entries after the last one seen are read, and no request
        is made for them.
      - Under AWX, the ledger's lasting path, where the rulebook's activation can read it.
    type: path
  state_file:
    description: A JSON file that keeps what was seen between runs (written whole or not at all). Made when missing.
    type: path
  once:
    description: Look twice, O(interval) apart, put what changed on the queue, and end (for tests and for a one-off check).
    type: bool
    default: false
  feedback:
    description:
      - Whether to wait, after each event, until ansible-rulebook says its rule engine has taken it (the source's
        C(feedback) in the rulebook - ansible-rulebook then hands the source O(eda_feedback_queue), when it runs with a
        persistence ID, as the Event-Driven Ansible controller runs it) - before the next event is put on the
        queue, and before the event leaves the state file (O(state_file)).
      - Delivery is then at least once, and a rule's action must be idempotent. Once its rule engine took the event,
        ansible-rulebook keeps it in its own database (the controller's, or H2's with the variable C(drools_db_file_path)),
        and after a kill runs the rule's action again, even one that had already taken its effect.
    type: bool
    default: false
  feedback_timeout:
    description: Seconds to wait for that word, for each event; the source then fails, its event kept in the state file.
    type: float
    default: 120
  eda_feedback_queue:
    description:
      - The queue on which ansible-rulebook says its rule engine has taken an event - given by ansible-rulebook when the
        rulebook sets the source's C(feedback), never by hand.
    type: raw
"""

EXAMPLES = r"""
- name: Restore replication health as it breaks
  hosts: localhost
  sources:
    - replication.recovery.service_events:
        projects: [production]
        interval: 60
        lag_threshold: 900
        state_file: /var/lib/eda/replication-events.json
  rules:
    - name: A lag breach runs the health playbook for that project
      condition: event.type == "lag_over_threshold"
      action:
        run_playbook:
          name: replication.recovery.health
          extra_vars:
            health_projects: ["{{ event.project.name }}"]
"""

LOG = logging.getLogger("replication.recovery.service_events")
CONNECTION = ("api_url", "username", "password", "api_token", "validate_certs", "ca_path", "timeout", "retry_timeout")
KNOWN = CONNECTION + ("projects", "interval", "lag_threshold", "backlog_looks", "license_days", "license_interval", "audit", "ledger_dir",
                      "state_file", "once", "feedback", "feedback_timeout", "eda_feedback_queue")


def _number(args, name, default):
    value = parse_number(args.get(name), name)
    return default if value is None else value


def read_state(path):
    """The state kept in ``path``; a new one when there is no such file yet."""
    if not path or not os.path.exists(path):
        return _events.new_state()
    try:
        with open(path, encoding="utf-8") as handle:
            return _events.valid_state(json.load(handle))
    except (OSError, ValueError) as error:
        raise ValueError("The state file %s cannot be used: %s. Move it away to start afresh." % (path, error))


def write_state(path, state):
    """The state written whole or not at all: a source stopped while writing leaves the one before."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    write_json(os.path.abspath(path), state, sort_keys=True)


def watcher_from(args):
    """The watcher the arguments describe; a ValueError names an argument that is wrong."""
    if not HAS_REQUESTS:
        raise ValueError("the Python library requests is needed (the collection's requirements.txt): install it where ansible-rulebook runs")
    unknown = sorted(set(args) - set(KNOWN))
    if unknown:
        raise ValueError("unknown arguments: %s (known: %s)" % (", ".join(unknown), ", ".join(KNOWN)))
    projects = args.get("projects")
    if isinstance(projects, str):
        projects = [projects]
    if projects is not None and not (isinstance(projects, list) and all(isinstance(project, str) for project in projects)):
        raise ValueError("projects must be a list of project names, IDs or patterns")
    # Every argument of a type read now, named when wrong, before any request (those main reads itself, too).
    for name in ("timeout", "retry_timeout", "interval", "feedback_timeout"):
        _number(args, name, None)
    for name in ("validate_certs", "once"):
        parse_flag(args.get(name), name, default=False)
    client = make_client(connection_settings(dict((name, args.get(name)) for name in CONNECTION)))
    if not client.has_credentials:
        raise ValueError("no credentials: give api_token, or username and password (or REPLICATION_SERVICE_* in the environment)")
    license_days = _number(args, "license_days", 30)
    return _events.Watcher(client, projects=projects, lag_threshold=_number(args, "lag_threshold", 3600),
                           backlog_looks=_number(args, "backlog_looks", 3), license_days=license_days or None,
                           license_every=_number(args, "license_interval", 3600.0), state=read_state(args.get("state_file")),
                           audit=parse_flag(args.get("audit"), "audit", default=True),
                           ledger_dir=os.path.expanduser(args["ledger_dir"]) if args.get("ledger_dir") else None)


def feedback_of(args):
    """The queue on which ansible-rulebook says its rules took an event, when the rulebook asks for feedback; else None."""
    if not parse_flag(args.get("feedback"), "feedback", default=False):
        return None
    if args.get("eda_feedback_queue") is None:
        raise ValueError("feedback is true, but ansible-rulebook gave no eda_feedback_queue: set feedback: true on the source in the rulebook "
                         "(ansible-rulebook hands the queue to a source whose rulebook asks for it), or leave it out")
    return args["eda_feedback_queue"]


class Teller:
    """Puts a look's events on the queue, the state kept first: at most once, or - with feedback - each kept in the state
    file (pending) until ansible-rulebook says its rule engine took it, so that a source stopped meanwhile tells it again."""

    def __init__(self, queue, watcher, state_file, feedback=None, feedback_timeout=120.0):
        self.queue, self.watcher, self.state_file = queue, watcher, state_file
        self.feedback, self.feedback_timeout = feedback, feedback_timeout

    def keep(self):
        if self.state_file:
            write_state(self.state_file, self.watcher.state)

    async def tell(self, events):
        pending = self.watcher.state["pending"]
        pending.extend(events)
        if self.feedback is None:  # told at most once: the state says so before the events go
            told, pending[:] = list(pending), []
            self.keep()
            for event in told:
                await self.put(event)
            return
        self.keep()
        while pending:
            await self.put(pending[0])
            try:
                await asyncio.wait_for(self.feedback.get(), self.feedback_timeout)
            except asyncio.TimeoutError:
                raise TimeoutError("ansible-rulebook did not say within %s s that its rule engine took the event %s; it stays in the state file, "
                                   "told again when the source starts" % (self.feedback_timeout, pending[0]["type"]))
            pending.pop(0)
            self.keep()

    async def put(self, event):
        LOG.info("%s%s", event["type"], "".join(" %s" % event[key]["name"] for key in ("project", "machine") if key in event))
        await self.queue.put(event)


async def main(queue, args):
    """Look, keep the state, put the events on the queue, wait; until cancelled (or, with once, after two looks). What an
    earlier run kept as not yet taken by a rule (feedback) is told first."""
    watcher = watcher_from(args)
    interval = _number(args, "interval", 60.0)
    teller = Teller(queue, watcher, args.get("state_file"), feedback_of(args), _number(args, "feedback_timeout", 120.0))
    looks = 0
    try:
        await teller.tell([])
        while True:
            events = await asyncio.to_thread(watcher.look)
            looks += 1
            await teller.tell(events)
            if parse_flag(args.get("once"), "once", default=False) and looks >= 2:
                return
            await asyncio.sleep(interval)
    finally:
        await asyncio.to_thread(watcher.client.close)


if __name__ == "__main__":
    # Watch from a shell, events printed: python service_events.py '{"projects": ["production"], "interval": 10}'

    class _Printed:
        async def put(self, event):
            print(json.dumps(event, sort_keys=True), flush=True)

    asyncio.run(main(_Printed(), json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}))
