# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""service_login's sign-out is best effort: one the service does not answer is a warning, never a failed task."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.replication.recovery.plugins.module_utils._client import ServiceError
from ansible_collections.replication.recovery.plugins.modules.service_login import LoginModule
from ansible_collections.replication.recovery.tests.unit.plugins.module_utils.path_client import set_up_without_ansible


class SigningOut:
    """A client whose sign-out answers ``error`` (or succeeds without one)."""

    def __init__(self, error=None):
        self.error = error
        self.signed_out = 0

    def logout(self):
        self.signed_out += 1
        if self.error:
            raise self.error


class Login(LoginModule):
    def __init__(self, client, **params):
        set_up_without_ansible(self, client, dict(dict(state="absent", session="opaque", read_time=False), **params))

    def fail_json(self, msg, **kwargs):
        raise AssertionError(msg)

    def warn(self, warning):
        self.warnings.append(warning)


@pytest.mark.parametrize("error, warned", [
    (None, False),
    (ServiceError("POST", "/logout", 401, "unauthorized", "session expired"), False),  # ended already
    (ServiceError("POST", "/logout", 503, "internalError", "try later"), True),
    (ServiceError("POST", "/logout", None, None, "the connection was dropped"), True),
])
def test_a_sign_out_the_service_does_not_answer_is_a_warning(error, warned):
    module = Login(SigningOut(error))
    answer = module.work()
    assert module.client.signed_out == 1
    assert answer == dict(ended=error is None)
    assert bool(module.warnings) is warned
    if warned:
        assert "The sign-out was not answered (POST /logout failed" in module.warnings[0]
        assert "expires in the service by itself" in module.warnings[0]
