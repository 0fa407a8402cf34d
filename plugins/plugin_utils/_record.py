# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The run's record: what a runbook was asked and what its steps did, one JSON object, with a declared shape.

Every member is in MEMBERS, with the phase of the run that makes it and what it holds (docs/developing.md shows the table).
The run's beginning makes the record with ``new``: every member made when the run begins is there from then on,
with its first value. The members a later step makes are absent until it does. A step reads and writes the
record only through these names: a member the table does not declare is a bug, and the record refuses it
(``UndeclaredMember``), which the unit tests turn into a failure. No step changes what another judges except
through a member named here; the table says who writes a member that another step reads. The unit tests read every
step's code for the members it names; a member named by a variable, or written through ``update`` or ``|=``, the
record itself refuses when the step runs.

The record is kept on the controller beside the run (see plugin_utils._step): never in Ansible's variables (a
thousand machines templated at every step cost seconds each time), and never with a secret in it.
"""

import copy

from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import BY_NAME

# The phases of a run (plugin_utils._run) that make members, and the failback's own step.
BEGIN = "begin"
READ = "read"
LAUNCH = "launch"
LOOK = "look"
CLEAN_UP = "clean up"
REVERSE = "runbook_reverse"
ANY = "any step"

# (member, the phase that makes it, what it holds). Made as the run begins: there from the start, with the first value below.
MEMBERS = (
    # -- what the runbook was asked (the beginning, from its options) ------------------------------------------------
    ("runbook", BEGIN, "The runbook's name (dr_test, failover, ...): its files, groups, ledger kind and variables' prefix."),
    ("title", BEGIN, "The runbook's name in words, for messages (DR test, failover)."),
    ("project", BEGIN, "The project, as given (a name or an ID)."),
    ("launch_type", BEGIN, "test, recovery, cutover or debug."),
    ("kind", BEGIN, "What the launch type launches: test (test and debug), recovery or cutover (module_utils._domain.kind_of)."),
    ("policy", BEGIN, "The point-in-time policy, parsed (module_utils._domain.parse_point_policy): kind, points, said."),
    ("point_in_time", BEGIN, "The policy in words, for the report."),
    ("points_in_time", BEGIN, "Per machine, the point-in-time ID asked for (a per-machine policy, a plan, a clean point report), or None."),
    ("points_from", BEGIN, "The clean point report the points come from (report, without), or None."),
    ("pinned", BEGIN, "Per machine, the point it launches from: given (a search round), or pinned by the read when the run begins."),
    ("points_as_of", BEGIN, "The moment (the service's clock) as of which the points are taken when the policy has none of its own - "
                            "when an application's run began - or None."),
    ("points_strict", BEGIN, "Stop before a wave whose pinned point the service thinned out, instead of taking the one before it."),
    ("pin", BEGIN, "Whether points are pinned when the run begins (False: each launch takes the latest, as the failback does)."),
    ("plan_file", BEGIN, "The plan written under --check that this run carries out (path, token, machines, waves, points), or None."),
    ("replace", BEGIN, "Production machines to replace (machines) and the confirmation token given (confirm)."),
    ("roll_back", BEGIN, "Whether the run removes what it launched at its end (a failover that does not commit)."),
    ("stop_when", BEGIN, "The stop conditions (plugin_utils._stops): the probes watched while the run goes on, the failures in a row "
                         "of each, the timeline of their looks, and the one that stopped the run (stopped_by) or None."),
    ("blast_radius", BEGIN, "The machines the run may touch, by name, glob pattern or tag:<tag>, or None (any): one outside it that "
                            "would take part is refused before the first write (the read)."),
    ("game_day", BEGIN, "The game day the run rehearses for (its scenario's name), or None: in the report, so that a game day stopped "
                        "before its own report reports this run when run again."),
    ("round", BEGIN, "The clean point search's round this run is, or None: its hosts' groups carry it."),
    ("recovery_plan", BEGIN, "The recovery plan run instead of a launch (name or ID), or None."),
    ("asked", BEGIN, "The machines asked for: machines (or None for all), unproven, exclude, waves (groups of names or patterns)."),
    ("ledger_dir", BEGIN, "The ledger of runs the report is entered in (None: the default one)."),
    ("report_dir", BEGIN, "The directory the report is written in, or None: the read proves it takes the reports at the run's scale."),
    ("gate", BEGIN, "The health gate: states, max_lag, no_backlog, lag_threshold, enforce, name."),
    ("adopt", BEGIN, "Whether a launch an earlier run of the runbook left is adopted (else cleaned up and launched again)."),
    ("on_failed_over", BEGIN, "What a failed-over machine means to this runbook: refuse, stand (a failover) or own (a failback)."),
    ("clean_leftovers", BEGIN, "Whether target machines of the launch type that no run of this runbook launched are cleaned up first."),
    ("blocking", BEGIN, "Launch types whose machines block this run (kinds), whether to clean them (clean, option), and those found (machines)."),
    ("launch_settings", BEGIN, "The launch settings check: check, strict; the read adds region, problems, unchecked, defaults, "
                               "private_ips, unproven."),
    ("test_network", BEGIN, "The test network (network), the blueprints switched for this run (tested_in), found switched by an earlier run "
                            "(found) and what to (found_in), put back (restored) and left as somebody else set them (refused), and the machines of a "
                            "launch it adopted whose blueprint no longer shows its switch (unseen)."),
    ("targets", BEGIN, "The RPO and RTO targets in seconds (rpo_seconds, rto_seconds), or None each."),
    ("settings", BEGIN, "How the run works: checks_tasks, checks_name, check_public_ip, keep_on_failure, add_hosts, host_prefix, group, "
                        "clean_leftovers_option, and the waits "
                        "(launch_timeout, boot_timeout, cleanup_timeout, poll_interval, progress_interval)."),
    ("max_waves", BEGIN, "The most waves this way of running unrolls (the playbook's), or None for any number."),
    ("began", BEGIN, "When the run began, on the controller's clock: its files are named after it."),
    ("checked_dir", BEGIN, "The directory the user's checks write their results to, one file per machine (plugin_utils._step)."),
    # -- who signed in (the beginning, once the login answered) -------------------------------------------------------
    ("username", BEGIN, "The user the run signed in as: an earlier run's jobs are this user's."),
    ("account", BEGIN, "The account signed in to: a clean point journal is this account's."),
    # -- what the service shows, and what the run did (made empty by the beginning, filled by the steps) --------------
    ("project_id", BEGIN, "The project's ID, once the read (or runbook_reverse) found it; None before."),
    ("started", BEGIN, "The service's time the machines were read at (the read): the start of every RPO."),
    ("machines", BEGIN, "The machines taking part (the read): name, id and what the report needs of each."),
    ("excluded", BEGIN, "The machines left out, by name (the read)."),
    ("health", BEGIN, "The health gate's verdict per machine (the read)."),
    ("waves", BEGIN, "The waves (the read): machines, status, and the launch job once launched (the launch)."),
    ("launched", BEGIN, "Per machine launched: its launch (wave, target, point in time, launch_requested) (the launch)."),
    ("failed_machines", BEGIN, "Per machine that did not launch, why (the launch)."),
    ("view", BEGIN, "Per launched machine, its target machine as the service shows it: running, up, addresses (the look)."),
    ("checked", BEGIN, "Per machine, the result of the user's checks (collected from checked_dir by the report and the cleanup)."),
    ("earlier", BEGIN, "What an earlier run of the runbook left: its jobs, machines to adopt or clean, the machines its launches "
                       "launched (the read), then what the resume did with them."),
    ("cleanup", BEGIN, "The cleanup: its job, what was terminated, kept and proven gone (the cleanup)."),
    ("stands", BEGIN, "Per failed-over machine that stands (a failover run again): since when, from which point, its instance (the read)."),
    ("replaced", BEGIN, "Per production machine this run replaces (failover_replace): its target machine before (the read)."),
    ("production", BEGIN, "Per taking-part machine whose recovery or cutover machine runs production, what runs (the read)."),
    # -- made later, by the step named ------------------------------------------------------------------------------
    ("failure", ANY, "What stopped the run: phase, message (and task, when a task outside the steps stopped it). The first one stays."),
    ("run_checks", READ, "Checks of the run as a whole (not of a machine), each name, status, message: the read and runbook_reverse add them."),
    ("nothing_to_test", READ, "True when machines=unproven found every machine proven: the run passes without a launch."),
    ("to_launch", READ, "The machines the run would launch, by name (what --check reports)."),
    ("pinned_at", READ, "When the points were pinned, on the controller's clock."),
    ("points_moment", READ, "points_as_of, when the read took it: the newest point at or before it is each machine's."),
    ("pins_from", READ, "The points kept in the service (pin marks): the run that pinned them (run), whether this run wrote them (marked), "
                        "the machines whose points it took from them (machines)."),
    ("plan", READ, "The recovery plan run, as read: id, name, steps."),
    ("lever", READ, "The project's safety lever when it was seen engaged (module_utils._lever): state, by, at, reason; obeyed (a rehearsal "
                    "cancelled or stopped by it, not a failover that went on); seen, when a running rehearsal saw it (the launch)."),
    ("drill_marks", READ, "The machines whose target machine carries a drill mark (an earlier DR test's): a stale one is removed before "
                          "a failover launches over it."),
    ("predicted", LAUNCH, "Under --check, the machines the launches would launch, by name."),
    ("repinned", LAUNCH, "Per machine whose pinned point was thinned out before its wave (or, under --check, before the run "
                         "that takes up a stopped one: the read plans it): the point planned, the one taken, the data lost."),
    ("thinned_out", LAUNCH, "A search's round: the machines whose candidate point was thinned out before the launch, left out of it (the "
                            "search plans them again)."),
    ("drill", LAUNCH, "The machines this run launched as a drill (marked), by name."),
    ("failback", REVERSE, "The failback's state: the recovery machines (recovery), those removed, its stage, whether its first write "
                          "was sent (written), when replication was reversed and returned."),
    ("failback_plan", REVERSE, "What the failback's plan binds: its machines and whether it removes the recovery machines."),
    ("keeps_launched", REVERSE, "True for a failback: what it launches is production, adopted when run again and never cleaned up. "
                                "the read and the resume judge by it."),
    ("spare", REVERSE, "Replica IDs this run owns though it did not launch them (the failback's recovery machines): the read spares "
                       "them from an earlier run's leftovers."),
    ("gate_deferred", REVERSE, "Why the gate is shown and not enforced (the failback's data-loss guard under --check, judged after a "
                               "reverse that did not happen), or absent: the read judges by it."),
)
DECLARED = frozenset(name for name, unused_by, unused_what in MEMBERS)
MADE_BY_BEGIN = tuple(name for name, by, unused_what in MEMBERS if by == BEGIN)

# The first value of each member the beginning makes that it does not take from what the runbook was asked.
EMPTY = dict(project_id=None, username=None, account=None, started=None, machines=[], excluded=[], health={}, waves=[], launched={},
             failed_machines={}, view={}, checked={}, earlier={}, cleanup={}, stands={}, replaced={}, production={}, checked_dir=None)


class UndeclaredMember(KeyError):
    """A step read or wrote a member of a run's record that its table does not declare: a bug in the step."""

    def __init__(self, name, declared=None):
        declared = declared or Record
        super(UndeclaredMember, self).__init__("%s has no member %r (%s declares every member): a bug in the step." % (
            declared.WHAT, name, declared.WHERE))


class Declared(dict):
    """A run's record: a dict that holds only the members its class declares (DECLARED), and refuses any other where
    it is read or written."""

    DECLARED = frozenset()
    WHAT = WHERE = None

    def __init__(self, *given, **members):
        dict.__init__(self)
        self.update(*given, **members)

    def _declared(self, name):
        if name not in self.DECLARED:
            raise UndeclaredMember(name, type(self))
        return name

    def __getitem__(self, name):
        return dict.__getitem__(self, self._declared(name))

    def __setitem__(self, name, value):
        dict.__setitem__(self, self._declared(name), value)

    def __contains__(self, name):
        return dict.__contains__(self, self._declared(name))

    def get(self, name, default=None):
        return dict.get(self, self._declared(name), default)

    def setdefault(self, name, default=None):
        return dict.setdefault(self, self._declared(name), default)

    def pop(self, name, *default):
        return dict.pop(self, self._declared(name), *default)

    def update(self, *given, **members):
        changes = dict(*given, **members)
        for name in changes:
            self._declared(name)
        dict.update(self, changes)

    def __ior__(self, other):  # record |= {...}, which dict's own would write unchecked
        self.update(other)
        return self


class Record(Declared):
    """The run's record on the engine, with names for the parts many steps touch."""

    DECLARED = DECLARED
    WHAT = "The run's record"
    WHERE = "plugins/plugin_utils/_record.py"

    # -- the parts many steps touch -------------------------------------------------------------------------------

    @property
    def settings(self):
        return self["settings"]

    @property
    def test_network(self):
        return self["test_network"]

    @property
    def rehearses(self):
        """Whether the run rehearses, and so obeys the project's safety lever (module_utils._lever): a runbook that
        rehearses (plugin_utils._runbooks), or a failover that rolls back in an isolated test network - a game day's.
        A failover or failback that stays is never held back by the lever."""
        return BY_NAME[self["runbook"]].rehearses or bool(self["roll_back"] and self.test_network["network"])

    def wave(self, number):
        """Wave ``number`` (1 for the first), or an empty one when the run has no such wave."""
        waves = self["waves"]
        return waves[number - 1] if 0 < number <= len(waves) else {}


def new(**members):
    """A new run's record: every member the beginning makes, from ``members`` (what the runbook was asked) and EMPTY."""
    missing = [name for name in MADE_BY_BEGIN if name not in members and name not in EMPTY]
    if missing:
        raise ValueError("Bug in the run's beginning: the run's record is made without %s." % ", ".join(missing))
    record = Record()
    record.update(copy.deepcopy(EMPTY))
    record.update(members)
    return record


def as_record(value):
    """A record read back (a JSON object) as a Record, refusing a member the table does not declare."""
    return Record(value)


def parts_of(wave):
    """The machines of each job a wave of the record is sent in: several when it is larger than a job may take (the
    service's limits: the read)."""
    return wave.get("parts") or [wave["machines"]]
