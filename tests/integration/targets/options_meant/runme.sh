#!/usr/bin/env bash
# Only what the user meant: a variable that carries a runbook's prefix and is no option of it is refused by name, with the
# nearest option, before any request but sign-in and before any file is written - for every runbook, as `-e key=value`,
# as `-e` JSON text and as a group variable (one far from every option is a warning). A misspelt required option is one
# line naming both. Text that `-e key=value` splits at a space is refused. A runbook under the free strategy passes (its
# playbook's plays are linear) or is refused by its first task. A play that runs a DR test and then a failover passes.
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

# -- a misspelt option, every runbook: -e key=value, -e JSON text, a group variable --------------------------------------
# The failover asked to roll back (failover_commit misspelt) would commit: refused.
refused failover_comit failover_commit ansible-playbook replication.recovery.failover -e failover_project=meant -e failover_comit=false
refused dr_test_wavse dr_test_waves ansible-playbook replication.recovery.dr_test -e dr_test_project=meant -e 'dr_test_wavse=web-1;db-1'
refused health_max_lagg health_max_lag ansible-playbook replication.recovery.health -e health_projects=meant -e health_max_lagg=60
refused evidence_priod evidence_period ansible-playbook replication.recovery.evidence -e evidence_priod=30
refused protect_regoin protect_region ansible-playbook replication.recovery.protect -e protect_project=meant -e protect_regoin=us-west-2 \
    -e '{"protect_cloud_credentials": {"name": "aws"}}'
refused failback_acept_data_loss failback_accept_data_loss ansible-playbook replication.recovery.failback \
    -e '{"failback_project": "meant", "failback_acept_data_loss": true}'
refused clean_point_consistant clean_point_consistent ansible-playbook replication.recovery.clean_point \
    -e '{"clean_point_project": "meant", "clean_point_consistant": true}'
refused application_runbok application_runbook ansible-playbook replication.recovery.application \
    -e '{"application_name": "shop", "application_nodes": {"web": {"project": "meant"}}, "application_runbok": "dr_test"}'
refused game_day_lever_reasn game_day_lever_reason ansible-playbook replication.recovery.game_day \
    -e '{"game_day_lever": "engaged", "game_day_projects": ["meant"], "game_day_lever_reasn": "INC-2041"}'
refused restore_test_point_in_tme restore_test_point_in_time ansible-playbook -i "$(group restore_test_point_in_tme=latest)" \
    replication.recovery.restore_test -e restore_test_project=meant
refused launch_policy_rule launch_policy_rules ansible-playbook -i "$(group 'launch_policy_rule=[]')" \
    replication.recovery.launch_policy -e launch_policy_project=meant
refused agent_porject agent_project ansible-playbook -i "$(group agent_porject=meant)" replication.recovery.agent
refused readiness_rpo_targte readiness_rpo_target ansible-playbook -i "$(group readiness_rpo_targte=60)" \
    replication.recovery.readiness -e readiness_project=meant -e readiness_rpo_target=3600

# -- a misspelt required option: one line names it and the option it stands for --------------------------------------------
refused failover_projcet failover_project ansible-playbook replication.recovery.failover -e failover_projcet=meant
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
# Every other runbook's report directory: test_runbook_options.py (each runbook's first task is this same step).
# The ledger named, and the default one (XDG_DATA_HOME's).
unwritable "$work/out/ledger" ansible-playbook replication.recovery.dr_test -e dr_test_project=meant -e replication_recovery_ledger_dir="$work/out/ledger"
unwritable "$work/data/replication.recovery" ansible-playbook replication.recovery.game_day \
    -e '{"game_day_lever": "engaged", "game_day_projects": ["meant"], "game_day_lever_reason": "INC-2041: payments latency"}'

# -- the free strategy: the DR test's playbook passes as under linear, nothing left; its role from a free play is refused --
ANSIBLE_STRATEGY=free ansible-playbook replication.recovery.dr_test -e dr_test_project=meant -e dr_test_poll_interval=1 | tee "$out"
grep -q "DR test of meant: PASSED. 2 of 2 machines passed." "$out"
"${meant[@]}" cloud > "$work/out/cloud-after.txt"
diff "$work/out/cloud-before.txt" "$work/out/cloud-after.txt"
rm -rf "$work/here/dr_test_report" "$work/data"/* 
# The other runbooks' roles: test_runbook_options.py (each runbook's first task is this same step).
for role in dr_test game_day; do
    refused "strategy free" linear ansible-playbook "$here/files/free.yml" -e runbook_role=$role
done

# -- a play that runs a DR test and then a failover of another project: both pass --------------------------------------------
ansible-playbook "$here/files/two_runbooks.yml" | tee "$out"
grep -q "DR test of meant: PASSED. 2 of 2 machines passed." "$out"
grep -q "Failover of other: ROLLED BACK. 2 of 2 machines passed." "$out"
"${meant[@]}" cloud > "$work/out/cloud-after.txt"
diff "$work/out/cloud-before.txt" "$work/out/cloud-after.txt"
