# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A machine's blueprint switched to a test network, and put back exactly as it was.

The service keeps one blueprint per machine and region for every launch type, so a DR test in an
isolated network switches the blueprint before its launch and puts it back after. What it was
lives in the blueprint itself, in tags of its own (``replication.recovery/production.1``, ``.2``,
...), written in the same PATCH as the switch and removed in the same PATCH as the restore: a
blueprint carries them exactly while it is switched, and any later run, on any controller, reads
from the service which blueprints are switched and what they were.

The tags also hold a fingerprint of the switched settings. A blueprint whose switched members no
longer match it was changed by somebody else since the switch: it is not put back over their
change, and is named instead.
"""

import hashlib
import json

from ansible_collections.replication.recovery.plugins.module_utils._compare import key_values
from ansible_collections.replication.recovery.plugins.module_utils._domain import TEST_NETWORK_OPTIONS, parse_test_network

STASH_KEY = "replication.recovery/production"
# What one tag value holds: the clouds' limit on a tag's value is 256 characters.
CHUNK = 240

UNORDERED = ("subnetIDs", "securityGroupIDs", "privateIPs", "tags")
LOOKUPS = dict(subnets="subnet", security_groups="security_group")


class StashUnreadable(ValueError):
    """Tags of ours that do not make a whole record of the original settings."""


def is_stash_tag(tag):
    return tag.get("key", "").startswith(STASH_KEY + ".")


def without_stash(tags):
    return [tag for tag in tags or [] if not is_stash_tag(tag)]


def _normal(member, value):
    if member == "tags":
        value = without_stash(value)
    if member in UNORDERED and isinstance(value, list):
        return sorted(value, key=lambda item: json.dumps(item, sort_keys=True))
    return value


def settings_of(blueprint, members):
    """The blueprint's values of ``members``, lists in a canonical order, our tags left out."""
    return dict((member, _normal(member, blueprint.get(member))) for member in members)


def fingerprint(blueprint, members):
    """A short digest of the blueprint's values of ``members``."""
    text = json.dumps(settings_of(blueprint, sorted(members)), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def stash_of(blueprint):
    """What the blueprint was before its switch ({"members": {...}, "switched": fingerprint}), or None
    when it is not switched. Raises StashUnreadable when our tags do not make a whole record."""
    parts = {}
    for tag in blueprint.get("tags") or []:
        if is_stash_tag(tag):
            parts[tag["key"][len(STASH_KEY) + 1:]] = tag.get("value") or ""
    if not parts:
        return None
    try:
        text = "".join(parts[str(number)] for number in range(1, len(parts) + 1))
        stash = json.loads(text)
        if not isinstance(stash.get("members"), dict) or not stash.get("switched"):
            raise ValueError("members or fingerprint missing")
    except (KeyError, ValueError, AttributeError) as error:
        raise StashUnreadable("its tags %s.* do not hold its original settings (%s)" % (STASH_KEY, error))
    return stash


def stash_tags(originals, switched):
    """Our tags for ``originals`` (the members before the switch) and the fingerprint of the switch."""
    text = json.dumps(dict(members=originals, switched=switched), sort_keys=True, separators=(",", ":"))
    chunks = [text[at:at + CHUNK] for at in range(0, len(text), CHUNK)]
    return [dict(key="%s.%d" % (STASH_KEY, number), value=chunk) for number, chunk in enumerate(chunks, 1)]


def network_members(network):
    """A test network's options (names already made IDs) as blueprint members."""
    members = {}
    for option, value in network.items():
        if value is None:
            continue
        if option == "tags" and isinstance(value, dict):
            value = key_values(value)
        members[TEST_NETWORK_OPTIONS[option]] = value
    return members


def switch_body(blueprint, members):
    """The PATCH that switches ``blueprint`` to the test settings ``members``, with our tags; None when
    it has those settings already. Raises ValueError for a member the switch could not put back: one
    the blueprint does not have, which a PATCH could not remove again."""
    before = settings_of(blueprint, members)
    after = settings_of(dict(blueprint, **members), members)
    if before == after:
        return None
    unset = sorted(member for member, value in members.items() if blueprint.get(member) is None and value is not None)
    if unset:
        raise ValueError("its blueprint has no %s, and a test network that sets it could not put that back" % ", ".join(unset))
    originals = dict((member, blueprint.get(member) if member != "tags" else without_stash(blueprint.get(member))) for member in members)
    body = dict(members)
    tags = body.pop("tags", None)
    tags = without_stash(blueprint.get("tags")) if tags is None else tags
    body["tags"] = tags + stash_tags(originals, fingerprint(dict(blueprint, **members), members))
    return body


def restore_body(blueprint, stash):
    """The PATCH that puts ``blueprint`` back as ``stash`` says it was, our tags removed."""
    body = dict(stash["members"])
    if "tags" not in body:
        body["tags"] = without_stash(blueprint.get("tags"))
    return body


def changed_since_switch(blueprint, stash):
    """Whether somebody changed the switched members of ``blueprint`` since the switch."""
    return fingerprint(blueprint, stash["members"]) != stash["switched"]


def test_networks(given, names, with_ids):
    """The test settings of each machine of ``names``, as blueprint members with IDs, from the ``network`` option as given
    (its settings for all, and ``machines``: each one's own); ``with_ids(settings)`` makes names IDs. A ValueError, in the
    task's words, for unknown options or machines, or no network at all."""
    network = dict(parse_test_network(given, "network") or {})
    overrides = network.pop("machines", None) or {}
    strangers = sorted(set(overrides) - set(names))
    if strangers:
        raise ValueError("network.machines names %s, not among the machines (%s)" % (", ".join(strangers), ", ".join(sorted(names))))
    if not network and not overrides:
        raise ValueError("state=switched needs a network: the service_blueprint options of the test network")
    return dict((name, network_members(with_ids(dict(network, **(overrides.get(name) or {}))))) for name in names)
