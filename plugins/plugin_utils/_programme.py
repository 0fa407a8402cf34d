# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The audit programme: controls judged over the ledger of runs, and the findings they and the runs leave, from opened to
closed, waived or overdue.

Everything is derived from the ledger's entries as of a moment (entries recorded after it are not read), so the same
ledger judged as of the same moment gives the same programme, and nothing about it can drift from what ran:

- a control is data (roles/evidence/files/controls.yml, and the user's file): over which scopes (every DR project, every
  backup project, every application), which runbook's runs count with which outcomes, how often, and after which changes.
  A scope is met while its newest counting run is younger than ``within_days`` and no change followed it. Each time it
  stops being met a finding opens (when it lapsed, or when the change was made), due by the control's severity; the next
  counting run that makes it met again closes it. A scope the programme sees for the first time has ``within_days`` for its
  first run: until then it is not yet due (no run met it), after it not met. A control with no scope is met by nothing: it
  has nothing to judge.
- a rehearsal that failed opens a finding over its scope - its project and machines, or its application; only a
  later passing run of the same runbook over the same scope closes it (a pass of other machines does not).
- a machine a report named that no passing DR test or failover proved is a finding until one proves it.
- a waiver (an entry of its own) turns the open findings it covers waived until it expires; then they are open again.
- an open finding past its due date is overdue: the evidence run fails, naming it.
"""

import fnmatch
import hashlib

from ansible_collections.replication.recovery.plugins.module_utils._domain import moment_said, parse_time
from ansible_collections.replication.recovery.plugins.plugin_utils._ledger import canonical, projects_of
from ansible_collections.replication.recovery.plugins.plugin_utils._outcomes import FAILED, of_report
from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import BY_NAME, PROVING

SCHEMA = "replication.recovery.evidence_programme/v1"
CONTROLS_SCHEMA = "replication.recovery.controls/v1"
WAIVER, SIGN_OFF = "waiver", "sign_off"  # the ledger kinds of the programme's own entries
WAIVER_SCHEMA = "replication.recovery.waiver/v1"
DAY = 86400.0

DR_PROJECTS, BACKUP_PROJECTS, APPLICATIONS = "dr_projects", "backup_projects", "applications"
SCOPES = (DR_PROJECTS, BACKUP_PROJECTS, APPLICATIONS)
# The service's project types of the project scopes.
PROJECT_TYPES = {DR_PROJECTS: "DR", BACKUP_PROJECTS: "BACKUP"}

MET, NOT_MET, WAIVED = "met", "not met", "waived"
# A scope with no counting run while its first window runs (met by no run: not yet due), and a control with no scope at all
# (no backup project, no application): neither is met, nor yet failing.
NOT_YET_DUE, NOTHING_TO_JUDGE = "not yet due", "nothing to judge"
SHOWN_SCOPES, SHOWN_ENTRIES = 3, 4  # how many scopes and entries the programme's sentence names for a control
OPEN, CLOSED, OVERDUE = "open", "closed", "overdue"
CONTROL_LAPSE, FAILED_RUN, NEVER_PROVEN = "control not met", "failed run", "never proven"
# A rehearsal's outcome that opens a finding: it went through and a check failed. A run refused or cancelled before its first
# write tested nothing, and one stopped part-way (a stop condition saw production suffer, the lever, a Ctrl-C) did not end:
# neither found a weakness - the control the rehearsal counts for says whether one ran since.
FAILING = (FAILED,)

CONTROL_KEYS = dict(id=str, title=str, rules=list, over=str, runbook=str, outcomes=list, within_days=int, after_changes_by=str,
                    severity=str)
REQUIRED_KEYS = ("id", "title", "rules", "over", "runbook", "within_days", "severity")
WAIVER_KEYS = ("finding", "control", "scope", "owner", "reason", "expires")


class ProgrammeError(Exception):
    pass


# -- the controls ---------------------------------------------------------------------------------------------------


def controls_of(documents):
    """The controls of the programme from its files' ``(name, parsed YAML)`` in order, each file adding controls or replacing
    one by its id, or all of them before it (``replace: true``): (controls, severities, finding severities). A ProgrammeError
    names the file and the control for anything that would judge wrongly."""
    controls, severities, findings = {}, {}, {}
    for name, document in documents:
        if not isinstance(document, dict) or not isinstance(document.get("controls", []), list):
            raise ProgrammeError("%s is no controls file: a mapping with a list of controls is expected." % name)
        if document.get("schema", CONTROLS_SCHEMA) != CONTROLS_SCHEMA:
            raise ProgrammeError("%s is a file of %s, not of %s." % (name, document.get("schema"), CONTROLS_SCHEMA))
        unknown = sorted(set(document) - {"schema", "replace", "severities", "findings", "controls"})
        if unknown:
            raise ProgrammeError("%s has members a controls file has not: %s." % (name, ", ".join(unknown)))
        if document.get("replace"):
            controls = {}
        severities.update(_days(name, document.get("severities") or {}))
        findings.update(document.get("findings") or {})
        for control in document.get("controls") or []:
            control = _control(name, control)
            controls[control["id"]] = control
    for kind, severity in findings.items():
        if severity not in severities:
            raise ProgrammeError("The findings of %s have the severity %s, which no controls file gives days for." % (kind, severity))
    for control in controls.values():
        if control["severity"] not in severities:
            raise ProgrammeError("Control %s has the severity %s, which no controls file gives days for (%s)." % (
                control["id"], control["severity"], ", ".join(sorted(severities)) or "none"))
    return [controls[key] for key in sorted(controls)], severities, findings


def _days(name, severities):
    if not isinstance(severities, dict) or not all(isinstance(days, int) and not isinstance(days, bool) and days > 0
                                                   for days in severities.values()):
        raise ProgrammeError("The severities of %s must map each severity to a whole number of days." % name)
    return severities


def _control(name, control):
    where = "A control of %s" % name
    if not isinstance(control, dict):
        raise ProgrammeError("%s is not a mapping." % where)
    where = "Control %s of %s" % (control.get("id", "(no id)"), name)
    missing = [key for key in REQUIRED_KEYS if key not in control]
    unknown = sorted(set(control) - set(CONTROL_KEYS))
    if missing or unknown:
        raise ProgrammeError("%s %s." % (where, "; ".join(
            (["lacks %s" % ", ".join(missing)] if missing else []) + (["has members no control has: %s" % ", ".join(unknown)] if unknown else []))))
    for key, kind in CONTROL_KEYS.items():
        if key in control and (not isinstance(control[key], kind) or isinstance(control[key], bool)):
            raise ProgrammeError("%s: %s must be a %s." % (where, key, dict(str="text", list="list", int="whole number")[kind.__name__]))
    if control["over"] not in SCOPES:
        raise ProgrammeError("%s is over %s; a control is over one of %s." % (where, control["over"], ", ".join(SCOPES)))
    for key in ("runbook", "after_changes_by"):
        if key in control and (control[key] not in BY_NAME or not BY_NAME[control[key]].ledger):
            raise ProgrammeError("%s: %s is %s, no runbook that enters its runs in the ledger." % (where, key, control[key]))
    if control["within_days"] <= 0:
        raise ProgrammeError("%s: within_days must be a number of days above 0." % where)
    for rule in control["rules"]:
        if not isinstance(rule, dict) or not rule.get("rule") or not rule.get("clause"):
            raise ProgrammeError("%s: each of its rules needs a rule and a clause." % where)
    return dict(control, outcomes=control.get("outcomes") or ["passed"], after_changes_by=control.get("after_changes_by"))


# -- waivers ----------------------------------------------------------------------------------------------------------


def waivers_given(given, now):
    """The waivers an evidence run was given (a mapping or a list of them), checked, as the reports of the ledger entries
    they become: each names a finding, or a control and a scope (a project or an application; a pattern like ``prod-*``
    too), and has an owner, a reason and an expiry after ``now`` (epoch seconds)."""
    waivers = given if isinstance(given, list) else [given] if given else []
    made = []
    for position, waiver in enumerate(waivers, 1):
        where = "Waiver %d" % position
        if not isinstance(waiver, dict):
            raise ProgrammeError("%s is not a mapping of finding (or control and scope), owner, reason and expires." % where)
        unknown = sorted(set(waiver) - set(WAIVER_KEYS))
        if unknown:
            raise ProgrammeError("%s has members a waiver has not: %s (it has %s)." % (where, ", ".join(unknown), ", ".join(WAIVER_KEYS)))
        if bool(waiver.get("finding")) == bool(waiver.get("control")) or bool(waiver.get("control")) != bool(waiver.get("scope")):
            raise ProgrammeError("%s must name either a finding, or a control and a scope." % where)
        for key in ("owner", "reason", "expires"):
            if not str(waiver.get(key) or "").strip():
                raise ProgrammeError("%s has no %s: a waiver needs an owner, a reason and an expiry." % (where, key))
        expires = expiry_of(waiver["expires"], "%s's expires" % where)
        if expires <= now:
            raise ProgrammeError("%s expires %s, which is not after now (%s): a waiver is for a time to come." % (
                where, moment_said(expires), moment_said(now)))
        made.append(dict(schema=WAIVER_SCHEMA, finding=waiver.get("finding"), control=waiver.get("control"), scope=waiver.get("scope"),
                         owner=str(waiver["owner"]).strip(), reason=str(waiver["reason"]).strip(), expires=moment_said(expires),
                         generated=moment_said(now)))
    return made


def waiver_run(waiver):
    """The run a waiver is entered as in the ledger: what it says, so that the same waiver given again (a job run twice) is
    entered once."""
    return "waiver/" + hashlib.sha256(canonical(dict((key, waiver.get(key)) for key in WAIVER_KEYS))).hexdigest()[:16]


def expiry_of(value, what="a waiver's expires"):
    """When a waiver ends, as epoch seconds: a moment as given; a date alone is the whole of that day, to its last second
    (UTC) - "expires 2027-03-31" is read as through that day, not its first second."""
    moment = moment_of(value, what)
    return moment + DAY - 1 if len(str(value).strip()) == len("2027-03-31") else moment


def moment_of(value, what):
    """An RFC 3339 moment or a date (a date is its midnight, UTC) as epoch seconds; a ProgrammeError names ``what``."""
    try:
        return parse_time(str(value))
    except (TypeError, ValueError):
        raise ProgrammeError("%s is %r, not a date or an RFC 3339 moment (for example 2027-03-31 or 2027-03-31T18:00:00Z)." % (what, value))


# -- the judgement ----------------------------------------------------------------------------------------------------


def judge(entries, controls, severities, finding_severities, as_of, projects=None):
    """The programme as of ``as_of`` (epoch seconds) over the ledger's ``entries``: the controls judged and the findings.
    ``projects``, the service's projects (name and type), give the project scopes; None: the projects the ledger names."""
    # Each entry's moment read once, in a copy: the entries stay as the ledger has them (a sign-off's hashes are over them).
    seen = [dict(entry, at=_recorded(entry)) for entry in recorded_by(entries, as_of)]
    runs = [entry for entry in seen if entry.get("runbook") in BY_NAME]
    waivers = [dict(entry["report"], sequence=entry["sequence"], recorded=entry["recorded"]) for entry in seen
               if entry.get("runbook") == WAIVER and isinstance(entry.get("report"), dict)]
    scopes = _scopes(runs, projects, runs[0]["at"] if runs else as_of)
    judged, findings = _controls_judged(controls, scopes, runs, as_of, severities)
    counted = dict((control["runbook"], control["id"]) for control in reversed(controls))
    findings += _failed_runs(runs, counted, severities, finding_severities.get("failed_run", "high"))
    findings += _never_proven(runs, scopes, severities, finding_severities.get("never_proven", "medium"))
    for finding in findings:
        _status(finding, waivers, as_of)
    for control in judged:
        for item in control["scopes"]:
            item["status"] = _scope_status(item, [f for f in findings if f["id"] in item["findings"] and f["status"] != CLOSED])
        statuses = set(item["status"] for item in control["scopes"])
        control["status"] = next((status for status in (NOT_MET, WAIVED, NOT_YET_DUE, MET) if status in statuses), NOTHING_TO_JUDGE)
    findings.sort(key=lambda finding: (finding["opened"], finding["id"]))
    overdue = [finding for finding in findings if finding["status"] == OVERDUE]
    return dict(schema=SCHEMA, as_of=moment_said(as_of), projects_from="service" if projects is not None else "ledger",
                projects_left_out=_left_out(runs, projects),
                controls=judged, findings=findings, waivers=[_waiver_said(waiver, as_of) for waiver in waivers],
                counts=_programme_counts(judged, findings), result="failed" if overdue else "passed",
                failures=["Finding %s (%s) was due by %s and is still open: overdue." % (f["id"], f["title"], f["due"]) for f in overdue])


def _controls_judged(controls, scopes, runs, as_of, severities):
    """Each control over each of its scopes, judged by the runs of the scope's projects: the controls and their findings."""
    by_project = {}
    for entry in runs:
        for project in entry.get("projects") or []:
            by_project.setdefault(project, []).append(entry)
    judged, findings = [], []
    for control in controls:
        items = []
        for name, (members, first_seen) in sorted(scopes[control["over"]].items()):
            relevant = sorted(dict((entry["sequence"], entry) for member in members for entry in by_project.get(member, [])
                                   if entry["runbook"] in (control["runbook"], control["after_changes_by"])).values(), key=lambda entry: entry["sequence"])
            item, lapses = _judge_scope(control, name, members, first_seen, relevant, as_of, severities)
            items.append(item)
            findings += lapses
        judged.append(dict(id=control["id"], title=control["title"], rules=control["rules"], over=control["over"], runbook=control["runbook"],
                           outcomes=control["outcomes"], within_days=control["within_days"], after_changes_by=control["after_changes_by"],
                           severity=control["severity"], scopes=items))
    return judged, findings


def _programme_counts(judged, findings):
    counts = dict(controls=len(judged), controls_met=sum(c["status"] == MET for c in judged),
                  controls_not_met=sum(c["status"] == NOT_MET for c in judged), controls_waived=sum(c["status"] == WAIVED for c in judged),
                  controls_not_yet_due=sum(c["status"] == NOT_YET_DUE for c in judged),
                  controls_nothing_to_judge=sum(c["status"] == NOTHING_TO_JUDGE for c in judged), findings=len(findings))
    counts.update((status, sum(f["status"] == status for f in findings)) for status in (OPEN, CLOSED, WAIVED, OVERDUE))
    return counts


def _left_out(runs, projects):
    """The projects the ledger's runs name that the service's projects do not (judged over the service's): no control judges
    them, and the programme says so - they are another service's, or were removed since."""
    if projects is None:
        return []
    named = set(project["name"] for project in projects) | set(project.get("id") for project in projects if project.get("id"))
    return sorted(set(project for entry in runs for project in entry.get("projects") or []) - named)


def _scope_status(item, open_ones):
    """Met only by a run (its ledger entry); without one, not yet due while its first window runs (it has a due date)."""
    if item["met"]:
        return MET
    if item["next_due"]:
        return NOT_YET_DUE
    return WAIVED if open_ones and all(f["status"] == WAIVED for f in open_ones) else NOT_MET


def said(programme):
    """The programme in one sentence - its outcome line, and what a sign-off signs: each control met with the ledger entries
    that met it, not yet due with its date, not met or waived with its scopes, and those with nothing to judge."""
    counts, controls = programme["counts"], programme["controls"]

    def scopes(control, status, each):
        items = [item for item in control["scopes"] if item["status"] == status]
        named = "; ".join(each(item) for item in items[:SHOWN_SCOPES])
        return named + (" and %d more" % (len(items) - SHOWN_SCOPES) if len(items) > SHOWN_SCOPES else "")

    def listed(status, each):
        return "; ".join("%s over %s" % (control["id"], scopes(control, status, each)) for control in controls if control["status"] == status)

    def name(item):
        return item["name"]

    parts = ["%d of %d controls met" % (counts["controls_met"], counts["controls"]) + (" (%s)" % listed(MET, _met_by) if counts["controls_met"] else "")]
    for status, key, each in ((NOT_YET_DUE, "controls_not_yet_due", _due), (NOT_MET, "controls_not_met", name), (WAIVED, "controls_waived", name)):
        if counts[key]:
            parts.append("%d %s (%s)" % (counts[key], status, listed(status, each)))
    if counts["controls_nothing_to_judge"]:
        parts.append("%d with nothing to judge (%s)" % (counts["controls_nothing_to_judge"], "; ".join(
            "%s: no %s" % (control["id"], control["over"].replace("_", " ")) for control in controls if control["status"] == NOTHING_TO_JUDGE)))
    return "Audit programme as of %s: %s; findings: %d open, %d overdue, %d waived, %d closed." % (
        programme["as_of"], "; ".join(parts), counts["open"], counts["overdue"], counts["waived"], counts["closed"])


def _due(item):
    return "%s, due %s" % (item["name"], item["next_due"])


def _met_by(item):
    """A met scope and the entry that met it (the oldest of its projects' newest counting runs)."""
    return "%s by entry %d" % (item["name"], item["last_run"]["sequence"])


def recorded_by(entries, as_of):
    """The entries recorded by ``as_of`` (epoch seconds): the ledger as it was then."""
    moments = [(entry, _recorded(entry)) for entry in entries]
    return [entry for entry, moment in moments if moment is not None and moment <= as_of]


def _recorded(entry):
    try:
        return parse_time(entry["recorded"])
    except (KeyError, TypeError, ValueError):
        return None


def _scopes(runs, projects, start):
    """{scope: {name: (its projects, first seen)}}: the service's projects of each type (or the ledger's: the backup
    projects are those a restore test ran in, the DR projects the others), and the applications the ledger names with
    the projects of their newest run."""
    first = {}
    for entry in runs:
        for project in projects_of(entry.get("report") or {}) or entry.get("projects") or []:
            first.setdefault(project, entry["at"])
    if projects is not None:
        by_type = dict((scope, [project["name"] for project in projects if project.get("type") == kind]) for scope, kind in PROJECT_TYPES.items())
    else:
        backup = set(project for entry in runs if BY_NAME[entry["runbook"]].verifies for project in entry.get("projects") or [])
        by_type = {BACKUP_PROJECTS: sorted(backup), DR_PROJECTS: sorted(set(first) - backup)}
    scopes = dict((scope, dict((name, ([name], first.get(name, start))) for name in names)) for scope, names in by_type.items())
    applications = {}
    for entry in runs:
        report = entry.get("report") or {}
        if entry["runbook"] == "application" and report.get("name"):
            seen = applications.get(report["name"], (None, entry["at"]))[1]
            applications[report["name"]] = (sorted(entry.get("projects") or []), seen)
    scopes[APPLICATIONS] = applications
    return scopes


def _counts(control, entry):
    return entry["runbook"] == control["runbook"] and of_report(entry.get("report") or {}) in control["outcomes"]


class _Watch:
    """One scope's projects as its runs go by: each project's newest counting run, and a change not yet followed by one."""

    def __init__(self, members, first_seen, within):
        self.members, self.first_seen, self.within = members, first_seen, within
        self.last = dict((member, None) for member in members)  # each project's newest counting run: (moment, entry)
        self.changed = dict((member, None) for member in members)  # a change not yet followed by a counting run

    def lapsed(self):
        """When the scope stopped (or stops) being met, as things stand."""
        moments = []
        for member in self.members:
            moments.append((self.last[member][0] if self.last[member] else self.first_seen) + self.within)
            if self.changed[member]:
                moments.append(self.changed[member][0])
        return min(moments) if moments else None

    def took(self, touched, moment, entry, counting):
        """A counting run (or a change) of the projects ``touched``."""
        for member in touched:
            if counting:
                self.last[member], self.changed[member] = (moment, entry), None
            elif not self.changed[member]:
                self.changed[member] = (moment, entry)

    def opened(self, since):
        """A lapse that began at ``since``: its moment and the change that began it (None: no counting run in time)."""
        return since, next((self.changed[m][1] for m in self.members if self.changed[m] and self.changed[m][0] == since), None)

    def changed_since(self):
        """The sequences of the changes not followed by a counting run yet."""
        return sorted(self.changed[m][1]["sequence"] for m in self.members if self.changed[m])

    def proof(self):
        """The oldest of the projects' newest counting runs, when every project has one."""
        newest = [self.last[member] for member in self.members if self.last[member]]
        return min(newest, key=lambda pair: pair[0]) if newest and len(newest) == len(self.members) else None


def _judge_scope(control, name, members, first_seen, runs, as_of, severities):
    """One scope of a control: whether it is met as of ``as_of``, and a finding for each time it stopped being met - closed
    by the counting run that made it met again, or open. ``runs``: the entries of its projects, in the order recorded."""
    watch = _Watch(members, first_seen, control["within_days"] * DAY)
    lapses, opened = [], None
    for entry in runs:
        moment, (touched, counting) = entry["at"], _touching(control, members, entry)
        if not touched:
            continue
        since = watch.lapsed()
        if opened is None and since is not None and since <= moment:
            opened = (since, None)
        watch.took(touched, moment, entry, counting)
        since = watch.lapsed()
        if opened is not None and (since is None or since > moment):
            lapses.append(_lapse(control, name, members, opened, severities, closed=(moment, entry)))
            opened = None
        elif opened is None and since is not None and since <= moment:
            opened = watch.opened(since)
    since = watch.lapsed()
    if opened is None and since is not None and since <= as_of:
        opened = watch.opened(since)
    if opened is not None:
        lapses.append(_lapse(control, name, members, opened, severities))
    proof = watch.proof()
    item = dict(name=name, projects=members, met=opened is None and proof is not None,
                last_run=dict(sequence=proof[1]["sequence"], recorded=proof[1]["recorded"]) if proof else None,
                next_due=moment_said(since) if since is not None and opened is None else None,
                changed_since=watch.changed_since(), findings=[lapse["id"] for lapse in lapses])
    return item, lapses


def _touching(control, members, entry):
    """The scope's projects an entry is a counting run or a change of, and whether it counts; none when it is neither."""
    counting = _counts(control, entry)
    change = entry["runbook"] == control["after_changes_by"] and of_report(entry.get("report") or {}) == "committed"
    touched = [member for member in members if member in (entry.get("projects") or [])] if counting or change else []
    return touched, counting


def _lapse(control, name, members, opened, severities, closed=None):
    moment, change = opened
    why = ("the %s entered as entry %d changed it after its last counting run" % (change["runbook"], change["sequence"]) if change
           else "no %s with outcome %s in %d days" % (control["runbook"], " or ".join(control["outcomes"]), control["within_days"]))
    return _finding(CONTROL_LAPSE, "%s:%s:%s" % (control["id"], name, moment_said(moment, whole=True)), control["id"], control["severity"],
                    severities, dict(kind=control["over"], name=name, projects=members), moment,
                    "%s not met for %s: %s" % (control["id"], name, why), closed)


def _finding(kind, finding_id, control, severity, severities, scope, opened, title, closed=None):
    finding = dict(id=finding_id, kind=kind, control=control, severity=severity, scope=scope, title=title,
                   opened=moment_said(opened, whole=True), due=moment_said(opened + severities[severity] * DAY, whole=True),
                   status=CLOSED if closed else OPEN, closed=None, waiver=None)
    if closed:
        finding["closed"] = dict(at=moment_said(closed[0], whole=True), by=closed[1]["sequence"], runbook=closed[1]["runbook"])
    return finding


def _machines(report, passed_only=False):
    return set(m.get("name") for m in report.get("machines") or [] if isinstance(m, dict) and m.get("name") and (m.get("passed") or not passed_only))


def _failed_runs(runs, counted, severities, severity):
    """A finding for each run of a runbook a control counts that failed, over its scope: its project and its
    machines (an application: its name and projects); closed by the first later passing run of the same runbook over the
    same scope - every one of its machines passed."""
    findings = []
    for position, entry in enumerate(runs):
        report = entry.get("report") or {}
        if entry["runbook"] not in counted or of_report(report) not in FAILING:
            continue
        application = report.get("name") if entry["runbook"] == "application" else None
        machines = _machines(report)
        scope = dict(kind="application", name=application, projects=sorted(entry.get("projects") or [])) if application else \
            dict(kind="machines", name=", ".join(entry.get("projects") or []), projects=sorted(entry.get("projects") or []), machines=sorted(machines))
        closing = None
        for later in runs[position + 1:]:
            if later["runbook"] != entry["runbook"] or (later.get("report") or {}).get("result") != "passed":
                continue
            if sorted(later.get("projects") or []) != scope["projects"]:
                continue
            if application and (later.get("report") or {}).get("name") == application or not application and machines <= _machines(later["report"], True):
                closing = (later["at"], later)
                break
        findings.append(_finding(
            FAILED_RUN, "%s:%s:%d" % ("FAILED-RUN", scope["name"], entry["sequence"]), counted[entry["runbook"]], severity, severities,
            scope, entry["at"], "the %s of %s %s (entry %d)%s" % (
                BY_NAME[entry["runbook"]].title, scope["name"], of_report(report), entry["sequence"],
                "" if application else ": " + ", ".join(sorted(machines)[:10]) + (" ..." if len(machines) > 10 else "")), closing))
    return findings


def _never_proven(runs, scopes, severities, severity):
    """A finding for each machine of a DR project a report named (any runbook's, the health role's too) before a passing DR
    test or failover proved it, opened when first named; closed by the run that proved it, or by a fleet health report of
    its project that no longer names it (the machine was retired from the service)."""
    dr = set(scopes[DR_PROJECTS])
    first, closed = {}, {}
    unproven = {}  # project -> its machines with a finding open, which a fleet health report may find retired
    for entry in runs:
        report = entry.get("report") or {}
        moment = entry["at"]
        passed = _machines(report, True) if entry["runbook"] in PROVING and report.get("result") == "passed" else set()
        for project in _named_machines(report):
            if project["name"] not in dr:
                continue
            waiting = unproven.setdefault(project["name"], set())
            if entry["runbook"] == "health":  # every machine of the project, those it excluded (stopped) named apart
                named = set(project["machines"]) | set(excluded.partition("/")[2] for excluded in report.get("excluded") or []
                                                       if str(excluded).startswith(project["name"] + "/"))
                for machine in waiting - named:
                    closed[(project["name"], machine)] = (moment, entry)
                waiting &= named
            for machine in project["machines"]:
                key = (project["name"], machine)
                if key in closed and closed[key][1]["runbook"] != "health":
                    continue
                if machine in passed:
                    closed[key] = (moment, entry)
                    waiting.discard(machine)
                elif key not in first or key in closed:  # named again after it was retired: a finding anew
                    first[key] = moment
                    closed.pop(key, None)
                    waiting.add(machine)
    return [_finding(NEVER_PROVEN, "NEVER-PROVEN:%s:%s" % key, None, severity, severities,
                     dict(kind="machines", name=key[0], projects=[key[0]], machines=[key[1]]), opened,
                     "%s of %s not yet proven by a passing DR test or failover" % (key[1], key[0]), closed.get(key))
            for key, opened in sorted(first.items())]


def _named_machines(report):
    if report.get("project"):
        return [dict(name=report["project"], machines=sorted(_machines(report)))]
    return [dict(name=project["name"], machines=sorted(_machines(project))) for project in report.get("projects") or []
            if isinstance(project, dict) and project.get("name")]


def _covers(waiver, finding):
    if waiver.get("finding"):  # an ID, or a pattern of them: NEVER-PROVEN:legacy:*
        return fnmatch.fnmatchcase(finding["id"], str(waiver["finding"]))
    return waiver.get("control") == finding["control"] and fnmatch.fnmatchcase(finding["scope"]["name"], str(waiver.get("scope")))


def _status(finding, waivers, as_of):
    """Open, closed, waived (a waiver in force covers it) or overdue (past its due date, no waiver in force)."""
    if finding["status"] == CLOSED:
        return
    covering = [waiver for waiver in waivers if _covers(waiver, finding)]
    in_force = [waiver for waiver in covering if expiry_of(waiver["expires"]) > as_of]
    if in_force:
        waiver = max(in_force, key=lambda waiver: expiry_of(waiver["expires"]))
        finding.update(status=WAIVED, waiver=_waiver_said(waiver, as_of))
        return
    if covering:
        finding["waiver"] = _waiver_said(max(covering, key=lambda waiver: expiry_of(waiver["expires"])), as_of)
    finding["status"] = OVERDUE if parse_time(finding["due"]) < as_of else OPEN


def _waiver_said(waiver, as_of):
    return dict(sequence=waiver["sequence"], finding=waiver.get("finding"), control=waiver.get("control"), scope=waiver.get("scope"),
                owner=waiver.get("owner"), reason=waiver.get("reason"), expires=waiver.get("expires"), recorded=waiver.get("recorded"),
                expired=expiry_of(waiver["expires"]) <= as_of)
