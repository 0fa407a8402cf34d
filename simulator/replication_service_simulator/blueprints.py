"""Blueprints: how a machine is launched in a region. The service keeps one per machine for the
region its project replicates into, from the moment the machine registers (published clients
list and PATCH blueprints without creating them); a client may create more, for other regions."""

from .actions import recommended_instance_type


def recommended_ip(machine):
    number = int(machine.id.replace("-", "")[:6], 16)
    return "10.0.%d.%d" % (number // 250 % 250, 10 + number % 240)


def computed(machine):
    """The members of a blueprint the service works out from the machine."""
    return {"machineName": machine.name, "recommendedInstanceType": recommended_instance_type(machine),
            "recommendedPrivateIP": recommended_ip(machine)}


def new_blueprint(sim, machine, region, values=None):
    """A blueprint with the service's defaults, the values given, and the computed members."""
    blueprint = {
        "id": sim.new_id(), "machineId": machine.id, "region": region,
        "privateIPAction": "CREATE_NEW", "publicIPAction": "ALLOCATE", "tenancy": "SHARED", "runAfterLaunch": True,
        "subnetIDs": [], "securityGroupIDs": [], "privateIPs": [], "tags": [],
        "disks": [{"name": d["name"], "type": "SSD"} for d in machine.source.get("disks", [])],
    }
    blueprint.update(values or {})
    blueprint.update(computed(machine))
    return blueprint


def ensure_blueprints(sim, project):
    """Every machine of the project has a blueprint for the region of its default replication configuration."""
    config = sim.default_config(project)
    if config is None:
        return
    have = {(b["machineId"], b["region"]) for b in project.blueprints.values()}
    for machine in project.machines.values():
        if (machine.id, config["region"]) not in have:
            blueprint = new_blueprint(sim, machine, config["region"])
            project.blueprints[blueprint["id"]] = blueprint
