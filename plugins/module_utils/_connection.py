# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""How everything in the collection connects to the service: the connection options (documented
once, in the doc fragment replication.recovery.connection), where each falls back to in the
environment, and the client made from them. Modules, the inventory plugin and the runbooks'
action plugins all connect through here."""

import os

from ansible.module_utils.errors import AnsibleFallbackNotFound
from ansible.module_utils.common.validation import check_type_bool, check_type_dict, check_type_int, check_type_path, check_type_str

from ansible_collections.replication.recovery.plugins.module_utils._client import RETRY_BUDGET, ServiceClient

ENVIRONMENT_PREFIX = "REPLICATION_SERVICE_"


def from_environment(name):
    """A fallback like Ansible's env_fallback, except that an empty variable is not set: an AWX
    credential injects every variable it defines, empty when the field was left blank."""
    if os.environ.get(name):
        return os.environ[name]
    raise AnsibleFallbackNotFound


def _env(name):
    return (from_environment, [ENVIRONMENT_PREFIX + name])


CONNECTION_ARGUMENT_SPEC = dict(
    api_url=dict(type="str", fallback=_env("URL")),
    username=dict(type="str", fallback=_env("USERNAME")),
    password=dict(type="str", no_log=True, fallback=_env("PASSWORD")),
    api_token=dict(type="str", no_log=True, fallback=_env("API_TOKEN")),
    session=dict(type="str", no_log=True),
    validate_certs=dict(type="bool", default=True, fallback=_env("VALIDATE_CERTS")),
    ca_path=dict(type="path", fallback=_env("CA_PATH")),
    timeout=dict(type="int", default=30, fallback=_env("TIMEOUT")),
    retry_timeout=dict(type="int", default=int(RETRY_BUDGET), fallback=_env("RETRY_TIMEOUT")),
    # The service's limits as its operator states them (module_utils._limits): what a job may take, and the account at once.
    service_limits=dict(type="dict", fallback=_env("LIMITS"), options=dict(
        servers_per_job=dict(type="int"), concurrent_jobs=dict(type="int"), servers_in_active_jobs=dict(type="int"))),
)

_CONVERT = dict(str=check_type_str, bool=check_type_bool, int=check_type_int, path=check_type_path, dict=check_type_dict)


def connection_settings(given):
    """The connection settings from options given (for a plugin, those its configuration sets), else
    from the environment, else the defaults - as AnsibleModule resolves CONNECTION_ARGUMENT_SPEC."""
    settings = {}
    for name, spec in CONNECTION_ARGUMENT_SPEC.items():
        value = given.get(name)
        if value is None and "fallback" in spec:
            function, (variable,) = spec["fallback"]
            try:
                value = function(variable)
            except AnsibleFallbackNotFound:
                value = None
        if value is None:
            value = spec.get("default")
        settings[name] = None if value is None else _CONVERT[spec["type"]](value)
        if settings[name] is not None and spec.get("options"):  # as AnsibleModule gives it: every suboption, None when not set
            settings[name] = dict(dict.fromkeys(spec["options"]), **settings[name])
    return settings


def make_client(settings, check_mode=False):
    """A client of the service from connection settings (see connection_settings)."""
    return ServiceClient(api_url=settings["api_url"], username=settings["username"], password=settings["password"],
                         api_token=settings["api_token"], session=settings["session"], validate_certs=settings["validate_certs"],
                         ca_path=settings["ca_path"], timeout=settings["timeout"], retry_budget=settings["retry_timeout"],
                         check_mode=check_mode)
