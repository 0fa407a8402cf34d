# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Put the guides beside the reference antsibull-docs wrote, as the documentation site's sources:

    python docs/docsite/assemble.py COLLECTION SOURCES

The README, docs/*.md, the roles', the simulator's and the event source's READMEs and the changelog go to SOURCES at the
paths they have in the repository, so that their links between each other hold on the site as on GitHub; a file they
link to that is no page (a schema, a playbook, the licence) goes beside them, for the site to offer as a download. The
site's front page comes from docs/docsite; the event source's reference page is drawn from its documentation beside it
(extensions/eda/plugins/event_source/service_events.yaml, as Galaxy shows it); and beside them goes the intersphinx inventory of the few places in Ansible's
documentation that the reference links to (antsibull-docs makes those links), so that the site builds without reaching
the network: a reference to Ansible's documentation not in REFERENCES is a warning of the build, which fails it - list it."""

import os
import re
import shutil
import sys
import zlib

import yaml

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
EVENT_SOURCE = os.path.join("extensions", "eda", "plugins", "event_source", "service_events")
# Ansible's markup of documentation (O(option), V(value), C(code), E(variable), I(italic)), as code on the page.
MARKUP = re.compile(r"\b[OVCEI]\(([^()]*)\)")

# (name, domain:role, page under https://docs.ansible.com/projects/ansible/devel/, title)
REFERENCES = (
    ("action_plugins", "std:label", "plugins/action.html", "Action plugins"),
    ("common_return_values", "std:label", "reference_appendices/common_return_values.html", "Return Values"),
    ("ansible_configuration_settings", "std:label", "reference_appendices/config.html", "Ansible Configuration Settings"),
    ("ansible_collections.ansible.builtin.add_host_module", "std:label", "collections/ansible/builtin/add_host_module.html",
     "ansible.builtin.add_host module"),
    ("ansible_collections.ansible.builtin.set_stats_module", "std:label", "collections/ansible/builtin/set_stats_module.html",
     "ansible.builtin.set_stats module"),
) + tuple((variable, "std:envvar", "reference_appendices/config.html#envvar-" + variable, "-") for variable in (
    "ANSIBLE_CACHE_PLUGIN", "ANSIBLE_CACHE_PLUGIN_CONNECTION", "ANSIBLE_CACHE_PLUGIN_PREFIX", "ANSIBLE_CACHE_PLUGIN_TIMEOUT"))


def pages(collection):
    found = ["README.md", "CHANGELOG.rst", os.path.join("simulator", "README.md"), os.path.join("extensions", "eda", "README.md")]
    found += sorted(os.path.join("docs", name) for name in os.listdir(os.path.join(collection, "docs")) if name.endswith(".md"))
    found += sorted(os.path.join("roles", role, "README.md") for role in os.listdir(os.path.join(collection, "roles"))
                    if os.path.isfile(os.path.join(collection, "roles", role, "README.md")))
    return [page for page in found if os.path.isfile(os.path.join(collection, page))]


def linked_files(collection, page):
    """The files of the collection a page links to that are no page of the site."""
    with open(os.path.join(collection, page), encoding="utf-8") as handle:
        text = re.sub(r"^```.*?^```", "", handle.read(), flags=re.M | re.S)
    for target in LINK.findall(text):
        path = target.split("#")[0]
        if not path or re.match(r"^[a-z]+:", path) or path.endswith(".md"):
            continue
        linked = os.path.normpath(os.path.join(os.path.dirname(page), path))
        if os.path.isfile(os.path.join(collection, linked)):
            yield linked


def copy(collection, sources, path):
    os.makedirs(os.path.dirname(os.path.join(sources, path)) or sources, exist_ok=True)
    shutil.copyfile(os.path.join(collection, path), os.path.join(sources, path))


def said(text):
    return MARKUP.sub(lambda match: "`%s`" % match.group(1).split("=")[0] if match.group(0)[0] == "O" else "`%s`" % match.group(1), text)


def paragraphs(value):
    return [said(" ".join(value.split()))] if isinstance(value, str) else [said(" ".join(item.split())) for item in value]


def event_source_page(collection):
    """The event source's reference page, from the documentation Galaxy shows (its sidecar): what it does, each argument
    with its type and default, and the example."""
    with open(os.path.join(collection, EVENT_SOURCE + ".yaml"), encoding="utf-8") as handle:
        sidecar = yaml.safe_load(handle)
    doc = sidecar["DOCUMENTATION"]
    lines = ["# replication.recovery.service_events event source", "", said(doc["short_description"]) + ".", ""]
    for paragraph in paragraphs(doc["description"]):
        lines += ["- " + paragraph]
    lines += ["", "## Arguments", "", "| Argument | Type | Default | What it is |", "|---|---|---|---|"]
    for name, option in doc["options"].items():
        default = "" if "default" not in option else "`%s`" % yaml.safe_dump(option["default"], default_flow_style=True).strip().replace("\n...", "")
        lines.append("| `%s` | %s | %s | %s |" % (name, option["type"], default, " ".join(paragraphs(option["description"])).replace("|", "\\|")))
    lines += ["", "## Example", "", "```yaml", yaml.safe_dump(sidecar["EXAMPLES"], sort_keys=False, width=120).rstrip(), "```", ""]
    return "\n".join(lines)


def write_inventory(directory):
    body = "".join("%s %s -1 %s %s\n" % reference for reference in REFERENCES).encode("utf-8")
    with open(os.path.join(directory, "ansible_devel.inv"), "wb") as handle:
        handle.write(b"# Sphinx inventory version 2\n# Project: Ansible\n# Version: devel\n"
                     b"# The remainder of this file is compressed using zlib.\n" + zlib.compress(body))


def main(collection, sources):
    here = os.path.dirname(os.path.abspath(__file__))
    for page in pages(collection):
        copy(collection, sources, page)
        for linked in linked_files(collection, page):
            copy(collection, sources, linked)
    shutil.copyfile(os.path.join(here, "index.md"), os.path.join(sources, "index.md"))
    os.makedirs(os.path.dirname(os.path.join(sources, EVENT_SOURCE)), exist_ok=True)
    with open(os.path.join(sources, EVENT_SOURCE + ".md"), "w", encoding="utf-8") as handle:
        handle.write(event_source_page(collection))
    write_inventory(sources)


if __name__ == "__main__":
    main(*sys.argv[1:])
