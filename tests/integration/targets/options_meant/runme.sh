#!/usr/bin/env bash
# Only what the user meant: a variable that carries a runbook's prefix and is no option of it is refused by name, with the
# nearest option, before any request but sign-in and before any file is written - as `-e key=value`, as `-e` JSON text
# and as a group variable (one far from every option is a warning); every runbook's in test_runbook_options.py. A
# misspelt required option is one line naming both. Text that `-e key=value` splits at a space is refused. A runbook
# under the free strategy passes (its playbook's plays are linear) or is refused by its first task. A checks file with a
# module's name misspelt is refused as the run begins. A play that runs a DR test and then a failover passes.
set -euxo pipefail

url="$(sed -n 's/^simulator_url: //p' ../../integration_config.yml)"
export REPLICATION_SERVICE_URL="$url/api/latest"
export REPLICATION_SERVICE_USERNAME=meant@example.test
export REPLICATION_SERVICE_PASSWORD=meant-password
here="$(pwd)"
export ANSIBLE_ROLES_PATH="$here/.."
work="$here/work"
meant=(python "$here/files/meant.py" "$url")
rm -rf "$work" && mkdir -p "$work/here" "$work/data" "$work/tmp" "$work/out"
export XDG_DATA_HOME="$work/data"  # the default ledger of runs, this test's own
export TMPDIR="$work/tmp"          # where a run keeps its state while it runs
python ../setup_simulator/files/simulator.py "$url" seed files/meant.json
"${meant[@]}" cloud > "$work/out/cloud-before.txt"
cd "$work/here"  # where ansible-playbook is started: every report directory is taken from here
out="$work/out/output.txt"

# refused WORD NEAREST COMMAND...: the command fails with rc 2, one line names WORD and NEAREST, the service saw no request
# but sign-in, and no file was written.
refused() {
    local word="$1" nearest="$2" rc=0
    shift 2
    "${meant[@]}" clear
    "$@" >"$out" 2>&1 || rc=$?
    if [ "$rc" != 2 ]; then cat "$out"; echo "rc $rc, not 2: $*"; exit 1; fi
    "${meant[@]}" one-line "$out" "$word" "$nearest" || { cat "$out"; exit 1; }
    "${meant[@]}" quiet "$work" || { cat "$out"; exit 1; }
}

# group VARIABLE=VALUE...: an inventory of localhost whose group variables are those given.
group() {
    printf 'all:\n  hosts:\n    localhost:\n      ansible_connection: local\n      ansible_python_interpreter: "{{ ansible_playbook_python }}"\n  vars:\n' \
        > "$work/out/inventory.yml"
    local pair
    for pair in "$@"; do printf '    %s: %s\n' "${pair%%=*}" "${pair#*=}" >> "$work/out/inventory.yml"; done
    echo "$work/out/inventory.yml"
}

# -- a misspelt option: -e key=value, -e JSON text, a group variable (every other runbook's: test_runbook_options.py, --
# -- test_every_runbook_refuses_a_misspelt_option_naming_the_nearest; each runbook's first task is this same step) ------
# The failover asked to roll back (failover_commit misspelt) would commit: refused.
refused failover_comit failover_commit ansible-playbook replication.recovery.failover -e failover_project=meant -e failover_comit=false
refused failback_acept_data_loss failback_accept_data_loss ansible-playbook replication.recovery.failback \
    -e '{"failback_project": "meant", "failback_acept_data_loss": true}'
refused agent_porject agent_project ansible-playbook -i "$(group agent_porject=meant)" replication.recovery.agent

# -- a misspelt required option: one line names it and the option it stands for (the failover's: test_runbook_options.py) ----
refused readiness_projetc readiness_project ansible-playbook replication.recovery.readiness -e readiness_projetc=meant -e readiness_rpo_target=60
# ... and a required option not given at all: one line names it.
refused "readiness_project is required" readiness_project ansible-playbook replication.recovery.readiness -e readiness_rpo_target=60

# -- a group variable far from every option (another role's, of the estate): one warning, and the run goes on -------------
ansible-playbook -i "$(group readiness_owner_team=dr)" replication.recovery.readiness -e readiness_project=meant \
    -e readiness_rpo_target=3600 2>&1 | tee "$out"
grep -q "readiness_owner_team" "$out"
grep -q "Readiness of meant: PASSED" "$out"
rm -rf "$work/here/readiness_report" "$work/data"/*

# -- free text that -e key=value splits at a space: refused, naming the option and the form that keeps it ----------------
refused game_day_lever_reason '{"game_day_lever_reason": "INC-2041: payments latency"}' ansible-playbook replication.recovery.game_day \
    -e game_day_lever=engaged -e game_day_projects=meant -e 'game_day_lever_reason=INC-2041: payments latency'

# -- a directory the run writes that cannot be written (immutable, as a full disk or another user's): refused before any --
# -- request but sign-in; the run's result is never lost to it at the end ------------------------------------------------
trap 'chattr -R -i "$work" 2>/dev/null || true' EXIT  # an immutable directory would outlive the test
unwritable() {
    local directory="$1"
    shift
    mkdir -p "$directory" && chattr +i "$directory"
    refused "cannot write in $directory" "Nothing was read or written" "$@"
    chattr -i "$directory" && rmdir "$directory"
}
unwritable "$work/here/dr_test_report" ansible-playbook replication.recovery.dr_test -e dr_test_project=meant
# Every other runbook's report directory, the ledger named and the default one: test_runbook_options.py (each runbook's
# first task is this same step).

# -- a task file of the user's that Ansible cannot load (a module's name misspelt in the checks): refused as the run begins,
# -- in Ansible's words, before any request but sign-in - Ansible loads it only as it includes it, after the launch, and that
# -- ended the playbook with the machines launched and no report (one missing, or not YAML: test_runbook_options.py) -------
printf -- '- name: A check of mine\n  ansible.builtin.uri_get:\n    url: http://127.0.0.1:9\n' > "$work/out/checks.yml"
refused dr_test_checks_tasks "couldn't resolve module/action 'ansible.builtin.uri_get'" \
    ansible-playbook replication.recovery.dr_test -e dr_test_project=meant -e dr_test_checks_tasks="$work/out/checks.yml"

# -- the free strategy: the DR test's playbook passes as under linear, nothing left; its role from a free play is refused --
ANSIBLE_STRATEGY=free ansible-playbook replication.recovery.dr_test -e dr_test_project=meant -e dr_test_poll_interval=1 | tee "$out"
grep -q "DR test of meant: PASSED. 2 of 2 machines passed." "$out"
"${meant[@]}" cloud > "$work/out/cloud-after.txt"
diff "$work/out/cloud-before.txt" "$work/out/cloud-after.txt"
rm -rf "$work/here/dr_test_report" "$work/data"/* 
# The other runbooks' roles: test_runbook_options.py (each runbook's first task is this same step).
refused "strategy free" linear ansible-playbook "$here/files/free.yml" -e runbook_role=dr_test

# -- a play that runs a DR test and then a failover of another project: both pass --------------------------------------------
ansible-playbook "$here/files/two_runbooks.yml" | tee "$out"
grep -q "DR test of meant: PASSED. 2 of 2 machines passed." "$out"
grep -q "Failover of other: ROLLED BACK. 2 of 2 machines passed." "$out"
"${meant[@]}" cloud > "$work/out/cloud-after.txt"
diff "$work/out/cloud-before.txt" "$work/out/cloud-after.txt"
