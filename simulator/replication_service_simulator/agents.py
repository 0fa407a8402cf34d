"""The replication agent's installer, as the service's console hands it out, and the channel the
simulated agent registers through. Neither is part of the published interface (choices of ours,
README "The agent's installer"):

- ``GET /installer_linux.py`` and ``GET /installer_win.exe`` at the simulator's root serve one small
  Python script (the Windows name is served for the URL convention only: it is not a Windows
  program). The script knows the simulator it came from.
- Run on a host with a project's agent installation token (``-t <token> --no-prompt``), the script
  registers the host in that project through ``POST /_simulator/agents`` - its name, addresses, OS
  and disks - and keeps a marker under its directory. The new machine replicates as a seeded one does.
- Under that directory the script leaves ``uninstall``, which removes the marker and the directory.
"""

import hashlib

from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from .blueprints import ensure_blueprints
from .errors import ServiceError
from .seed import _seed_machine

router = APIRouter(tags=["simulator agent"])

INSTALLERS = {"/installer_linux.py": "text/x-python", "/installer_win.exe": "application/octet-stream"}

SCRIPT = r'''#!/usr/bin/env python3
"""The simulated replication agent's installer (replication_service_simulator).

    installer_linux.py -t TOKEN [--no-prompt]

Registers this host in the project whose agent installation token TOKEN is, and keeps its marker
in $REPLICATION_AGENT_DIR (default /var/lib/replication-agent), with an ``uninstall`` script beside
it. The host's name is $REPLICATION_AGENT_HOSTNAME or the short host name; its public addresses are
$REPLICATION_AGENT_PUBLIC_IPS (comma-separated) or none; its one disk is as large as its root file system, or
$REPLICATION_AGENT_DISK_BYTES.
"""
import argparse, json, os, platform, shutil, socket, stat, sys, urllib.error, urllib.request

SERVICE = %(service)r
DIRECTORY = os.environ.get("REPLICATION_AGENT_DIR") or "/var/lib/replication-agent"
UNINSTALL = """#!%%s
import shutil, sys
shutil.rmtree(%%r, ignore_errors=True)
print("The replication agent is removed.")
"""


def main():
    parser = argparse.ArgumentParser(description="Install the replication agent.")
    parser.add_argument("-t", "--token", required=True, help="the project's agent installation token")
    parser.add_argument("--no-prompt", action="store_true", help="ask nothing")
    options = parser.parse_args()
    marker = os.path.join(DIRECTORY, "agent.json")
    name = os.environ.get("REPLICATION_AGENT_HOSTNAME") or socket.gethostname().split(".")[0]
    addresses = [address for address in os.environ.get("REPLICATION_AGENT_PUBLIC_IPS", "").split(",") if address]
    total = int(os.environ.get("REPLICATION_AGENT_DISK_BYTES") or shutil.disk_usage("/").total)
    body = dict(token=options.token, name=name, publicIps=addresses, os="%%s %%s" %% (platform.system(), platform.release()),
                disks=[dict(name="/dev/root", size=total)])
    request = urllib.request.Request(SERVICE + "/_simulator/agents", data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            registered = json.load(answer)
    except urllib.error.HTTPError as error:
        message = json.load(error).get("message", "") if error.headers.get("Content-Type", "").startswith("application/json") else ""
        sys.exit("The service refused the agent (%%d): %%s" %% (error.code, message))
    except (urllib.error.URLError, OSError) as error:
        sys.exit("The service cannot be reached at %%s: %%s" %% (SERVICE, error))
    os.makedirs(DIRECTORY, exist_ok=True)
    with open(marker, "w") as stream:
        json.dump(dict(machineId=registered["machineId"], projectId=registered["projectId"], name=name, service=SERVICE), stream)
    uninstall = os.path.join(DIRECTORY, "uninstall")
    with open(uninstall, "w") as stream:
        stream.write(UNINSTALL %% (sys.executable, DIRECTORY))
    os.chmod(uninstall, stat.S_IRWXU)
    print("The replication agent is installed: machine %%s (%%s) of project %%s." %% (
        registered["machineId"], name, registered["projectId"]))


if __name__ == "__main__":
    main()
'''


class Registration(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str
    name: str = Field(min_length=1, max_length=255)
    publicIps: list[str] = []
    os: str = "Linux"
    disks: list[dict] = []


def _installer(request: Request):
    sim = request.app.state.sim
    sim.stats.record("GET", request.url.path)
    service = str(request.base_url).rstrip("/")
    return SCRIPT % dict(service=service)


@router.get("/installer_linux.py", include_in_schema=False)
async def installer_linux(request: Request):
    return PlainTextResponse(_installer(request), media_type=INSTALLERS["/installer_linux.py"])


@router.get("/installer_win.exe", include_in_schema=False)
async def installer_windows(request: Request):
    return Response(_installer(request).encode(), media_type=INSTALLERS["/installer_win.exe"])


@router.post("/_simulator/agents", status_code=201)
async def register_agent(body: Registration, request: Request):
    """An agent registers its host in the project its token belongs to. A host already registered
    under its name is the same machine: it answers that machine."""
    sim = request.app.state.sim
    sim.stats.record("POST", "/_simulator/agents")
    project = next((project for project in sim.projects.values() if project.agent_token == body.token), None)
    if project is None:
        raise ServiceError(401, "unauthenticated", "No project has this agent installation token.")
    sim.sync_project(project)
    machine = next((machine for machine in project.machines.values() if machine.name == body.name), None)
    if machine is None:
        spec = dict(name=body.name, publicIps=body.publicIps, os=body.os,
                    machineCloudId="vm-" + hashlib.sha256(body.name.encode()).hexdigest()[:12])
        if body.disks:
            spec["disks"] = body.disks
        machine = _seed_machine(sim, project, spec)
        ensure_blueprints(sim, project)
        sim.record(None, "AGENT_INSTALLED", "Agent installed on %s." % machine.name, project=project, machines=[machine.id])
    return {"machineId": machine.id, "projectId": project.id}
