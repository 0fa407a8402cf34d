#!/usr/bin/env bash
# A three-wave failover stopped by Ctrl-C in its wave 2, taken up from a second controller - another working directory,
# TMPDIR, HOME and ledger - with other waves, and the default (relative) report directory of each:
#   moved    the service's clock moved on, nothing thinned: every machine launches from the point the first run's plan pinned
#   thinned  a day passed, thinning the point pinned for web-1: launched from the newest point before it, named, the span said
#   strict   the same with failover_points_strict: refused before wave 3, nothing launched by the second run
#   planned  a plan of one wave in three jobs (a job takes one machine), stopped in its second job; a day thins its points:
#            run again with the plan, it is refused - counting and naming the two machines that stand, launched by the
#            stopped run, and naming each thinned point's replacement with the data it costs and the one step that approves
#            it; run without the plan, it takes those same points
#   approved the same, then the step the refusal names: planned again with --check, the plan takes those points, and
#            carried out it launches from them
set -euxo pipefail

url="$(sed -n 's/^simulator_url: //p' ../../integration_config.yml)"
export REPLICATION_SERVICE_URL="$url/api/latest"
export REPLICATION_SERVICE_USERNAME=resumed@example.test
export REPLICATION_SERVICE_PASSWORD=resumed-password
export ANSIBLE_ROLES_PATH=..
here="$(pwd)"
night=(python "$here/../first_night/files/night.py" "$url")
faults=(python "$here/../setup_simulator/files/simulator.py" "$url" faults)
rm -rf controller-1 controller-2 outputs
mkdir -p outputs controller-1/work controller-1/tmp controller-1/home controller-2/work controller-2/tmp controller-2/home
waves=(-e 'failover_waves=db-*;app-*;web-*')
other_waves=(-e 'failover_waves=db-*,app-*;web-*')

python ../setup_simulator/files/simulator.py "$url" seed files/resumed.json

# A failover on controller 1 or 2: its own working directory, TMPDIR, HOME and ledger.
on() {
    local controller=$1
    shift
    env -C "$here/$controller/work" TMPDIR="$here/$controller/tmp" HOME="$here/$controller/home" XDG_DATA_HOME="$here/$controller/home/data" \
        PYTHONUNBUFFERED=1 ansible-playbook replication.recovery.failover -e failover_poll_interval=1 -e failover_progress_interval=2 "$@"
}

# The failover of project $1 on controller 1 (its waves, or its plan's, in the arguments), its launches slowed down, stopped by
# Ctrl-C while its wave 2 runs (or, stopped_in_job_2, while the second job of its one wave runs).
stopped_in_wave_2() {
    stopped_at "of wave 2 runs in the service" "$@"
}
stopped_in_job_2() {
    stopped_at "Launch job [^ ]* of wave 1 runs in the service.*Launch job [^ ]* of wave 1 runs in the service" "$@"
}
stopped_at() {
    local seen="$1" project=$2
    shift 2
    "${faults[@]}" '[{"jobTypes": ["RECOVERY_LAUNCH"], "slowFactor": 3}]'
    setsid env -C "$here/controller-1/work" TMPDIR="$here/controller-1/tmp" HOME="$here/controller-1/home" \
        XDG_DATA_HOME="$here/controller-1/home/data" PYTHONUNBUFFERED=1 ansible-playbook replication.recovery.failover \
        -e failover_poll_interval=1 -e failover_progress_interval=2 -e failover_project="$project" "$@" \
        > "outputs/$project-stopped.txt" 2>&1 &
    local pid=$!
    until tr '\n' ' ' < "outputs/$project-stopped.txt" | grep -q "$seen"; do
        kill -0 "$pid" || { cat "outputs/$project-stopped.txt"; exit 1; }
        sleep 0.2
    done
    kill -INT "$pid"
    wait "$pid" || true
    "${faults[@]}" '[]'
    test "$("${night[@]}" launches "$project" RECOVERY_LAUNCH)" = 2
}

# == moved: the clock moves on, nothing is thinned ==========================================================================
on controller-1 --check -e failover_project=moved "${waves[@]}" > outputs/moved-plan.txt
plan="$(sed -n 's/.*Plan: \(.*\.plan\.json\)$/\1/p' outputs/moved-plan.txt)"
case "$plan" in "$here/controller-1/work/failover_report/"*) ;; *) echo "the plan is not where controller 1 started: $plan"; exit 1;; esac
stopped_in_wave_2 moved -e failover_plan="$plan"
"${night[@]}" marked moved > marked.txt
"${night[@]}" plan-points "$plan" | diff - marked.txt  # the points the plan pinned, kept in the service
"${night[@]}" jump 600
on controller-2 -e failover_project=moved "${other_waves[@]}" > outputs/moved.txt
grep -q "An earlier run of this failover launched other waves: .* adopted as waves 1 and 2 as they were launched" outputs/moved.txt
grep -q "Launches the rest from the points in time the run it takes up pinned when it began" outputs/moved.txt
grep -q "Failover of moved: COMMITTED. 3 of 3 machines passed." outputs/moved.txt
report="$here/controller-2/work/failover_report/failover_moved.json"
"${night[@]}" report-points "$report" | diff - marked.txt
"${night[@]}" launched-from moved | diff - marked.txt
test "$("${night[@]}" launches moved RECOVERY_LAUNCH)" = 3
python -c "import json, sys; r = json.load(open(sys.argv[1])); assert r['outcome'] == 'committed' and r['pins_from'] and not r['repinned'], r" \
    "$report"

# == thinned: a day passes, and web-1's pinned point is thinned out =====================================================
moment="$("${night[@]}" moment 5)"
stopped_in_wave_2 thinned "${waves[@]}" -e "failover_point_in_time=before:$moment"
"${night[@]}" marked thinned > marked.txt
"${night[@]}" jump 86400
on controller-2 -e failover_project=thinned "${other_waves[@]}" > outputs/thinned.txt
grep -q "Thinned out by the service before wave 3, replaced by the newest point before each: web-1: the point of" outputs/thinned.txt
grep -q "The machines' points in time span " outputs/thinned.txt
grep -q "Failover of thinned: COMMITTED. 3 of 3 machines passed." outputs/thinned.txt
report="$here/controller-2/work/failover_report/failover_thinned.json"
python - "$report" marked.txt <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
marked = dict(line.split() for line in open(sys.argv[2]))
launched = dict((m["name"], m["point_in_time"]["id"]) for m in report["machines"])
assert launched["db-1"] == marked["db-1"] and launched["app-1"] == marked["app-1"], (launched, marked)
entry = report["repinned"]["web-1"]
assert entry["planned"]["id"] == marked["web-1"] and launched["web-1"] == entry["launched"]["id"] != marked["web-1"], (entry, marked)
assert entry["extra_seconds"] > 0 and report["points_span"]["seconds"] > 0 and report["outcome"] == "committed", report
PY
grep -q "The machines' points in time span" "${report%.json}.md"

# == strict: the same, refused before wave 3 - nothing launched by the second run ============================================
moment="$("${night[@]}" moment 5)"
stopped_in_wave_2 strict "${waves[@]}" -e "failover_point_in_time=before:$moment"
"${night[@]}" jump 86400
if on controller-2 -e failover_project=strict "${other_waves[@]}" -e failover_points_strict=true > outputs/strict.txt 2>&1; then
    cat outputs/strict.txt; echo "strict must refuse a thinned point"; exit 1
fi
grep -q "Points in time pinned when the run began were thinned out by the service before wave 3, which is not launched (points_strict): web-1" \
    outputs/strict.txt
grep -q "Failover of strict: STOPPED." outputs/strict.txt
test "$("${night[@]}" launches strict RECOVERY_LAUNCH)" = 2

# == planned: a plan in three jobs, stopped in its second; a day passes, thinning its points ==============================
limits=(-e '{"replication_service_limits": "{\"servers_per_job\": 1}"}')
# refused_plan PROJECT: its plan in three jobs, stopped in the second; a day on, run again with the plan: refused
# (outputs/PROJECT.txt).
refused_plan() {
    local project=$1 plan moment
    moment="$("${night[@]}" moment 5)"
    on controller-1 --check -e failover_project="$project" "${limits[@]}" -e "failover_point_in_time=before:$moment" > "outputs/$project-plan.txt"
    plan="$(sed -n 's/.*Plan: \(.*\.plan\.json\)$/\1/p' "outputs/$project-plan.txt")"
    stopped_in_job_2 "$project" "${limits[@]}" -e failover_plan="$plan"
    "${night[@]}" jump 86400
    if on controller-1 -e failover_project="$project" "${limits[@]}" -e failover_plan="$plan" > "outputs/$project.txt" 2>&1; then
        cat "outputs/$project.txt"; echo "a plan whose points were thinned must be refused"; exit 1
    fi
    grep -o "\"Failover of $project: [^\"]*\"" "outputs/$project.txt"
}
# named REFUSED: the replacement points the refusal names, "machine point" a line.
named() {
    python -c "import re, sys; [print(*pair) for pair in sorted(set(re.findall(r'(web-1|db-1|app-1): the point of [^ ]* \([^)]*\) would be replaced \
by the newest point before it, of [^ ]* \(([^)]+)\)', open(sys.argv[1]).read())))]" "$1"
}
refused_plan planned
report="$here/controller-1/work/failover_report/failover_planned.json"
# What stands is counted and named, in the outcome line and the report: never "nothing was launched", never "begins anew".
grep -q "Failover of planned: REFUSED. 2 of 3 machines stand, launched by the stopped run this one takes up (app-1, db-1); this run \
launched nothing." outputs/planned.txt
python - "$report" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
assert report["outcome"] == "refused" and report["counts"]["left_standing"] == 2, report["counts"]
assert "begins anew" not in report["next"] and "Nothing was launched or changed" not in report["next"], report["next"]
assert "app-1, db-1" in report["next"] and "adopts" in report["next"], report["next"]
said = dict((m["name"], (m["left_standing"], [c["message"] for c in m["checks"] if c["name"] == "launch"])) for m in report["machines"])
assert said["db-1"][0] and said["app-1"][0] and not said["web-1"][0], said
assert said["db-1"][1][0].startswith("launched by the stopped run this one takes up"), said
PY
# Each thinned point named with its replacement, the data it costs, and the one step that approves that plan.
grep -q "thinned out since it was planned; this run launched nothing (app-1, db-1, launched by the stopped run it takes up, stand)\. \
web-1: the point of [^ ]* ([^)]*) would be replaced by the newest point before it, of [^ ]* ([^)]*): [0-9][^.]* more data lost" outputs/planned.txt
grep -q "To approve those points, plan again with --check and give the new plan" outputs/planned.txt
test "$("${night[@]}" launches planned RECOVERY_LAUNCH)" = 2
# ... and without the plan, the run takes the very points the refusal named.
on controller-1 -e failover_project=planned "${limits[@]}" > outputs/planned-again.txt
grep -q "Failover of planned: COMMITTED. 3 of 3 machines passed." outputs/planned-again.txt
named outputs/planned.txt > named.txt
test -s named.txt
"${night[@]}" report-points "$report" | grep -F -f named.txt | diff - named.txt
test "$("${night[@]}" launches planned RECOVERY_LAUNCH)" = 3

# == approved: the same, and the one step the refusal names - plan again with --check, carry that plan out ==============
refused_plan approved
named outputs/approved.txt > named.txt
on controller-1 --check -e failover_project=approved "${limits[@]}" > outputs/approved-plan.txt
plan="$(sed -n 's/.*Plan: \(.*\.plan\.json\)$/\1/p' outputs/approved-plan.txt)"
grep -q "Thinned out by the service since the run it takes up pinned them; planned from the newest point before each: web-1" outputs/approved-plan.txt
"${night[@]}" plan-points "$plan" | grep -F -f named.txt | diff - named.txt  # the plan takes the points the refusal named
on controller-1 -e failover_project=approved "${limits[@]}" -e failover_plan="$plan" > outputs/approved.txt
grep -q "Failover of approved: COMMITTED. 3 of 3 machines passed." outputs/approved.txt
"${night[@]}" report-points "$here/controller-1/work/failover_report/failover_approved.json" | grep -F -f named.txt | diff - named.txt
test "$("${night[@]}" launches approved RECOVERY_LAUNCH)" = 3

rm -rf controller-1 controller-2 outputs marked.txt named.txt
