#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: service_user
short_description: Manage your notification settings, and (as an administrator) invite users, give them roles, delete them
version_added: 1.0.0
description:
  - With O(notification_projects), sets which projects the logged-in user gets notifications for.
  - With O(user), an account administrator (C(ACCOUNT_ADMIN) or C(ACCOUNT_OWNER)) invites a user by its e-mail address. The
    invited user sets its own password from the e-mail the service sends. The answer names the new user's ID
    (RV(user.id)) - keep it, it is how the service knows the user from then on.
  - With O(user_id), an administrator gives an existing user exactly the O(roles), or deletes it (O(state=absent)).
  - Passwords and API tokens are never returned.
options:
  notification_projects:
    description: Projects the logged-in user gets notifications for, by name or ID. The order does not matter.
    type: list
    elements: str
  user:
    description:
      - The e-mail address of a user to invite (O(state=present)). (O(username) is the user who logs in, as for every
        module of the collection.)
      - A user that exists already is left as it is - the service refuses a second invitation (HTTP 409).
      - The service cannot find a user by its address; to give an existing user roles, or to delete it, use O(user_id).
    type: str
  user_id:
    description:
      - The ID of an existing user of the account - RV(user.id) of the task that invited it, or from the service's console.
      - Needed for O(roles) of a user that exists already, and for O(state=absent).
    type: str
  roles:
    description:
      - The roles the user has, exactly. A newly invited user gets them at once. Needs O(user) or O(user_id); with only
        O(notification_projects) the task fails before it changes anything.
      - The service does not say which roles another user has, so for O(user_id) the task sends the roles every time and
        reports a change.
    type: list
    elements: str
    choices: [USER, ACCOUNT_ADMIN, GLOBAL_READONLY]
  state:
    description:
      - V(present) invites O(user) and gives it O(roles), or gives O(user_id) the O(roles).
      - V(absent) deletes O(user_id); a user that is gone already (HTTP 404) is not an error.
    type: str
    choices: [present, absent]
    default: present
extends_documentation_fragment:
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
attributes:
  check_mode:
    support: full
    details:
      - Nothing is sent that would change the service. An invitation or a deletion is predicted as a change, since
        whether the user exists only the service knows and it has no look-up of users.
  diff_mode:
    support: full
    details: Shows the notification projects, the user invited or deleted, and the roles set.
notes:
  - The service's interface lists no users and finds none by name or address; the module uses only what it offers - the
    logged-in user (C(GET /me)), invitations (C(POST /users)), role changes and deletion by user ID.
  - The owner's C(ACCOUNT_OWNER) role cannot be given or taken here.
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Tell me about the production projects
  replication.recovery.service_user:
    notification_projects: [production, production-db]

- name: Invite a read-only auditor
  replication.recovery.service_user:
    user: auditor@example.com
    roles: [GLOBAL_READONLY]
  register: auditor

- name: Keep the auditor's ID (for example in the inventory), then later make it an administrator too
  replication.recovery.service_user:
    user_id: "{{ auditor.user.id }}"
    roles: [ACCOUNT_ADMIN, GLOBAL_READONLY]

- name: Someone who left
  replication.recovery.service_user:
    user_id: 0b3a6c2e-7f1d-4c59-9e2a-5d8f1b4c3a71
    state: absent
"""

RETURN = r"""
me:
  description: The logged-in user after the task, without its API token.
  returned: with O(notification_projects)
  type: dict
user:
  description:
    - The user after the task - as the service answered the invitation (C(id), C(username), C(roles), C(status)), or
      C(id) and C(roles) when O(user_id) was given. Only C(username) when the user existed already.
  returned: with O(state=present) and O(user) or O(user_id)
  type: dict
  contains:
    id:
      description: The user's ID, by which the service knows it. Absent when the user existed already.
      type: str
    username:
      description: Its e-mail address.
      type: str
    roles:
      description: Its roles.
      type: list
      elements: str
    status:
      description: C(PENDING) until the invited user has set its password.
      type: str
  sample: {id: 0b3a6c2e-7f1d-4c59-9e2a-5d8f1b4c3a71, username: auditor@example.com, roles: [GLOBAL_READONLY], status: PENDING}
invited:
  description: Whether the task invited O(user) (false when the user existed already).
  returned: with O(user) and O(state=present)
  type: bool
"""

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils._client import ServiceError
from ansible_collections.replication.recovery.plugins.module_utils._users import EMAIL, ROLES, roles_to_change


class UserModule(ServiceModule):
    def work(self):
        params = self.params
        if params["user"] is not None and not EMAIL.match(params["user"].strip()):
            self.fail_json(msg="user must be an e-mail address, not %r." % params["user"])
        if params["state"] == "absent" and params["user_id"] is None:
            self.fail_json(msg="state=absent needs user_id: the service cannot find a user by its address.")
        if params["roles"] is not None and params["user"] is None and params["user_id"] is None:
            self.fail_json(msg="roles are a user's: give the user (user to invite, or user_id) whose roles they are. Nothing was changed.")
        result = dict()
        if params["notification_projects"] is not None:
            me = self.client.get("/me")
            me.pop("apiToken", None)
            result["me"] = self.notifications(me)
        if params["state"] == "absent":
            self.delete(params["user_id"])
        elif params["user_id"] is not None:
            result["user"] = dict(id=params["user_id"], roles=self.set_roles(params["user_id"], None)) if params["roles"] is not None \
                else dict(id=params["user_id"])
        elif params["user"] is not None:
            result["user"], result["invited"] = self.invite(params["user"].strip().lower())
        return result

    def notifications(self, me):
        wanted = [self.resolve("project", value) for value in self.params["notification_projects"]]
        current = dict(projectIDs=me.get("settings", {}).get("sendNotifications", {}).get("projectIDs", []))
        settings = self.ensure(current, dict(projectIDs=wanted), create=None, unordered=("projectIDs",),
                               update=lambda changes: self.client.patch("/users/" + me["id"], dict(
                                   settings=dict(sendNotifications=changes)))["settings"]["sendNotifications"])
        return dict(me, settings=dict(sendNotifications=settings))

    def invite(self, username):
        """Invite the user; a user that exists already (409) is left as it is. Answers the user and whether it was invited."""
        try:
            user = self.change(lambda: self.client.post("/users", dict(username=username)), after=dict(username=username)) \
                or dict(username=username, roles=["USER"])
        except ServiceError as error:
            if error.status != 409:
                raise
            if self.params["roles"] is not None:
                self.fail_json(msg="User %s exists already; to give it roles, give its user_id: the service cannot find a user by "
                                   "its address." % username)
            return dict(username=username), False
        user.pop("apiToken", None)
        if self.params["roles"] is not None:
            user["roles"] = self.set_roles(user.get("id"), user.get("roles", []))
        return user, True

    def set_roles(self, user_id, current):
        """Give the user exactly the wanted roles. ``current`` is None when the service did not say them."""
        wanted = sorted(set(self.params["roles"]))
        add, remove = roles_to_change(wanted, current)
        if not add and not remove:
            return wanted

        def write():
            if add:
                self.client.post("/users/assignRoles", dict(items=[dict(userId=user_id, roles=add)]))
            if remove:
                self.client.post("/users/revokeRoles", dict(items=[dict(userId=user_id, roles=remove)]))

        self.change(write, before=dict(roles=sorted(current)) if current is not None else {}, after=dict(roles=wanted))
        return wanted

    def delete(self, user_id):
        """Delete the user; one that is gone already (404) changes nothing."""
        try:
            self.change(lambda: self.client.delete("/users/" + user_id), before=dict(id=user_id))
        except ServiceError as error:
            if error.status != 404:
                raise


def main():
    UserModule(
        argument_spec=dict(
            notification_projects=dict(type="list", elements="str"),
            user=dict(type="str"),
            user_id=dict(type="str"),
            roles=dict(type="list", elements="str", choices=list(ROLES)),
            state=dict(type="str", choices=["present", "absent"], default="present"),
        ),
        required_one_of=[("notification_projects", "user", "user_id")],
        mutually_exclusive=[("user", "user_id")],
    ).run()


if __name__ == "__main__":
    main()
