# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Read the run's machines and the project's jobs once, and judge: which machines take part, in
which waves, whether they are ready, and what an earlier run left. Documented in
plugins/modules/runbook_read.py."""

from ansible_collections.replication.recovery.plugins.plugin_utils._judgement import (
    Refused, blocking_machines, earlier_run, health_gate, shown, take_part)
from ansible_collections.replication.recovery.plugins.plugin_utils._proof import proofs_of, read_ledger, said, unproven
from ansible_collections.replication.recovery.plugins.plugin_utils._step import RunbookStep, StepFailed, trimmed_job

# The newest jobs read: enough to find an earlier run's launches (one per wave) and cleanup among others'.
JOBS_READ = 50
UNHEALTHY_SHOWN = 5


def sentences(lines):
    """The first lines, one sentence each, and how many more the report has."""
    more = len(lines) - UNHEALTHY_SHOWN
    return ". ".join(lines[:UNHEALTHY_SHOWN]) + (". And %d more (see the report)" % more if more > 0 else "")


class ActionModule(RunbookStep):
    PHASE = "preflight"

    def step(self, args):
        record = self.record
        plan = self.read_plan() if record["recovery_plan"] else None
        # The jobs first, then the machines: a launch job seen ended has its machines in the later read.
        # The other way round, a job that ended between the two reads looks like a launch whose machines
        # are gone, and a rerun would launch its wave a second time.
        jobs = self.service("service_job_info", project=record["project"], limit=JOBS_READ)["jobs"]
        view = self.service("service_machine_info", project=record["project"], lag_threshold=record["gate"]["lag_threshold"],
                            prove_launch_settings=record["launch_settings"]["check"] or bool(record["test_network"]["network"]))
        record.update(project_id=view["project"]["id"], started=view["service_time"])
        asked = record["asked"]
        named = self.unproven_machines(view) if asked.get("unproven") else asked["machines"]
        if named == []:
            record.update(machines=[], waves=[], nothing_to_test=True)
            return dict(machines=0, excluded=[], waves=[], adopted=[], to_clean=[])
        try:
            chosen = take_part(view["machines"], named=named, exclude=asked["exclude"], waves=asked["waves"],
                               plan=[step_machine for step in plan["steps"] for step_machine in step["machines"]] if plan else None)
        except Refused as refused:
            raise StepFailed("%s Nothing was launched." % refused)
        by_name = dict((machine["name"], machine) for machine in view["machines"])
        strangers = sorted(set(record.get("points_in_time") or {}) - set(value for m in chosen["machines"] for value in (m["name"], m["id"])))
        if record.get("points_from"):
            self.points_from_the_report(chosen["machines"])
        elif strangers:
            raise StepFailed("The points in time name %s, which %s not among the machines of the run; nothing was launched." % (
                shown(strangers), "is" if len(strangers) == 1 else "are"))
        record.update(machines=chosen["machines"], excluded=chosen["excluded"],
                      waves=[dict(machines=names, status="pending") for names in chosen["waves"]])
        taking_part = [by_name[machine["name"]] for machine in chosen["machines"]]
        verdicts = health_gate(taking_part, max_lag=record["gate"]["max_lag"], no_backlog=record["gate"]["no_backlog"],
                               states=record["gate"]["states"])
        if not record["gate"]["enforce"]:
            for verdict in verdicts:
                verdict.update(forced=not verdict["passed"], forced_because=record["gate"].get("not_enforced_because"))
        record["health"] = dict((verdict["name"], verdict) for verdict in verdicts)
        record["blocking"]["machines"] = blocking_machines(taking_part, record["blocking"]["kinds"])
        self.note_launch_settings(view.get("launch_settings"), taking_part)
        strangers = sorted(set(((record["test_network"]["network"] or {}).get("machines") or {})) - set(by_name))
        if strangers:
            raise StepFailed("The test network's machines name %s, not machines of project %s; nothing was launched." % (
                shown(strangers), record["project"]))
        ids = dict((machine["name"], machine["id"]) for machine in chosen["machines"])
        earlier = earlier_run([by_name[name] for name in ids], jobs, record["username"], launch_type=record["launch_type"],
                              plan=bool(plan), waves=[[ids[name] for name in wave] for wave in chosen["waves"]], adopt=record["adopt"],
                              spare=record.get("spare") or (), keeps=bool(record.get("keeps_launched")))
        self.record_earlier(earlier)
        self.say_what_was_judged(verdicts)
        self.stop_unless_ready(verdicts, earlier)
        return dict(machines=len(chosen["machines"]), excluded=chosen["excluded"], waves=[len(wave) for wave in chosen["waves"]],
                    adopted=sorted(index + 1 for index in earlier["adopted"]), to_clean=[left["name"] for left in earlier["clean"]])

    def unproven_machines(self, view):
        """The IDs of the machines to test for machines=unproven: those whose replication is not stopped that changed since
        their last proof, or were never proven (plugin_utils._proof); the choice is a check of the run, with the reasons."""
        record = self.record
        machines = [machine for machine in view["machines"] if machine.get("replicationStatus") != "STOPPED"]
        entries, breaks = read_ledger(record["ledger_dir"]) if record.get("ledger_dir") else (None, [])
        if breaks:
            raise StepFailed("The ledger at %s is broken, and the machines it proves cannot be trusted; nothing was launched. %s Run "
                             "replication.recovery.evidence to see every break." % (record["ledger_dir"], " ".join(breaks[:3])))
        judged = self.judged_proofs(view["project"], machines, proofs_of(view["project"], machines, entries), view["service_time"])
        chosen = unproven(judged)
        source = "the ledger of runs" if record.get("ledger_dir") else "no ledger named: proven means test-launched, by the service's record"
        lines = ["%s: %s" % (machine["name"], said(machine)) for machine in chosen]
        message = ("%d of %d machines are not proven (%s): %s" % (len(chosen), len(judged), source, sentences(lines)) if chosen
                   else "every machine of project %s is proven (%s): none changed since it last passed; nothing to test" % (record["project"], source))
        record.setdefault("run_checks", []).append(dict(name="unproven machines", status="passed", message=message))
        self.say(message[0].upper() + message[1:] + ".")
        return [machine["id"] for machine in chosen]

    def points_from_the_report(self, machines):
        """Every machine of the run launches from the clean point the report names for it (the report may name more)."""
        given, without = self.record["points_in_time"] or {}, self.record["points_from"]["without"]
        missing = ["%s (%s)" % (m["name"], without.get(m["name"], "not searched")) for m in machines if m["name"] not in given and m["id"] not in given]
        if missing:
            raise StepFailed("The clean point report %s has no clean point for %s; nothing was launched. Exclude them, or give their points "
                             "in time yourself." % (self.record["points_from"]["report"], shown(missing)))

    def note_launch_settings(self, proven, taking_part):
        """The problems of the taking-part machines' blueprints, as service_machine_info proved them (when asked), and
        which of them are switched to a test network."""
        if proven is None:
            return
        names = set(machine["name"] for machine in taking_part)
        # Blueprints an earlier run left switched to a test network: put back before anything launches.
        self.record["test_network"]["found"] = [name for name in proven.get("switched") or [] if name in names]
        if not self.record["launch_settings"]["check"]:
            return
        problems = dict((name, messages) for name, messages in proven["problems"].items() if name in names)
        self.record["launch_settings"].update(checked=True, region=proven["region"]["name"], problems=problems)

    def read_plan(self):
        record = self.record
        plans = self.service("service_recovery_plan_info", project=record["project"], name=record["recovery_plan"])["recovery_plans"]
        if not plans:
            raise StepFailed("Project %s has no recovery plan %s; nothing was launched." % (record["project"], record["recovery_plan"]))
        plan = dict(id=plans[0]["id"], name=plans[0]["name"],
                    steps=[dict(name=step["name"], machines=list(dict.fromkeys(step.get("machine_names") or [])))
                           for step in plans[0]["steps"]["items"]])
        record["plan"] = plan
        return plan

    def record_earlier(self, earlier):
        """What an earlier run left, as the later steps act on it (resume, launch, clean up)."""
        self.record["earlier"] = dict(
            running=trimmed_job(earlier["running"]) if earlier["running"] else None, running_is=earlier["running_is"],
            adopted=dict((str(index), trimmed_job(job)) for index, job in earlier["adopted"].items()),
            clean=[dict(name=left["name"], replica=left["replica"]) for left in earlier["clean"]],
            foreign=[dict(name=left["name"], replica=left["replica"]) for left in earlier["foreign"]],
            ours=[left["replica"] for left in earlier["ours"]],
            messages=[],
        )

    def say_what_was_judged(self, verdicts):
        record, earlier = self.record, self.record["earlier"]
        unhealthy = ["%s: NOT READY: %s" % (verdict["name"], "; ".join(verdict["reasons"])) for verdict in verdicts if not verdict["passed"]]
        self.say("%d of %d machines of project %s pass the %s%s%s." % (
            len(verdicts) - len(unhealthy), len(verdicts), record["project"], record["gate"].get("name", "health gate"),
            " in %d waves (%s)" % (len(record["waves"]), ", ".join(str(len(wave["machines"])) for wave in record["waves"]))
            if len(record["waves"]) > 1 else "", "; excluded: " + shown(record["excluded"]) if record["excluded"] else ""))
        for line in unhealthy[:UNHEALTHY_SHOWN]:
            self.say(line)
        for index, job in sorted(earlier["adopted"].items()):
            self.say("Wave %d was launched by an earlier run of this %s (%s %s, %s): this run adopts it." % (
                int(index) + 1, record["title"], job["type"], job["id"], job["status"]))

    def stop_unless_ready(self, verdicts, earlier):
        record = self.record
        if not record["machines"]:
            raise StepFailed("No machine of project %s takes part; nothing was launched." % record["project"])
        unhealthy = ["%s: %s" % (verdict["name"], ", ".join(verdict["reasons"])) for verdict in verdicts if not verdict["passed"]]
        every_wave_adopted = len(earlier["adopted"]) == len(record["waves"])
        if unhealthy and every_wave_adopted:
            # The gate guards a launch: an earlier run launched every wave, so this run launches nothing.
            for verdict in verdicts:
                verdict.update(forced=not verdict["passed"], forced_because="not launched by this run (an earlier run launched it)")
            self.say("Not ready (%d of %d), and nothing to launch: an earlier run launched every wave. %s." % (
                len(unhealthy), len(verdicts), shown(unhealthy, UNHEALTHY_SHOWN)))
        elif unhealthy and not record["gate"]["enforce"]:
            self.say("Not ready, and launched anyway as asked (%d of %d): %s." % (len(unhealthy), len(verdicts), shown(unhealthy, UNHEALTHY_SHOWN)))
        elif unhealthy:
            raise StepFailed("The %s stopped the run; nothing was launched. Not ready (%d of %d): %s." % (
                record["gate"].get("name", "health gate"),
                len(unhealthy), len(verdicts), sentences(unhealthy)))
        problems = record["launch_settings"]["problems"]
        if problems and not every_wave_adopted:
            lines = ["%s: %s" % (name, "; ".join(messages)) for name, messages in sorted(problems.items())]
            raise StepFailed("The launch settings check stopped the run; nothing was launched. %d of %d machines cannot launch in %s as their "
                             "blueprints say: %s. Mend their blueprints, or exclude them." % (
                                 len(problems), len(verdicts), record["launch_settings"]["region"], sentences(lines)))
        if earlier["running_is"] == "other":
            job = earlier["running"]
            raise StepFailed("Another job is running in project %s: %s %s, started by %s; nothing was launched. Run again when it has "
                             "ended." % (record["project"], job.get("type"), job["id"], job.get("initiatedBy") or "?"))
        blocking = record["blocking"]
        if blocking["machines"] and not blocking["clean"]:
            raise StepFailed("%s machines are up for %s; nothing was launched. %s" % (
                " and ".join(sorted(set(left["kind"] for left in blocking["machines"]))).capitalize(),
                shown(left["name"] for left in blocking["machines"]),
                "Clean them up first, or let this run do it (%s=true)." % blocking["option"] if blocking["option"]
                else "This %s never replaces them: run it again once they are gone." % record["title"]))
        if earlier["foreign"] and record.get("keeps_launched"):
            raise StepFailed("%s machines are up for %s that this %s cannot take as its own launch; nothing was launched, as a launch would "
                             "replace them. Find out who launched them and why before running it again." % (
                                 record["kind"].capitalize(), shown(left["name"] for left in earlier["foreign"]), record["title"]))
        if earlier["foreign"] and not record["clean_leftovers"]:
            raise StepFailed("%s machines that this %s did not launch are there for %s; nothing was launched. Clean them up with "
                             "%s_clean_leftovers=true, or with the role's cleanup phase (tasks_from: cleanup)." % (
                                 record["kind"].capitalize(), record["title"], shown(left["name"] for left in earlier["foreign"]),
                                 record["runbook"]))
