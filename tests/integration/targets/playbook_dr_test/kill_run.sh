# shellcheck shell=bash
# Sourced by the targets that stop a run as a lost node does (playbook_failover, playbook_clean_point).
# The process $1 and all its descendants: Ansible's workers call setsid(), so they leave the run's process
# group; only the tree of parents finds them.
run_tree() {
    local child
    echo "$1"
    for child in $(ps -o pid= --ppid "$1"); do run_tree "$child"; done
}
# A lost node: every process of the run dies at once (frozen first, so that none starts another meanwhile).
# shellcheck disable=SC2046  # each process one argument
kill_run() {
    kill -STOP $(run_tree "$1") 2>/dev/null || true
    kill -STOP $(run_tree "$1") 2>/dev/null || true
    kill -KILL $(run_tree "$1") 2>/dev/null || true
}
