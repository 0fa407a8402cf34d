"""An inventory of stand-ins for SSH targets (YAML, which Ansible reads from a .json file): local hosts, each with a
directory of its own that the simulated installer keeps its marker in (and downloads to), and its own name. bad-1
has no Python.

    python hosts.py ROOT > hosts.json
"""

import json
import os
import sys

GROUPS = {"first": ["src-1", "src-2", "src-3"], "second": ["new-1", "new-2", "bad-1"], "failed": ["failed-1"]}


def host(root, name):
    directory = os.path.join(root, name)
    os.makedirs(directory, exist_ok=True)
    agent = os.path.join(directory, "agent")
    found = dict(ansible_connection="local", ansible_python_interpreter=sys.executable, agent_become=False, agent_temp_dir=directory,
                 agent_machine_name=name,
                 agent_install_dir=agent, agent_installer_environment=dict(REPLICATION_AGENT_DIR=agent, REPLICATION_AGENT_HOSTNAME=name,
                                                                           REPLICATION_AGENT_DISK_BYTES="100000000"))
    if name == "bad-1":
        found["ansible_python_interpreter"] = "/nonexistent"
    return found


if __name__ == "__main__":
    root = os.path.abspath(sys.argv[1])
    print(json.dumps(dict(all=dict(children=dict((group, dict(hosts=dict((name, host(root, name)) for name in members)))
                                                 for group, members in GROUPS.items())))))
