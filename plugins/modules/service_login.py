#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: service_login
short_description: Log in to the Replication and Recovery Service once, for the tasks that follow
version_added: 1.0.0
description:
  - Logs in and returns a session that every other module of the collection accepts as O(session),
    so that a play pays one login instead of a login and a logout per task.
  - With O(state=absent), ends the session given in O(session).
  - The task's result is hidden from the output at every verbosity because it holds the session;
    register it to use it.
options:
  state:
    description:
      - V(present) logs in and returns a new session.
      - V(absent) logs out of O(session). A session that has already ended is not an error.
      - A sign-out is best effort - the session expires in the service anyway - so a sign-out the service does not answer
        (a 503, a dropped connection, a timeout) is a warning, never a failed task - a run that did its work is not failed
        by its last request, and a run that failed keeps its own message.
      - A session is not part of what a play manages, so neither logging in nor logging out reports
        a change; a C(--check --diff) run that finds no drift reports none.
    type: str
    choices: [present, absent]
    default: present
  read_time:
    description:
      - With O(state=present), also read the service's own clock (one more request) and return it as RV(service_time) -
        a moment on the service's clock, as its points in time are dated. The application role reads it when its run
        begins.
    type: bool
    default: false
    version_added: 2.0.0
extends_documentation_fragment:
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
attributes:
  check_mode:
    support: full
    details:
      - Logging in and out change nothing a play manages, so both happen in check mode too; a check-mode
        run ends the session it made, as a real run does.
  diff_mode:
    support: none
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Log in once
  replication.recovery.service_login:
    api_url: https://dr.example.com/api/latest
    username: "{{ dr_username }}"
    password: "{{ dr_password }}"
  register: login

- name: Use the session in every task of the play
  module_defaults:
    group/replication.recovery.service:
      api_url: https://dr.example.com/api/latest
      session: "{{ login.session }}"
  block:
    - name: Read the project
      replication.recovery.service_project_info:
        name: production
  always:
    - name: Log out
      replication.recovery.service_login:
        state: absent
"""

RETURN = r"""
session:
  description:
    - The session, to pass as O(session) to other modules. Treat it as a secret.
  returned: when O(state=present)
  type: str
user:
  description: The user logged in, as the service describes it, without its API token.
  returned: when O(state=present)
  type: dict
  sample: {"id": "5b0e2a4c-1f43-4bf0-9b8e-0c6f61e4b0a1", "username": "dr@example.com", "roles": ["ACCOUNT_ADMIN"]}
api_url:
  description:
    - The service's URL the session belongs to (the one a login redirect led to). The role C(replication.recovery.agent)
      finds the console, and the agent's installers, beside it.
  returned: when O(state=present)
  type: str
  sample: https://console.example.com/api/latest
  version_added: 2.0.0
service_time:
  description: The service's own time when it was read (RFC 3339, UTC), with O(read_time).
  returned: when O(read_time=true)
  type: str
  sample: "2026-11-27T03:00:00.000000+00:00"
  version_added: 2.0.0
ended:
  description: Whether this task ended the session; V(false) when it had already ended, or the service did not answer the sign-out.
  returned: when O(state=absent)
  type: bool
  sample: true
"""

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils._client import ServiceError
from ansible_collections.replication.recovery.plugins.module_utils._domain import iso_time
from ansible_collections.replication.recovery.plugins.module_utils._fleet import service_time


class LoginModule(ServiceModule):
    def work(self):
        if self.params["state"] == "absent":
            return self.logout()
        client = self.client
        user = client.login()
        user.pop("apiToken", None)
        session = client.session_value()
        answer = dict(session=session, user=user, api_url=client.api_url)
        if self.params["read_time"]:
            answer["service_time"] = iso_time(service_time(self.client))
        client.forget_session()  # the session outlives this task: do not log out
        return answer

    def logout(self):
        if not self.params["session"]:
            self.fail_json(msg="state=absent needs the session to end (session).")
        try:
            self.client.logout()
        except ServiceError as error:
            if error.status != 401:  # 401: ended already
                self.warn("The sign-out was not answered (%s); the session expires in the service by itself. Nothing else is "
                          "affected." % error)
            return dict(ended=False)
        return dict(ended=True)


def main():
    LoginModule(argument_spec=dict(state=dict(type="str", choices=["present", "absent"], default="present"),
                                   read_time=dict(type="bool", default=False))).run()


if __name__ == "__main__":
    main()
