# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The connection settings as modules, the inventory plugin and the runbooks' action plugins resolve them."""

import pytest

from ansible_collections.replication.recovery.plugins.module_utils._connection import CONNECTION_ARGUMENT_SPEC, connection_settings


def test_connection_settings_take_what_is_given_then_the_environment_then_the_defaults(monkeypatch):
    monkeypatch.setenv("REPLICATION_SERVICE_URL", "https://env.example.com/api/latest")
    monkeypatch.setenv("REPLICATION_SERVICE_USERNAME", "env-user")
    monkeypatch.setenv("REPLICATION_SERVICE_VALIDATE_CERTS", "false")
    monkeypatch.setenv("REPLICATION_SERVICE_TIMEOUT", "")
    monkeypatch.delenv("REPLICATION_SERVICE_API_TOKEN", raising=False)
    settings = connection_settings({"username": "given-user", "password": "secret", "timeout": None})
    assert settings["api_url"] == "https://env.example.com/api/latest"
    assert settings["username"] == "given-user"
    assert settings["password"] == "secret"
    assert settings["validate_certs"] is False
    assert settings["timeout"] == 30, "an empty environment variable is not set"
    assert settings["api_token"] is None


def test_connection_settings_convert_text_as_the_modules_do(monkeypatch):
    monkeypatch.delenv("REPLICATION_SERVICE_CA_PATH", raising=False)
    settings = connection_settings({"timeout": "45", "validate_certs": "yes", "ca_path": "~/ca.pem"})
    assert settings["timeout"] == 45 and settings["validate_certs"] is True
    assert not settings["ca_path"].startswith("~")
    with pytest.raises(TypeError):
        connection_settings({"timeout": "soon"})


def test_every_connection_option_but_the_session_falls_back_to_one_environment_variable():
    names = dict((option, spec["fallback"][1][0]) for option, spec in CONNECTION_ARGUMENT_SPEC.items() if "fallback" in spec)
    assert set(CONNECTION_ARGUMENT_SPEC) - set(names) == {"session"}
    assert names["retry_timeout"] == "REPLICATION_SERVICE_RETRY_TIMEOUT"
    short = dict(api_url="URL", service_limits="LIMITS")
    assert all(variable == "REPLICATION_SERVICE_" + short.get(option, option.upper()) for option, variable in names.items())
