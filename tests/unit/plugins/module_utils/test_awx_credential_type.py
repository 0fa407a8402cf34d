# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The AWX credential type shipped in docs/awx must inject exactly the environment variables the
modules and the inventory plugin fall back to, and what it injects for blank fields must count as
not set."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os

import pytest
import yaml
from jinja2.sandbox import SandboxedEnvironment

from ansible.module_utils.common.arg_spec import ArgumentSpecValidator

from ansible_collections.replication.recovery.plugins.module_utils._connection import CONNECTION_ARGUMENT_SPEC, connection_settings

COLLECTION = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
CREDENTIAL_TYPE = os.path.join(COLLECTION, "docs", "awx", "credential_type.yml")


@pytest.fixture(scope="module")
def credential_type():
    with open(CREDENTIAL_TYPE) as stream:
        return yaml.safe_load(stream)


def injected(credential_type, inputs):
    """The environment AWX gives a job for these inputs: each injector rendered as a template, with
    blank fields empty and the file injector's path under tower.filename."""
    fields = dict((field["id"], field.get("default", "")) for field in credential_type["inputs"]["fields"])
    fields.update(inputs)
    fields["tower"] = {"filename": dict((name.split(".", 1)[1], "/runner/env/tmp_%s" % name.split(".", 1)[1])
                                        for name in credential_type["injectors"].get("file", {}))}
    render = SandboxedEnvironment().from_string
    return dict((name, render(template).render(fields)) for name, template in credential_type["injectors"]["env"].items())


def test_it_injects_exactly_the_variables_the_modules_fall_back_to(credential_type):
    fallbacks = set(spec["fallback"][1][0] for spec in CONNECTION_ARGUMENT_SPEC.values() if "fallback" in spec)
    assert set(credential_type["injectors"]["env"]) == fallbacks


def test_every_field_is_injected_and_every_injector_names_a_field(credential_type):
    fields = set(field["id"] for field in credential_type["inputs"]["fields"])
    templates = " ".join(list(credential_type["injectors"]["env"].values()) + list(credential_type["injectors"]["file"].values()))
    assert fields == set(name for name in fields if "{{ %s }}" % name in templates)
    assert set(credential_type["inputs"]["required"]) <= fields
    secret = set(field["id"] for field in credential_type["inputs"]["fields"] if field.get("secret"))
    assert secret == set(name for name, spec in CONNECTION_ARGUMENT_SPEC.items() if spec.get("no_log") and "fallback" in spec)


def test_a_credential_with_every_field_gives_the_settings(monkeypatch, credential_type):
    environment = injected(credential_type, {"api_url": "https://dr.example.com/api/latest", "username": "awx@example.com",
                                             "password": "s3cret", "api_token": "t0ken", "validate_certs": False,
                                             "ca_cert": "-----BEGIN CERTIFICATE-----", "timeout": "45",
                                             "retry_timeout": "120", "service_limits": '{"servers_per_job": 100, "concurrent_jobs": 20}'})
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    expected = {"api_url": "https://dr.example.com/api/latest", "username": "awx@example.com", "password": "s3cret",
                "api_token": "t0ken", "session": None, "validate_certs": False, "ca_path": "/runner/env/tmp_ca_cert", "timeout": 45,
                "retry_timeout": 120, "service_limits": {"servers_per_job": 100, "concurrent_jobs": 20, "servers_in_active_jobs": None}}
    assert connection_settings({}) == expected
    assert ArgumentSpecValidator(CONNECTION_ARGUMENT_SPEC).validate({}).validated_parameters == expected


def test_blank_fields_count_as_not_set_for_modules_and_plugins(monkeypatch, credential_type):
    environment = injected(credential_type, {"api_url": "https://dr.example.com/api/latest", "api_token": "t0ken"})
    assert environment["REPLICATION_SERVICE_USERNAME"] == "" and environment["REPLICATION_SERVICE_CA_PATH"] == ""
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    expected = {"api_url": "https://dr.example.com/api/latest", "username": None, "password": None, "api_token": "t0ken",
                "session": None, "validate_certs": True, "ca_path": None, "timeout": 30, "retry_timeout": 60, "service_limits": None}
    assert connection_settings({}) == expected
    result = ArgumentSpecValidator(CONNECTION_ARGUMENT_SPEC).validate({})
    assert result.error_messages == []
    assert result.validated_parameters == expected
