#!/usr/bin/env bash
# The connection options come from the environment, as AWX / Automation Controller
# credentials inject them: no module option names the service.
set -eux

url="$(sed -n 's/^simulator_url: //p' ../../integration_config.yml)"

# Seed the world first; setup_simulator needs simulator_url only.
python ../setup_simulator/files/simulator.py "$url" seed

REPLICATION_SERVICE_URL="$url/api/latest" \
REPLICATION_SERVICE_USERNAME=admin@example.test \
REPLICATION_SERVICE_PASSWORD=integration-password \
REPLICATION_SERVICE_TIMEOUT=10 \
REPLICATION_SERVICE_VALIDATE_CERTS=false \
    ansible-playbook -i ../../inventory with_password.yml

REPLICATION_SERVICE_URL="$url/api/latest" \
REPLICATION_SERVICE_API_TOKEN=integration-token-0001 \
    ansible-playbook -i ../../inventory with_token.yml

# Without a URL anywhere the module says where to give one.
if REPLICATION_SERVICE_URL='' ansible-playbook -i ../../inventory with_token.yml >output.txt 2>&1; then
    echo "a play without api_url should fail"; exit 1
fi
grep -q "api_url is required (or the environment variable REPLICATION_SERVICE_URL)" output.txt
rm -f output.txt

# A mistyped port, or a URL where no service answers: the first contact fails at once, saying why,
# instead of being retried (no retry budget of REPLICATION_SERVICE_RETRY_TIMEOUT is spent).
closed_port="$(python -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
if REPLICATION_SERVICE_URL="http://127.0.0.1:$closed_port/api/latest" REPLICATION_SERVICE_API_TOKEN=integration-token-0001 \
        REPLICATION_SERVICE_RETRY_TIMEOUT=600 \
        ansible-playbook -i ../../inventory with_token.yml >output.txt 2>&1; then
    echo "a play against a closed port should fail"; exit 1
fi
grep -q "cannot reach the service at http://127.0.0.1:$closed_port/api/latest/login: Connection refused (ConnectionError). It has never answered" output.txt
if REPLICATION_SERVICE_URL="$url" REPLICATION_SERVICE_API_TOKEN=integration-token-0001 REPLICATION_SERVICE_RETRY_TIMEOUT=600 \
        ansible-playbook -i ../../inventory with_token.yml >output.txt 2>&1; then
    echo "a play against a URL without the service should fail"; exit 1
fi
grep -q "there is no Replication and Recovery Service at $url: it answered 404" output.txt
rm -f output.txt

# Where the module would run on the controller anyway it runs in the task's own process (plugin_utils/_modules_here.py): -vvv
# shows no command run. With an environment of the task's own it runs as any module, in a Python of its own (its command in
# that environment). Both connect from the environment.
REPLICATION_SERVICE_URL="$url/api/latest" REPLICATION_SERVICE_API_TOKEN=integration-token-0001 \
    ansible-playbook -i ../../inventory with_token.yml -vvv >output.txt 2>&1
if grep -q "> EXEC " output.txt; then
    echo "service_project ran in a Python of its own on the controller"; exit 1
fi
REPLICATION_SERVICE_URL="$url/api/latest" REPLICATION_SERVICE_API_TOKEN=integration-token-0001 \
    ansible-playbook -i ../../inventory with_token.yml -vvv -e '{"module_environment": {"LC_ALL": "C.UTF-8"}}' >output.txt 2>&1
grep -q "> EXEC /bin/sh -c 'LC_ALL=C.UTF-8 " output.txt
rm -f output.txt
