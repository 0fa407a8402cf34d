# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""One game day on the controller, around its rehearsal: its begin - the scenario read and checked against its blast
radius before anything is read or written, and the rehearsal a stopped game day left unreported taken up - and its end -
what the rehearsal came to, judged against the scenario's earlier runs in the ledger, its report written and entered
there, its outcome said; or, instead of a rehearsal, the safety lever pulled (pull_lever). The rehearsal itself is a run
of its runbook on the engine (an application's nodes, each one), which the role replication.recovery.game_day includes
between the two, beside what else is Ansible's: your probes' tasks, set_stats and the failure."""

from ansible_collections.replication.recovery.plugins.module_utils._domain import parse_list
from ansible_collections.replication.recovery.plugins.module_utils._lever import ENGAGED, RELEASED
from ansible_collections.replication.recovery.plugins.plugin_utils._files import controller_now
from ansible_collections.replication.recovery.plugins.plugin_utils._game_day import APPLICATION, ScenarioRefused, plan_of, refused_said
from ansible_collections.replication.recovery.plugins.plugin_utils._ledger import newest_entries, to_read
from ansible_collections.replication.recovery.plugins.plugin_utils._measures import PASSED
from ansible_collections.replication.recovery.plugins.plugin_utils._options import OptionRefused, holds_secret, typed
from ansible_collections.replication.recovery.plugins.plugin_utils._outcomes import CANCELLED, COMMITTED, NOTHING_DONE, PLANNED, REFUSED
from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import BY_NAME
from ansible_collections.replication.recovery.plugins.plugin_utils._shapes import made
from ansible_collections.replication.recovery.plugins.plugin_utils._step import Driven, StepFailed, read_report


# What a pull of the lever means to the rehearsals in its projects, by the state it was pulled to.
LEVER_MEANS = {
    ENGAGED: "Every rehearsal there - DR test, clean point search, restore test, a failover that rolls back in a test network, the DR tests "
             "of an application - is cancelled before it writes, and one that runs stops at its next look and cleans up; a failover or "
             "failback goes on, and says so.",
    RELEASED: "Rehearsals there may run again.",
}


def lever_projects(scenario):
    """The projects of the lever when none are named: the blast radius's of the scenario (a mapping, or its text); refused
    when it names none."""
    try:
        radius = (typed("game_day_scenario", dict(type="dict"), scenario) or {}).get("blast_radius") or {}
        projects = parse_list(radius.get("projects") if isinstance(radius, dict) else None, "game_day_scenario's blast_radius.projects")
    except (OptionRefused, ValueError) as error:
        raise StepFailed("%s. Nothing was changed." % str(error).rstrip("."))
    if not projects:
        raise StepFailed("Name the projects of the safety lever (game_day_projects, or the blast_radius.projects of game_day_scenario). "
                         "Nothing was changed.")
    return projects


class GameDayRun(Driven):
    """A game day, as the step that drives it now sees it: ``dry_run`` (game_day_dry_run), and the ledger it reads and
    enters its report in (``ledger_dir``, as given)."""

    def __init__(self, step, dry_run, ledger_dir):
        super(GameDayRun, self).__init__(step)
        self.planned = dry_run or self.check_mode
        self.dry_run = dry_run
        self.ledger_dir = ledger_dir

    def begin(self, scenario):
        """The scenario as the game day runs it (_game_day.plan_of), refused by name when it cannot run; and the rehearsal a
        stopped run of it left unreported, which this run reports rather than rehearse anew (None for none, and when it plans)."""
        try:
            plan = plan_of(scenario)
        except ScenarioRefused as refused:
            raise StepFailed(refused_said(scenario, refused))
        unreported = None if self.planned else self.unreported(plan)
        if unreported is not None:
            self.say("This game day's rehearsal, the %s begun %s, ended (%s) before the game day that ran it reported it - it was "
                     "stopped in between. This run reports it, and rehearses nothing anew; run the game day again for a new "
                     "rehearsal." % (plan["subject"], unreported.get("run_began"), unreported.get("outcome")))
        # A node's connection in another account carries its secrets: then the answer is not shown (-v).
        return dict(changed=False, plan=plan, unreported=unreported, _ansible_no_log=holds_secret(plan))

    def unreported(self, plan):
        """The rehearsal of this game day that a stopped run of it left unreported: the newest report of its runbook in the
        ledger (in its project; an application's, in any) is this game day's, and no game day report came after it."""
        ledger = to_read(self.ledger_dir)
        newest = newest_entries(ledger, plan["runbook"], plan["project"]) if ledger else []
        if not newest or newest[0]["report"].get("game_day") != plan["name"]:
            return None
        return None if newest_entries(ledger, "game_day", plan["project"], after=newest[0]["sequence"]) else newest[0]["report"]

    def end(self, plan, unreported, reported, error):
        """What the game day came to, once its rehearsal ended (or was refused, or planned): ``reported`` is what its runbook
        answered (the engine's runbook_reported, or an application's), ``error`` why it did not pass, if it did not. Its
        report is written and entered in the ledger (not when it planned, or nothing was rehearsed) and its outcome said.
        Answers ``game_day``, what set_stats publishes, and ``message`` when the game day did not pass."""
        outcome, rehearsal, error = self.rehearsed(plan, unreported, reported, error)
        judged, written = {}, {}
        if not self.planned and rehearsal is not None:
            try:
                judged = made(BY_NAME["game_day"], dict(scenario=plan, rehearsal=rehearsal), controller_now(), to_read(self.ledger_dir))
            except ValueError as unmade:
                raise StepFailed("The game day's report cannot be made: %s." % unmade)
            written = self.step.report_written(judged, plan["with"]["report_dir"], "game_day_" + plan["name"], self.ledger_dir)
            outcome = judged["outcome"]  # as its report judged it: a failover's rehearsal that rolled back, as it always does, passed
        regression = judged.get("regression") or {}
        self.say(" ".join(words for words in (
            "Game day %s: %s%s." % (plan["name"], outcome.upper(), " (dry run)" if self.dry_run else ""),
            "Hypothesis: %s - %s." % (plan["hypothesis"], self.hypothesis_said(outcome, judged, rehearsal)), regression.get("said")) if words))
        for line in written.get("lines") or []:
            self.say(line)
        published = dict(name=plan["name"], outcome=outcome, project=plan["project"], dry_run=self.dry_run, regressed=regression.get("regressed"),
                         regression=[finding["said"] for finding in regression.get("findings") or []], report=written.get("report"))
        answer = dict(changed=bool(written.get("changed")), game_day=published)
        if error is not None:
            answer["message"] = "Game day %s did not pass. %s" % (plan["name"], error)
        return answer

    def rehearsed(self, plan, unreported, reported, error):
        """What the rehearsal came to before the game day judges it: its outcome word, its report (None when it wrote none),
        and why the game day did not pass (None when nothing says it did not)."""
        outcome, rehearsal = (reported.get("outcome") or {}).get("outcome"), None
        if plan["runbook"] == APPLICATION and reported.get("message") is not None:
            error = reported["message"]  # an application leaves its failure to the game day
        if unreported is not None:
            rehearsal, outcome = unreported, unreported["outcome"]
            if unreported.get("result") != PASSED:
                error = "%s: %s. %s" % (plan["subject"], outcome.upper(), "; ".join(unreported.get("failures") or []))
        elif ((reported.get("outcome") or {}).get("report") or {}).get("json"):
            rehearsal = read_report(reported["outcome"]["report"]["json"])
        if outcome is None:
            outcome = PLANNED if self.planned and error is None else CANCELLED if (error or "").startswith("Cancelled") else REFUSED
        return outcome, rehearsal, error

    def pull_lever(self, state, reason, by, projects, scenario):
        """The safety lever of ``projects`` (else of the scenario's blast radius) pulled to ``state``, in one session: every
        project's lever read first - a project that does not exist is refused before any lever is pulled - then each pulled,
        and the outcome said once. Answers ``game_day_lever``, what set_stats publishes."""
        projects = projects or lever_projects(scenario)
        if not (reason or "").strip():
            raise StepFailed("Give the reason the lever is pulled (game_day_lever_reason): every run it stops says it. Nothing was changed.")
        # By default the AWX user who launched the job, else the user signed in (the module's own default).
        by = by or self.task_vars.get("awx_user_name", self.task_vars.get("tower_user_name")) or None
        with self.step.one_session():
            for project in projects:
                self.service("service_safety_lever", project=project)
            # Each pulled, whatever another's pull met: a lever engaged in an emergency holds in every project it can.
            pulled = dict((project, self.service("service_safety_lever", failed_ok=True, project=project, state=state, reason=reason, by=by))
                          for project in projects)
        failed = ["%s (%s)" % (project, result.get("msg")) for project, result in pulled.items() if result.get("failed")]
        changed = [project for project, result in pulled.items() if result.get("changed") and not result.get("failed")]
        if failed:
            raise StepFailed("The safety lever of %s was not pulled: %s. %s" % (
                ", ".join(project for project, result in pulled.items() if result.get("failed")), "; ".join(failed),
                "It was pulled in %s." % ", ".join(changed) if changed and not self.check_mode else "Nothing was changed."))
        outcome = PLANNED if self.check_mode else COMMITTED if changed else NOTHING_DONE
        done = (" under --check: %d would change, nothing was written." % len(changed) if self.check_mode else
                ": %d changed (%s)." % (len(changed), ", ".join(changed)) if changed else ": every lever was so already.")
        puller = pulled[projects[0]]["lever"].get("by")
        self.say("Safety lever of %s: %s%s (%s). %s%s %s" % (", ".join(projects), state.upper(), " by %s" % puller if puller else "", reason,
                                                             outcome.upper(), done, LEVER_MEANS[state]))
        return dict(changed=bool(changed), game_day_lever=dict(state=state, reason=reason, projects=projects, changed=changed))

    @staticmethod
    def hypothesis_said(outcome, judged, rehearsal):
        """Whether the rehearsal bore the hypothesis out, in the words of the game day's line."""
        if outcome == PLANNED:
            return "planned, not tried"
        if outcome in (REFUSED, CANCELLED):
            return "not tried"
        if judged and judged.get("borne_out") is None:
            return judged["hypothesis_said"]  # stopped by the lever, say: not a finding of the rehearsal's
        return "borne out" if (rehearsal or {}).get("result") == PASSED else "not borne out"
