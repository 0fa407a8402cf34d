#!/usr/bin/env bash
# A DR test stopped at each step where a stop can land, by SIGINT (AWX cancels so), SIGTERM (a
# stopped container) and SIGKILL (a lost node), then run once more: see files/stopped.py.
set -euo pipefail

url="$(sed -n 's/^simulator_url: //p' ../../integration_config.yml)"
export ANSIBLE_CALLBACK_PLUGINS="$(pwd)/callback_plugins"
export ANSIBLE_CALLBACKS_ENABLED=hold_at
python files/stopped.py --simulator "$url" --work "$(pwd)/work"
rm -rf work
