# Sourced by the game days' tests: their runme.sh gives the functions game_day (CHANGES, a JSON object) and clock (a
# time scale), and a probe server that answers as mode.txt says.
# A game day (CHANGES as for scenario) whose probe fails from the moment wave 1's launch job runs: it must stop (game_day.txt).
stopped_by_the_probe() {
    clock 3  # the launch job runs for a good many looks, also on a busy controller (at 10, make test's load once let it end first)
    (status=0; game_day "${1:-}" >game_day.txt 2>&1 || status=$?; echo "rc=$status" >>game_day.txt) &
    local run=$!
    for unused in $(seq 1 300); do grep -q "Launch job .* of wave 1 runs in the service" game_day.txt && break; sleep 0.2; done
    echo bad > mode.txt
    wait $run
    clock 60
    echo ok > mode.txt
    cat game_day.txt
    grep -q "^rc=2$" game_day.txt
    grep -q "Stopping: the stop condition storefront failed 2 times in a row (answered 503, at " game_day.txt
}
