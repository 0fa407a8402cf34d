#!/usr/bin/env bash
# The inventory plugin as users run it: ansible-inventory and ansible-playbook with a
# *.service.yml file, credentials in the environment. Each kind of host; a play over the recovered
# machines it finds; the cache; bad configuration.
set -euxo pipefail

url="$(sed -n 's/^simulator_url: //p' ../../integration_config.yml)"
export REPLICATION_SERVICE_URL="$url/api/latest"
export REPLICATION_SERVICE_USERNAME=hosts@example.test
export REPLICATION_SERVICE_PASSWORD=inventory-secret-77
export ANSIBLE_ROLES_PATH=..
out="$(pwd)/output"
rm -rf "$out" configured
mkdir -p "$out" configured

ansible-playbook -i ../../inventory -e @../../integration_config.yml seed.yml

# -- each kind of host, as documented; one machine list per project, nothing per machine -------------
python files/stats.py "$url" zero
ansible-inventory -i machines.service.yml --list >"$out/machines.json"
python files/check_inventory.py machines "$out/machines.json"
python files/stats.py "$url" | tee "$out/stats.txt"
grep -qx "4 GET /projects/{projectId}/machines" "$out/stats.txt"
if grep -E "GET /projects/\{projectId\}/(machines|replicas)/" "$out/stats.txt"; then echo "a read per machine"; exit 1; fi
ansible-inventory -i machines.service.yml --graph | tee "$out/graph.txt"
grep -q "@project_inv_shop:" "$out/graph.txt"
grep -q "@os_windows:" "$out/graph.txt"

python files/stats.py "$url" zero
ansible-inventory -i targets.service.yml --list >"$out/targets.json"
python files/check_inventory.py targets "$out/targets.json"
python files/stats.py "$url" | tee "$out/stats.txt"
grep -qx "3 GET /projects/{projectId}/replicas/{replicaId}" "$out/stats.txt"
grep -qx "2 GET /projects/{projectId}/blueprints" "$out/stats.txt"
ansible-inventory -i targets.service.yml --graph | tee "$out/graph.txt"
grep -q "@launched_recovery:" "$out/graph.txt"

ansible-inventory -i projects.service.yml --list >"$out/projects.json"
python files/check_inventory.py projects "$out/projects.json"
ansible-inventory -i projects.service.yml --graph | tee "$out/graph.txt"
grep -q "@service_projects:" "$out/graph.txt"

# -- a DR test of a project the inventory made a host of, as the dr_test playbook runs one per project ---
ansible-playbook replication.recovery.dr_test -i projects.service.yml -e dr_test_hosts=inv-small -e dr_test_report_dir="$out/reports" \
    -e dr_test_poll_interval=1
python -c "import json, sys; r = json.load(open(sys.argv[1])); assert (r['project'], r['result'], r['counts']['machines']) == ('inv-small', 'passed', 1), r" \
    "$out/reports/dr_test_inv-small.json"

# -- a play over the recovered machines the inventory found -------------------------------------------
# ansible-test asks every host for its Python; the recovered machines run their tasks here.
ansible-playbook -i recovered.service.yml -e ansible_python_interpreter="$(command -v python)" configure.yml
# shellcheck disable=SC2012  # what ls lists is what the test compares
ls configured | tee "$out/configured.txt"
[ "$(cat "$out/configured.txt")" = "$(printf 'recovery-web-1.json\nrecovery-web-2.json')" ]
python -c "import json, sys; c = json.load(open(sys.argv[1])); assert c['source'] == 'web-1' and c['address'].startswith('203.0.113.') \
    and c['cloud_id'], c" configured/recovery-web-1.json

# -- the cache: a second run sends no request; --flush-cache reads again --------------------------------
cat >"$out/cached.service.yml" <<CACHED
plugin: replication.recovery.service
hosts: targets
cache: true
cache_plugin: ansible.builtin.jsonfile
cache_connection: $out/cache
CACHED
ansible-inventory -i "$out/cached.service.yml" --list >"$out/first.json"
python files/stats.py "$url" zero
ansible-inventory -i "$out/cached.service.yml" --list >"$out/second.json"
python files/stats.py "$url" | tee "$out/stats.txt"
grep -qx "total 0" "$out/stats.txt"
python -c "import json, sys; assert json.load(open(sys.argv[1])) == json.load(open(sys.argv[2]))" "$out/first.json" "$out/second.json"
ansible-inventory -i "$out/cached.service.yml" --list --flush-cache >/dev/null
python files/stats.py "$url" | tee "$out/stats.txt"
if grep -qx "total 0" "$out/stats.txt"; then echo "--flush-cache must read the service"; exit 1; fi

# -- the connection in the file itself, without the environment; the password never shown --------------
cat >"$out/own.service.yml" <<OWN
plugin: replication.recovery.service
api_url: $url/api/latest
username: hosts@example.test
password: inventory-secret-77
projects: [inv-erp]
OWN
env -u REPLICATION_SERVICE_URL -u REPLICATION_SERVICE_USERNAME -u REPLICATION_SERVICE_PASSWORD \
    ansible-inventory -i "$out/own.service.yml" --list -vvv --output "$out/own.json" >"$out/own.err" 2>&1
python -c "import json, sys; assert sorted(json.load(open(sys.argv[1]))['_meta']['hostvars']) == ['app-1', 'app-2']" "$out/own.json"
if grep -q "inventory-secret-77" "$out/own.json" "$out/own.err"; then echo "the password was shown"; exit 1; fi

# -- bad configuration fails, saying why -----------------------------------------------------------------
export ANSIBLE_INVENTORY_UNPARSED_FAILED=true
if ansible-inventory -i unknown.service.yml --list >"$out/unknown.txt" 2>&1; then echo "an unknown project must fail"; exit 1; fi
grep -q "Project 'nope' matches no project. Known: inv-empty, inv-erp, inv-shop, inv-small." "$out/unknown.txt"
if REPLICATION_SERVICE_PASSWORD=wrong-password ansible-inventory -i machines.service.yml --list >"$out/wrong.txt" 2>&1; then
    echo "wrong credentials must fail"; exit 1
fi
grep -q "could not read the service: .*HTTP 401" "$out/wrong.txt"
if grep -q "wrong-password" "$out/wrong.txt"; then echo "the password was shown"; exit 1; fi

rm -rf "$out" configured
