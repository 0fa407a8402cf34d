# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The outcome words a role judges in its own variables (roles/<role>/vars/main.yml), rendered as Ansible renders them."""

import os

import pytest
import yaml
from ansible.parsing.dataloader import DataLoader
from ansible.template import Templar

try:
    from ansible.template import trust_as_template  # ansible-core 2.19 and later template only text trusted as a template
except ImportError:
    def trust_as_template(text):
        return text

ROLES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "roles")


def rendered(role, name, **variables):
    with open(os.path.join(ROLES, role, "vars", "main.yml"), encoding="utf-8") as handle:
        own = yaml.safe_load(handle)
    return Templar(loader=DataLoader(), variables=dict(own, **variables)).template(trust_as_template(own[name])).strip()


def policy(failures=(), changed=False, mode="apply", not_restorable=False):
    return dict(changed=changed, report=dict(failures=list(failures), mode=mode, not_restorable=not_restorable))


@pytest.mark.parametrize("result, check_mode, outcome", [
    # Under --check a rule refused is refused, as the real run would be - it said PLANNED beside the refusal (a scratch run).
    (policy(["launch_policy_rules[0].set has no option instance_typ"]), True, "refused"),
    (policy(changed=True), True, "planned"),
    (policy(["a blueprint the region cannot launch"]), False, "refused"),
    (policy(["the service stopped answering"], changed=True), False, "stopped"),
    (policy(changed=True), False, "committed"),
    (policy(changed=True, mode="restore"), False, "rolled back"),
    (policy(), False, "nothing done"),
])
def test_the_launch_policys_outcome_is_what_its_run_came_to(result, check_mode, outcome):
    assert rendered("launch_policy", "launch_policy_outcome", launch_policy_result=result, ansible_check_mode=check_mode) == outcome
