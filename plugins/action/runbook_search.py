# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The search for the newest clean point in time, round by round: plan a round (or continue the one a
stopped run left), judge it from the run of the shared steps that launched and checked it, end it, and
write the report. What the search learns is kept in its journal beside the report (plugin_utils._search).
Documented in plugins/modules/runbook_search.py."""

import os

from ansible_collections.replication.recovery.plugins.module_utils._domain import (
    iso_time, moment_said, no_value, parse_flag, parse_list, parse_moment, parse_time)
from ansible_collections.replication.recovery.plugins.module_utils._machines import launch_type_of_replica
from ansible_collections.replication.recovery.plugins.plugin_utils._judgement import Refused, take_part
from ansible_collections.replication.recovery.plugins.plugin_utils._shapes import page_of
from ansible_collections.replication.recovery.plugins.plugin_utils._ledger import directory_of
from ansible_collections.replication.recovery.plugins.plugin_utils._search import (
    FOUND, current_round, judge_by_files, judge_round, load_journal, mark_cleaned, new_journal, not_cleaned, plan_round, result_of,
    rounds_at_most, save_journal, searching, vanished, write_report)
from ansible_collections.replication.recovery.plugins.plugin_utils._step import (
    STOPPED_OPTION, RunbookStep, StepFailed, collect_checked, end_run, into_ledger, load, note_stopped, now_iso)
from ansible_collections.replication.recovery.plugins.module_utils._words import shown
from ansible_collections.replication.recovery.plugins.plugin_utils._outcomes import PLANNED, REFUSED, said
from ansible_collections.replication.recovery.plugins.plugin_utils._measures import FAILED
from ansible_collections.replication.recovery.plugins.plugin_utils._report import outcome_of, stop_conditions_of
from ansible_collections.replication.recovery.plugins.plugin_utils._files import Unreadable, controller_now, report_path, stamp, write_also

STAGES = ("plan", "judge", "end", "report")
# The clean point role's options the search reads (O(options)).
SEARCHED = ("project", "machines", "exclude", "recovery_plan", "after", "before", "consistent", "find_files", "checks_tasks", "report_dir")
# The journal of a search lies beside its report: clean_point_<project>.search.json.
JOURNAL = ".search.json"
SHOWN = 10


def _moment(value, what):
    if no_value(value):
        return None
    try:
        return parse_moment(value, what)
    except ValueError as error:
        raise StepFailed("%s; nothing was launched." % error)


def round_said(number, outcomes):
    """A round's outcomes in a line: how many clean, damaged, undecided and planned again."""
    passed = sorted(name for name, outcome in outcomes.items() if outcome["passed"])
    failed = sorted(name for name, outcome in outcomes.items() if outcome["passed"] is False)
    undecided = sorted(name for name, outcome in outcomes.items() if outcome["passed"] is None and not outcome.get("thinned"))
    thinned = sorted(name for name, outcome in outcomes.items() if outcome.get("thinned"))
    return "Round %d: %d clean%s, %d damaged%s%s%s." % (
        number, len(passed), " (%s)" % shown(passed, SHOWN) if passed else "", len(failed),
        " (%s)" % shown(failed, SHOWN) if failed else "",
        ", %d undecided (%s)" % (len(undecided), shown(["%s: %s" % (n, outcomes[n]["message"]) for n in undecided], 3)) if undecided else "",
        ", %d planned again, their candidate thinned out before the launch (%s)" % (len(thinned), shown(thinned, SHOWN)) if thinned else "")


def search_failed_message(report, path):
    """What the play fails with when the search did not pass: why, the first failures, whether to run it again, the report."""
    complete = report["complete"]
    return "Clean point search of %s: %s - %s: %s.%s Report: %s" % (
        report["project"], said(report["outcome"]), "it found no clean point for some machines" if complete else "it did not end",
        "; ".join(failure.rstrip(".") for failure in report["failures"][:5]),
        "" if complete else " Running it again is safe: it goes on where it stood, and launches no round twice.", path)


class ActionModule(RunbookStep):
    PHASE = "preflight"
    WITH_RUN = False
    OPTIONS = dict(
        stage=dict(type="str", choices=list(STAGES), required=True),
        run=dict(type="str"),
        options=dict(type="dict", default={}),
        ledger_dir=dict(type="path"),
        stopped=STOPPED_OPTION,
        game_day=dict(type="str"),
    )

    def step(self, args):
        # What the search reads of the clean point role's options, as runbook_options typed them: declared in the role's
        # argument specs alone.
        self.args = args = dict(args, **dict((name, args["options"].get(name)) for name in SEARCHED))
        if args["stage"] == "judge" or (args["stage"] == "end" and args["run"]):
            if not args["run"]:
                raise StepFailed("The judge stage takes the run of the round (what runbook_start returned).")
            self.path, self.record = args["run"], load(args["run"])
            return self.judge() if args["stage"] == "judge" else self.end(self.record["project"])
        if not args["project"]:
            raise StepFailed("The %s stage takes the project." % args["stage"])
        report = report_path(args["report_dir"], "clean_point", args["project"])
        self.directory, self.name, self.journal_path = os.path.dirname(report), os.path.basename(report), report + JOURNAL
        return dict(plan=self.plan, end=self.end, report=self.report)[args["stage"]]()

    # -- plan a round ---------------------------------------------------------------------------

    def inputs(self):
        args = self.args
        try:
            inputs = dict(machines=parse_list(args["machines"], "machines") or None, exclude=parse_list(args["exclude"], "exclude"),
                          recovery_plan=None if no_value(args["recovery_plan"]) else args["recovery_plan"],
                          after=None if no_value(args["after"]) else str(args["after"]), before=None if no_value(args["before"]) else str(args["before"]),
                          consistent=parse_flag(args["consistent"], "consistent"), find_files=parse_list(args["find_files"], "find_files"))
        except ValueError as error:
            raise StepFailed("%s; nothing was launched." % error)
        if not inputs["find_files"] and no_value(args["checks_tasks"]):
            raise StepFailed("A search by launches needs your checks that tell a clean machine (clean_point_checks_tasks), or, for a backup "
                             "project, the file patterns of the damage (clean_point_find_files); nothing was launched.")
        if inputs["recovery_plan"] and inputs["machines"]:
            raise StepFailed("A recovery plan names its own machines: give it without the machines. Nothing was launched.")
        if inputs["find_files"] and inputs["consistent"]:
            raise StepFailed("A file search finds each machine's own clean point; consistent is for searches by launches. Nothing was launched.")
        return inputs

    def plan(self):
        inputs = self.inputs()
        # One session for the stage's reads; its user says which account the search is of (unknown in a session the task brings).
        with self.one_session() as login:
            return self.plan_in(inputs, ((login or {}).get("user") or {}).get("account"))

    def plan_in(self, inputs, account):
        lines = []
        try:
            journal = load_journal(self.journal_path)
        except Unreadable as unreadable:
            journal = None
            lines.append(self.set_aside("cannot be read (%s)" % unreadable.why))
        if journal is not None:
            project = self.service("service_project_info", name=self.args["project"])["projects"]
            other = self.another_search(journal, inputs, account, project[0]["id"] if project else None)
            if other:
                lines.append(self.set_aside("is of %s" % other))
                journal = None
        fresh = journal is None
        if fresh:
            journal = self.new_search(inputs, account)
            journal["game_day"] = self.args["game_day"]  # the game day the search rehearses for, in its report
            if journal["mode"] == "files":
                return self.search_files(journal, lines)
        resumed = current_round(journal)
        unclean = not_cleaned(journal)
        # A run stopped in a round's cleanup: that round's machines are cleaned up before anything else.
        clean_first = sorted(journal["machines"][name]["id"] for name in unclean["candidates"]) if unclean else []
        if unclean:
            lines.append("Round %d was judged, and its cleanup not proven (a run stopped in it): its machines are cleaned up first." % (
                unclean["number"]))
        planned, adopt, resumed = self.round_to_launch(journal, resumed, fresh, lines)
        if planned is None:
            self.save(journal)
            for line in lines:
                self.say(line)
            return dict(done=True, clean_first=clean_first, lines=lines + ["The search is done."], rounds_at_most=rounds_at_most(journal))
        self.save(journal)
        ids = dict((name, journal["machines"][name]["id"]) for name in planned["candidates"])
        names = sorted(planned["candidates"])
        lines.append("%s %d of at most %d%s: %d machines, each from %s: %s." % (
            "Would launch round" if self.check_mode else "Round", planned["number"], rounds_at_most(journal),
            " (continued: a stopped run planned it)" if resumed else "", len(names),
            "its newest point at or before %s" % planned["moment"] if planned["moment"] else "its candidate point",
            shown(["%s at %s" % (name, planned["candidates"][name][2]) for name in names], SHOWN)))
        for line in lines:
            self.say(line)
        return dict(done=False, round=planned["number"], rounds_at_most=rounds_at_most(journal), machines=[ids[name] for name in names],
                    names=names, points_in_time=dict((ids[name], planned["candidates"][name][1]) for name in names), adopt=adopt, clean_first=clean_first,
                    # Read just now: the round's run launches them without reading them again.
                    pinned=dict((ids[name], dict(id=planned["candidates"][name][1], date_time=planned["candidates"][name][2])) for name in names),
                    moment=planned["moment"], lines=lines)

    def round_to_launch(self, journal, resumed, fresh, lines):
        """The round to launch (None when the search is done), whether its launch is adopted, and the round a stopped run left
        that it continues (None if it does not). A round whose points were not read just now has them read again: a
        candidate the service thinned out since is planned again; a round with none left is dropped, and the next planned."""
        planned, adopt = plan_round(journal), False
        while planned is not None:
            adopt = planned is resumed and self.adoptable(journal, planned)
            if fresh and not planned["number"] > 1 or adopt:
                break  # its points were read just now, or its launch is adopted as it was
            listed = self.points_now(journal, planned)
            lines.extend(vanished(journal, planned, listed))
            if planned["candidates"]:
                break
            journal["rounds"].remove(planned)  # every candidate of it was thinned out, and its machines are done
            planned, resumed, fresh = plan_round(journal) if searching(journal) else None, None, False
        return planned, adopt, resumed

    def set_aside(self, why):
        """The journal, which is not this search's to resume (``why``), moved aside - never removed, nor written over by the new
        search - but under --check, which writes nothing: what it did, in words."""
        if self.check_mode:
            return "The journal %s %s: a run would set it aside, and begin a new search." % (self.journal_path, why)
        aside = "%s.set-aside-%s.json" % (self.journal_path[:-len(".json")], stamp(now_iso()))
        os.replace(self.journal_path, aside)
        return "The journal %s %s: it is set aside as %s, and never resumed." % (self.journal_path, why, aside)

    def another_search(self, journal, inputs, account, project_id):
        """What makes a journal another search's - another account, another project (a project of the same name in another
        service), other inputs - in words; None when it is this search's."""
        if journal.get("project_id") != project_id:
            return "project ID %s, not %s (another service's project of the same name, or one made anew)" % (journal.get("project_id"), project_id)
        if journal.get("account") and account and journal["account"] != account:
            return "account %s, not %s" % (journal["account"], account)
        if journal["inputs"] != inputs or journal["project"] != self.args["project"]:
            return "a search of other inputs"
        return None

    def points_now(self, journal, planned):
        """The IDs of the points the service lists now, of the round's machines."""
        read = self.points_in_time(journal["project_id"], [journal["machines"][name]["id"] for name in planned["candidates"]])
        return dict((entry["machine_name"], set(point["id"] for point in entry["points_in_time"])) for entry in read)

    def new_search(self, inputs, account=None):
        """Read the machines that take part and their points in time; the window; a new journal."""
        project = self.args["project"]
        view = self.machines(project=project)
        plan = None
        if inputs["recovery_plan"]:
            plans = self.service("service_recovery_plan_info", project=project, name=inputs["recovery_plan"])["recovery_plans"]
            if not plans:
                raise StepFailed("Project %s has no recovery plan %s; nothing was launched." % (project, inputs["recovery_plan"]))
            plan = [name for step in plans[0]["steps"]["items"] for name in step.get("machine_names") or []]
        try:
            chosen = take_part(view["machines"], named=inputs["machines"], exclude=inputs["exclude"], plan=plan)
        except Refused as refused:
            raise StepFailed("%s Nothing was launched." % refused)
        if not chosen["machines"]:
            raise StepFailed("No machine of project %s takes part; nothing was launched." % project)
        now = parse_time(view["service_time"])
        after, before = _moment(inputs["after"], "clean_point_after"), _moment(inputs["before"], "clean_point_before")
        if before is not None and before > now:
            raise StepFailed("clean_point_before %s is later than the service's now, %s; nothing was launched. Give a moment at or before it, "
                             "or none (the search then ends at the service's now)." % (moment_said(before), moment_said(now)))
        before = now if before is None else before
        if after is not None and after > before:
            raise StepFailed("The window is empty: after (%s) is later than before (%s); nothing was launched." % (iso_time(after), iso_time(before)))
        read = self.points_in_time(view["project"]["id"], [m["id"] for m in chosen["machines"]])
        machines = dict((entry["machine_name"], dict(id=entry["machine_id"], points=list(reversed(entry["points_in_time"]))))
                        for entry in read)
        return new_journal(view["project"]["name"], view["project"]["id"], inputs, machines, after, before, consistent=inputs["consistent"],
                           mode="files" if inputs["find_files"] else "launch", account=account)

    def adoptable(self, journal, planned):
        """A round a stopped run left: its launch is adopted unless a machine of it has a test machine up from
        another point (an earlier round's, whose cleanup did not run: the resume step cleans it up first)."""
        ids = [journal["machines"][name]["id"] for name in planned["candidates"]]
        view = self.machines(project=journal["project_id"], machines=ids, include_target_machine=True)
        candidate = dict((journal["machines"][name]["id"], planned["candidates"][name][1]) for name in planned["candidates"])
        for machine in view["machines"]:
            target = machine.get("target_machine") or {}
            if target.get("machineCloudState") not in (None, "terminated") and launch_type_of_replica(machine) == "test" \
                    and target.get("pointInTime") != candidate.get(machine["id"]):
                return False
        return True

    def search_files(self, journal, lines):
        """A backup project: one file search per pattern, over every machine; no launch."""
        found = {}
        for pattern in journal["inputs"]["find_files"]:
            result = self.service("service_file_restore", failed_ok=True, project=journal["project_id"], query=pattern,
                                  machines=[machine["id"] for machine in journal["machines"].values()])
            if result.get("failed"):
                raise StepFailed("The file search for %s failed: %s Nothing was launched." % (pattern, result.get("msg")))
            for item in result["files"]:
                found.setdefault(item["machine_id"], set()).update(point["id"] for point in item["points_in_time"])
        judge_by_files(journal, found)
        self.save(journal)
        lines.append("Searched %d machines for %s in %d file searches; nothing was launched." % (
            len(journal["machines"]), ", ".join(journal["inputs"]["find_files"]), len(journal["inputs"]["find_files"])))
        for line in lines:
            self.say(line)
        return dict(done=True, clean_first=[], lines=lines, rounds_at_most=0)

    def save(self, journal):
        if not self.check_mode:
            save_journal(self.journal_path, journal)

    # -- judge and end a round ------------------------------------------------------------------

    def judge(self):
        """The round's outcomes, from the run that launched and checked it: the journal learns them before the
        cleanup, so that a run stopped in the cleanup does not launch the round again. A run stopped before its
        machines were checked (a step failed, the user's tasks stopped it) is not judged: the next run continues it."""
        record = note_stopped(collect_checked(self.record), self.args["stopped"])
        args = self.args
        if self.check_mode:
            return dict(more=False, lines=["Check mode: nothing was launched, so the search ends here."])
        path = report_path(args["report_dir"], "clean_point", record["project"], JOURNAL)
        journal = load_journal(path)
        current = current_round(journal) if journal else None
        if current is not None:
            # What watched the round (its stop conditions, the lever) and, when it stopped before its launch, what it came to
            # (refused, cancelled): the search's report tells them.
            current["stop_conditions"] = stop_conditions_of(record)
            current["stopped_as"] = outcome_of(record, FAILED) if record.get("failure") else None
        if record.get("failure"):
            if current is not None:
                save_journal(path, journal)
            return dict(more=False, stopped=record["failure"]["message"])
        if current is None:
            raise StepFailed("The search's journal %s has no round to judge." % path)
        outcomes = dict((name, self.outcome_of(name, current["candidates"][name])) for name in current["candidates"])
        job = ((record["waves"] or [{}])[0].get("job") or {}).get("id")
        judge_round(journal, outcomes, job=job)
        save_journal(path, journal)
        line = round_said(current["number"], outcomes)
        self.say(line)
        return dict(more=bool(searching(journal)), lines=[line])

    def outcome_of(self, name, candidate):
        """What the round's run came to for one machine's candidate: passed or failed by its checks; None - no evidence - when
        it did not launch, launched from another point, does not run or was not checked; thinned out before its launch."""
        record = self.record
        launched, seen, checked = record["launched"].get(name), record["view"].get(name) or {}, record["checked"].get(name)
        if name in (record.get("thinned_out") or []):  # no evidence: the search plans it again
            return dict(passed=None, thinned=True, message="did not launch: %s" % record["failed_machines"][name])
        if name in record["failed_machines"] or launched is None:
            return dict(passed=None, message="did not launch: %s" % record["failed_machines"].get(name, "not launched"))
        if launched["point_in_time"]["id"] and launched["point_in_time"]["id"] != candidate[1]:
            return dict(passed=None, message="launched from %s, not the candidate" % launched["point_in_time"]["id"])
        if not seen.get("running"):
            return dict(passed=None, message="its target machine does not run")
        if checked is None:
            return dict(passed=None, message="not checked")
        return dict(passed=bool(checked["passed"]), message=checked.get("message") or "",
                    checks=[dict(name=record.settings["checks_name"], passed=bool(checked["passed"]), began=checked["began"],
                                 ended=checked["ended"])])

    def end(self, project=None):
        """The cleanup of the last round judged is done and proven: the journal says so, and the round's run's directory
        (with O(run)) goes."""
        path = report_path(self.args["report_dir"], "clean_point", project or self.args["project"], JOURNAL)
        # Under --check the journal is not this run's to write, nor - a journal a run would set aside - to read.
        journal = None if self.check_mode else load_journal(path)
        if journal is not None and mark_cleaned(journal) is not None:
            save_journal(path, journal)
        if self.record is not None:
            end_run(self.path)
            self.record = None
        return {}

    # -- the report -----------------------------------------------------------------------------

    def report_of_a_check(self, stopped):
        """Under --check no journal is written, so none is read: what a run would do, or what would stop it."""
        if stopped:
            # What stops the run stops the check: the search would be refused as the check was.
            message = "Clean point search of %s under --check: %s. As the real run would be: %s" % (self.args["project"], said(REFUSED), stopped)
            return dict(outcome=dict(project=self.args["project"], result="failed", outcome=REFUSED), lines=[message], message=message)
        return dict(outcome=dict(project=self.args["project"], result="check mode", outcome=PLANNED),
                    lines=["Check mode: nothing was launched, and no report was written."])

    def report(self):
        stopped = (self.args["stopped"] or {}).get("message")
        if self.check_mode:
            return self.report_of_a_check(stopped)
        journal = load_journal(self.journal_path)
        if journal is None and stopped:
            # Stopped before its first round was planned (its journal is written before the round launches): nothing launched.
            message = "Clean point search of %s: %s. %s It wrote no journal in %s: running it again begins anew." % (
                self.args["project"], said(REFUSED), stopped, self.directory)
            return dict(outcome=dict(project=self.args["project"], result="failed", outcome=REFUSED), lines=[message], message=message)
        if journal is None:
            message = "The clean point search of %s has no journal in %s." % (self.args["project"], self.directory)
            return dict(outcome=dict(project=self.args["project"], result="failed"), lines=[message], message=message)
        report = result_of(journal, controller_now(), stopped=stopped)
        written = write_report(report, self.directory, self.name, journal.get("started") or now_iso())
        files = dict(json=written["own"][".json"], junit=written["own"][".junit.xml"], markdown=written["own"][".md"])
        ledger_dir, by_default = directory_of(self.args["ledger_dir"])
        # A search that did not end is no run yet; a finished one is entered before its journal goes (a search stopped
        # in between reports again, and is not entered twice).
        ledger = into_ledger(ledger_dir, report, files["json"]) if report["complete"] else None
        # The page names the ledger entry, so it comes after it.
        files["html"] = write_also(written, ".html", page_of(report, ledger))
        if report["complete"]:
            os.unlink(self.journal_path)  # the report holds all of it; the next search is a new one
        lines = ["Clean point search of %s: %s. %d of %d machines have a clean point; %d rounds, %d launches." % (
            report["project"], said(report["outcome"]), sum(1 for m in report["machines"] if m["status"] == FOUND), len(report["machines"]),
            len(report["rounds"]), report["launches"])]
        if report["consistent"]:
            lines.append("Newest common clean moment: %s." % (report["common_moment"] or "none"))
        lines += ["%s: clean at %s" % (m["name"], m["clean_point"]["date_time"]) for m in report["machines"] if m["clean_point"]][:SHOWN]
        lines += report["failures"][:SHOWN]
        lines += ["Report: " + files["json"], "JUnit: " + files["junit"], "Summary: " + files["markdown"], "Page: " + files["html"]]
        if written["newest"]:
            lines.append("The newest report of the search is also at %s." % written["plain"][".json"])
        if report["complete"]:
            lines.append("Fail over from it: -e failover_point_in_time=from:%s" % files["json"])
        outcome = dict(project=report["project"], result=report["result"], outcome=report["outcome"], complete=report["complete"], report=files,
                       clean_points=dict((m["name"], m["clean_point"]) for m in report["machines"]), failures=report["failures"][:20])
        if ledger:
            outcome["ledger"] = ledger
            lines.append("Ledger: entry %d in %s%s, SHA-256 %s" % (
                ledger["sequence"], ledger_dir, " (the default)" if by_default else "", ledger["sha256"]))
        else:
            lines.append("Ledger: %s%s (a search is entered once it ends)" % (ledger_dir, " (the default)" if by_default else ""))
        result = dict(outcome=outcome, lines=lines)
        if report["result"] != "passed":
            result["message"] = search_failed_message(report, files["json"])
        return result
