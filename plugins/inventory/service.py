# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
name: service
short_description: Machines, target machines or projects of the Replication and Recovery Service, as hosts
version_added: 1.0.0
description:
  - Reads the projects of the service and makes hosts of their source machines (the default), of the target machines
    launched from them (O(hosts=targets)), or of the projects themselves (O(hosts=projects)) - for example to configure
    recovered machines after a failover, or to run a DR test per project with forks or AWX job slicing.
  - Uses a YAML configuration file whose name ends in C(service.yml) or C(service.yaml).
  - Connects with the same options, and the same C(REPLICATION_SERVICE_*) environment variables, as the collection's
    modules; an option that the file does not set comes from its environment variable.
  - Costs one list of projects, one look at the service's clock and one list of machines per project; target machines
    are read only for O(hosts=targets) (one request each, since the service has no list of them, and one list of the
    project's blueprints). With O(cache=true), a second run within the cache's lifetime sends no request.
extends_documentation_fragment:
  - replication.recovery.connection
  - ansible.builtin.constructed
  - ansible.builtin.inventory_cache
options:
  plugin:
    description: The name of this plugin; the file is read by it only when this says so.
    type: str
    required: true
    choices: [replication.recovery.service]
  hosts:
    description:
      - V(machines) - one host per source machine.
      - V(targets) - one host per live target machine (of O(launch_types)).
      - V(projects) - one host per project, with C(dr_test_project) set and a local connection.
    type: str
    choices: [machines, targets, projects]
    default: machines
  projects:
    description:
      - The projects to read, by name, ID or glob pattern (for example V(prod-*)). All projects the user sees if not given.
      - A value that matches no project fails the inventory, naming the known projects.
    type: list
    elements: str
    default: []
  launch_types:
    description: With O(hosts=targets), only target machines of these launch types. All if not given.
    type: list
    elements: str
    choices: [test, recovery, cutover]
    default: []
  address:
    description:
      - Which address becomes C(ansible_host) - V(public) (the first public address, else the first private one) or
        V(private) (the first private address, else the first public one).
      - The service reports public addresses of source and target machines, and private addresses only of target
        machines whose blueprint gives them custom ones. A host without any address gets no C(ansible_host), so its
        name is used.
    type: str
    choices: [public, private]
    default: public
  hostname:
    description:
      - A Jinja2 expression over the host variables that gives the host's name. If not given, V(machine_name) for source
        machines, V(launch_type ~ '-' ~ machine_name) for target machines (V(recovery-web-1)), V(project_name) for projects.
      - Two hosts of one name (an agent installed again leaves two machines of a name) are told apart by the start of
        their ID, with a warning.
    type: str
  lag_threshold:
    description: Seconds of lag above which a replicating machine is V(lagging) rather than V(continuous).
    type: int
    default: 600
  stale_after:
    description: Seconds without a word from a machine's agent after which it is V(stale).
    type: int
    default: 900
  filters:
    description:
      - Conditions (Jinja2 expressions over the host variables) that a host must all meet to be added, for example
        V(replication_state == 'continuous') or V('web' in machine_tags).
    type: list
    elements: str
    default: []
notes:
  - Host variables of a source machine - C(machine_id), C(machine_name), C(project_id), C(project_name), C(os),
    C(os_family) (V(windows), V(linux) or V(other)), C(public_ips), C(machine_tags), C(replication_status),
    C(replication_state), C(lag_seconds), C(backlog_bytes), C(sync_percent), C(last_seen_seconds), C(last_test_launch),
    C(last_recovery_launch), C(last_cutover), and C(target_id) when it has a target machine. The replication state, lag and backlog are those of
    M(replication.recovery.service_machine_info).
  - Host variables of a target machine - C(target_id), C(cloud_id), C(state), C(launch_type), C(launched_at),
    C(point_in_time_id), C(region_id), C(public_ips), C(private_ips), and of its source machine C(machine_id),
    C(machine_name), C(project_id), C(project_name), C(os), C(os_family).
  - Host variables of a project - C(project_id), C(project_name), C(project_type), C(machine_count),
    C(replication_states) (machines by state), C(dr_test_project), and, as for the implicit localhost,
    C(ansible_connection=local) and C(ansible_python_interpreter) the Python that runs Ansible.
  - Groups - C(service_machines), C(service_targets) or C(service_projects); C(project_<name>) for the project of
    each machine; C(replication_<state>) for source machines; C(launched_<type>) for target machines; C(os_<family>)
    (V(windows), V(linux) or V(other)) for both. Characters a group name cannot have become V(_).
"""

EXAMPLES = r"""
# production.service.yml - the source machines of the production projects, grouped by tier tag
plugin: replication.recovery.service
projects: ["prod-*"]
keyed_groups:
  - key: machine_tags
    prefix: tag

# recovered.service.yml (a file of its own) - after a failover, the recovery machines, reachable by
# their addresses:
#   plugin: replication.recovery.service
#   hosts: targets
#   launch_types: [recovery]
#   compose:
#     ansible_user: "'Administrator' if os_family == 'windows' else 'ec2-user'"
#   cache: true
#   cache_plugin: ansible.builtin.jsonfile
#   cache_connection: ~/.cache/replication-recovery

# projects.service.yml (a file of its own) - one host per project, for a DR test of each, side by side
# (ansible-playbook replication.recovery.dr_test -i projects.service.yml -e dr_test_hosts=service_projects -f 5):
#   plugin: replication.recovery.service
#   hosts: projects
#   filters:
#     - machine_count > 0
"""

import sys
from collections import Counter

from ansible.errors import AnsibleParserError
from ansible.utils.display import Display
from ansible.module_utils.common.text.converters import to_native
from ansible.plugins.inventory import BaseInventoryPlugin, Cacheable, Constructable

from ansible_collections.replication.recovery.plugins.module_utils._connection import CONNECTION_ARGUMENT_SPEC, connection_settings, make_client
from ansible_collections.replication.recovery.plugins.module_utils._client import HAS_REQUESTS, ServiceError
from ansible_collections.replication.recovery.plugins.module_utils._fleet import UnknownProject, last_launches, read_fleet, read_targets
from ansible_collections.replication.recovery.plugins.module_utils._machines import name_of

display = Display()
# The hosts' names when the configuration gives no expression for them.
DEFAULT_NAMES = {
    "machines": lambda variables: variables["machine_name"],
    "targets": lambda variables: "%s-%s" % (variables["launch_type"], variables["machine_name"]),
    "projects": lambda variables: variables["project_name"],
}


# Words that name a Linux distribution in the OS the service reports, where "linux" itself may be missing.
LINUX_WORDS = ("linux", "ubuntu", "debian", "red hat", "rhel", "centos", "suse", "fedora", "rocky", "alma")


def os_family(name):
    """V(windows), V(linux) or V(other), from the OS the service reports (for example "Ubuntu 22.04.4 LTS")."""
    name = (name or "").lower()
    if "windows" in name:
        return "windows"
    return "linux" if any(word in name for word in LINUX_WORDS) else "other"


def machine_host(project, machine):
    """The host variables of a source machine."""
    launches, source = last_launches(machine), machine.get("sourceProperties", {})
    host = dict(
        machine_id=machine["id"], machine_name=name_of(machine), project_id=project["id"], project_name=project["name"],
        os=source.get("os"), os_family=os_family(source.get("os")), public_ips=list(source.get("publicIps") or []),
        machine_tags=list(machine.get("tags") or []), replication_status=machine.get("replicationStatus"),
        replication_state=machine["replication_state"], lag_seconds=machine["lag_seconds"], backlog_bytes=machine["backlog_bytes"],
        sync_percent=machine["sync_percent"], last_seen_seconds=machine["last_seen_seconds"], last_test_launch=launches["test"],
        last_recovery_launch=launches["recovery"], last_cutover=launches["cutover"])
    if machine.get("replica"):
        host["target_id"] = machine["replica"]
    return host


def target_host(project, machine, target, private_ips):
    """The host variables of a target machine, with those of its source machine."""
    source = machine.get("sourceProperties", {})
    return dict(
        target_id=target["id"], cloud_id=target.get("machineCloudId"), state=target.get("machineCloudState"), launch_type=target["launch_type"],
        launched_at=target.get("cloudEndureCreationDateTime"), point_in_time_id=target.get("pointInTime"), region_id=target.get("regionId"),
        public_ips=list(target.get("publicIps") or []), private_ips=private_ips, machine_id=machine["id"], machine_name=name_of(machine),
        project_id=project["id"], project_name=project["name"], os=source.get("os"), os_family=os_family(source.get("os")))


def project_host(project):
    """The host variables of a project: one host per project, for a DR test of each. Like the implicit
    localhost, it runs its tasks here, with the Python that runs Ansible."""
    states = Counter(machine["replication_state"] for machine in project["machines"])
    return dict(project_id=project["id"], project_name=project["name"], project_type=project.get("type"),
                machine_count=len(project["machines"]), replication_states=dict(states), dr_test_project=project["name"],
                ansible_connection="local", ansible_python_interpreter=sys.executable)


def built_in_groups(kind, variables):
    """The groups every host of a kind joins, from its variables."""
    groups = ["service_%s" % kind, "project_%s" % variables["project_name"]]
    if kind == "machines":
        groups.append("replication_%s" % variables["replication_state"])
    if kind == "targets":
        groups.append("launched_%s" % variables["launch_type"])
    if kind != "projects":
        groups.append("os_%s" % variables["os_family"])
    return groups


def address(variables, preferred):
    """The address for ansible_host: the preferred kind first, then the other; None when there is none."""
    public, private = variables.get("public_ips") or [], variables.get("private_ips") or []
    ordered = public + private if preferred == "public" else private + public
    return ordered[0] if ordered else None


class InventoryModule(BaseInventoryPlugin, Constructable, Cacheable):
    NAME = "replication.recovery.service"

    def verify_file(self, path):
        return super(InventoryModule, self).verify_file(path) and path.endswith(("service.yml", "service.yaml"))

    def parse(self, inventory, loader, path, cache=True):
        super(InventoryModule, self).parse(inventory, loader, path, cache)
        given = self._read_config_data(path)
        cache_key = self.get_cache_key(path)
        use_cache = self.get_option("cache") and cache
        data = None
        if use_cache:
            try:
                data = self._cache[cache_key]
            except KeyError:
                pass
        if data is None:
            data = self.read(dict((name, given.get(name)) for name in CONNECTION_ARGUMENT_SPEC))
            if self.get_option("cache"):
                self._cache[cache_key] = data
        self.populate(data)

    def read(self, given):
        """What the hosts are made of, from the service: the fleet, and target machines when asked for."""
        if not HAS_REQUESTS:
            raise AnsibleParserError("The replication.recovery.service inventory needs the Python library requests.")
        kind = self.get_option("hosts")
        client = None
        try:
            client = make_client(connection_settings(given))
            fleet = read_fleet(client, self.get_option("projects"), self.get_option("lag_threshold"), self.get_option("stale_after"))
            if kind == "targets":
                for project in fleet["projects"]:
                    project["targets"] = [dict(target=target, machine_id=machine["id"], private_ips=ips)
                                          for machine, target, ips in read_targets(client, project, self.get_option("launch_types"))]
            return fleet
        except (ServiceError, UnknownProject, ValueError) as error:
            raise AnsibleParserError("The replication.recovery.service inventory could not read the service: %s" % to_native(error))
        finally:
            if client is not None:
                try:
                    client.close()
                except ServiceError:
                    pass

    def populate(self, data):
        kind = self.get_option("hosts")
        hosts = []
        for project in data["projects"]:
            if kind == "machines":
                hosts.extend(machine_host(project, machine) for machine in project["machines"])
            elif kind == "targets":
                machines = dict((machine["id"], machine) for machine in project["machines"])
                hosts.extend(target_host(project, machines[entry["machine_id"]], entry["target"], entry["private_ips"])
                             for entry in project.get("targets", []))
            else:
                hosts.append(project_host(project))
        hosts = [variables for variables in hosts if self.wanted(variables)]
        names = self.names(hosts, kind)
        for name, variables in zip(names, hosts):
            self.add(name, kind, variables)

    def wanted(self, variables):
        """Whether a host meets every condition of ``filters``."""
        strict = self.get_option("strict")
        for condition in self.get_option("filters"):
            try:
                if not self._compose(condition, variables):
                    return False
            except Exception as error:
                if strict:
                    raise AnsibleParserError("Could not evaluate the filter %r: %s" % (condition, to_native(error)))
                return False
        return True

    def names(self, hosts, kind):
        """The hosts' names, from the ``hostname`` expression; two of one name are told apart by the start of their ID."""
        expression = self.get_option("hostname")
        try:
            names = ["%s" % (self._compose(expression, variables) if expression else DEFAULT_NAMES[kind](variables)) for variables in hosts]
        except Exception as error:
            raise AnsibleParserError("Could not make host names with %r: %s" % (expression, to_native(error)))
        shared = set(name for name, count in Counter(names).items() if count > 1)
        for index, name in enumerate(names):
            if name in shared:
                variables = hosts[index]
                identity = variables.get("target_id") or variables.get("machine_id") or variables["project_id"]
                display.warning("Two hosts would be named %s; this one is %s-%s." % (name, name, identity[:8]))
                names[index] = "%s-%s" % (name, identity[:8])
        return names

    def add(self, name, kind, variables):
        self.inventory.add_host(name)
        host_address = address(variables, self.get_option("address"))
        if host_address and kind != "projects":
            self.inventory.set_variable(name, "ansible_host", host_address)
        for key, value in variables.items():
            self.inventory.set_variable(name, key, value)
        for group in built_in_groups(kind, variables):
            group = self._sanitize_group_name(group)
            self.inventory.add_group(group)
            self.inventory.add_child(group, name)
        strict = self.get_option("strict")
        self._set_composite_vars(self.get_option("compose"), variables, name, strict=strict)
        self._add_host_to_composed_groups(self.get_option("groups"), variables, name, strict=strict)
        self._add_host_to_keyed_groups(self.get_option("keyed_groups"), variables, name, strict=strict)
