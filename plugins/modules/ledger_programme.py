#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

# The module is an action plugin (plugins/action/ledger_programme.py); this file documents it.

DOCUMENTATION = r"""
module: ledger_programme
short_description: Judge the audit programme's controls over the ledger of runs; enter waivers and sign-offs
version_added: 2.0.0
description:
  - Judges every control of the programme over the ledger of runs in O(ledger_dir) - met, not met or waived - and lists
    the findings, each C(open), C(closed), C(waived) or C(overdue). Controls are data - the collection's own
    (C(roles/evidence/files/controls.yml)), then the files in O(controls) in order, each adding controls, replacing one with
    the same C(id), or all of those before it (C(replace) V(true)).
  - "A control is over C(dr_projects), C(backup_projects) (the service's projects of type DR or BACKUP, given in
    O(projects); without it, the projects the ledger names) or C(applications) (the ledger's applications, each with the
    projects of its newest run); it counts the runs of its C(runbook) whose outcome is one of its C(outcomes), which must be
    no older than C(within_days), and, with C(after_changes_by), newer than each committed run of that runbook (a launch
    policy that changed the launch settings)."
  - Each time a scope stops being met a finding opens, due by the control's severity; the counting run that makes it met
    again closes it. A rehearsal of a runbook a control counts that failed opens a finding over its scope (its
    project and machines); only a later passing run of the same runbook of the same machines closes it. A machine of a DR
    project a report named before any passing DR test or failover proved it is a finding until one does, or until a
    fleet health report no longer names it.
  - Everything is derived from the ledger as of O(as_of) - entries recorded after it are not read - so the same ledger
    gives the same programme.
  - Waivers (O(waive)) and a sign-off (O(sign_key)) are entered in the ledger as entries of their own before it is judged.
    A sign-off is signed with C(ssh-keygen -Y sign) over the ledger's head and the SHA-256 of every entry it is the first to
    cover; each is verified against O(allowed_signers), and an entry it covers that was edited (even with the chain's
    hashes recomputed) or removed is named.
  - Writes C(evidence_programme.<its time>.json) (schema C(replication.recovery.evidence_programme/v1)), C(.md) and
    C(.html) in O(report_dir), and the programme in OSCAL 1.1.2 beside them - the assessment results (C(.oscal.json)), the
    assessment plan of the controls they import (C(.oscal-plan.json)) and a plan of action and milestones for the findings
    not closed (C(.oscal-poam.json)); and the plain names C(evidence_programme.json), C(.md), C(.html), C(.oscal.json),
    C(.oscal-plan.json), C(.oscal-poam.json) of the newest.
options:
  ledger_dir:
    description: The ledger, a directory. The default ledger of the controller if not given.
    type: path
  report_dir:
    description: Where the programme is written (made if missing); nothing is written if not given. Relative to where C(ansible-playbook) was started.
    type: path
  controls:
    description: Controls files of your own, read in order after the collection's. Relative paths are taken from where C(ansible-playbook) was started.
    type: list
    elements: path
    default: []
  as_of:
    description:
      - Judge the programme as of this moment (RFC 3339, or a date, taken as its midnight UTC), on the controller's clock the
        ledger keeps; now if not given. Entries recorded after it are not read; findings due before it are overdue.
    type: str
  projects:
    description:
      - The service's projects, each with C(name) and C(type) (V(DR), V(BACKUP)), as
        M(replication.recovery.service_project_info) answers them. Without it the project scopes are the projects the ledger
        names - those a restore test ran in are the backup projects - and the programme says so (C(projects_from)).
    type: list
    elements: dict
  waive:
    description:
      - Waivers to enter in the ledger before judging, a mapping or a list of them (or their JSON or YAML text), each with
        C(finding) (a finding's ID, or a pattern such as V(NEVER-PROVEN:legacy:*)) or C(control) and C(scope) (a project or
        an application, a pattern too), and C(owner), C(reason) and C(expires) (a date or RFC 3339 moment after now) - each
        required. The findings a waiver covers are C(waived) until it expires, then open (or overdue) again.
    type: raw
  sign_key:
    description:
      - Sign the programme off with this SSH private key (without a passphrase), or a public key whose private key is in
        C(ssh-agent), after judging it. Needs O(allowed_signers), where the key's principal is found. Refused with O(as_of),
        and over a broken ledger.
    type: path
  allowed_signers:
    description:
      - The allowed-signers file (C(ssh-keygen) ALLOWED SIGNERS format) the sign-offs are verified against; without it their
        signatures are not checked, and the programme says so.
    type: path
  fail_on_overdue:
    description: Fail when a finding is overdue or a sign-off does not hold. With V(false), answer them in RV(message) and let the play decide.
    type: bool
    default: true
attributes:
  check_mode:
    details: Judges the programme with the waivers and sign-off given as if entered; enters nothing in the ledger and writes no file.
requirements:
  - C(ssh-keygen) of OpenSSH 8.2 or later on the controller, to sign and verify sign-offs.
extends_documentation_fragment:
  - replication.recovery.runbook.LEDGER
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Judge the programme as the ledger stands, with a waiver
  replication.recovery.ledger_programme:
    ledger_dir: /mnt/dr-ledger
    report_dir: /mnt/dr-evidence
    controls: [/etc/dr/controls.yml]
    waive:
      control: RESTORE-TEST-90-DAYS
      scope: archive
      owner: cio@example.com
      reason: "CHG-2211: the archive project is migrated in March"
      expires: "2027-03-31"

- name: Sign the programme off
  replication.recovery.ledger_programme:
    ledger_dir: /mnt/dr-ledger
    sign_key: ~/.ssh/dr-manager
    allowed_signers: /etc/dr/allowed_signers
"""

RETURN = r"""
programme:
  description:
    - The programme - C(as_of), C(projects_from) (V(service) or V(ledger)), C(controls) (each with C(id), C(title), C(rules),
      C(status) and its C(scopes), each with C(name), C(projects), C(status), C(last_run), C(next_due), C(findings)),
      C(findings) (each with C(id), C(kind), C(control), C(severity), C(scope), C(title), C(opened), C(due), C(status),
      C(closed), C(waiver)), C(waivers), C(sign_offs) (each with C(sequence), C(signer), C(signed), C(head), C(signature),
      C(holds), C(problems)), C(counts), C(result), C(failures) and C(ledger).
  returned: always
  type: dict
result:
  description: V(failed) when a finding is overdue or a sign-off does not hold, else V(passed).
  returned: always
  type: str
report:
  description: The paths of this run's files (C(json), C(markdown), C(html), C(oscal_results), C(oscal_plan), C(oscal_poam)), absolute.
  returned: with O(report_dir), not in check mode
  type: dict
lines:
  description: The outcome in a few lines.
  returned: always
  type: list
  elements: str
message:
  description: The overdue findings and the sign-offs that do not hold.
  returned: when there are any
  type: str
"""
