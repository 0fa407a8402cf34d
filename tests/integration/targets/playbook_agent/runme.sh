#!/usr/bin/env bash
# The replication agent over three local hosts standing in for SSH targets (each with its own installer directory and
# name, become off): --check installs nothing; a run registers them, a second changes nothing; a wrong token fails
# naming each host and registers nothing, and so does an installer that cannot be downloaded; one host without
# Python of three is named while the other two register;
# absent needs its confirmation, refuses a failed-over machine and removes the others, in the service and on the hosts,
# and leaves the machine of a host it cannot reach;
# the protect playbook with protect_install, from no project to three machines replicating.
set -euxo pipefail

url="$(sed -n 's/^simulator_url: //p' ../../integration_config.yml)"
export REPLICATION_SERVICE_URL="$url/api/latest"
export REPLICATION_SERVICE_USERNAME=agents@example.test
export REPLICATION_SERVICE_PASSWORD=agents-password
export ANSIBLE_ROLES_PATH=..
root="$(pwd)/hosts"
rm -rf "$root" output.txt hosts.json
python files/hosts.py "$root" > hosts.json
estate=(python files/estate.py "$url" estate)
agent=(ansible-playbook replication.recovery.agent -i hosts.json -e agent_project=estate -e agent_poll_interval=1)

python ../setup_simulator/files/simulator.py "$url" seed files/agents.json
token="$("${estate[@]}" token)"

# -- under --check: each host says it would install, and nothing is --------------------------------------------------
"${agent[@]}" -e agent_hosts=first --check | tee output.txt
test "$(grep -c 'no machine of the project yet: would install the agent' output.txt)" = 3
"${estate[@]}" machines bad-1,failed-1
test ! -e "$root/src-1/agent"

# -- the agent on three hosts, registered; a second run changes nothing ----------------------------------------------
"${agent[@]}" -e agent_hosts=first | tee output.txt
grep -q "3 of 3 machines registered" output.txt
"${estate[@]}" machines bad-1,failed-1,src-1,src-2,src-3
for host in src-1 src-2 src-3; do test -s "$root/$host/agent/agent.json"; test ! -e "$root/$host/replication-agent-installer-"*; done
"${agent[@]}" -e agent_hosts=first | tee output.txt
grep -q "src-2, agent in place: left alone" output.txt
grep -qE "src-1 +: ok=[0-9]+ +changed=0 +unreachable=0 +failed=0" output.txt
grep -qE "src-3 +: ok=[0-9]+ +changed=0 +unreachable=0 +failed=0" output.txt

# -- an installer that cannot be downloaded: each host named, nothing registered --------------------------------------
if "${agent[@]}" -e agent_hosts=new-1:new-2 -e agent_installer_url="$url/no-installer-here.py" > output.txt 2>&1; then
    cat output.txt; echo "an installer that cannot be downloaded must fail"; exit 1
fi
grep -q "The agent failed on new-1, new-2 (2 of 2 hosts)" output.txt
test "$(grep -c 'HTTP Error 404' output.txt)" -ge 2
"${estate[@]}" machines bad-1,failed-1,src-1,src-2,src-3

# -- a wrong token: each host named, nothing registered, the token never shown ----------------------------------------
if "${agent[@]}" -e agent_hosts=new-1:new-2 -e agent_installation_token=wrong-t0ken-123 > output.txt 2>&1; then
    cat output.txt; echo "a wrong token must fail"; exit 1
fi
cat output.txt
grep -q "The agent's installer failed on new-1 (exit 1): The service refused the agent (401): No project has this agent installation token." output.txt
grep -q "The agent's installer failed on new-2 (exit 1)" output.txt
grep -q "The agent failed on new-1, new-2 (2 of 2 hosts): see each host's error above." output.txt
test "$(grep -c "wrong-t0ken-123" output.txt)" = 0  # the token given is never shown
"${estate[@]}" machines bad-1,failed-1,src-1,src-2,src-3

# -- one host of three without Python: named, the other two register --------------------------------------------------
if "${agent[@]}" -e agent_hosts=second -vvv > output.txt 2>&1; then
    cat output.txt; echo "a host without Python must fail the run"; exit 1
fi
grep -q "The agent failed on bad-1 (1 of 3 hosts)" output.txt
grep -q "2 of 2 machines registered" output.txt
test "$(grep -cF -- "$token" output.txt)" = 0  # the project's token is never shown, not even at -vvv
"${estate[@]}" machines bad-1,failed-1,new-1,new-2,src-1,src-2,src-3

# -- absent: needs its confirmation; refuses the failed-over machine, removes the others ------------------------------
if "${agent[@]}" -e agent_hosts=first -e agent_state=absent > output.txt 2>&1; then
    cat output.txt; echo "absent needs agent_confirm_removal"; exit 1
fi
grep -q "deletes their points in time for good: set confirm_removal (agent_confirm_removal) to true. Nothing was removed." output.txt
"${estate[@]}" machines bad-1,failed-1,new-1,new-2,src-1,src-2,src-3
"${agent[@]}" -e agent_hosts=first -e agent_state=absent -e agent_confirm_removal=true --check | tee output.txt
test "$(grep -c 'would remove its machine and files' output.txt)" = 3
"${estate[@]}" machines bad-1,failed-1,new-1,new-2,src-1,src-2,src-3
if "${agent[@]}" -e agent_hosts=first:failed -e agent_state=absent -e agent_confirm_removal=true > output.txt 2>&1; then
    cat output.txt; echo "absent must refuse the failed-over machine"; exit 1
fi
cat output.txt
grep -q "failed-1: failed-1 is failed over: its recovery machine .* runs production. Fail it back first; its machine was not removed." output.txt
"${estate[@]}" machines bad-1,failed-1,new-1,new-2

# -- absent over hosts of which one cannot be reached: it is named and its machine stays ------------------------------
if "${agent[@]}" -e agent_hosts=second -e agent_state=absent -e agent_confirm_removal=true > output.txt 2>&1; then
    cat output.txt; echo "an unreachable host must fail the run"; exit 1
fi
grep -q "The agent failed on bad-1 (1 of 3 hosts)" output.txt
"${estate[@]}" machines bad-1,failed-1
for host in new-1 new-2; do test ! -e "$root/$host/agent"; done
for host in src-1 src-2 src-3; do test ! -e "$root/$host/agent"; done

# -- protect_install: from no project to three machines replicating, the agents installed on the way ----------------
ansible-playbook replication.recovery.protect -i hosts.json -e protect_install=true -e protect_agent_hosts=first \
    -e protect_project=estate-2 -e '{"protect_cloud_credentials": {"name": "aws"}}' -e protect_region=us-east-1 \
    -e '{"protect_replication": {"subnet": "private-a"}}' -e protect_poll_interval=1 -e agent_poll_interval=1 | tee output.txt
grep -q "3 of 3 machines registered" output.txt
for host in src-1 src-2 src-3; do grep "Initial sync done: " output.txt | grep -q "$host continuous 100.0%"; done
python files/estate.py "$url" estate-2 machines src-1,src-2,src-3

rm -rf "$root" hosts.json output.txt
