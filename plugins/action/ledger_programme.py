# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The audit programme judged over the ledger of runs, with the waivers and a sign-off given entered in it, on the
controller where the ledger is. Documented in plugins/modules/ledger_programme.py."""

import json
import os

import yaml
from ansible.module_utils.common.text.converters import to_text

from ansible_collections.replication.recovery.plugins.module_utils._domain import moment_said
from ansible_collections.replication.recovery.plugins.plugin_utils import _ledger, _oscal, _programme, _programme_page, _sign_off
from ansible_collections.replication.recovery.plugins.plugin_utils._files import COLLECTION_ROLES, controller_now, where_started, write_run
from ansible_collections.replication.recovery.plugins.plugin_utils._step import RunbookStep, StepFailed
from ansible_collections.replication.recovery.plugins.module_utils._words import shown

SHOWN = 10
PLANNED = "(not entered: --check)"  # the hash of an entry only planned
SHIPPED_CONTROLS = os.path.join(COLLECTION_ROLES, "evidence", "files", "controls.yml")


def _text_or_value(value, what):
    """A mapping or list as given, or its JSON or YAML text (an AWX survey's answer)."""
    if isinstance(value, str):
        try:
            return yaml.safe_load(value) if value.strip() else None
        except yaml.YAMLError as error:
            raise StepFailed("%s is text that is neither JSON nor YAML (%s): nothing was written." % (what, to_text(error).splitlines()[0]))
    return value


def _json(document):
    return json.dumps(document, indent=1) + "\n"


class ActionModule(RunbookStep):
    WITH_RUN = False
    SERVICE = False
    OPTIONS = dict(
        ledger_dir=dict(type="path"),
        report_dir=dict(type="path"),
        controls=dict(type="list", elements="path", default=[]),
        as_of=dict(type="str"),
        projects=dict(type="list", elements="dict"),
        waive=dict(type="raw"),
        sign_key=dict(type="path"),
        allowed_signers=dict(type="path"),
        fail_on_overdue=dict(type="bool", default=True),
    )

    def step(self, args):
        directory, by_default = _ledger.directory_of(args["ledger_dir"])
        now = _programme.moment_of(controller_now(), "now")
        as_of, controls, waivers = self._given(args, now)
        try:
            entries, breaks = _ledger.verified(directory, by_default)
        except _ledger.LedgerError as error:
            raise StepFailed(str(error))
        lines, wrote = [], False
        if waivers:
            entries, wrote, lines = self._waive(directory, entries, breaks, waivers)
        programme = self._judged(entries, controls, as_of, args["projects"], args["allowed_signers"])
        if args["sign_key"]:
            entries, line = self._sign(directory, entries, breaks, programme, args, now)
            wrote = True
            programme = self._judged(entries, controls, as_of, args["projects"], args["allowed_signers"])
            lines.append(line)
        in_ledger = [entry for entry in entries if entry["sha256"] != PLANNED]
        programme["ledger"] = dict(directory=directory, entries=len(in_ledger), head=in_ledger[-1]["sha256"] if in_ledger else None,
                                   sequence=in_ledger[-1]["sequence"] if in_ledger else None, verified=not breaks)
        broken = [problem for said in programme["sign_offs"] for problem in said["problems"]]
        return self._outcome(programme, broken, lines, args, wrote=wrote, entered=in_ledger[-1]["sequence"] if in_ledger else 0)

    def _given(self, args, now):
        """The moment judged, the controls and the waivers given - refused before anything is written when they cannot be read,
        or when a sign-off is asked with what it does not go with."""
        try:
            as_of = _programme.moment_of(args["as_of"], "evidence_as_of") if args["as_of"] else now
            controls = _programme.controls_of([(SHIPPED_CONTROLS, self._controls_file(SHIPPED_CONTROLS))] + [
                (path, self._controls_file(where_started(path, "a controls file"))) for path in args["controls"]])
            waivers = _programme.waivers_given(_text_or_value(args["waive"], "evidence_waive"), now)
        except _programme.ProgrammeError as error:
            raise StepFailed("%s Nothing was written." % error)
        if args["sign_key"] and args["as_of"]:
            raise StepFailed("A sign-off approves the ledger as it is now, and evidence_as_of judges it as of another moment: sign without "
                             "evidence_as_of. Nothing was written.")
        if args["sign_key"] and not args["allowed_signers"]:
            raise StepFailed("evidence_sign_key needs evidence_allowed_signers, the file its signature is verified against: a sign-off "
                             "nobody can verify is not made. Nothing was written.")
        return as_of, controls, waivers

    def _waive(self, directory, entries, breaks, waivers):
        """The waivers entered in a ledger that is not broken: the entries after, whether any was new, and a line each."""
        if breaks:
            raise StepFailed("The ledger at %s is broken (%s): no waiver is entered in it until it is mended." % (directory, breaks[0]))
        entries, new_ones = self._enter(directory, entries, _programme.WAIVER, waivers)
        lines = ["%s waiver of %s by %s until %s." % (
            "Would enter a" if self.check_mode else "Entered a" if new else "Entered before (a run again): the", waiver["finding"] or
            "%s over %s" % (waiver["control"], waiver["scope"]), waiver["owner"], waiver["expires"]) for waiver, new in zip(waivers, new_ones)]
        return entries, any(new_ones), lines

    def _sign(self, directory, entries, breaks, programme, args, now):
        """The programme as judged signed off and entered, unless the ledger or a sign-off in it is broken: the entries after, and a line."""
        if breaks or any(not said["holds"] for said in programme["sign_offs"]):
            raise StepFailed("The ledger at %s is broken (%s): a sign-off would approve what broke; nothing was signed." % (
                directory, (breaks + [p for said in programme["sign_offs"] for p in said["problems"]])[0]))
        try:
            signed = _sign_off.sign(entries, where_started(args["sign_key"], "evidence_sign_key"),
                                    where_started(args["allowed_signers"], "evidence_allowed_signers"), _sign_off.statement_of(programme),
                                    moment_said(now, whole=True))
        except _sign_off.SignOffError as error:
            raise StepFailed("%s Nothing was signed." % error)
        entries = self._enter(directory, entries, _sign_off.KIND, [signed])[0]
        return entries, "%s by %s over entry %d: %s" % (
            "Would sign" if self.check_mode else "Signed", signed["signer"], signed["head"]["sequence"], signed["statement"])

    def _controls_file(self, path):
        try:
            with open(path, encoding="utf-8") as handle:
                return yaml.safe_load(handle)
        except (OSError, yaml.YAMLError) as error:
            raise _programme.ProgrammeError("The controls file %s cannot be read: %s." % (path, to_text(error).splitlines()[0]))

    def _enter(self, directory, entries, kind, reports):
        """The programme's own entries appended to the ledger, and whether each is new (one a stopped run entered already is not
        entered twice); under --check, taken as if they were (numbered after the head)."""
        if self.check_mode:
            head = entries[-1]["sequence"] if entries else 0
            return entries + [dict(sequence=head + position, runbook=kind, projects=[], recorded=report["generated" if kind == _programme.WAIVER else "signed"],
                                   report=report, sha256=PLANNED) for position, report in enumerate(reports, 1)], [True] * len(reports)
        entered = []
        for report in reports:
            try:
                entered.append(_ledger.append(directory, kind, report, run=_programme.waiver_run(report) if kind == _programme.WAIVER
                                              else _sign_off.run_of(report))["appended"])
            except (_ledger.LedgerError, OSError) as error:
                raise StepFailed("The %s could not be entered in the ledger at %s: %s" % (kind.replace("_", "-"), directory, to_text(error)))
        return _ledger.verify(directory)[0], entered

    def _judged(self, entries, controls, as_of, projects, allowed_signers=None):
        programme = _programme.judge(entries, *controls, as_of=as_of, projects=projects)
        try:
            allowed = where_started(allowed_signers, "evidence_allowed_signers") if allowed_signers else None
            programme["sign_offs"], unused = _sign_off.verify(_programme.recorded_by(entries, as_of), allowed)
        except (_sign_off.SignOffError, OSError) as error:
            raise StepFailed("The sign-offs of the ledger cannot be verified: %s" % to_text(error))
        return programme

    def _outcome(self, programme, broken, lines, args, wrote, entered):
        """What the run answers; ``entered``, the ledger's head as entered (a sign-off only planned under --check is not said
        to hold)."""
        programme["broken"] = broken
        programme["failures"] += broken
        if broken:
            programme["result"] = "failed"
        lines = [_programme.said(programme)] + lines
        left_out = programme["projects_left_out"]
        if left_out:
            lines.append("Left out: %d project%s the ledger names that the service does not have (%s) - another service's, or removed "
                         "since; no control judges %s. evidence_projects_from=ledger judges the ledger's projects." % (
                             len(left_out), "" if len(left_out) == 1 else "s", shown(left_out), "it" if len(left_out) == 1 else "them"))
        lines += ["Not met: %s over %s." % (control["id"], ", ".join(item["name"] for item in control["scopes"] if item["status"] == "not met"))
                  for control in programme["controls"] if control["status"] == "not met"]
        lines += programme["failures"][:SHOWN]
        lines += ["Sign-off entry %d by %s: %s." % (said["sequence"], said["signer"], "holds, its signature %s" % said["signature"] if said["holds"]
                                                    else "BROKEN") for said in programme["sign_offs"] if said["sequence"] <= entered]
        files = None
        if args["report_dir"] and not self.check_mode:
            now = controller_now()
            written = write_run(where_started(args["report_dir"], "the report directory"), "evidence_programme", now, [
                (".json", programme), (".md", _programme_page.markdown), (".html", _programme_page.page),
                # OSCAL: the assessment results import the plan of the same run.
                (".oscal.json", lambda document: _json(_oscal.assessment_results(document, document["run"]["files"] + ".oscal-plan.json", now))),
                (".oscal-plan.json", lambda document: _json(_oscal.assessment_plan(document, now))),
                (".oscal-poam.json", lambda document: _json(_oscal.poam(document, now)))])
            files = dict((key, written["own"][suffix]) for key, suffix in (
                ("json", ".json"), ("markdown", ".md"), ("html", ".html"), ("oscal_results", ".oscal.json"), ("oscal_plan", ".oscal-plan.json"),
                ("oscal_poam", ".oscal-poam.json")))
            lines += ["Programme: " + files["json"], "To read: " + files["markdown"], "To look at: " + files["html"],
                      "In OSCAL: %s (assessment results), .oscal-plan.json (assessment plan), .oscal-poam.json (plan of action and milestones)" %
                      files["oscal_results"]]
        result = dict(changed=wrote and not self.check_mode, programme=json.loads(json.dumps(programme)),
                      result=programme["result"], lines=lines)
        if files:
            result["report"] = files
        if programme["failures"]:
            result["message"] = " ".join(programme["failures"][:SHOWN])
            if args["fail_on_overdue"]:
                result.update(failed=True, msg="Audit programme: FAILED. " + result["message"])
        return result
