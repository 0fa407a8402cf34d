#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: service_user
short_description: Manage your notification settings, and (as an administrator) the account's users and their roles
version_added: 1.0.0
description:
  - With O(notification_projects), sets which projects the logged-in user gets notifications for.
  - With O(user), an account administrator (C(ACCOUNT_ADMIN) or C(ACCOUNT_OWNER)) invites a user,
    gives it exactly the O(roles), or deletes it. An invited user sets its own password from the e-mail the service sends.
  - Passwords and API tokens are never returned.
options:
  notification_projects:
    description: Projects the logged-in user gets notifications for, by name or ID. The order does not matter.
    type: list
    elements: str
  user:
    description:
      - Another user of the account, by its username (an e-mail address). (O(username) is the user
        who logs in, as for every module of the collection.)
    type: str
  roles:
    description: The roles O(user) has, exactly. A new user has V(USER) if not given.
    type: list
    elements: str
    choices: [USER, ACCOUNT_ADMIN, GLOBAL_READONLY]
  state:
    description: With O(user), V(present) invites the user or sets its roles; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
extends_documentation_fragment:
  - replication.recovery.connection
  - replication.recovery.connection.STATE
notes:
  - The service lists no users; a user is found through the account's access check by username.
  - The owner's C(ACCOUNT_OWNER) role cannot be given or taken here.
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Tell me about the production projects
  replication.recovery.service_user:
    notification_projects: [production, production-db]

- name: A read-only auditor
  replication.recovery.service_user:
    user: auditor@example.com
    roles: [GLOBAL_READONLY]

- name: Someone who left
  replication.recovery.service_user:
    user: former.colleague@example.com
    state: absent
"""

RETURN = r"""
me:
  description: The logged-in user after the task, without its API token.
  returned: with O(notification_projects)
  type: dict
user:
  description: O(user) after the task - C(id), C(username), C(roles) (and more when it was just invited).
  returned: with O(user) and O(state=present)
  type: dict
"""

from ansible_collections.replication.recovery.plugins.module_utils.base import ServiceModule


class UserModule(ServiceModule):
    def work(self):
        params = self.params
        me = self.client.get("/me")
        me.pop("apiToken", None)
        result = dict()
        if params["notification_projects"] is not None:
            result["me"] = self.notifications(me)
        if params["user"] is not None:
            user = self.manage(me)
            if user is not None:
                result["user"] = user
        return result

    def notifications(self, me):
        wanted = [self.resolve("/projects", "Project", value) for value in self.params["notification_projects"]]
        current = dict(projectIDs=me.get("settings", {}).get("sendNotifications", {}).get("projectIDs", []))
        settings = self.ensure(current, dict(projectIDs=wanted), create=None, unordered=("projectIDs",),
                               update=lambda changes: self.client.patch("/users/" + me["id"], dict(
                                   settings=dict(sendNotifications=changes)))["settings"]["sendNotifications"])
        return dict(me, settings=dict(sendNotifications=settings))

    def manage(self, me):
        params = self.params
        username = params["user"].strip().lower()
        access = self.client.get("/accounts/%s/access" % me["account"], params=dict(username=username))
        if params["state"] == "absent":
            if access.get("hasAccess"):
                self.changed = True
                self.record_diff(dict(username=username, roles=access.get("roles", [])), {})
                if not self.check_mode:
                    self.client.delete("/users/" + access["userId"])
            return None
        user = dict(id=access.get("userId"), username=username, roles=access.get("roles", []))
        if not access.get("hasAccess"):
            self.changed = True
            self.record_diff({}, dict(username=username))
            user = dict(username=username, roles=["USER"]) if self.check_mode else self.client.post("/users", dict(username=username))
            user.pop("apiToken", None)
        if params["roles"] is not None:
            user["roles"] = self.set_roles(user, sorted(set(params["roles"])))
        return user

    def set_roles(self, user, wanted):
        current = sorted(user.get("roles", []))
        add = [role for role in wanted if role not in current]
        remove = [role for role in current if role not in wanted and role != "ACCOUNT_OWNER"]
        if not add and not remove:
            return current
        self.changed = True
        self.record_diff(dict(roles=current), dict(roles=sorted(set(current) - set(remove) | set(add))))
        if not self.check_mode:
            if add:
                self.client.post("/users/assignRoles", dict(items=[dict(userId=user["id"], roles=add)]))
            if remove:
                self.client.post("/users/revokeRoles", dict(items=[dict(userId=user["id"], roles=remove)]))
        return sorted(set(current) - set(remove) | set(add))


def main():
    UserModule(
        argument_spec=dict(
            notification_projects=dict(type="list", elements="str"),
            user=dict(type="str"),
            roles=dict(type="list", elements="str", choices=["USER", "ACCOUNT_ADMIN", "GLOBAL_READONLY"]),
            state=dict(type="str", choices=["present", "absent"], default="present"),
        ),
        required_one_of=[("notification_projects", "user")],
        required_by=dict(roles="user"),
    ).run()


if __name__ == "__main__":
    main()
