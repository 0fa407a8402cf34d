#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: service_machine_tags
short_description: Add or remove launch-time tags of many machines in one request
version_added: 2.0.0
description:
  - Adds tags to machines, or removes them, leaving their other tags as they are - for any number of machines of a
    project with one read of the machine list and one write (C(PATCH .../machines), which the service applies to all of
    them or to none).
  - Idempotent - a machine that has (or lacks) the tags already is not written; when none needs a change, nothing is sent.
  - The runbooks keep marks of their own in tags that begin with C(replication.recovery/) - which recovery machines
    a failover committed, which a DR test launched as a drill. This module writes them when told to, as any tag;
    M(replication.recovery.service_machine) keeps them when it sets a machine's tags.
options:
  tags:
    description:
      - The tags to add (O(state=present)) or remove (O(state=absent)), for each machine by its name or ID.
      - With O(state=present), a tag of the form C(key=value) takes the place of the machine's tag of the same C(key=), if it has one.
      - With O(state=absent), a tag that ends in C(=*) removes every tag that begins with the text before the C(*).
      - A tag has 1 to 127 characters, and a machine at most 50 tags; the service refuses more, and nothing is written.
    type: dict
    required: true
  state:
    description: Whether the machines have the tags, or not.
    type: str
    choices: [present, absent]
    default: present
extends_documentation_fragment:
  - replication.recovery.project
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
attributes:
  check_mode:
    support: full
    details: Nothing is written; the task says which machines it would change, and how.
  diff_mode:
    support: full
    details: The tags of each machine that changes, before and after, by machine name.
seealso:
  - module: replication.recovery.service_machine
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Tag the databases of wave 1, in one request
  replication.recovery.service_machine_tags:
    project: production
    tags:
      db-1: [wave-1, database]
      db-2: [wave-1, database]

- name: Remove every wave tag from them
  replication.recovery.service_machine_tags:
    project: production
    state: absent
    tags:
      db-1: ["wave-*"]
      db-2: ["wave-*"]
"""

RETURN = r"""
changed_machines:
  description: Names of the machines whose tags changed (or, in check mode, would change).
  returned: always
  type: list
  elements: str
  sample: [db-1]
tags:
  description: Each machine's tags after the task (in check mode, as they would be), by machine name.
  returned: always
  type: dict
  sample: {db-1: [database, wave-1], db-2: [database, wave-1]}
"""

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils._machines import name_of
from ansible_collections.replication.recovery.plugins.module_utils._machine_reads import resolve_machines

TAG_LENGTH = (1, 127)


def _matches(tag, pattern):
    return tag.startswith(pattern[:-1]) if pattern.endswith("=*") else tag == pattern


class MachineTagsModule(ServiceModule):
    def work(self):
        params = self.params
        project = self.lookup("project", params["project"])
        machines, wanted = self.wanted(project)
        after, changed, before_diff, after_diff = {}, [], {}, {}
        for machine in machines:
            current = list(machine.get("tags") or [])
            tags = _tags_after(current, wanted[machine["id"]], params["state"])
            after[name_of(machine)] = tags
            if tags != current:
                changed.append(machine)
                before_diff[name_of(machine)], after_diff[name_of(machine)] = current, tags
        if changed:
            body = dict(items=[dict(id=machine["id"], tags=after[name_of(machine)]) for machine in changed])
            self.change(lambda: self.client.patch("/projects/%s/machines" % project["id"], body), before=before_diff, after=after_diff)
            self.forget("/projects/%s/machines" % project["id"])
        return dict(changed_machines=[name_of(machine) for machine in changed], tags=after)

    def wanted(self, project):
        """The machines named and the tags asked of each (by machine ID), refused before anything is written when a
        machine is not given a list or a tag's length is out of the service's bounds."""
        given = self.params["tags"]
        not_lists = sorted(str(value) for value, tags in given.items() if not isinstance(tags, list))
        if not_lists:
            self.fail_json(msg="tags maps each machine to a list of tags; %s %s not given a list. Nothing was written." % (
                ", ".join(not_lists), "is" if len(not_lists) == 1 else "are"))
        machines = resolve_machines(self, project, list(given))
        wanted = dict((machine["id"], [str(tag) for tag in given[value] or []])
                      for value in given for machine in resolve_machines(self, project, [value]))
        bad = sorted(set(tag for tags in wanted.values() for tag in tags if not TAG_LENGTH[0] <= len(tag) <= TAG_LENGTH[1]))
        if bad:
            self.fail_json(msg="A tag has %d to %d characters; %s %s not. Nothing was written." % (
                TAG_LENGTH[0], TAG_LENGTH[1], ", ".join(repr(tag[:40]) for tag in bad), "does" if len(bad) == 1 else "do"))
        return machines, wanted


def _tags_after(current, wanted, state):
    """A machine's tags once the wanted ones are present (a key=value tag replacing the key's other values) or absent."""
    if state == "absent":
        return [tag for tag in current if not any(_matches(tag, pattern) for pattern in wanted)]
    keys = set(tag.split("=", 1)[0] + "=" for tag in wanted if "=" in tag)
    tags = [tag for tag in current if tag in wanted or not any(tag.startswith(key) for key in keys)]
    return tags + [tag for tag in wanted if tag not in tags]


def main():
    MachineTagsModule(
        argument_spec=dict(
            project=dict(type="str", required=True),
            tags=dict(type="dict", required=True),
            state=dict(type="str", choices=["present", "absent"], default="present"),
        ),
    ).run()


if __name__ == "__main__":
    main()
