# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The users of an account: their roles, and what changes a user's roles to those wanted."""

import re

ROLES = ("USER", "ACCOUNT_ADMIN", "GLOBAL_READONLY")
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def roles_to_change(wanted, current):
    """(roles to assign, roles to revoke) that give a user exactly ``wanted``; ``current`` is None when the service did not
    say the user's roles - then every wanted role is assigned and every other revoked."""
    add = [role for role in sorted(set(wanted)) if current is None or role not in current]
    remove = [role for role in ROLES if role not in wanted and (current is None or role in current)]
    return add, remove
