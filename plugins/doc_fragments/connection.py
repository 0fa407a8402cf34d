# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)


class ModuleDocFragment(object):
    # The connection options every module and the inventory plugin take: one definition, read by
    # both through module_utils._connection. Modules also extend MODULE below.
    DOCUMENTATION = r"""
options:
  api_url:
    description:
      - Base URL of the service's interface, for example V(https://dr.example.com/api/latest).
      - If not set, the value of the environment variable E(REPLICATION_SERVICE_URL) is used.
      - Not needed with O(session), which carries the URL it was made for.
    type: str
  username:
    description:
      - User to log in as, with O(password).
      - If not set, the value of the environment variable E(REPLICATION_SERVICE_USERNAME) is used.
    type: str
  password:
    description:
      - Password of O(username).
      - If not set, the value of the environment variable E(REPLICATION_SERVICE_PASSWORD) is used.
    type: str
  api_token:
    description:
      - API token of a user, used instead of O(username) and O(password) when both are set.
      - If not set, the value of the environment variable E(REPLICATION_SERVICE_API_TOKEN) is used.
    type: str
  session:
    description:
      - A session returned by M(replication.recovery.service_login), used instead of logging in.
        A play that logs in once saves two requests per task (the login and the logout).
      - When the session has ended and credentials are also given, it logs in again; without
        credentials it fails and says so.
    type: str
  validate_certs:
    description:
      - Whether to verify the service's TLS certificate.
      - If not set, the value of the environment variable E(REPLICATION_SERVICE_VALIDATE_CERTS) is used.
    type: bool
    default: true
  ca_path:
    description:
      - A file of CA certificates to verify the service's certificate with, instead of the system's.
      - If not set, the value of the environment variable E(REPLICATION_SERVICE_CA_PATH) is used.
    type: path
  timeout:
    description:
      - Seconds to wait for each answer of the service.
      - If not set, the value of the environment variable E(REPLICATION_SERVICE_TIMEOUT) is used.
    type: int
    default: 30
  retry_timeout:
    description:
      - Seconds within which a call is retried after a passing fault of the service - reads and logins
        after a connection error or an HTTP 429 or 5xx answer, writes after an HTTP 429 or 503 (answers
        that say the service did not act) - after as long as a C(Retry-After) says (seconds or an HTTP
        date), else after an exponential backoff with jitter. A wait that would end past it is not
        begun - the call fails at once and says why. V(0) retries nothing.
      - If not set, the value of the environment variable E(REPLICATION_SERVICE_RETRY_TIMEOUT) is used.
    type: int
    default: 60
  service_limits:
    description:
      - The limits of the service's account, as its operator states them (the published interface states none). A
        launch of more machines than a job may take is refused before anything is written, naming the limit; the
        runbooks launch a larger wave as several jobs, one after another, and adopt them as one wave when run again.
      - Without it a launch takes the whole wave in one job. A job the account has no room for (HTTP 429, the service
        did not act) is sent again once one ends, within the launch's timeout, whatever this says.
      - If not set, the value of the environment variable E(REPLICATION_SERVICE_LIMITS) (JSON) is used.
    type: dict
    suboptions:
      servers_per_job:
        description: The most machines one job may take.
        type: int
      concurrent_jobs:
        description: The most jobs the account runs at once. Informational - the service's refusal is what is obeyed.
        type: int
      servers_in_active_jobs:
        description: The most machines in the account's running jobs at once; no job takes more.
        type: int
notes:
  - The first contact with the service is not retried when it cannot be made - a refused connection,
    a host name that does not resolve, a TLS certificate not trusted - or finds no service at O(api_url)
    (an answer 404, 405 or not JSON). The task then fails at once, naming the URL and the cause.
  - After that, reads and logins are retried within O(retry_timeout), and writes the service refused
    without acting (HTTP 429, 503); a call answered 401 is sent again after a fresh login. A write
    that got no answer, or an HTTP 500, 502 or 504 (the service may have acted), is never sent again.
requirements:
  - requests
"""

    # What every module adds to the connection options: the checks of its input, the action group, and
    # the descriptions of the attributes each module states its support of.
    MODULE = r"""
notes:
  - Input is checked before anything is sent - negative numbers, empty names and texts, a string
    where a list or dictionary is wanted - and refused with a message that names the option.
  - All modules of this collection are in the action group C(replication.recovery.service), so
    C(module_defaults) can set the connection options once for a play.
attributes:
  check_mode:
    description: Whether the module can run in check mode, predicting its result without changing anything.
  diff_mode:
    description: Whether the module shows, in diff mode, what it changes (or in check mode would change).
  platform:
    description: The systems the module runs on.
    support: N/A
    platforms: all
    details: The module talks to the service over HTTP(S) from the host it runs on, usually C(localhost).
  action_group:
    description: The action groups the module belongs to, so that C(module_defaults) can set its options.
    support: full
    membership: [replication.recovery.service]
"""

    # For modules that change the service.
    STATE = r"""
attributes:
  check_mode:
    support: full
    details: Nothing that would change the service is sent; the result is what it would be.
  diff_mode:
    support: full
    details: Shows the members the task manages, before and after; never a secret.
"""

    # For modules that only read: they change nothing, so check mode changes nothing either.
    INFO = r"""
attributes:
  check_mode:
    support: full
    details: This module only reads, in check mode as otherwise.
  diff_mode:
    support: N/A
    details: This module changes nothing.
"""
