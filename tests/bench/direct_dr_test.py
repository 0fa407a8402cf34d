"""The DR test's yardstick that has no Ansible in it (make bench): one Python client, one session, making the requests the
service's published interface forces on a DR test, and no more - so that what the collection's DR test takes beyond it is
the engine's own (its tasks, plays, file round trips and repeated reads).

    REPLICATION_SERVICE_URL=... REPLICATION_SERVICE_USERNAME=... REPLICATION_SERVICE_PASSWORD=... \\
        python tests/bench/direct_dr_test.py --project bench [--poll-interval 1]

What the interface forces, in order: sign in; the project, found by name (GET /projects); its machines; each machine's
points in time (the interface lists them a machine at a time: the point each machine launches from, for its RPO); one TEST
launch of every machine; its job, looked at every poll interval until it ends; the machines again (each one's replica);
each target machine (GET .../replicas/{id}) until it runs, again every poll interval for those that do not yet (when it
runs is its RTO); one cleanup of every replica; its job until it ends; sign out. No gate, no report, no retry: a failed
request or job ends the run with exit status 1. Prints one line of JSON: the machines, launched and running.
"""

import argparse
import json
import os
import sys
import time

import requests

ENDED = ("COMPLETED", "FAILED")
PAGE = 1500


class Client:
    """One session of the service: its cookie and XSRF token kept by requests, every answer checked."""

    def __init__(self, api):
        self.api, self.http = api.rstrip("/"), requests.Session()

    def call(self, method, path, body=None, expect=200, **params):
        answer = self.http.request(method, self.api + path, json=body, params=params or None, timeout=60,
                                   headers={"X-XSRF-TOKEN": self.http.cookies.get("XSRF-TOKEN", "")} if method != "GET" else None)
        if answer.status_code != expect:
            raise SystemExit("%s %s answered %d: %s" % (method, path, answer.status_code, answer.text[:300]))
        return answer.json() if answer.content else None

    def listed(self, path):
        """Every item of a paged list: pages until one comes back shorter than the limit."""
        items, offset = [], 0
        while True:
            page = self.call("GET", path, offset=offset, limit=PAGE)["items"]
            items += page
            if len(page) < PAGE:
                return items
            offset += PAGE

    def job_ended(self, project_id, job_id, poll_interval):
        while True:
            job = self.call("GET", "/projects/%s/jobs/%s" % (project_id, job_id))
            if job["status"] in ENDED:
                if job["status"] != "COMPLETED":
                    raise SystemExit("job %s %s" % (job_id, job["status"]))
                return job
            time.sleep(poll_interval)


def dr_test(client, project, poll_interval):
    client.call("POST", "/login", {"username": os.environ["REPLICATION_SERVICE_USERNAME"], "password": os.environ["REPLICATION_SERVICE_PASSWORD"]})
    project_id = next(found["id"] for found in client.listed("/projects") if found["name"] == project)
    under = "/projects/%s" % project_id
    machines = client.listed(under + "/machines")
    for machine in machines:
        client.listed("%s/machines/%s/pointsintime" % (under, machine["id"]))
    launch = client.call("POST", under + "/launchMachines", {"launchType": "TEST", "items": [{"machineId": m["id"]} for m in machines]}, expect=202)
    client.job_ended(project_id, launch["id"], poll_interval)
    replicas = [machine["replica"] for machine in client.listed(under + "/machines") if machine.get("replica")]
    booting = list(replicas)
    while booting:
        booting = [replica for replica in booting if client.call("GET", "%s/replicas/%s" % (under, replica))["machineCloudState"] != "running"]
        if booting:
            time.sleep(poll_interval)
    cleanup = client.call("DELETE", under + "/replicas", {"replicaIDs": replicas}, expect=202)
    client.job_ended(project_id, cleanup["id"], poll_interval)
    client.call("POST", "/logout", expect=204)
    return dict(machines=len(machines), launched=len(replicas), running=len(replicas) - len(booting))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", required=True)
    parser.add_argument("--poll-interval", type=float, default=1.0)
    args = parser.parse_args()
    done = dr_test(Client(os.environ["REPLICATION_SERVICE_URL"]), args.project, args.poll_interval)
    print(json.dumps(done))
    return 0 if done["machines"] and done["launched"] == done["machines"] else 1


if __name__ == "__main__":
    sys.exit(main())
