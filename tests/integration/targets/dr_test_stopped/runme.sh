#!/usr/bin/env bash
# A DR test and a restore test stopped at each step where a stop can land, by SIGINT (AWX cancels so), SIGTERM (a stopped
# container) or SIGKILL (a lost node) - the signals rotating over the steps from a printed seed - then run once more,
# side by side on two simulators: see files/stopped.py.
set -euo pipefail

url="$(sed -n 's/^simulator_url: //p' ../../integration_config.yml)"
export ANSIBLE_CALLBACK_PLUGINS="$PWD/callback_plugins"
export ANSIBLE_CALLBACKS_ENABLED=hold_at
python files/stopped.py --simulator "$url" --work "$(pwd)/work" --simulators 2
rm -rf work
