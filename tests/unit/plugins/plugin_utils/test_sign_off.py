# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Sign-offs with real SSH keys (ssh-keygen -Y): one verified; an entry it covers edited with the chain's hashes recomputed
after it (the chain alone holds) named with the sign-off; an entry removed; a key nobody allowed; a second sign-off
covering only what came after the first."""

import json
import os
import shutil
import subprocess

import pytest

from ansible_collections.replication.recovery.plugins.plugin_utils import _ledger, _sign_off

pytestmark = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="ssh-keygen (OpenSSH) is not installed")
PRINCIPAL = "dr-manager@example.com"


def key_in(directory, name):
    path = os.path.join(str(directory), name)
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", path], check=True)
    with open(path + ".pub", encoding="utf-8") as handle:
        return path, handle.read().split()[:2]


@pytest.fixture
def signer(tmp_path):
    key, public = key_in(tmp_path, "manager")
    allowed = tmp_path / "allowed_signers"
    allowed.write_text("%s %s %s\n" % (PRINCIPAL, public[0], public[1]))
    return key, str(allowed)


def ledger_of(directory, runs=3, first=1):
    for number in range(first, first + runs):
        _ledger.append(str(directory), "dr_test", dict(project="prod", started="2027-01-0%dT00:00:00Z" % number, result="passed",
                                                       machines=[dict(name="db-1", passed=True)]))
    return _ledger.verify(str(directory))[0]


def signed(directory, signer, statement="Approved."):
    entries = _ledger.verify(str(directory))[0]
    report = _sign_off.sign(entries, signer[0], signer[1], statement, "2027-01-05T00:00:00Z")
    _ledger.append(str(directory), _sign_off.KIND, report, run=_sign_off.run_of(report))
    return report


def rewrite_from(directory, sequence, change):
    """Edit entry ``sequence`` and recompute its hash and every later entry's link and hash, as someone who can write the
    ledger would to hide the edit from the chain."""
    previous = None
    for number, name in _ledger.entry_files(directory):
        path = os.path.join(directory, name)
        with open(path, encoding="utf-8") as handle:
            entry = json.load(handle)
        if number == sequence:
            change(entry)
        if number >= sequence:
            entry["previous"] = previous if number > 1 else None
            entry["sha256"] = _ledger.digest(entry)
            with open(path, "w", encoding="utf-8") as handle:
                json.dump(entry, handle)
        previous = entry["sha256"]


def test_a_sign_off_is_verified_and_names_its_signer(tmp_path, signer):
    directory = tmp_path / "ledger"
    ledger_of(directory)
    report = signed(directory, signer)
    assert report["signer"] == PRINCIPAL and report["head"]["sequence"] == 3 and sorted(report["covers"]) == ["1", "2", "3"]
    said, breaks = _sign_off.verify(_ledger.verify(str(directory))[0], signer[1])
    assert breaks == [] and said[0]["signature"] == "verified" and said[0]["holds"] and said[0]["sequence"] == 4


def test_an_entry_edited_with_the_chain_recomputed_is_named_with_the_sign_off(tmp_path, signer):
    directory = str(tmp_path / "ledger")
    ledger_of(directory)
    signed(directory, signer)

    def failed_to_passed(entry):
        entry["report"]["result"] = entry["result"] = "failed"

    rewrite_from(directory, 2, failed_to_passed)
    entries, chain_breaks = _ledger.verify(directory)
    assert chain_breaks == []  # the chain alone cannot catch it
    said, breaks = _sign_off.verify(entries, signer[1])
    # Entry 2 is named, not entry 3, whose link alone was recomputed.
    assert len(breaks) == 1 and breaks[0].startswith("Entry 2 (dr_test of prod, recorded ") and "sign-off entry 4 (by %s" % PRINCIPAL in breaks[0]
    assert "was changed after" in breaks[0] and not said[0]["holds"] and said[0]["signature"] == "verified"


def test_an_entry_removed_is_named(tmp_path, signer):
    directory = str(tmp_path / "ledger")
    ledger_of(directory)
    signed(directory, signer)
    os.remove(os.path.join(directory, "00000003.json"))
    said, breaks = _sign_off.verify(_ledger.verify(directory)[0], signer[1])
    assert breaks == ["Entry 3, which sign-off entry 4 (by %s, 2027-01-05T00:00:00Z) signed, was removed from the ledger." % PRINCIPAL]


def test_a_key_nobody_allowed_signs_nothing_and_a_signature_of_another_key_does_not_verify(tmp_path, signer):
    directory = str(tmp_path / "ledger")
    entries = ledger_of(directory)
    stranger, unused = key_in(tmp_path, "stranger")
    with pytest.raises(_sign_off.SignOffError, match="is not in the allowed signers file"):
        _sign_off.sign(entries, stranger, signer[1], "Approved.", "2027-01-05T00:00:00Z")
    signed(directory, signer)
    unused, public = key_in(tmp_path, "other")
    other = tmp_path / "other_allowed"
    other.write_text("%s %s %s\n" % (PRINCIPAL, public[0], public[1]))
    said, breaks = _sign_off.verify(_ledger.verify(directory)[0], str(other))
    assert said[0]["signature"] == "does not verify" and "its signature does not verify against" in breaks[0]


def test_a_sign_off_whose_statement_was_edited_does_not_verify(tmp_path, signer):
    directory = str(tmp_path / "ledger")
    ledger_of(directory)
    signed(directory, signer, "3 controls met.")

    def other_statement(entry):
        entry["report"]["statement"] = "4 controls met."

    rewrite_from(directory, 4, other_statement)
    said, breaks = _sign_off.verify(_ledger.verify(directory)[0], signer[1])
    assert said[0]["signature"] == "does not verify" and breaks[0].startswith("Sign-off entry 4")


def test_without_allowed_signers_the_signature_is_said_unchecked_and_edits_still_named(tmp_path, signer):
    directory = str(tmp_path / "ledger")
    ledger_of(directory)
    signed(directory, signer)
    said, breaks = _sign_off.verify(_ledger.verify(directory)[0])
    assert breaks == [] and said[0]["signature"].startswith("not checked")


def test_a_second_sign_off_covers_what_came_after_the_first(tmp_path, signer):
    directory = str(tmp_path / "ledger")
    ledger_of(directory)
    signed(directory, signer)
    ledger_of(directory, runs=1, first=4)
    second = signed(directory, signer)
    assert sorted(second["covers"], key=int) == ["4", "5"] and second["head"]["sequence"] == 5
    said, breaks = _sign_off.verify(_ledger.verify(directory)[0], signer[1])
    assert breaks == [] and [s["sequence"] for s in said] == [4, 6]
