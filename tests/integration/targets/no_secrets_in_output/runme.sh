#!/usr/bin/env bash
# Run a playbook that handles every kind of secret at -vvv (a game day of an application whose node carries a
# connection of its own among them), then search all of its output (and
# the DR test's report) for them: the password, the API token, the session, and a cloud private
# key (also in the base64 form the service receives), and a project's agent installation token.
set -eu

output="$(mktemp)"
trap 'rm -f "$output"' EXIT

ANSIBLE_ROLES_PATH=.. ansible-playbook -vvv -i ../../inventory -e @../../integration_config.yml secrets.yml "$@" >"$output" 2>&1 || {
    cat "$output"
    echo "the playbook failed"
    exit 1
}

session="$(grep -o 'SESSION-LENGTH [0-9]*' "$output" | head -1)"
found=0
for secret in integration-password integration-token-0001 "TopSecretKey/ABC123+xyz" "VG9wU2VjcmV0S2V5L0FCQzEyMyt4eXo=" ; do
    if grep -qF -- "$secret" "$output"; then
        echo "FOUND a secret in the output: ${secret:0:4}..."
        grep -nF -- "$secret" "$output" | head -5
        found=1
    fi
done
# The DR test's report files too.
cat dr-report/* >>"$output"
rm -rf dr-report
# The session itself: the playbook wrote it to a file only the test reads.
if grep -qF -- "$(cat session.txt)" "$output"; then
    echo "FOUND the session in the output"
    found=1
fi
rm -f session.txt
# The project's agent installation token, which the service gives with the project.
if grep -qF -- "$(cat agent_token.txt)" "$output"; then
    echo "FOUND the agent installation token in the output"
    found=1
fi
[ -s agent_token.txt ] || { echo "the playbook did not keep the agent installation token"; exit 1; }
rm -f agent_token.txt
[ -n "$session" ] || { echo "the playbook did not report the session's length"; exit 1; }
[ "$found" = 0 ] || exit 1
echo "no secret in $(wc -l <"$output") lines of -vvv output"
