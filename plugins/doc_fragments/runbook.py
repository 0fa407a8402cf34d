# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)


class ModuleDocFragment(object):
    # What every step of a runbook shares: it is an action plugin that runs on the controller, calls the
    # collection's modules, and keeps what happened in the run's record.
    DOCUMENTATION = r"""
notes:
  - This is a step of the collection's runbooks - the DR test, and the runbooks built on the same steps. It is an
    action plugin that runs on the controller, asks the service through the collection's modules (with the connection
    options given to it, else their environment variables), judges in Python, and keeps what happened in the run's
    record. The README of the role C(replication.recovery.dr_test) draws how the steps make a runbook.
  - The record is a JSON file in a directory of its own on the controller, made by
    M(replication.recovery.runbook_start) and removed by M(replication.recovery.runbook_finish). It never holds a secret.
    What an earlier run left is read from the service, never from an earlier record, so that a run on another
    controller finds it too.
attributes:
  check_mode:
    support: full
    details: The modules it runs predict instead of changing anything; the step records what would be done.
  diff_mode:
    support: none
  platform:
    platforms: all
    details: Runs on the controller; the modules it runs run where the task runs, usually C(localhost).
"""

    # What a run is asked as it begins (runbook_start's options but its own: the runbook, its project, the start's halves).
    BEGIN = r"""
options:
  launch_type:
    description:
      - What to launch; with a recovery plan, the mode it runs in (not V(debug)). V(restore) launches restore servers of a
        backup project (the restore test).
    type: str
    choices: [test, recovery, cutover, debug, restore]
    default: test
  point_in_time:
    description:
      - V(latest), as when not given (a plan to carry out refuses a run given any point in time, V(latest) too);
        V(before:<date-time>) or an RFC 3339 date-time, for each machine's newest point at or before it; the ID of a point
        in time, for its machine, and the others' newest at or before it.
      - Or a point per machine - a dictionary of machine name or ID to point ID, or text of V(name=ID) items separated by
        commas; machines not named take their latest point. Not with a recovery plan.
      - Or V(from:<path>) - the report of a clean point search (M(replication.recovery.runbook_search)) of the same
        project, whose search ended; each machine takes the clean point the report names for it. A machine of the run
        without one stops the run before anything is launched.
    type: raw
  points_strict:
    description:
      - V(true) - a point pinned when the run began that the service thinned out before its wave stops the run before that
        wave. V(false) - the wave launches from the newest point before it, and the report says so with the extra data
        lost.
    type: raw
    default: false
  pin_points:
    description:
      - V(false) - points are not pinned when the run begins; each launch takes the latest point (a failback, which
        launches once, right after its read).
    type: raw
    default: true
  pinned:
    description:
      - The point each machine launches from, given - a dictionary of machine name or ID to C({id, date_time}) (a clean
        point search's round). These are not read again when the run begins; the other machines are pinned as
        O(point_in_time) says.
    type: dict
  plan:
    description:
      - A plan written under C(--check) (its C(.plan.json)) to carry out exactly - its machines, waves, points in time and
        what it replaces. Refused when it is another project's or runbook's, would have stopped, or is given with
        O(machines), O(exclude), O(waves), O(point_in_time) or O(replace).
    type: path
  replace:
    description:
      - Production machines (names or IDs) that are failed over, whose recovery machines this run terminates and launches
        anew. Only with O(confirm), never in a test launch, a recovery plan's run or a run that rolls back.
    type: raw
  confirm:
    description: The confirmation of O(replace) - the token the run's plan under C(--check) gives.
    type: str
  roll_back:
    description: V(true) - the run removes what it launched at its end (a failover that does not commit).
    type: raw
    default: false
  on_failed_over:
    description:
      - What a machine that is failed over (its recovery or cutover machine runs) means to this run - V(refuse) stops the
        run before anything is launched (a DR test), V(stand) reports it and never launches it again or over (a
        failover), V(own) takes it as the run's own (a failback).
    type: str
    choices: [refuse, stand, own]
    default: refuse
  launch_settings_strict:
    description:
      - V(true) - stop before anything is launched when a blueprint leaves its subnet, security groups or instance type to
        the service's default, which cannot be proven. V(false) - such machines are named in a warning and the report.
    type: raw
    default: false
  points_as_of:
    description:
      - An RFC 3339 date-time on the service's clock - when an application's run began, as
        M(replication.recovery.application_step) read it. With V(latest) (or no point in time) each machine takes its
        newest point at or before that moment instead of its newest now, and with a point per machine so do the machines
        not named; so every node of an application recovers to one moment. The report says it. Other policies keep their
        own moment or point. A moment later than the service's now (another service's clock) is not taken, and the
        report says so.
      - The playbooks pass it from the host variable C(runbook_points_as_of).
    type: str
  machines:
    description:
      - The machines, by name or ID, as a list or as text with items separated by commas. Every machine whose replication is
        not stopped if not given.
      - V(unproven) - the machines whose replication is not stopped that are not proven today (see
        M(replication.recovery.ledger_proof_info)), from the ledger in O(ledger_dir) or, without it, from their last test
        launch; M(replication.recovery.runbook_start) picks them, and a run with none launches nothing and passes. Test
        launches only, without waves or a recovery plan.
    type: raw
  exclude:
    description: Machines left out, by name, ID or glob pattern (a list, or text).
    type: raw
  waves:
    description:
      - Groups of machines launched one after another, each looked at and checked before the next; a wave that fails
        stops the later ones. A list of lists of names, IDs or glob patterns (V([[db-*], [app-*], [web-*]])), or text with
        groups separated by V(;) or new lines and names by commas (V(db-*; app-1, app-2; web-*)).
      - Not with O(machines) or O(recovery_plan). All the machines are one wave if not given; when given, only the machines
        the waves name take part, and the step names those of the project that no wave names.
    type: raw
  max_waves:
    description: The most waves the caller runs (the DR test playbook runs five); more are refused.
    type: int
  round:
    description:
      - The round of a search that launches once a round (the clean point search), each round a run of one wave. The
        launched machines' groups and their C(wave) variable carry the round instead of the wave.
    type: int
  ledger_dir:
    description: The ledger of runs that proves machines, for O(machines=unproven) (C(replication_recovery_ledger_dir)).
    type: path
  report_dir:
    description:
      - The directory the run's report is written in. Once the machines are read, before anything is launched or changed,
        it is proven to take the reports at the run's scale (as is the ledger).
    type: path
    version_added: 2.0.0
  stop_when:
    description:
      - Stop conditions - probes watched when the run begins, before each launch and at each look at a running job - each
        C({name, url, status}) (an HTTP GET from the controller answers one of the statuses, 200 when not given) or
        C({name, health}) (every machine of the project in one of C(health.states), C(continuous) when not given, with a
        lag of at most C(health.max_lag) seconds), with C(after_failures) (2 when not given). A probe that cannot run
        counts as failing. One failing so many times in a row stops the run - cancelled before its first write, else
        nothing more is launched, a running job ends first, and the finish cleans up.
      - A C({name, tasks}) probe is the game day's, run before it starts; the engine takes it and does not run it.
    type: raw
    version_added: 2.0.0
  blast_radius:
    description:
      - The machines the run may touch - names, glob patterns (V(web-*)) or V(tag:<tag>) - as a list or text. A machine
        outside it that would take part is refused, named, before the first write. Any machine when not given.
    type: raw
    version_added: 2.0.0
  game_day:
    description:
      - The game day this run rehearses for (its scenario's name), kept in the run's report (C(game_day)) - so that a
        game day stopped after its rehearsal ended, before its own report, reports that rehearsal when run again rather
        than rehearse anew. The engine gives it from C(runbook_game_day).
    type: str
    version_added: 2.0.0
  options:
    description:
      - What a runbook role was asked - its options, as M(replication.recovery.runbook_options) typed them from the role's
        C(meta/argument_specs.yml), named without the runbook's prefix - which the runbook engine (C(roles/runbook))
        passes whole. Each one that is an option of this module of its name is taken as that option (V(waves), V(project),
        V(checks_tasks), ...), but for those every runbook names alike that are grouped here - V(gate_states),
        V(gate_max_lag) and V(gate_no_backlog) as O(gate), V(rpo_target) and V(rto_target) as O(targets), V(network) as
        O(test_network). The others (the runbook's hooks, a failover's commit) are the runbook's own.
      - So an option added to a role's argument specs under the name of an option of this module reaches the run, typed and
        defaulted, with no other file changed. O(inputs) and an option given on its own go over these.
    type: dict
    version_added: 2.0.0
  inputs:
    description:
      - The options of this module gathered in one mapping - what a runbook sets itself, as the runbook engine
        (C(roles/runbook)) passes it, over O(options). Each is taken as if it were given on its own; one given on its own
        as well wins, and so do the keys of O(gate) and O(targets) given on their own. A key that is not one of the
        options is refused, by its name.
    type: dict
    version_added: 2.0.0
  recovery_plan:
    description: A recovery plan, by name or ID, to run instead of a plain launch; its machines are the run's.
    type: str
  gate:
    description: The health gate every machine passes before anything is launched.
    type: dict
    default: {}
    suboptions:
      states:
        description: The replication states that pass (a list, or text).
        type: raw
        default: [continuous]
      max_lag:
        description: Seconds of lag a machine may have; no limit if not given. Also the lag above which a machine counts as lagging (600 if not given).
        type: raw
      no_backlog:
        description: Whether a machine with a backlog fails the gate.
        type: raw
        default: false
      enforce:
        description:
          - Whether a machine that fails the gate stops the run before anything is launched. When false (a failover whose
            source site is gone), the verdicts are reported and the machines launched anyway.
        type: raw
        default: true
        version_added: 2.0.0
      name:
        description: What the gate is called in messages and in the report - a failback calls it its data-loss guard.
        type: str
        default: health gate
        version_added: 2.0.0
  adopt:
    description:
      - Whether the run adopts what an earlier run of it left running - its launch job, or its launched machines not yet
        cleaned up - following, checking and measuring them instead of launching again. When false, they are cleaned up
        and launched afresh.
    type: raw
    default: true
  clean_leftovers:
    description: Whether target machines of the launch type that anything else launched are cleaned up first; otherwise they stop the run.
    type: raw
    default: false
  blocking_launch_types:
    description:
      - Launch types (V(test), V(recovery), V(cutover)) whose live target machines among the run's machines stop it
        before anything is launched - for a failover, the machines of a DR test.
    type: raw
    default: []
    version_added: 2.0.0
  clean_blocking:
    description: Whether those target machines are cleaned up first (by M(replication.recovery.runbook_start)) instead of stopping the run.
    type: raw
    default: false
    version_added: 2.0.0
  clean_blocking_option:
    description:
      - The name of the runbook's variable that sets O(clean_blocking), for the message that stops the run. Empty for a
        runbook that never cleans them up (the clean point search).
    type: str
    default: clean_blocking
    version_added: 2.0.0
  clean_leftovers_option:
    description:
      - The name of the runbook's variable that sets O(clean_leftovers), for the message that stops the run when another's
        target machines are in its way. Not given for a runbook that never cleans them up - the message says how to, instead.
    type: str
  check_launch_settings:
    description:
      - Prove in the preflight that every machine taking part can launch as its blueprint says - subnets,
        security groups, instance type and the rest against what the target region offers now (see
        M(replication.recovery.service_blueprint_info)). A machine whose blueprint names what the region
        lacks stops the run before anything is launched, named with the value and what the region has;
        exclude it, or mend its blueprint.
      - Turn it off for a launch that does not land in the project's target region, such as a failback's.
    type: raw
    default: true
    version_added: 2.0.0
  test_network:
    description:
      - An isolated test network for a test launch - a dictionary of the options of
        M(replication.recovery.service_test_network)'s O(replication.recovery.service_test_network#module:network)
        (M(replication.recovery.service_blueprint)'s own - V(subnets), V(security_groups), V(private_ip_action),
        V(public_ip_action), V(tags), ... - for every machine, and per machine under V(machines)), or its JSON.
      - Just before each wave's launch its machines' blueprints take these settings, and once the launch job ended they
        are put back exactly as they were; the cleanup puts back any a stopped step left. What a blueprint was is kept in
        the service (see M(replication.recovery.service_test_network)), so that the next DR test or failover, on any
        controller, puts back what a killed run left switched before it launches anything, and says so.
      - A blueprint somebody changed during the test is left as they set it, and the report names it.
    type: raw
    version_added: 2.0.0
  targets:
    description: Recovery objectives in seconds; a machine that misses one fails. None if not given.
    type: dict
    default: {}
    suboptions:
      rpo_seconds:
        description: The most a machine's point in time may be older than its launch request.
        type: raw
      rto_seconds:
        description: The most a machine's RTO may be - from the run's first launch request until it was up, plus its own checks.
        type: raw
  checks_tasks:
    description: A tasks file of the user's checks of each launched machine that runs.
    type: str
  checks_name:
    description: What the report calls those checks.
    type: str
    default: checks
  check_public_ip:
    description: Whether a launched machine without a public address fails.
    type: raw
    default: true
  keep_on_failure:
    description: Whether the run's target machines are kept, rather than cleaned up, when it fails.
    type: raw
    default: false
  add_hosts:
    description:
      - Whether the launched machines become inventory hosts (M(replication.recovery.runbook_wave) answers them) even when
        nothing of the run uses them. They always do when the run has checks of the user's (O(checks_tasks)) or may keep its
        machines (O(keep_on_failure)).
      - A run of a DR test without either sets it false (C(dr_test_add_hosts)); at the size of an estate, hosts nothing uses
        cost the controller seconds.
    type: raw
    default: true
  host_prefix:
    description: The start of the inventory hosts made of launched machines (C(<host_prefix><project>/<machine>)).
    type: str
    default: dr-test-
  group:
    description: The group of those hosts.
    type: str
    default: dr_test_machines
  launch_timeout:
    description: Seconds to wait for each launch job.
    type: raw
    default: 3600
  boot_timeout:
    description: Seconds to wait for launched machines to run, as the service sees them.
    type: raw
    default: 900
  cleanup_timeout:
    description: Seconds to wait for each cleanup job.
    type: raw
    default: 1800
  poll_interval:
    description:
      - Seconds between the first two looks at a job (later ones are further apart, up to 30), or between two looks at
        machines that do not run yet.
    type: raw
    default: 5
  progress_interval:
    description: Seconds between two lines of progress while a job runs.
    type: raw
    default: 60
"""

    # The wave a step works on.
    WAVE = r"""
options:
  wave:
    description: The wave, numbered from 1 (a run without waves has one).
    type: int
    default: 1
"""

    # The run a later step works on.
    RUN = r"""
options:
  run:
    description:
      - The run, as M(replication.recovery.runbook_start) returned it (its RV(replication.recovery.runbook_start#module:run)).
    type: str
    required: true
"""

    # What stopped the run outside the steps.
    STOPPED = r"""
options:
  stopped:
    description:
      - A task outside the steps that stopped the run - one of the user's tasks, say - given as C(task), its name, and
        C(message), as a playbook's rescue notes them. It is recorded as the run's failure unless a step recorded one
        already (the steps record their own).
    type: dict
    suboptions:
      task:
        description: The task's name.
        type: str
      message:
        description: Its failure's message.
        type: str
"""

    # The ledger's modules: action plugins on the controller that read and write files only.
    LEDGER = r"""
attributes:
  check_mode:
    description: Whether the module can run in check mode, predicting its result without changing anything.
    support: full
  diff_mode:
    description: Whether the module shows, in diff mode, what it changes.
    support: none
  platform:
    description: The systems the module runs on.
    support: N/A
    platforms: all
    details: An action plugin - it runs on the controller, where the ledger and the reports are, and sends no request.
"""
