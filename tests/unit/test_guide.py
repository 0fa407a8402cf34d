# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The guides lead where they say: every link between the collection's own pages reaches its file and heading, and every
file of the collection the maintainers' guide names (`plugins/...`, `roles/...`, `tests/...`) is there."""

import os
import re

import pytest

COLLECTION = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
GUIDE = os.path.join("docs", "developing.md")
PAGES = sorted([GUIDE, "README.md"] + [os.path.join("docs", name) for name in os.listdir(os.path.join(COLLECTION, "docs")) if name.endswith(".md")]
               + [os.path.join("roles", role, "README.md") for role in os.listdir(os.path.join(COLLECTION, "roles"))
                  if os.path.isfile(os.path.join(COLLECTION, "roles", role, "README.md"))])
PAGES = sorted(set(PAGES))
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
NAMED = re.compile(r"`((?:plugins|roles|tests|docs|playbooks|changelogs|simulator)/[A-Za-z0-9_./-]+)`")  # a role's own meta/... is relative


def read(path):
    with open(os.path.join(COLLECTION, path), encoding="utf-8") as handle:
        return handle.read()


def without_code_blocks(text):
    return re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)


def anchors(path):
    """The anchors GitHub gives a page's headings: lower case, punctuation but hyphens dropped, spaces as hyphens."""
    found = set()
    for heading in re.findall(r"^#{1,6} (.+)$", without_code_blocks(read(path)), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        while slug in found:
            slug += "-1"
        found.add(slug)
    return found


@pytest.mark.parametrize("page", PAGES)
def test_every_link_between_the_collections_pages_reaches_its_file_and_heading(page):
    broken = []
    for target in LINK.findall(without_code_blocks(read(page))):
        if re.match(r"^[a-z]+:", target):  # https:, mailto:: outside the collection
            continue
        path, unused, anchor = target.partition("#")
        linked = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
        if not os.path.exists(os.path.join(COLLECTION, linked)):
            broken.append("%s: no such file" % target)
        elif anchor and linked.endswith(".md") and anchor not in anchors(linked):
            broken.append("%s: no such heading in %s" % (target, linked))
    assert broken == []


def test_every_file_the_guide_names_is_there():
    named = set(NAMED.findall(read(GUIDE)))
    missing = sorted(path for path in named if "<" not in path and "*" not in path and not os.path.exists(os.path.join(COLLECTION, path.rstrip("/"))))
    assert len(named) > 20 and missing == []


def test_the_readme_is_a_front_page_that_leads_to_every_runbook():
    """At most 250 lines: what the collection is, the two commands, the runbooks a line each with a link to its page, where
    to go next."""
    from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import RUNBOOKS
    readme = read("README.md")
    assert len(readme.split("\n")) <= 250
    for runbook in RUNBOOKS:
        assert re.search(r"^\| `%s` \| .+ \| \[%s\]\(roles/%s/README\.md\)" % (runbook.name, runbook.name, runbook.role), readme, re.M), runbook.name
    assert "make demo" in readme and "make test" in readme
