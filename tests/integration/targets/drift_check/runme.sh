#!/usr/bin/env bash
# The guides' first playbook and its drift step, run as the guides show them: with --check --diff
# on an empty account (nothing exists yet: look-ups of what earlier tasks would create are
# predicted); applied; the drift step passing on the clean service (logging out is no change); the
# service changed by hand; the drift step failing, its diff naming the subnets beside their IDs.
set -euxo pipefail

url="$(sed -n 's/^simulator_url: //p' ../../integration_config.yml)"
export REPLICATION_SERVICE_URL="$url/api/latest"
export REPLICATION_SERVICE_API_TOKEN=drift-token-3f9a1c
export ANSIBLE_ROLES_PATH=..
config=(-e @../../integration_config.yml)
# The guides of the collection under test, where Ansible finds the collection.
docs="$(ansible-galaxy collection list replication.recovery --format json | python -c \
    "import json, sys; print(next('%s/replication/recovery/docs' % path for path in json.load(sys.stdin)))")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python guide_block.py "$docs/getting_started.md" "A first playbook" yaml >"$work/first-playbook.yml"
python guide_block.py "$docs/drift.md" "Drift detection in CI" yaml \
    | python -c "import sys, yaml; print('\n'.join(yaml.safe_load(sys.stdin)['dr-drift']['script']))" >"$work/drift-step.sh"
grep -q "ansible-playbook first-playbook.yml --check --diff" "$work/drift-step.sh"
# The playbook's own variables, beside it as a project would keep them.
mkdir "$work/group_vars"
printf 'aws_access_key_id: AKIADRIFTTEST\naws_secret_access_key: drift-aws-secret-5e1\n' >"$work/group_vars/all.yml"

python ../setup_simulator/files/simulator.py "$url" seed files/account.json
curl -sf -X DELETE "$url/_simulator/stats"

# -- --check --diff on an empty account: succeeds, predicts, writes nothing ----------------------------
(cd "$work" && ansible-playbook first-playbook.yml --check --diff) 2>&1 | tee "$work/check.txt"
grep -q "Check mode: Cloud credentials 'aws-dr' does not exist yet" "$work/check.txt"
grep -q "Check mode: Project 'production' does not exist yet" "$work/check.txt"
grep -Eq 'changed=3 ' "$work/check.txt"
if grep -q "drift-aws-secret-5e1" "$work/check.txt"; then echo "the private key is in the output"; exit 1; fi
ansible-playbook -i ../../inventory "${config[@]}" stats.yml

# -- applied, then the drift step passes on the clean service ----------------------------------------
(cd "$work" && ansible-playbook first-playbook.yml) | tee "$work/apply.txt"
grep -Eq 'changed=3 ' "$work/apply.txt"
(cd "$work" && bash -euo pipefail drift-step.sh) \
    | tee "$work/clean.txt"
grep -Eq 'changed=0 ' "$work/drift.log"

# -- changed by hand: the drift step fails, and its diff names what differs ----------------------------
ansible-playbook by_hand.yml
if (cd "$work" && bash -euo pipefail drift-step.sh) \
        >"$work/drifted.txt" 2>&1; then
    cat "$work/drifted.txt"; echo "the drift step must fail on a drifted service"; exit 1
fi
cat "$work/drifted.txt"
grep -q "Drift - the service differs from first-playbook.yml" "$work/drifted.txt"
grep -Eq '^-\s+"subnetId": "subnet-[0-9a-f]+ \(private-b\)"' "$work/drift.log"
grep -Eq '^\+\s+"subnetId": "subnet-[0-9a-f]+ \(private-a\)"' "$work/drift.log"
grep -Eq '^\+\s+"value": "dr"' "$work/drift.log"
grep -Eq 'changed=1 ' "$work/drift.log"
