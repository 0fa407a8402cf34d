"""What each kind of job does, planned as events on its timeline (see jobs.py).

Every planner takes the moment its work starts and returns when it ends and which machines
it planned to fail, so planners compose: a recovery plan run is launch (or cleanup) planners
one after another, with the steps' waits between them.
"""

from .catalog import cloud_refusal
from .clock import iso, parse_duration
from .errors import ServiceError, invalid
from .jobs import Job
from .state import launch_replica, replaced_by_launch, terminate_replica

KIND = {"TEST": "test", "DEBUG": "debug", "RECOVERY": "recovery", "CUTOVER": "cutover", "RESTORE": "restore server"}


def new_job(sim, project, user, job_type, machine_ids):
    """A job in the project, with the fault rules for its type applied - within the service's limits, if it has any."""
    within_limits(sim, project, machine_ids)
    now = sim.now()
    rules = _job_rules(sim, job_type)  # picked once: a rule with a count is spent once per job
    slow = max([rule.slow or 1.0 for rule in rules] or [1.0])
    job = Job(sim.new_id(), project.id, job_type, user.username, now, machine_ids, slow=slow)
    job.fault_rules = rules
    project.jobs.append(job)
    if any(rule.fail_job for rule in rules):
        job.fail_whole(now + job.seconds("start"), "simulated failure of the whole job.")
    else:
        job.start_at(now + job.seconds("start"))
    return job


def within_limits(sim, project, machine_ids):
    """Refuse a job past the limits set (none by default): the machines a job takes; the jobs, and the machines in
    them, that run at once in the project's account. Said as the services of the family say it: 429 "Too many jobs"."""
    limits = sim.limits
    if limits.servers_per_job is not None and len(machine_ids) > limits.servers_per_job:
        raise invalid("A job takes at most %d machines; this one would take %d." % (limits.servers_per_job, len(machine_ids)),
                      code="tooManyMachines")
    running = [job for other in sim.projects.values() if other.account_id == project.account_id for job in other.jobs if job.running]
    if limits.concurrent_jobs is not None and len(running) >= limits.concurrent_jobs:
        raise ServiceError(429, "tooManyJobs", "Too many jobs: %d run in this account, which runs at most %d at once." % (
            len(running), limits.concurrent_jobs))
    busy = sum(len(job.machine_ids) for job in running)
    if limits.servers_in_active_jobs is not None and busy + len(machine_ids) > limits.servers_in_active_jobs:
        raise ServiceError(429, "tooManyJobs", "Too many jobs: %d machines are in the jobs that run in this account, which "
                           "takes at most %d; this job would add %d." % (busy, limits.servers_in_active_jobs, len(machine_ids)))


def plan(job, work):
    """Plan ``work(start) -> (end, failing)`` after the job starts, then the job's end.

    A job that a fault fails as a whole does no work.
    """
    if job.doomed:
        return
    end, unused_failing = work(job.created + job.seconds("start"))
    job.end_at(end + job.seconds("finish"))


def _job_rules(sim, job_type):
    """The job fault rules for this type; a rule with a count is spent by the job it hits."""
    rules = []
    for rule in sim.faults:
        if not rule.matches_job(job_type):
            continue
        if rule.count is not None:
            if rule.count <= 0:
                continue
            rule.count -= 1
        rules.append(rule)
    return rules


def _fails(sim, job, machine):
    for rule in job.fault_rules:
        if machine.name in rule.fail_machines or (rule.fail_rate is not None and sim.rng.random() < rule.fail_rate):
            return True
    return False


def latest_point(sim, project, machine, at_or_before=None):
    """The machine's newest point in time, or the newest at or before a moment; None if there is none."""
    sim.sync(project, machine)
    if at_or_before is None:
        return machine.replication.newest_point_in_time(sim.now(), machine.id)
    points = [point for point in machine.replication.points_in_time(sim.now(), machine.id) if point[1] <= at_or_before]
    return points[-1] if points else None


def plan_launch(sim, project, job, items, launch_type, start, debug_scripts=None):
    """Launch target machines for ``items`` [(machine, (point_id, taken) or None)], in parallel."""
    end, failing = start, set()
    for machine, point in items:
        machine_end, failed = _plan_one_launch(sim, project, job, machine, point, launch_type, start, debug_scripts)
        end = max(end, machine_end)
        if failed:
            failing.add(machine.id)
    return end, failing


def _plan_one_launch(sim, project, job, machine, point, launch_type, start, debug_scripts):
    name = machine.name

    def fail(when):
        job.fail_machine(machine.id)

    if point is None:
        job.at(start + job.seconds("snapshot"), "%s: cannot launch; initial sync has not finished, so there is no point in time yet." % name, fail)
        return start + job.seconds("snapshot"), True
    point_id, taken = point
    job.at(start + 1, "%s: launching a %s machine from the point in time of %s." % (name, KIND[launch_type], iso(taken)))
    snapshot = start + job.seconds("snapshot")
    old = replaced_by_launch(sim, project, machine) if launch_type != "RESTORE" else None
    if old is not None:
        job.at(snapshot, "%s: terminating the previous target machine %s." % (name, old.cloud_id), lambda when: terminate_replica(sim, old))
    job.at(snapshot, "%s: snapshot taken; converting the disks." % name)
    converted = snapshot + job.seconds("convert")
    if _fails(sim, job, machine):
        job.at(converted, "%s: conversion failed (simulated failure)." % name, fail)
        return converted, True
    refusal = launch_refusal(sim, project, machine)
    if refusal:
        job.at(converted, "%s: conversion finished; the cloud refused to start the target machine: %s." % (name, refusal), fail)
        return converted, True
    job.at(converted, "%s: conversion finished; starting the target machine." % name)
    if debug_scripts:
        job.at(converted, "%s: running %d preboot and %d postboot debug scripts." % (
            name, len(debug_scripts.get("preboot", [])), len(debug_scripts.get("postboot", []))))
    booted = converted + job.seconds("boot")
    shape = blueprint_shape(sim, project, machine)

    def boot(when):
        if machine.id not in project.machines:
            job.fail_machine(machine.id)
            return "%s: the source machine is gone; nothing was launched." % name
        replica = launch_replica(sim, project, machine, launch_type, point_id, shape=shape, when=when, point_taken=taken)
        return "%s: target machine %s is running (%s)." % (name, replica.cloud_id, ", ".join(replica.public_ips) or "no public IP")

    job.at(booted, None, boot)
    return booted, False


def plan_cleanup(sim, job, replicas, start):
    """Terminate target machines, in parallel."""
    for replica in replicas:
        job.at(start + 1, "%s: terminating target machine %s." % (replica.machine_name, replica.cloud_id))

        def terminate(when, replica=replica):
            terminate_replica(sim, replica)
            return "%s: target machine %s terminated." % (replica.machine_name, replica.cloud_id)

        job.at(start + job.seconds("terminate"), None, terminate)
    return start + job.seconds("terminate"), set()


def plan_file_restore(sim, job, items, start):
    """Restore files one after another: items are (machine, path, (point_id, taken))."""
    moment = start
    for machine, path, (unused_id, taken) in items:
        job.at(moment + 1, "%s: restoring %s from the point in time of %s." % (machine.name, path, iso(taken)))
        moment += job.seconds("restore")
        job.at(moment, "%s: restored %s." % (machine.name, path))
    return moment, set()


def plan_recovery_plan(sim, project, job, plan, mode, at_or_before, start):
    """Run a recovery plan's steps in order, each after its wait; a failed step stops the run."""
    steps = plan["steps"]["items"]
    moment = start
    for number, step in enumerate(steps, 1):
        label = "Step %d (%s)" % (number, step["name"])
        wait = parse_duration(step.get("waitBefore") or "PT0S")
        if wait:
            job.at(moment, "%s: waiting %s before it starts." % (label, step["waitBefore"]))
        moment += wait
        machines = [project.machines[mid] for mid in step["machineIDs"] if mid in project.machines]
        job.at(moment, "%s: started with %s." % (label, ", ".join(m.name for m in machines) or "no machines"))
        if mode == "CLEANUP":
            live = [sim.replicas[m.replica_id] for m in machines if m.replica_id and sim.replicas[m.replica_id].state != "terminated"]
            moment, failing = plan_cleanup(sim, job, live, moment)
        else:
            items = [(m, latest_point(sim, project, m, at_or_before)) for m in machines]
            moment, failing = plan_launch(sim, project, job, items, mode, moment)
        if failing:
            job.at(moment, "%s: failed." % label)
            for later, skipped in enumerate(steps[number:], number + 1):
                job.at(moment, "Step %d (%s): skipped because step %d failed." % (later, skipped["name"], number))
            return moment, failing
        job.at(moment, "%s: finished." % label)
    return moment, set()


# -- blueprints ---------------------------------------------------------------------------------


def recommended_instance_type(machine):
    cores = sum(cpu.get("cores", 1) for cpu in machine.source.get("cpu", [])) or 1
    memory_gib = machine.source.get("memory", 0) / 1024 ** 3
    if cores <= 2 and memory_gib <= 4:
        return "t3.medium"
    if cores <= 2 and memory_gib <= 8:
        return "t3.large"
    if cores <= 4 and memory_gib <= 16:
        return "m5.xlarge"
    return "r5.large"


def launch_refusal(sim, project, machine):
    """Why the cloud would refuse the machine's target machine in the region it lands in, or None."""
    config = sim.default_config(project) or {}
    region_id = sim.site_of(project)
    region = sim.project_region(project, region_id) if region_id else None
    if region is None:
        return None
    blueprint = next((b for b in project.blueprints.values() if b["machineId"] == machine.id and b["region"] == region_id), {})
    return cloud_refusal(region, blueprint, config.get("subnetId") if region_id == config.get("region") else None)


def blueprint_shape(sim, project, machine):
    """How the target machine will look: from the machine's blueprint for the launch region."""
    config = sim.default_config(project) or {}
    blueprint = next((b for b in project.blueprints.values() if b["machineId"] == machine.id and b["region"] == config.get("region")), None)
    if blueprint is None:
        return {"instanceType": recommended_instance_type(machine), "subnetId": config.get("subnetId"), "publicIp": True}
    shape = {"instanceType": blueprint.get("instanceType") or recommended_instance_type(machine),
             "subnetId": (blueprint.get("subnetIDs") or [config.get("subnetId")])[0],
             "publicIp": blueprint.get("publicIPAction", "ALLOCATE") != "DONT_ALLOCATE"}
    if blueprint.get("privateIPAction") == "CUSTOM_IP" and blueprint.get("privateIPs"):
        shape["privateIp"] = blueprint["privateIPs"][0]
    return shape
