# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The report shape of a game day, and its judgement: what its rehearsal came to, whether its hypothesis was borne out,
what watched it (its stop conditions' timeline), and whether it regressed against the same scenario's earlier runs in
the ledger of runs. Its JUnit XML, Markdown, page, and schema.

A regression, of a rehearsal that ran to its end: it missed a target (RPO, RTO) that one of the scenario's earlier runs
met, or its worst RTO or its duration is over the 90th percentile of the scenario's earlier runs (of at least
PERCENTILE_RUNS of them, so that two runs alone never make one). Earlier runs are those that ran to their end too - a
stopped or cancelled rehearsal measured nothing whole."""

from html import escape

from ansible_collections.replication.recovery.plugins.module_utils._words import spoken
from ansible_collections.replication.recovery.plugins.plugin_utils._ledger import run_key
from ansible_collections.replication.recovery.plugins.plugin_utils._measures import FAILED, PASSED, SKIPPED, check_of, percentile, seconds_between
from ansible_collections.replication.recovery.plugins.plugin_utils._outcomes import PLANNED, ROLLED_BACK, STOPPED, of_report, said
from ansible_collections.replication.recovery.plugins.plugin_utils._page import chart, document, failures_list, figure_box, headline, table_of
from ansible_collections.replication.recovery.plugins.plugin_utils._render import junit_document, lines_of, listed
from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import BY_NAME, runbook_of
from ansible_collections.replication.recovery.plugins.plugin_utils._shape_run import stop_conditions_markdown, stop_conditions_section, stop_said

SCHEMA = ("roles", "game_day", "files", "report.schema.json")
EARLIER_RUNS = 10  # the scenario's newest runs in the ledger it is judged against
PERCENTILE_RUNS = 3  # earlier runs that ran to their end, at the least, before a 90th percentile is drawn from them
RAN_TO_THE_END = ("passed", "failed", "adopted")  # adopted: it took up and followed to their end the jobs a stopped run left
NOT_TRIED = ("cancelled", "refused", PLANNED)
TARGETS = (("rpo_seconds", "RPO"), ("rto_seconds", "RTO"))
SPEEDS = (("rto_seconds", "worst RTO"), ("duration_seconds", "duration"))


def alike(report, facts):
    """Whether an earlier game day's report is of the scenario ``facts`` rehearses (by its name, in the same project)."""
    scenario = report.get("scenario") or {}
    return scenario.get("name") == facts["scenario"]["name"] and report.get("project") == facts["scenario"]["project"]


def report(facts, generated):
    """The game day's report. ``facts``: ``scenario`` (name, hypothesis, runbook, project, projects, machines, targets),
    ``rehearsal`` (its runbook's report, as written), ``earlier`` (the scenario's earlier game day reports in the ledger,
    oldest first; report_write reads them)."""
    scenario, rehearsal = facts["scenario"], facts["rehearsal"]
    ran = rehearsal_of(rehearsal)
    # The same rehearsal reported again (a game day stopped between its ledger entry and its end) is not an earlier run.
    this_run = run_key(dict(started=ran["started"], launch_requested=ran["launch_requested"], rehearsal=ran))
    earlier = [r for r in facts.get("earlier") or [] if run_key(r) != this_run]
    # A game day's failover always rolls back: rolled back is the end it rehearses, and it passed to get there.
    word = PASSED if of_report(rehearsal) == ROLLED_BACK else of_report(rehearsal)
    # Stopped by the lever, the hypothesis was not tried: the lever is no finding of the rehearsal's.
    borne_out = None if word in NOT_TRIED or stopped_by_lever(rehearsal) else rehearsal.get("result") == PASSED
    regression = regression_of(ran, [r["rehearsal"] for r in earlier if r.get("outcome") in RAN_TO_THE_END]) if word in RAN_TO_THE_END else None
    made = dict(
        schema="replication.recovery.game_day/v1", project=scenario["project"], projects=projects_of_rehearsal(scenario, rehearsal),
        run_began=rehearsal.get("run_began"),
        scenario=dict((key, scenario.get(key)) for key in ("name", "hypothesis", "runbook", "projects", "machines", "targets")),
        started=ran["started"], launch_requested=ran["launch_requested"], result=rehearsal.get("result") or FAILED, outcome=word,
        borne_out=borne_out, next=next_said(rehearsal, regression), failures=list(rehearsal.get("failures") or []), rehearsal=ran,
        stop_conditions=rehearsal.get("stop_conditions"), regression=regression, earlier_runs=len(earlier), generated=generated)
    made["hypothesis_said"] = hypothesis_said(made)
    return made


def projects_of_rehearsal(scenario, rehearsal):
    """The projects the rehearsal ran in ({name}): its project's, or an application's nodes'."""
    if scenario["project"]:
        return [dict(name=scenario["project"])]
    return [dict(name=project["name"]) for project in rehearsal.get("projects") or []]


def rehearsal_said(report):
    """The rehearsal, named: "DR test of shop", "application storefront (projects db, web)"."""
    ran = report["rehearsal"]
    if report.get("project"):
        return "%s of %s" % (BY_NAME[ran["runbook"]].title, report["project"])
    return "application %s (projects %s)" % (ran.get("name") or "-", ", ".join(project["name"] for project in report.get("projects") or []) or "-")


def rehearsal_of(rehearsal):
    """What the game day keeps of its rehearsal's report: what it came to, its measures against its targets, and where
    the whole report is."""
    measures, targets = rehearsal.get("measures") or {}, rehearsal.get("targets") or {}
    met = dict((key, None if measures.get(key) is None or targets.get(key) is None else measures[key] <= targets[key]) for key, unused in TARGETS)
    return dict(runbook=runbook_of(rehearsal).name, name=rehearsal.get("name"), outcome=of_report(rehearsal), result=rehearsal.get("result"),
                started=rehearsal.get("started"), launch_requested=rehearsal.get("launch_requested"), generated=rehearsal.get("generated"),
                files=(rehearsal.get("run") or {}).get("files"),
                measures=dict(rpo_seconds=measures.get("rpo_seconds"), rto_seconds=measures.get("rto_seconds"),
                              launch_job_seconds=measures.get("launch_job_seconds"),
                              duration_seconds=seconds_between(rehearsal.get("run_began"), rehearsal.get("generated"))),
                targets=dict(rpo_seconds=targets.get("rpo_seconds"), rto_seconds=targets.get("rto_seconds")), met=met,
                machines=(rehearsal.get("counts") or {}).get("machines"))


def regression_of(ran, earlier):
    """The regressions of ``ran`` against ``earlier`` (the scenario's earlier rehearsals that ran to their end, oldest
    first): targets they met that it missed, and measures over their 90th percentile."""
    findings = []
    for key, name in TARGETS:
        met_before = [r for r in earlier if r["met"].get(key)]
        if ran["met"][key] is False and met_before:
            findings.append(dict(kind="target", measure=key, value=ran["measures"][key], against=ran["targets"][key], said=(
                "it missed its %s target: %s against %s, which %d of its %s met (the newest on %s)" % (
                    name, spoken(ran["measures"][key]), spoken(ran["targets"][key]), len(met_before), runs(len(earlier)), met_before[-1]["started"]))))
    p90 = {}
    for key, name in SPEEDS:
        values = [r["measures"][key] for r in earlier if r["measures"].get(key) is not None]
        p90[key] = percentile(values, 0.9) if len(values) >= PERCENTILE_RUNS else None
        if p90[key] is not None and ran["measures"][key] is not None and ran["measures"][key] > p90[key]:
            findings.append(dict(kind="slower", measure=key, value=ran["measures"][key], against=p90[key], said=(
                "its %s, %s, is over the 90th percentile of its %d earlier runs (%s)" % (name, spoken(ran["measures"][key]), len(values), spoken(p90[key])))))
    regression = dict(regressed=bool(findings), findings=findings, earlier_runs=len(earlier), p90=p90)
    return dict(regression, said=regression_said(regression))


def runs(count):
    return "%d earlier run%s" % (count, "" if count == 1 else "s")


def regression_said(regression):
    """The regression in a sentence: what regressed, or what it was judged against; None when it was not judged."""
    if regression is None:
        return None
    if regression["regressed"]:
        return "REGRESSED against the ledger: %s." % "; ".join(finding["said"] for finding in regression["findings"])
    if not regression["earlier_runs"]:
        return "No regression: no earlier run of this scenario in the ledger to judge it against."
    return "No regression against its %s in the ledger%s." % (
        runs(regression["earlier_runs"]), "" if regression["p90"].get("rto_seconds") is not None else
        " (its speed is judged from %d of them on)" % PERCENTILE_RUNS)


def next_said(rehearsal, regression):
    said_next = [rehearsal.get("next")] if rehearsal.get("next") else []
    if regression and regression["regressed"]:
        said_next.append("Find what changed since its earlier runs (their reports are in the ledger) before the next game day.")
    return " ".join(said_next) or None


def stopped_by_lever(report):
    """The safety lever that stopped a rehearsal (it saw it engaged, and obeyed) - of its report, or of the game day's - or None."""
    lever = (report.get("stop_conditions") or {}).get("lever") or {}
    return lever if lever.get("obeyed") and lever.get("seen") and of_report(report) == STOPPED else None


def hypothesis_said(report):
    borne_out, lever = report.get("borne_out"), stopped_by_lever(report)
    if borne_out is None and lever:
        return "not tried (stopped by the lever: %s, %s)" % (lever.get("by") or "?", lever.get("reason") or "no reason given")
    return "borne out" if borne_out else "not tried (%s)" % report.get("outcome") if borne_out is None else "not borne out (%s)" % report.get("outcome")


def hypothesis_check(report):
    borne_out = report["borne_out"]
    return check_of("hypothesis", PASSED if borne_out else SKIPPED if borne_out is None else FAILED,
                    "%s: %s" % (report["scenario"]["hypothesis"], hypothesis_said(report)))


def regression_check(report):
    regression = report["regression"]
    if regression is None:
        return check_of("regression", SKIPPED, "not judged: the rehearsal did not run to its end (%s)" % report["outcome"])
    return check_of("regression", FAILED if regression["regressed"] else PASSED, regression_said(regression))


def probe_checks(report):
    stops = report.get("stop_conditions") or {}
    stopped = (stops.get("stopped_by") or {}).get("probe")
    return [check_of("stop condition %s" % probe["name"], FAILED if probe["name"] == stopped else PASSED, "%s probe: %s" % (
        probe["kind"], stop_said(stops) if probe["name"] == stopped else "%d failures in a row at the end, of %d that stop it" % (
            probe["failures_in_a_row"], probe["after_failures"]))) for probe in stops.get("probes") or []]


# -- its forms ------------------------------------------------------------------------------------------------------

def junit(report):
    """The game day as JUnit XML: one suite, a test case for its hypothesis, each stop condition, and the regression."""
    suite = "game_day.%s" % report["scenario"]["name"]
    checks = [hypothesis_check(report)] + probe_checks(report) + [regression_check(report)]
    return junit_document("game day %s" % report["scenario"]["name"], [(suite, [(suite, check) for check in checks])], report["generated"])


def measures_said(ran):
    measures, targets = ran["measures"], ran["targets"]
    return "Worst RPO %s, worst RTO %s (targets: RPO %s, RTO %s); launch job %s; the rehearsal took %s." % tuple(
        spoken(value) if value is not None else "none" for value in (
            measures["rpo_seconds"], measures["rto_seconds"], targets["rpo_seconds"], targets["rto_seconds"], measures["launch_job_seconds"],
            measures["duration_seconds"]))


def markdown(report):
    """The game day, to read: its hypothesis and outcome, its rehearsal's measures, the regression, the stop conditions."""
    ran, scenario = report["rehearsal"], report["scenario"]
    lines = ["# Game day %s: %s" % (scenario["name"], said(of_report(report))), "",
             "Hypothesis: %s - %s." % (scenario["hypothesis"], hypothesis_said(report)), "",
             "Its %s: %s. %s" % (rehearsal_said(report), said(ran["outcome"]), measures_said(ran)), "",
             "Blast radius: projects %s; machines %s." % (", ".join(scenario["projects"] or []), ", ".join(scenario["machines"] or []) or "all of them"),
             "Its report: %s (started %s)." % (ran["files"] or "-", ran["started"] or "-")]
    if report["regression"] is not None:
        lines.extend(["", "## Regression", "", regression_said(report["regression"])])
    if report["next"]:
        lines.extend(["", report["next"]])
    lines.extend(listed("Failures", report["failures"]))
    lines.extend(stop_conditions_markdown(report.get("stop_conditions")))
    return lines_of(lines)


def page(report, ledger=None):
    """The game day as one HTML page: its measures against its targets and against its earlier runs, and the timeline of
    its probes."""
    word, banner = headline(report)
    ran, scenario, regression = report.get("rehearsal") or {}, report.get("scenario") or {}, report.get("regression")
    measures, targets = ran.get("measures") or {}, ran.get("targets") or {}
    heading = "Game day %s: %s" % (scenario.get("name") or "-", word)
    p90 = (regression or {}).get("p90") or {}
    sections = [
        '<div class="figures">%s%s%s</div>' % (figure_box("Worst RTO", measures.get("rto_seconds"), targets.get("rto_seconds")),
                                               figure_box("Worst RPO", measures.get("rpo_seconds"), targets.get("rpo_seconds")),
                                               figure_box("Rehearsal took", measures.get("duration_seconds"), p90.get("duration_seconds"))),
        failures_list(report.get("failures")),
        "<h2>Regression</h2><p>%s</p>" % escape(regression_said(regression) or "Not judged: the rehearsal did not run to its end."),
        chart("Worst RTO against the earlier runs' 90th percentile", [("this run", measures.get("rto_seconds"))], p90.get("rto_seconds"))
        if p90.get("rto_seconds") is not None else "",
        "<h2>Rehearsal</h2>" + table_of(("Runbook", "Outcome", "Machines", "Started", "Report"),
                                        [(ran.get("runbook"), ran.get("outcome"), ran.get("machines"), ran.get("started"), ran.get("files"))], "Rehearsal"),
        stop_conditions_section(report.get("stop_conditions")),
    ]
    lede = "Hypothesis: %s - %s. %s" % (scenario.get("hypothesis") or "-", hypothesis_said(report), report.get("next") or "")
    return document(heading, banner, heading, lede.strip(), sections, ledger)
