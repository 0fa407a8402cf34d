# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Sign-offs: a ledger entry of its own, signed with an SSH key (``ssh-keygen -Y sign``), over the ledger's head at that
moment - the programme a person approved.

The chain alone does not hold an entry fast: whoever can write the ledger can edit an entry and recompute every hash after
it. So a sign-off also lists, and signs, the SHA-256 of every entry it is the first to cover (those after the head of the
sign-off before it, up to its own head). Verified against an allowed-signers file (``ssh-keygen -Y verify``), each covered
entry must still have the hash that was signed: an entry edited or removed after it was signed is named, with the sign-off.
"""

import hashlib
import os
import subprocess
import tempfile

from ansible.module_utils.common.text.converters import to_text
from ansible_collections.replication.recovery.plugins.plugin_utils import _programme
from ansible_collections.replication.recovery.plugins.plugin_utils._ledger import canonical

SCHEMA = "replication.recovery.sign_off/v1"
NAMESPACE = "replication.recovery-ledger"  # what ssh-keygen -Y signs for: a signature made for another use never verifies here
KIND = "sign_off"


class SignOffError(Exception):
    pass


def _ssh_keygen(arguments, data, files=None):
    """ssh-keygen -Y with ``data`` on its standard input (and ``files``, name -> text, written to a directory of its own):
    (exit status, output, errors). Never waits for a passphrase: a key given must open without one (or be in ssh-agent)."""
    with tempfile.TemporaryDirectory(prefix="sign-off.") as directory:
        paths = {}
        for name, text in (files or {}).items():
            paths[name] = os.path.join(directory, name)
            with open(paths[name], "w", encoding="utf-8") as handle:
                handle.write(text)
        command = ["ssh-keygen", "-Y"] + [paths.get(argument, argument) for argument in arguments]
        try:
            done = subprocess.run(command, input=data, capture_output=True, timeout=60, check=False,
                                  env=dict(os.environ, SSH_ASKPASS_REQUIRE="never", DISPLAY=""))
        except FileNotFoundError:
            raise SignOffError("ssh-keygen is not installed on the controller (OpenSSH 8.2 or later signs and verifies sign-offs).")
        except subprocess.TimeoutExpired:
            raise SignOffError("ssh-keygen did not answer within 60 seconds (a key that asks for a passphrase? Give one that "
                               "opens without it, or its public key with the private key in ssh-agent).")
    return done.returncode, to_text(done.stdout), to_text(done.stderr).strip()


def content(entry):
    """The SHA-256 of what an entry says - every member but its own hash and its link to the entry before it - which a
    sign-off signs: an entry edited is named, not every entry after it whose link was recomputed to hide the edit."""
    return hashlib.sha256(canonical(dict((key, value) for key, value in entry.items() if key not in ("sha256", "previous")))).hexdigest()


def run_of(report):
    """The run a sign-off is entered as in the ledger: its head and signature, so that two sign-offs are two entries."""
    return "sign-off/%d/%s" % (report["head"]["sequence"], hashlib.sha256(report["signature"].encode("utf-8")).hexdigest()[:16])


def payload(report):
    """What a sign-off's signature is over: its report without the signature, canonical JSON."""
    return canonical(dict((key, value) for key, value in report.items() if key not in ("signature", "signer")))


def covered(entries):
    """The entries a new sign-off is the first to cover: those after the newest sign-off's head (all, without one)."""
    after = 0
    for entry in entries:
        if entry.get("runbook") == KIND and isinstance(entry.get("report"), dict):
            after = max(after, (entry["report"].get("head") or {}).get("sequence") or 0)
    return [entry for entry in entries if entry.get("sequence", 0) > after]


def sign(entries, key, allowed_signers, statement, now):
    """The report of a sign-off of the ledger whose ``entries`` are read, with the key file ``key`` (its principal found in
    ``allowed_signers``): ``statement`` (what is approved) and the programme's figures are part of what is signed."""
    if not entries:
        raise SignOffError("The ledger has no entry yet: there is nothing to sign.")
    for path, what in ((key, "evidence_sign_key"), (allowed_signers, "evidence_allowed_signers")):
        if not path or not os.path.isfile(path):
            raise SignOffError("%s %s is no file on the controller." % (what, path or "is not given: it"))
    head = entries[-1]
    report = dict(schema=SCHEMA, head=dict(sequence=head["sequence"], sha256=head["sha256"]), statement=statement, signed=now,
                  covers=dict(("%d" % entry["sequence"], content(entry)) for entry in covered(entries)), namespace=NAMESPACE)
    status, signature, errors = _ssh_keygen(["sign", "-f", key, "-n", NAMESPACE], payload(report))
    if status != 0 or "BEGIN SSH SIGNATURE" not in signature:
        raise SignOffError("ssh-keygen could not sign with %s: %s" % (key, errors or "no signature"))
    with open(allowed_signers, encoding="utf-8") as handle:
        allowed = handle.read()
    status, principals, errors = _ssh_keygen(["find-principals", "-s", "signature", "-f", "allowed"], b"",
                                             dict(signature=signature, allowed=allowed))
    if status != 0 or not principals.strip():
        raise SignOffError("The key %s is not in the allowed signers file %s: a sign-off nobody can verify is not made." % (key, allowed_signers))
    report.update(signer=principals.split()[0], signature=signature)
    return report


def verify(entries, allowed_signers=None):
    """Every sign-off of the ledger's ``entries`` checked: (sign-offs as said, breaks). Each break names the sign-off and,
    for an entry it covers that was edited or removed, the entry."""
    by_sequence = dict((entry.get("sequence"), entry) for entry in entries)
    allowed = None
    if allowed_signers:
        with open(allowed_signers, encoding="utf-8") as handle:
            allowed = handle.read()
    said, breaks = [], []
    for entry in entries:
        report = entry.get("report")
        if entry.get("runbook") != KIND or not isinstance(report, dict):
            continue
        said_of = "entry %d (by %s, %s)" % (entry["sequence"], report.get("signer") or "no signer", report.get("signed"))
        where = "Sign-off " + said_of
        problems = []
        if allowed is None:
            signature = "not checked: no allowed signers file given"
        else:
            status, unused, errors = _ssh_keygen(
                ["verify", "-f", "allowed", "-I", str(report.get("signer") or ""), "-n", NAMESPACE, "-s", "signature"], payload(report),
                dict(allowed=allowed, signature=str(report.get("signature") or "")))
            signature = "verified" if status == 0 else "does not verify"
            if status != 0:
                problems.append("%s: its signature does not verify against %s as %s (%s)." % (
                    where, allowed_signers, report.get("signer"), errors.splitlines()[-1] if errors else "no reason given"))
        for sequence, sha256 in sorted((int(sequence), sha256) for sequence, sha256 in (report.get("covers") or {}).items()):
            now = by_sequence.get(sequence)
            if now is None:
                problems.append("Entry %d, which sign-off %s signed, was removed from the ledger." % (sequence, said_of))
            elif content(now) != sha256:
                entry_said = "%s of %s, recorded %s" % (now.get("runbook"), ", ".join(now.get("projects") or []) or "-", now.get("recorded"))
                problems.append("Entry %d (%s) was changed after sign-off %s signed it: what it says is no longer what was signed, even "
                                "though the chain may hold." % (sequence, entry_said, said_of))
        breaks += problems
        said.append(dict(sequence=entry["sequence"], signer=report.get("signer"), signed=report.get("signed"), statement=report.get("statement"),
                         head=report.get("head"), covers=len(report.get("covers") or {}), signature=signature, holds=not problems,
                         problems=problems))
    return said, breaks


def statement_of(programme):
    """What a sign-off approves: the programme judged just before it, in the words its run says it."""
    return _programme.said(programme)
