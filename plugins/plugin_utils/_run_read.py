# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A run's phase (plugin_utils._run): read the run's machines and the project's jobs once, and judge - which machines take
part, in which waves, whether they are ready, and what an earlier run left. Before anything is written: what it refuses,
nothing was launched."""

from ansible_collections.replication.recovery.plugins.module_utils._domain import LATEST, RESTORE, TEST_NETWORK_OPTIONS, moment_said, parse_time
from ansible_collections.replication.recovery.plugins.module_utils._lever import ENGAGED, lever_said
from ansible_collections.replication.recovery.plugins.module_utils._limits import beyond, job_size, parts
from ansible_collections.replication.recovery.plugins.module_utils._marks import DRILL, MARK, PIN, marks_of, pin_of, pins_of
from ansible_collections.replication.recovery.plugins.module_utils._words import joined, sentences, shown
from ansible_collections.replication.recovery.plugins.plugin_utils._files import PROBE_BYTES, report_bytes, stamp, unwritable
from ansible_collections.replication.recovery.plugins.plugin_utils._render import point_said
from ansible_collections.replication.recovery.plugins.plugin_utils._judgement import (
    Refused, blocking_machines, earlier_run, health_gate, later_than_now, launch_settings_refused, pin_points, points_refused,
    production_machines, replace_token, resumed_waves, standing, take_part, thinned, thinned_said)
from ansible_collections.replication.recovery.plugins.plugin_utils._ledger import directory_of, to_read
from ansible_collections.replication.recovery.plugins.plugin_utils._proof import proofs_of, read_ledger, said, unproven
from ansible_collections.replication.recovery.plugins.plugin_utils._step import StepFailed, now_iso, trimmed_job
from ansible_collections.replication.recovery.plugins.plugin_utils._proof import judged_by_audit
from ansible_collections.replication.recovery.plugins.plugin_utils._record import parts_of
from ansible_collections.replication.recovery.plugins.plugin_utils._stops import look_at_stops, outside_the_blast_radius, read_lever, stop_said

# The newest jobs read: enough to find an earlier run's launches (one per wave) and cleanup among others'.
JOBS_READ = 50
UNHEALTHY_SHOWN = 5
# What a runbook does with machines that are failed over (runbook_start's on_failed_over). One name a line: ansible-core's
# reader of a plugin's documentation (ansible-lint runs it) warns of a module-level assignment to a tuple.
REFUSE = "refuse"
STAND = "stand"
OWN = "own"


class Reading(object):
    """The read of the run's machines and jobs, and the judgement of them: the run's preflight."""

    def read_and_judge(self):
        """Read and judge (the module's docstring); answers how many machines take part, the waves' sizes, what was excluded,
        adopted, cleaned up, and what stands."""
        self.phase = "preflight"
        record = self.record
        # A rehearsal the lever or a stop condition holds back is cancelled before its first write - once what an earlier run
        # of it left is known: that is taken up (adopted, cleaned up), and nothing more launched (the launch stops).
        stop = look_at_stops(self, record["project"])
        plan = self.read_plan() if record["recovery_plan"] else None
        jobs, view = self.read_jobs_and_machines()
        # The lever is read by the project's ID the machines' read found (one request less); still before the first write.
        cancelled = self.lever_cancels() or ("Cancelled: %s." % stop_said(stop) if stop else None)
        self.read_the_clock(parse_time(view["service_time"]))
        named = self.unproven_machines(view) if record["asked"].get("unproven") else record["asked"]["machines"]
        if named == []:
            if cancelled:
                raise StepFailed(cancelled)
            record.update(machines=[], waves=[], nothing_to_test=True)
            return dict(machines=0, excluded=[], waves=[], adopted=[], to_clean=[], stands=[])
        by_name = dict((machine["name"], machine) for machine in view["machines"])
        chosen = self.choose(view["machines"], named, plan, by_name)
        taking_part = [by_name[machine["name"]] for machine in chosen["machines"]]
        production = self.note_what_stands_in_the_way(taking_part, view.get("launch_settings"), by_name)
        earlier, adopted = self.read_earlier_runs(chosen, jobs, by_name, production, plan)
        self.take_up_when_cancelled(cancelled, earlier)
        on_failed_over = record.get("on_failed_over") or REFUSE
        if on_failed_over != OWN:
            self.judge_production(dict((name, entry) for name, entry in production.items() if name not in adopted), on_failed_over)
        to_launch = [machine for machine in chosen["machines"] if machine["name"] not in adopted and machine["name"] not in record["stands"]]
        self.pin_the_points(chosen["machines"], to_launch, view["machines"], taking_part, earlier, adopted)
        self.mark_pins(taking_part, set(machine["name"] for machine in to_launch))
        verdicts = self.gate([by_name[machine["name"]] for machine in chosen["machines"] if machine["name"] not in record["stands"]])
        record["to_launch"] = [machine["name"] for machine in to_launch]
        self.say_what_was_judged(verdicts)
        self.stop_unless_ready(verdicts, earlier, to_launch)
        return dict(machines=len(chosen["machines"]), excluded=chosen["excluded"], waves=[len(wave) for wave in chosen["waves"]],
                    adopted=sorted(index + 1 for index in earlier["adopted"]), to_clean=[left["name"] for left in earlier["clean"]],
                    stands=sorted(record["stands"]))

    # -- the phases of the read, in their order ----------------------------------------------------------------

    def read_jobs_and_machines(self):
        """The project's newest jobs, then its machines (with what the run judges them by). The jobs first: a launch job seen
        ended has its machines in the later read. The other way round, a job that ended between the two reads looks like a
        launch whose machines are gone, and a rerun would launch its wave a second time."""
        record = self.record
        jobs = self.service("service_job_info", project=record["project"], limit=JOBS_READ)["jobs"]
        view = self.machines(project=record["project"], lag_threshold=record["gate"]["lag_threshold"],
                             prove_launch_settings=record["launch_settings"]["check"] or bool(record.test_network["network"]),
                             # What an earlier restore test left is traced by its restore servers' creation: read those too.
                             include_restore_servers=record["kind"] == RESTORE,
                             include_points_in_time=self.pins_every_machine(), points_in_time_limit=self.newest_point_enough())
        record.update(project_id=view["project"]["id"], started=view["service_time"])
        kind = view["project"].get("type")
        if record["kind"] == RESTORE and kind not in (None, "BACKUP"):
            # The service answers the launch 422 (launchRestoreServers is a backup project's): refused before the run's pins.
            raise StepFailed("Project %s is a %s project: only a backup project has restore servers to launch, and a restore test "
                             "is run on one; nothing was launched." % (view["project"]["name"], kind))
        return jobs, view

    def read_the_clock(self, service_now):
        """A point-in-time policy's moment judged on the service's clock: one later than now is refused; an application's
        start (points_as_of) becomes the moment of a policy that has none."""
        future = later_than_now(self.record["policy"], service_now)
        if future:
            raise StepFailed("%s; nothing was launched." % future)
        if self.record.get("points_as_of"):
            self.take_points_as_of(service_now)

    def choose(self, machines, named, plan, by_name):
        """The machines that take part and their waves, recorded: refused, before anything is written, when the run names a
        machine outside its blast radius, or points in time of machines not in the run."""
        record, asked = self.record, self.record["asked"]
        try:
            chosen = take_part(machines, named=named, exclude=asked["exclude"], waves=asked["waves"],
                               plan=[step_machine for step in plan["steps"] for step_machine in step["machines"]] if plan else None)
        except Refused as refused:
            raise StepFailed("%s Nothing was launched." % refused)
        outside = outside_the_blast_radius([by_name[machine["name"]] for machine in chosen["machines"]], record["blast_radius"])
        if outside:
            raise StepFailed("%s outside the blast radius (%s) and would take part: give the run machines within it (or widen it); "
                             "nothing was launched." % (joined(outside) + (" is" if len(outside) == 1 else " are"), ", ".join(record["blast_radius"])))
        strangers = sorted(set(record.get("points_in_time") or {}) - set(value for m in chosen["machines"] for value in (m["name"], m["id"])))
        if record.get("points_from"):
            self.points_from_the_report(chosen["machines"])
        elif strangers:
            raise StepFailed("The points in time name %s, which %s not among the machines of the run; nothing was launched." % (
                shown(strangers), "is" if len(strangers) == 1 else "are"))
        record.update(machines=chosen["machines"], excluded=chosen["excluded"],
                      waves=[dict(machines=names, status="pending") for names in chosen["waves"]])
        if chosen["in_no_wave"]:
            self.say("No wave names %s of project %s: %s not in this %s." % (
                shown(chosen["in_no_wave"]), record["project"], "it is" if len(chosen["in_no_wave"]) == 1 else "they are", record["title"]))
        self.prove_room(len(chosen["machines"]))
        return chosen

    def note_what_stands_in_the_way(self, taking_part, launch_settings, by_name):
        """What stands in the way of a launch of the taking-part machines: others' machines up (blocking), a drill's marks
        left, the launch settings, a test network naming strangers. Answers the machines that are failed over (production)."""
        record = self.record
        production = production_machines(taking_part)
        record["blocking"]["machines"] = blocking_machines(taking_part, record["blocking"]["kinds"])
        # A drill's mark left behind by a DR test that never ended: a failover removes it before it launches those machines,
        # so that no DR test takes its recovery machines for a drill of its own.
        record["drill_marks"] = [machine["name"] for machine in taking_part if DRILL in marks_of(machine)]
        if record.get("on_failed_over") == STAND:
            # A DR test's drill is a DR test's machine, in the failover's way as any other.
            record["blocking"]["machines"] += [dict(name=name, id=entry["id"], replica=entry["replica"], kind="test (a DR test's %s drill)" % entry["kind"])
                                               for name, entry in sorted(production.items()) if entry["drill"]]
        self.note_launch_settings(launch_settings, taking_part)
        strangers = sorted(set(((record.test_network["network"] or {}).get("machines") or {})) - set(by_name))
        if strangers:
            raise StepFailed("The test network's machines name %s, not machines of project %s; nothing was launched." % (
                shown(strangers), record["project"]))
        return production

    def read_earlier_runs(self, chosen, jobs, by_name, production, plan):
        """What an earlier run left (plugin_utils._judgement.earlier_run), recorded with each wave's jobs (in_jobs) - judged
        again over the waves as that run launched them when it launched others than the run's leading ones - and the names of
        the machines of the launches this run adopts."""
        record = self.record
        on_failed_over = record.get("on_failed_over") or REFUSE
        ids = dict((machine["name"], machine["id"]) for machine in chosen["machines"])
        # Production is none of an earlier run's business, unless this runbook owns it (the failback's recovery machines)
        # or a stopped run of this very runbook launched it and did not commit it (a failover adopts its waves).
        spare = list(record.get("spare") or ()) + [
            entry["replica"] for entry in production.values()
            if on_failed_over == REFUSE and not entry["drill"] or on_failed_over == STAND and (entry["committed"] or entry["drill"])]

        def earlier_of(waves):
            in_jobs = self.in_jobs(waves)
            return in_jobs, earlier_run([by_name[name] for name in ids], jobs, record["username"], launch_type=record["launch_type"], plan=bool(plan),
                                        waves=[[ids[name] for name in wave] for wave in waves], adopt=record["adopt"], spare=spare,
                                        keeps=bool(record.get("keeps_launched")) or on_failed_over == STAND,
                                        parts=[[[ids[name] for name in part] for part in wave] for wave in in_jobs])

        in_jobs, earlier = earlier_of(chosen["waves"])
        again = resumed_waves(chosen["waves"], earlier["launches"], dict((machine_id, name) for name, machine_id in ids.items()), parts=in_jobs)
        if again is not None:
            chosen["waves"] = self.waves_as_launched(again, earlier["launches"])
            in_jobs, earlier = earlier_of(chosen["waves"])
        for wave, wave_parts in zip(record["waves"], in_jobs):
            if len(wave_parts) > 1:
                wave["parts"] = wave_parts
        self.record_earlier(earlier)
        adopted = set(name for index, found in earlier["adopted"].items() for part in in_jobs[index][:len(found)] for name in part)
        # What the stopped run this one takes up launched: every outcome says it stands, a refusal from here on included.
        record["earlier"]["launched"] = sorted(adopted)
        return earlier, adopted

    def take_up_when_cancelled(self, cancelled, earlier):
        """A run the lever or a stop condition cancelled stops here - unless an earlier run left machines or a job: it takes
        those up and cleans up, and launches nothing more."""
        if not cancelled:
            return
        if not (earlier["adopted"] or earlier["running"] or earlier["clean"] or earlier["ours"]):
            raise StepFailed(cancelled)
        self.say("%s An earlier run of this %s left machines or a job: this run takes them up and cleans up, and launches nothing "
                 "more." % (cancelled, self.record["title"]))

    def pin_the_points(self, machines, to_launch, read, taking_part, earlier, adopted):
        """Pin the points the machines not adopted launch from (pin), from the points read with the machines - those of the
        run this one takes up kept."""
        record = self.record
        # A machine that stands is judged on the point it stands on: only its own read has every one.
        trimmed = bool(self.newest_point_enough())
        read_points = dict((machine["id"], machine["points_in_time"]) for machine in read if "points_in_time" in machine
                           and not (trimmed and machine["name"] in record["stands"]))
        # The points a run that this one takes up pinned: it adopts its launches, or they stand, failed over by it.
        resumes = bool(earlier["adopted"]) or bool(record["stands"])
        self.pin([machine for machine in machines if machine["name"] not in adopted], to_launch, read_points,
                 marked=pins_of(taking_part, record["runbook"]) if resumes else ({}, None), adopted=adopted)

    def gate(self, machines):
        """The health gate's verdict of each machine that does not stand, recorded; forced where the gate is not enforced."""
        record = self.record
        verdicts = health_gate(machines, max_lag=record["gate"]["max_lag"], no_backlog=record["gate"]["no_backlog"], states=record["gate"]["states"])
        enforced = record["gate"]["enforce"] and not record.get("gate_deferred")
        if not enforced:
            for verdict in verdicts:
                verdict.update(forced=not verdict["passed"], forced_because=record.get("gate_deferred"))
        record["health"] = dict((verdict["name"], verdict) for verdict in verdicts)
        return verdicts

    # -- production: machines failed over -----------------------------------------------------------------

    def judge_production(self, production, on_failed_over):
        """The run's machines that are failed over (their recovery or cutover machine runs production), other than
        those of a launch this run adopts: refused, before anything is written, by every runbook but the failover; for
        the failover they stand - reported as they are, never launched over - unless named in replace and confirmed."""
        record = self.record
        production = dict((name, entry) for name, entry in production.items() if not (on_failed_over == STAND and entry["drill"]))
        if on_failed_over == REFUSE:
            production = dict((name, entry) for name, entry in production.items() if not entry["drill"] or record["kind"] == "test")
        replace = self.replaced(production)
        if not production:
            return
        targets = self.targets_of(production)
        record["production"] = dict((name, dict(entry, target=targets.get(name) or {})) for name, entry in production.items())
        if on_failed_over == REFUSE:
            self.refuse_production(record["production"])
        for name, entry in record["production"].items():
            if name in replace:
                record["replaced"][name] = entry
            else:
                record["stands"][name] = dict(entry, said=standing(entry, entry["target"]))
        planned = [machine["name"] for machine in (record.get("plan_file") or {}).get("machines") or []
                   if not machine.get("stands") and machine["name"] in record["stands"]]
        if planned:
            raise StepFailed("The plan %s launches %s, which %s failed over now: %s. Nothing was launched or terminated. Plan again with "
                             "--check." % (record["plan_file"]["path"], shown(planned), "is" if len(planned) == 1 else "are",
                                           "; ".join("%s: %s" % (name, record["stands"][name]["said"]) for name in planned[:5])))

    def replaced(self, production):
        """The machines named in replace: each must be failed over; their token must be the one the plan printed."""
        record = self.record
        wanted = record["replace"]["machines"]
        if not wanted:
            return {}
        by_value = dict((value, name) for name, entry in production.items() for value in (name, entry["id"]))
        unknown = [value for value in wanted if value not in by_value]
        if unknown:
            raise StepFailed("replace names %s, which %s no failed-over machine of the run: only a machine whose recovery or cutover machine "
                             "runs is replaced (the others are launched as they are). Nothing was launched or terminated." % (
                                 shown(unknown), "is" if len(unknown) == 1 else "are"))
        replace = dict((by_value[value], production[by_value[value]]) for value in wanted)
        token = replace_token(record["project_id"], dict((name, entry["replica"]) for name, entry in replace.items()))
        record["replace"].update(token=token, names=sorted(replace))
        planned = (record.get("plan_file") or {}).get("token")
        if not self.check_mode and (record["replace"]["confirm"] != token or (planned and planned != token)):
            given = record["replace"]["confirm"]
            raise StepFailed("Replacing the production machines of %s needs the confirmation token of its plan; %s. Nothing was launched or "
                             "terminated. Run the failover with --check and the same replace: its plan says what is terminated and "
                             "launched, and prints the token to give as confirm." % (
                                 shown(sorted(replace)), "none was given" if not given else
                                 "the token given (%s) is not this plan's: the plan, or the machines, changed since it was printed" % given))
        return replace

    def targets_of(self, production):
        """The target machines of the failed-over machines, as the service describes them: one read each (the
        interface has no list of them)."""
        looked = self.machines(project=self.record["project_id"], machines=[entry["id"] for entry in production.values()],
                               include_target_machine=True)
        return dict((machine["name"], machine.get("target_machine") or {}) for machine in looked["machines"])

    def refuse_production(self, production):
        record = self.record
        # Their points, for what the operator reads (a refusal is rare: a read of each machine's points is worth it).
        read = self.points_in_time(record["project_id"], [entry["id"] for entry in production.values()])
        points = dict((entry["machine_name"], entry["points_in_time"]) for entry in read)
        lines = ["%s: %s" % (name, standing(entry, entry["target"], next((p for p in points.get(name) or [] if p["id"] == entry["target"].get(
            "pointInTime")), None), listed=name in points)) for name, entry in sorted(production.items())]
        cut_over = sorted(name for name, entry in production.items() if entry["kind"] == "cutover")
        advice = ("Fail back first (replication.recovery.failback), or leave them out (%s_exclude)" % record["runbook"]
                  if not cut_over else
                  "They run production since a failback launched them back (or a cutover): a %s never replaces them. To test those "
                  "machines without removing them, protect them as source machines of a project of their own (install the agent on "
                  "them, replication.recovery.protect) and test that project; or leave them out (%s_exclude)" % (record["title"], record["runbook"]))
        raise StepFailed("%d of the machines of this %s are failed over, and their %s machines run production: %s. A %s launch terminates "
                         "a machine's target machine first, so this %s never launches them; nothing was launched or terminated. %s." % (
                             len(production), record["title"], " and ".join(sorted(set(entry["kind"] for entry in production.values()))),
                             sentences(lines, UNHEALTHY_SHOWN), record["launch_type"], record["title"], advice))

    def in_jobs(self, waves):
        """Each wave's jobs (lists of names) within the service's limits (service_limits): a wave of more machines than a
        job may take is sent in several, one after another. A recovery plan runs as one job: a plan past the limits is
        refused here, before anything is written."""
        limits = self.limits
        if self.record.get("plan"):
            problem = beyond(limits, len(self.record["machines"]))
            if problem:
                raise StepFailed("%s: the recovery plan %s runs in one job. Nothing was launched; run its machines as waves "
                                 "(without %s_recovery_plan) to launch them in several jobs." % (
                                     problem, self.record["plan"]["name"], self.record["runbook"]))
            return [[wave] for wave in waves]
        return [parts(wave, job_size(limits)) for wave in waves]

    def waves_as_launched(self, waves, launches):
        """The run's waves once it adopts an earlier run's launches that are not its leading waves (resumed_waves): said, and
        refused for a run that carries out a plan (its waves are the plan's) or has more waves than it unrolls."""
        record = self.record
        if record.get("plan_file"):
            raise StepFailed("The plan %s has other waves than an earlier run of this %s launched (%s); nothing was launched. Run it again as "
                             "that run was, or plan again with --check." % (record["plan_file"]["path"], record["title"], "; ".join(
                                 "%s %s" % (job["id"], job["status"]) for job in launches)))
        if record.get("max_waves") and len(waves) > record["max_waves"]:
            raise StepFailed("An earlier run of this %s launched %d jobs, which with the waves asked make %d waves; this way of running unrolls "
                             "%d. Nothing was launched." % (record["title"], len(launches), len(waves), record["max_waves"]))
        record["waves"] = [dict(machines=names, status="pending") for names in waves]
        self.say("An earlier run of this %s launched other waves: %s, adopted as wave%s %s as they were launched; the waves asked follow "
                 "without their machines (%d waves in all)." % (
                     record["title"], "; ".join("%s %s (%s)" % (job["id"], job["status"], shown(wave)) for job, wave in zip(launches, waves)),
                     "s" if len(launches) > 1 else "", joined(str(number) for number in range(1, len(launches) + 1)), len(waves)))
        return waves

    # -- points in time, pinned once -----------------------------------------------------------------------

    def prove_room(self, machines):
        """The report directory and the ledger take the run's reports at its scale, now that it is known: before the first
        write to the service (the run's first task proved them with a file of a few hundred machines' reports)."""
        size = report_bytes(machines)
        if size <= PROBE_BYTES:
            return
        record = self.record
        ledger = None if self.check_mode else directory_of(record.get("ledger_dir"))[0]
        for what, directory in (("report directory", record.get("report_dir")), ("ledger", ledger)):
            why = directory and unwritable(directory, size)
            if why:
                raise StepFailed("The %s's %s cannot take the reports of %d machines (%.1f MiB): %s. Nothing was launched or changed: give "
                                 "a directory with room, or make room in this one." % (record["title"], what, machines, size / 1048576.0, why))

    def mark_pins(self, machines, launching):
        """Keep the points the run pinned in the service (module_utils._marks), where a run that adopts this one - on any
        controller - finds them: before the first launch, when the run launches (the machines named ``launching``) in more
        than one job and pinned anew. One write for all the machines; none when every machine stands or is adopted."""
        record = self.record
        adopted = record["earlier"]["adopted"]
        pending = sum(len(parts_of(wave)) - len(adopted.get(str(index)) or []) for index, wave in enumerate(record["waves"])
                      if launching & set(wave["machines"]))
        pinned = record.get("pinned") or {}
        if self.check_mode or record.get("pins_from") or pending < 2 or not pinned:
            return
        run = stamp(record["started"])
        tags = dict((machine["id"], ["%s%s=%s" % (MARK, PIN, pin_of(record["runbook"], run, pinned[machine["name"]]))])
                    for machine in machines if machine["name"] in pinned)
        self.service("service_machine_tags", project=record["project_id"], tags=tags)
        record["pins_from"] = dict(run=run, marked=True)

    def same_points_asked(self, kept, launching):
        """A run again given a point-in-time policy of its own launches from the points the run it adopts pinned only when they are
        what it asks for: another point is refused, naming each, before anything is written."""
        record = self.record
        if not record["policy"]["given"] or record["policy"]["kind"] == LATEST or not launching:
            return
        ids = [machine["id"] for machine in launching]
        read = self.points_in_time(record["project_id"], ids)
        points_of = dict((entry["machine_id"], entry["points_in_time"]) for entry in read)
        asked, problems = pin_points(record["policy"], launching, points_of, record.get("points_in_time"))
        # A kept point the service thinned out since is launched from the newest point before it (the launch): the same
        # as a policy that now resolves to that one.
        gone = thinned(kept, points_of, [(machine["name"], machine["id"]) for machine in launching])
        launched_from = dict((name, (gone[name]["replacement"] if name in gone else point) or {}) for name, point in kept.items())
        differs = ["%s: pinned %s by the run it adopts; asked %s, which is %s" % (
            machine["name"], point_said(kept[machine["name"]]), record["policy"]["said"],
            point_said(asked[machine["name"]]) if machine["name"] in asked else "no point of it") for machine in launching
            if (asked.get(machine["name"]) or {}).get("id") not in (kept[machine["name"]]["id"], launched_from[machine["name"]].get("id"))]
        if differs:
            raise StepFailed("This %s adopts the launches of a run that pinned other points in time than it was asked; nothing was launched. %s. "
                             "Run it again without %s_point_in_time to launch the rest from the points that run pinned." % (
                                 record["title"], sentences(differs, UNHEALTHY_SHOWN), record["runbook"]))

    def plan_replacements(self, kept, launching):
        """Under --check, a point the run it takes up pinned that the service has thinned out since is planned as the point the
        run launches instead (the launch): the newest point before it. The plan then carries out what a run without a plan
        does, and says what it costs."""
        record = self.record
        read = self.points_in_time(record["project_id"], [machine["id"] for machine in launching])
        gone = thinned(kept, dict((entry["machine_id"], entry["points_in_time"]) for entry in read),
                       [(machine["name"], machine["id"]) for machine in launching])
        wave_of = dict((name, number) for number, wave in enumerate(record["waves"], 1) for name in wave["machines"])
        replaced = dict((name, found) for name, found in gone.items() if found["replacement"])
        for name, found in replaced.items():
            kept[name] = found["replacement"]
            record.setdefault("repinned", {})[name] = dict(found, wave=wave_of.get(name))
        if replaced:
            self.say("Thinned out by the service since the run it takes up pinned them; planned from the newest point before each: %s." % (
                "; ".join(thinned_said(name, found, done=True) for name, found in sorted(replaced.items()))))

    def refuse_thinned_plan(self, machines, points_of):
        """A plan whose points the service has thinned out since is refused before anything is written, naming for each
        machine the point a run without the plan takes instead - the newest point before it - with the data it costs, and
        the one step that approves those points."""
        record = self.record
        planned = dict((machine["name"], machine["point_in_time"]) for machine in record["plan_file"]["machines"] if machine.get("point_in_time"))
        gone = thinned(planned, points_of, [(machine["name"], machine["id"]) for machine in machines])
        if not gone:
            return
        launched = record["earlier"].get("launched") or []
        raise StepFailed(
            "The plan %s launches from points in time the service has thinned out since it was planned; this run launched nothing%s. %s. "
            "To approve those points, plan again with --check and give the new plan (%s_plan): it plans the newest point before "
            "each, as a run without a plan takes them." % (
                record["plan_file"]["path"], " (%s, launched by the stopped run it takes up, stand%s)" % (
                    shown(launched), "s" if len(launched) == 1 else "") if launched else "",
                sentences([thinned_said(name, found) for name, found in sorted(gone.items())], UNHEALTHY_SHOWN), record["runbook"]))

    def take_points_as_of(self, service_now):
        """points_as_of (an application's start, read on the service's clock then) as the moment of a policy that has
        none: each machine takes its newest point at or before it. A moment later than the service's now is no moment
        of this service's clock (another service's, moved since): the latest is taken, and the report says so."""
        record = self.record
        moment = parse_time(record["points_as_of"])
        if moment > service_now:
            record["point_in_time"] = "%s (points_as_of %s is later than the service's now, %s: not this service's moment)" % (
                record["point_in_time"], record["points_as_of"], moment_said(service_now, whole=True))
            return
        record["points_moment"] = record["points_as_of"]
        record["policy"] = dict(record["policy"], moment=moment)
        record["point_in_time"] = "%s as of %s (when the application began, on the service's clock)" % (
            record["point_in_time"], moment_said(moment, whole=True))

    def pins_every_machine(self):
        """Whether the run pins the points of every machine of the project (none named, left out or put in waves): then
        they are read with the machines, saving the project and machine reads of a task of their own."""
        record, asked = self.record, self.record["asked"]
        return bool(record.get("pin", True) and not record["recovery_plan"] and not record.get("pinned") and not record.get("points_from")
                    and asked.get("machines") is None and not asked.get("unproven") and not asked.get("exclude") and not asked.get("waves"))

    def newest_point_enough(self):
        """1 where every machine read pins its newest point (the policy latest, no point named): the read keeps no other -
        a project's thousands of machines each have hundreds. None otherwise, for every point."""
        record = self.record
        if self.pins_every_machine() and record["policy"]["kind"] == LATEST and not record.get("points_as_of") and not record.get("points_in_time"):
            return 1
        return None

    def pin(self, machines, to_launch, read_points=None, marked=({}, None), adopted=()):
        """Every machine's point in time, resolved once when the run begins, before the first launch: each wave
        launches these (the launch replaces one the service thinned out meanwhile). One read of each machine's
        points (the interface has no list of them) - the read the RPO needs anyway - unless the machines' read carried
        them (``read_points``, by machine ID). A failed-over machine that stands is compared with what was asked:
        another point would launch, and that is refused, naming the difference."""
        record = self.record
        # A recovery plan's run takes one point for all, chosen by the service; a runbook that launches one wave from the latest
        # point right after its read (the failback) asks for none.
        if record.get("plan") or not machines or not record.get("pin", True):
            return
        kept = self.kept_pins(marked, to_launch)
        given = dict(record.get("pinned") or {}, **kept)
        unread = [machine for machine in machines if machine["name"] not in given and machine["id"] not in given]
        points_of = self.points_of(unread, read_points)
        pinned, problems = pin_points(record["policy"], unread, points_of, record.get("points_in_time"))
        for machine in machines:
            point = given.get(machine["name"]) or given.get(machine["id"])
            if point:
                pinned[machine["name"]] = dict(id=point["id"], date_time=point.get("date_time") or point.get("dateTime"))
        # The adopted machines' points, as the run they were launched by pinned them: the plan and the report show every one.
        pinned.update((name, dict(id=kept[name]["id"], date_time=kept[name].get("date_time"))) for name in adopted if name in kept)
        record["pinned"] = pinned
        record["pinned_at"] = now_iso()
        self.note_the_points_that_stand(points_of)
        launching = set(machine["name"] for machine in to_launch)
        problems = [problem for problem in problems if problem.split(" ", 1)[0] in launching or problem.split(" ", 1)[0] not in record["stands"]]
        if problems and record["policy"].get("planned"):
            self.refuse_thinned_plan(unread, points_of)
        if problems:
            raise StepFailed(points_refused(problems, record["runbook"], planned=record["policy"].get("planned")))
        if record["policy"]["given"] and not record["policy"].get("planned"):
            self.refuse_what_stands_unless_asked(pinned)

    def kept_pins(self, marked, to_launch):
        """The points a run this one adopts pinned (``marked``: kept in the service, its marks), of the machines not pinned
        already and not standing: the run launches the rest from them - those it is asked for, under --check those still
        there (plan_replacements)."""
        record = self.record
        given = record.get("pinned") or {}
        kept, run = marked
        # Not for the machines that stand: what stands is compared with what this run was asked, as it pins it now.
        kept = dict((name, point) for name, point in kept.items()
                    if name not in given and name not in record["stands"] and not record["policy"].get("planned"))
        launching = [machine for machine in to_launch if machine["name"] in kept]
        if launching:
            self.same_points_asked(kept, launching)
            if self.check_mode:
                self.plan_replacements(kept, launching)
            record["pins_from"] = dict(run=run, marked=False, machines=sorted(kept))
            self.say("Launches the rest from the points in time the run it takes up pinned when it began (%s): %s." % (
                run, shown(machine["name"] for machine in launching)))
        return kept

    def points_of(self, unread, read_points):
        """Each machine's points by its ID: those the machines' read carried, the rest read - and those of the machines that
        stand, whatever pinned them (each one's report says the point it stands on, or that the service thinned it out)."""
        record = self.record
        points_of = dict((machine["id"], read_points[machine["id"]]) for machine in unread if machine["id"] in (read_points or {}))
        to_read = [machine["id"] for machine in unread if machine["id"] not in points_of]
        to_read += sorted(entry["id"] for entry in record["stands"].values() if entry["id"] not in points_of and entry["id"] not in to_read)
        if to_read:
            read = self.points_in_time(record["project_id"], to_read)
            points_of.update((entry["machine_id"], entry["points_in_time"]) for entry in read)
        return points_of

    def note_the_points_that_stand(self, points_of):
        """Each machine that stands: the point it stands on, and what is said of it."""
        for entry in self.record["stands"].values():
            listed = points_of.get(entry["id"]) or []
            entry["point"] = next((dict(id=p["id"], date_time=p["dateTime"]) for p in listed if p["id"] == entry["target"].get("pointInTime")), None)
            entry["said"] = standing(entry, entry["target"], entry["point"] and dict(id=entry["point"]["id"], dateTime=entry["point"]["date_time"]),
                                     listed=entry["id"] in points_of)

    def refuse_what_stands_unless_asked(self, pinned):
        """A run given a point-in-time policy whose machines that stand stand on other points than it pins is refused, naming each."""
        record = self.record
        differs = ["%s: %s; asked %s, which is the point in time of %s (%s)" % (
            name, entry["said"], record["policy"]["said"], moment_said(parse_time(pinned[name]["date_time"]), whole=True), pinned[name]["id"])
            if name in pinned else "%s: %s; asked %s, which has none for it" % (name, entry["said"], record["policy"]["said"])
            for name, entry in sorted(record["stands"].items()) if name not in pinned or pinned[name]["id"] != entry["target"].get("pointInTime")]
        if differs:
            raise StepFailed("What stands differs from what this %s was asked; nothing was launched or terminated. %s. To keep what stands, "
                             "run it without %s_point_in_time: it reports what stands and launches nothing. To replace them, plan with "
                             "--check and %s_replace naming them, then run with the token the plan prints as %s_confirm." % (
                                 record["title"], sentences(differs, UNHEALTHY_SHOWN), record["runbook"], record["runbook"], record["runbook"]))

    def unproven_machines(self, view):
        """The IDs of the machines to test for machines=unproven: those whose replication is not stopped that changed since
        their last proof, or were never proven (plugin_utils._proof); the choice is a check of the run, with the reasons."""
        record = self.record
        machines = [machine for machine in view["machines"] if machine.get("replicationStatus") != "STOPPED"]
        ledger = to_read(record.get("ledger_dir"))
        entries, breaks = read_ledger(ledger) if ledger else (None, [])
        if breaks:
            raise StepFailed("The ledger at %s is broken, and the machines it proves cannot be trusted; nothing was launched. %s Run "
                             "replication.recovery.evidence to see every break." % (ledger, " ".join(breaks[:3])))
        judged = judged_by_audit(self, view["project"], machines, proofs_of(view["project"], machines, entries), view["service_time"])
        chosen = unproven(judged)
        source = "the ledger of runs" if ledger else "no ledger yet: proven means test-launched, by the service's record"
        lines = ["%s: %s" % (machine["name"], said(machine)) for machine in chosen]
        message = ("%d of %d machines are not proven (%s): %s" % (len(chosen), len(judged), source, sentences(lines, UNHEALTHY_SHOWN)) if chosen
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
        self.record.test_network["found"] = [name for name in proven.get("switched") or [] if name in names]
        # What they are switched to: the test network a launch this run adopts was made in, for the report.
        self.record.test_network["found_in"] = dict((name, settings) for name, settings in (proven.get("switched_to") or {}).items()
                                                    if name in names)
        if self.record["launch_settings"]["check"]:
            self.note_launch_settings_proven(proven, names)

    def note_launch_settings_proven(self, proven, names):
        """What the blueprints of the machines named (``names``) were proven to have: problems, defaults left, what is unchecked."""
        problems = dict((name, messages) for name, messages in proven["problems"].items() if name in names)
        # What the test network sets is no default: the launch takes it from the switched blueprint.
        network = self.record.test_network["network"] or {}
        set_by_network = set(TEST_NETWORK_OPTIONS[option] for option in network if option in TEST_NETWORK_OPTIONS)
        defaults = dict((name, [member for member in members if member not in set_by_network])
                        for name, members in (proven.get("defaults") or {}).items() if name in names)
        self.record["launch_settings"].update(checked=True, region=proven["region"]["name"], problems=problems,
                                              defaults=dict((name, members) for name, members in defaults.items() if members),
                                              unchecked=dict((name, said) for name, said in (proven.get("unchecked") or {}).items()
                                                             if name in names),
                                              private_ips=dict((name, ips) for name, ips in (proven.get("private_ips") or {}).items()
                                                               if name in names))

    def lever_cancels(self):
        """The project's safety lever: engaged, a rehearsal (a failover that rolls back in a test network too) is cancelled
        (answers why); a failover that stays or a failback goes on, and says that it is engaged."""
        record = self.record
        lever = read_lever(self)
        if lever["state"] != ENGAGED:
            return None
        said = lever_said(lever, record["project"])
        record["lever"] = dict(lever, obeyed=record.rehearses)
        if record["lever"]["obeyed"]:
            return "Cancelled: %s." % said
        self.say("%s%s. It holds back rehearsals only: the %s goes on." % (said[0].upper(), said[1:], record["title"].lower()))
        return None

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
            adopted=dict((str(index), [trimmed_job(job) for job in found]) for index, found in earlier["adopted"].items()),
            clean=[dict(name=left["name"], replica=left["replica"]) for left in earlier["clean"]],
            foreign=[dict(name=left["name"], replica=left["replica"]) for left in earlier["foreign"]],
            ours=[left["replica"] for left in earlier["ours"]],
            messages=[],
        )

    def say_what_was_judged(self, verdicts):
        record = self.record
        unhealthy = ["%s: NOT READY: %s" % (verdict["name"], "; ".join(verdict["reasons"])) for verdict in verdicts if not verdict["passed"]]
        if not verdicts:
            self.say("Every machine of this %s in project %s (%d) is failed over already: nothing to launch." % (
                record["title"], record["project"], len(record["stands"])))
        else:
            self.say("%d of %d machines of project %s pass the %s%s%s." % (
                len(verdicts) - len(unhealthy), len(verdicts), record["project"], record["gate"].get("name", "health gate"),
                " in %d waves (%s)" % (len(record["waves"]), ", ".join(str(len(wave["machines"])) for wave in record["waves"]))
                if len(record["waves"]) > 1 else "", "; excluded: " + shown(record["excluded"]) if record["excluded"] else ""))
        for line in unhealthy[:UNHEALTHY_SHOWN]:
            self.say(line)
        self.say_what_earlier_runs_left()
        for name, entry in sorted(record["stands"].items())[:UNHEALTHY_SHOWN]:
            self.say("%s stands: %s; this run does not launch it." % (name, entry["said"]))
        if len(record["stands"]) > UNHEALTHY_SHOWN:
            self.say("And %d more stand (see the report)." % (len(record["stands"]) - UNHEALTHY_SHOWN))
        for name, entry in sorted(record["replaced"].items()):
            self.say("%s %s: %s." % ("Would replace" if self.check_mode else "Replaces", name, standing(entry, entry.get("target"))))

    def say_what_earlier_runs_left(self):
        """Each wave sent in several jobs, each launch adopted, and a job of another kind still running."""
        record, earlier = self.record, self.record["earlier"]
        running = earlier.get("running")
        for number, wave in enumerate(record["waves"], 1):
            if wave.get("parts") and set(wave["machines"]) - set(record["stands"]):
                self.say("Wave %d goes out in %d jobs (%s machines), one after another: a job takes at most %d machines (service_limits)." % (
                    number, len(wave["parts"]), ", ".join(str(len(part)) for part in wave["parts"]), job_size(self.limits)))
        for index, jobs in sorted(earlier["adopted"].items()):
            count = len(parts_of(record["waves"][int(index)]))
            for number, job in enumerate(jobs, 1):
                self.say("Wave %d%s was launched by an earlier run of this %s (%s %s, %s): this run adopts it%s." % (
                    int(index) + 1, " (job %d of %d)" % (number, count) if count > 1 else "", record["title"], job["type"], job["id"],
                    job["status"], ", and follows it to its end" if running and running["id"] == job["id"] else ""))
        if running and earlier.get("running_is") != "launch":
            earlier["running_said"] = "%s %s (%s, started %s by %s) still runs in the service: %s" % (
                running["type"], running["id"], running["status"], running.get("creationDateTime") or "-", running.get("initiatedBy") or "?",
                "this run waits for it to end and goes on" if earlier["running_is"] == "cleanup" else
                "it is no launch of this %s, so this run stops until it has ended" % record["title"])
            self.say(earlier["running_said"][0].upper() + earlier["running_said"][1:] + ".")

    def stop_unless_ready(self, verdicts, earlier, to_launch):
        record = self.record
        if not record["machines"]:
            raise StepFailed("No machine of project %s takes part; nothing was launched." % record["project"])
        unhealthy = ["%s: %s" % (verdict["name"], ", ".join(verdict["reasons"])) for verdict in verdicts if not verdict["passed"]]
        launching = set(machine["name"] for machine in to_launch)
        if unhealthy and not launching:
            # The gate guards a launch: an earlier run launched every wave (or every machine stands), so this run launches nothing.
            for verdict in verdicts:
                verdict.update(forced=not verdict["passed"], forced_because="not launched by this run (an earlier run launched it)")
            self.say("Not ready (%d of %d), and nothing to launch: an earlier run launched every wave. %s." % (
                len(unhealthy), len(verdicts), shown(unhealthy, UNHEALTHY_SHOWN)))
        elif unhealthy and not (record["gate"]["enforce"] and not record.get("gate_deferred")):
            self.say("Not ready, and launched anyway as asked (%d of %d): %s." % (len(unhealthy), len(verdicts), shown(unhealthy, UNHEALTHY_SHOWN)))
        elif unhealthy:
            raise StepFailed("The %s stopped the run; nothing was launched. Not ready (%d of %d): %s." % (
                record["gate"].get("name", "health gate"),
                len(unhealthy), len(verdicts), sentences(unhealthy, UNHEALTHY_SHOWN)))
        self.launch_settings_ready(launching, len(verdicts))
        self.refuse_what_is_in_the_way(earlier)

    def refuse_what_is_in_the_way(self, earlier):
        """Another job running, others' machines up, machines this run did not launch: each refused, before anything is written."""
        record = self.record
        if earlier["running_is"] == "other":
            job = earlier["running"]
            raise StepFailed("Another job is running in project %s: %s %s, started by %s; nothing was launched. Run again when it has "
                             "ended." % (record["project"], job.get("type"), job["id"], job.get("initiatedBy") or "?"))
        blocking = record["blocking"]
        if blocking["machines"] and not blocking["clean"]:
            kinds = " and ".join(sorted(set(left["kind"] for left in blocking["machines"])))  # "test (a DR test's recovery drill)"
            raise StepFailed("%s machines are up for %s; nothing was launched. %s" % (
                kinds[0].upper() + kinds[1:],
                shown(left["name"] for left in blocking["machines"]),
                "Clean them up first, or let this run do it (%s=true)." % blocking["option"] if blocking["option"]
                else "This %s never replaces them: run it again once they are gone." % record["title"]))
        foreign = [left for left in earlier["foreign"] if left["name"] not in record["stands"]]
        if foreign and (record.get("keeps_launched") or record.get("on_failed_over") == STAND):
            raise StepFailed("%s machines are up for %s that this %s cannot take as its own launch; nothing was launched, as a launch would "
                             "replace them. Find out who launched them and why before running it again." % (
                                 record["kind"].capitalize(), shown(left["name"] for left in foreign), record["title"]))
        if foreign and not record["clean_leftovers"]:
            option = record.settings.get("clean_leftovers_option")
            raise StepFailed("%s machines that this %s did not launch are there for %s; nothing was launched. %s" % (
                record["kind"].capitalize(), record["title"], shown(left["name"] for left in foreign),
                "Clean them up with %s=true." % option if option else
                "Find out who launched them; once they may go, terminate them (replication.recovery.service_replica_cleanup) and run "
                "it again."))

    def launch_settings_ready(self, launching, machines):
        """The launch settings of the machines this run launches, as far as the interface lets them be proven: what a
        blueprint names that the region does not offer stops the run; what it leaves to a default cannot be proven (the
        interface defines no default), and is said - or stops the run, when the run is strict."""
        record, settings = self.record, self.record["launch_settings"]
        problems = dict((name, messages) for name, messages in settings["problems"].items() if name in launching)
        if problems:
            raise StepFailed(launch_settings_refused(problems, machines, settings["region"]))
        defaults = dict((name, members) for name, members in (settings.get("defaults") or {}).items() if name in launching)
        if not defaults:
            return
        groups = {}
        for name, members in sorted(defaults.items()):
            groups.setdefault(tuple(members), []).append(name)
        left = "; ".join("%s: %s" % (joined(members), shown(names)) for members, names in sorted(groups.items()))
        said = ("%d of %d machines cannot have their launch settings proven: their blueprints leave to the service's default what the "
                "interface defines no default for, so a default subnet deleted in the cloud account is found only by a failing launch job "
                "(%s). Set them in the blueprints (replication.recovery.service_blueprint)" % (len(defaults), machines, left))
        if settings.get("strict"):
            raise StepFailed("The launch settings check stopped the run (%s_launch_settings_strict); nothing was launched. %s." % (
                record["runbook"], said))
        settings["unproven"] = defaults
        record.setdefault("run_checks", []).append(dict(name="launch settings defaults", status="skipped", message=said))
        self.warn(said + ", or stop the run on this with %s_launch_settings_strict=true." % record["runbook"])
