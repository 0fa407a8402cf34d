# shellcheck shell=bash
# Sourced by the game days' tests: their runme.sh gives the functions game_day (CHANGES, a JSON object) and clock (a
# time scale), and serves the probe (serve_the_probe) that answers as mode.txt says.

# The storefront a probe watches, served until the test ends: what it answers is written in mode.txt ("ok", else 503);
# its URL in probe_url.txt.
serve_the_probe() {
    echo ok > mode.txt
    python "$(dirname "${BASH_SOURCE[0]}")/probe_server.py" mode.txt > probe_url.txt &
    server=$!
    trap 'kill $server' EXIT
    for _ in $(seq 1 50); do [ -s probe_url.txt ] && break; sleep 0.1; done
}
# A game day (CHANGES as for scenario) whose probe fails from the moment wave 1's launch job runs: it must stop (game_day.txt).
stopped_by_the_probe() {
    clock 3  # the launch job runs for a good many looks, also on a busy controller (at 10, make test's load once let it end first)
    # Unbuffered: the probe goes bad once the output says wave 1's job runs, which a file would get in blocks (once, only after
    # the job ended: the stop then landed on wave 2).
    (export PYTHONUNBUFFERED=1; status=0; game_day "${1:-}" >game_day.txt 2>&1 || status=$?; echo "rc=$status" >>game_day.txt) &
    local run=$!
    for _ in $(seq 1 3000); do grep -q "Launch job .* of wave 1 runs in the service" game_day.txt && break; sleep 0.2; done
    grep -q "Launch job .* of wave 1 runs in the service" game_day.txt || { cat game_day.txt; echo "wave 1's launch job never ran"; exit 1; }
    echo bad > mode.txt
    # Once it said it stops (the job still slow then), the job it follows to its end and the cleanup at the usual pace.
    until grep -q "Stopping: the stop condition storefront" game_day.txt; do kill -0 $run 2>/dev/null || break; sleep 0.2; done
    clock 60
    wait $run
    echo ok > mode.txt
    cat game_day.txt
    grep -q "^rc=2$" game_day.txt
    grep -q "Stopping: the stop condition storefront failed 2 times in a row (answered 503, at " game_day.txt
}
