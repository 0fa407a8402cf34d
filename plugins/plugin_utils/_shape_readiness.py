# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The report shape of one project's readiness - could it fail over now? - and its judgement: per machine, replicating,
its newest point in time within the RPO target, its launch settings proven against the target region, not failed over.
Its JUnit XML, Markdown, page, and schema."""

from html import escape

from ansible_collections.replication.recovery.plugins.module_utils._domain import parse_time
from ansible_collections.replication.recovery.plugins.module_utils._words import spoken
from ansible_collections.replication.recovery.plugins.plugin_utils._judgement import production_machines, replication_out, standing
from ansible_collections.replication.recovery.plugins.plugin_utils._measures import FAILED, PASSED, SKIPPED
from ansible_collections.replication.recovery.plugins.plugin_utils._outcomes import of_report, said
from ansible_collections.replication.recovery.plugins.plugin_utils._page import chart, document, failures_list, figure_box, headline, table_of
from ansible_collections.replication.recovery.plugins.plugin_utils._render import junit_document, lines_of, listed, table

SCHEMA = ("roles", "readiness", "files", "report.schema.json")
CHECKS = ("replicating", "newest point", "launch settings", "not failed over")


def report(facts, generated):
    """The readiness of the project ``facts["read"]`` (what service_machine_info answered with include_points_in_time and
    prove_launch_settings), against ``rpo_target_seconds``, the replication ``states`` that pass and, with
    ``launch_settings_strict``, no setting left to the service's defaults."""
    read, target = facts["read"], facts["rpo_target_seconds"]
    now = parse_time(read["service_time"])
    settings = read.get("launch_settings")
    failed_over = production_machines(read["machines"])
    machines = [machine_of(machine, now, target, facts["states"], settings, facts.get("launch_settings_strict"), failed_over.get(name_of(machine)))
                for machine in sorted(read["machines"], key=name_of)]
    failures = ["%s: %s: %s" % (machine["name"], check["name"], check["message"]) for machine in machines for check in machine["checks"]
                if check["status"] == FAILED]
    if not machines:
        failures.append("the project has no machines: nothing would fail over")
    ready = [machine["name"] for machine in machines if machine["ready"]]
    result = FAILED if failures else PASSED
    ages = [machine["point_age_seconds"] for machine in machines if machine["point_age_seconds"] is not None]
    return dict(
        schema="replication.recovery.readiness/v1", project=read["project"]["name"], project_id=read["project"]["id"],
        region=settings["region"] if settings else None, service_time=read["service_time"], started=read["service_time"],
        rpo_target_seconds=target, states=list(facts["states"]), launch_settings_strict=bool(facts.get("launch_settings_strict")),
        result=result, outcome=result, next=next_said(read["project"]["name"], machines, ready, target), failures=failures,
        counts=dict(machines=len(machines), ready=len(ready), not_ready=len(machines) - len(ready), failed_over=len(failed_over)),
        worst_point_age_seconds=max(ages) if ages else None, machines=machines, generated=generated)


def name_of(machine):
    return (machine.get("sourceProperties") or {}).get("name") or machine.get("name") or machine["id"]


def machine_of(machine, now, target, states, settings, strict, failed_over):
    name = name_of(machine)
    points = machine.get("points_in_time") or []
    newest = points[0] if points else None
    age = round(now - parse_time(newest["dateTime"]), 3) if newest and newest.get("dateTime") else None
    proven = proof_of(name, settings) if settings else None
    out = replication_out(machine, states)["state"]
    checks = [
        dict(name="replicating", status=FAILED if out else PASSED,
             message="%s%s" % (machine["replication_state"], ", lag %s" % spoken(machine.get("lag_seconds")) if machine.get("lag_seconds") is not None
                               else "") + (", not %s" % " or ".join(states) if out else "")),
        dict(name="newest point", status=FAILED if age is None or age > target else PASSED,
             message="no point in time yet" if newest is None else "%s (%s), %s old against a target of %s" % (
                 newest.get("dateTime"), newest["id"], spoken(age), spoken(target))),
        launch_settings_check(proven, strict),
        dict(name="not failed over", status=FAILED if failed_over else PASSED,
             message=standing(failed_over) if failed_over else "its source machine runs production"),
    ]
    return dict(name=name, id=machine["id"], ready=all(check["status"] != FAILED for check in checks),
                replication_state=machine["replication_state"], lag_seconds=machine.get("lag_seconds"),
                newest_point=dict(id=newest["id"], date_time=newest.get("dateTime")) if newest else None, point_age_seconds=age,
                failed_over=standing(failed_over) if failed_over else None, launch_settings=proven, checks=checks)


def proof_of(name, settings):
    """What the proof of the blueprints found of one machine's."""
    return dict(problems=(settings.get("problems") or {}).get(name) or [], defaults=(settings.get("defaults") or {}).get(name) or [],
                unchecked=(settings.get("unchecked") or {}).get(name) or [], switched=name in (settings.get("switched") or []))


def launch_settings_check(proven, strict):
    if proven is None:
        return dict(name="launch settings", status=SKIPPED, message="not proven: the region's offer was not read")
    wrong = list(proven["problems"])
    if proven["switched"]:
        wrong.append("its blueprint is switched to a test network: a failover now would launch into it (service_test_network state=restored)")
    if strict and proven["defaults"]:
        wrong.append("left to the service's default, which cannot be proven: %s" % ", ".join(proven["defaults"]))
    if wrong:
        return dict(name="launch settings", status=FAILED, message="; ".join(wrong))
    left = ["left to the service's default: %s" % ", ".join(proven["defaults"])] if proven["defaults"] else []
    return dict(name="launch settings", status=PASSED, message="; ".join(["proven against the region"] + left + proven["unchecked"]))


def next_said(project, machines, ready, target):
    if machines and len(ready) == len(machines):
        return "Every machine of %s could fail over now, from a point in time within %s. Nothing was changed." % (project, spoken(target))
    if not machines:
        return "%s has no machines. Nothing was changed." % project
    return ("%d of %d machines of %s are not ready: each names what to fix in its checks. Nothing was changed; run readiness again once "
            "they are fixed." % (len(machines) - len(ready), len(machines), project))


# -- its forms ------------------------------------------------------------------------------------------------------

def junit(report):
    """The readiness as JUnit XML: a suite for the project, a test case per machine and check, the machine as the class."""
    suite = "readiness.%s" % report["project"]
    cases = [("%s.%s" % (suite, machine["name"]), check) for machine in report["machines"] for check in machine["checks"]]
    return junit_document("readiness %s" % report["project"], [(suite, cases)], report["generated"])


def row_of(machine):
    point = machine["newest_point"]
    return (machine["name"], "ready" if machine["ready"] else "NOT READY", machine["replication_state"],
            "%s (%s)" % (point["date_time"], point["id"]) if point else "none yet", spoken(machine["point_age_seconds"]),
            next(check["message"] for check in machine["checks"] if check["name"] == "launch settings"), machine["failed_over"] or "no")


COLUMNS = ("Machine", "Ready", "Replication", "Newest point", "Its age", "Launch settings", "Failed over")


def markdown(report):
    """The readiness, to read: a line a machine, the ones not ready first."""
    counts = report["counts"]
    lines = ["# Readiness of %s: %s" % (report["project"], said(of_report(report))), "", report["next"], "",
             "%d of %d machines ready; read at %s (service time) against an RPO target of %s%s; report written %s (this machine's clock)." % (
                 counts["ready"], counts["machines"], report["service_time"], spoken(report["rpo_target_seconds"]),
                 ", in region %s" % report["region"]["name"] if report.get("region") else "", report["generated"]), ""]
    lines.extend(table(COLUMNS, [row_of(machine) for machine in sorted(report["machines"], key=lambda m: (m["ready"], m["name"]))]))
    lines.extend(listed("Failures", report["failures"]))
    return lines_of(lines)


def page(report, ledger=None):
    """The readiness as one HTML page: how old each machine's newest point is against the RPO target, and what keeps a
    machine from failing over."""
    word, banner = headline(report)
    counts, machines = report.get("counts") or {}, report.get("machines") or []
    heading = "Readiness of %s: %s" % (report.get("project") or "-", word)
    sections = [
        '<div class="figures">%s%s</div>' % ("".join('<div class="figure">%s<b>%s</b></div>' % (escape(label), counts.get(key, 0)) for label, key in (
            ("Machines", "machines"), ("Ready", "ready"), ("Not ready", "not_ready"), ("Failed over", "failed_over"))),
            figure_box("Oldest newest point", report.get("worst_point_age_seconds"), report.get("rpo_target_seconds"))),
        failures_list(report.get("failures")),
        chart("Age of the newest point in time", [(m.get("name"), m.get("point_age_seconds")) for m in machines], report.get("rpo_target_seconds")),
        "<h2>Machines</h2>" + table_of(COLUMNS, [row_of(machine) for machine in sorted(machines, key=lambda m: (m["ready"], m["name"]))], "Machines"),
    ]
    lede = "%s Read at %s (service time); report written %s (this machine's clock)." % (
        report.get("next") or "", report.get("service_time") or "-", report.get("generated") or "-")
    return document(heading, banner, heading, lede, sections, ledger)
