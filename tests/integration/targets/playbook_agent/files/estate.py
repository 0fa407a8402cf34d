"""What the agent's target reads in the service, outside the collection.

    python estate.py URL PROJECT machines NAMES   the project's machines (stopped ones included) are exactly NAMES (comma-separated)
    python estate.py URL PROJECT token            the project's agent installation token
"""

import sys

import requests

API = "/api/latest"


def main(url, project_name, what, *args):
    session = requests.Session()
    session.post(url + API + "/login", json={"username": "agents@example.test", "password": "agents-password"}, timeout=30).raise_for_status()
    project = next(p for p in session.get(url + API + "/projects", timeout=30).json()["items"] if p["name"] == project_name)
    if what == "token":
        print(project["agentInstallationToken"])
        return
    machines = session.get("%s%s/projects/%s/machines" % (url, API, project["id"]), params={"all": "true"}, timeout=30).json()["items"]
    names = sorted(m["sourceProperties"]["name"] for m in machines)
    wanted = sorted(name for name in args[0].split(",") if name)
    assert names == wanted, "project %s has %s, not %s" % (project_name, names, wanted)


if __name__ == "__main__":
    main(*sys.argv[1:])
