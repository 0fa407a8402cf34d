# Everything runs from a virtual environment that this Makefile creates and fills,
# so a fresh machine needs only Python 3.11+, git and make.

PYTHON ?= python3
VENV := .venv
BIN := $(abspath $(VENV))/bin
STAMP := $(VENV)/.installed
REQUIREMENTS := requirements.txt requirements-dev.txt tests/simulator/requirements.txt

# ansible-test wants the collection at ansible_collections/<namespace>/<name>; it is staged
# there from the files git knows (tracked, or new and not ignored).
BUILD := .build
COLLECTION := $(BUILD)/ansible_collections/replication/recovery
ANSIBLE_TEST := cd $(COLLECTION) && $(BIN)/ansible-test
TEST_PYTHON := 3.11

SIMULATOR_HOST ?= 127.0.0.1
SIMULATOR_PORT ?= 8080
TIME_SCALE ?= 60

.PHONY: help venv simulator demo bench test test-sanity test-units test-simulator test-integration test-lint test-build test-demo stage clean

help:
	@echo "make demo       run the demo playbook against the simulator (demo seed)"
	@echo "make test       run every test (what CI runs)"
	@echo "make bench      requests per task; DR tests of 5, 50, 200 machines beside a uri playbook; the simulator at 1000"
	@echo "make simulator  serve the simulator with the demo seed on $(SIMULATOR_HOST):$(SIMULATOR_PORT)"
	@echo "make clean      remove the virtual environment, staged collection and test output"

$(STAMP): $(REQUIREMENTS)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

venv: $(STAMP)

simulator: $(STAMP)
	$(BIN)/python -m tests.simulator --host $(SIMULATOR_HOST) --port $(SIMULATOR_PORT) --seed demo --time-scale $(TIME_SCALE)

stage: $(STAMP)
	rm -rf $(BUILD)/ansible_collections
	mkdir -p $(COLLECTION)
	git ls-files -co --exclude-standard | tar -cf - -T - | tar -xf - -C $(COLLECTION)
	# ansible-test lists the collection's files through git: give the copy a repository of its own.
	cd $(COLLECTION) && git init -q && git add -A
	$(BIN)/python tests/utils/install_get_pip.py

# The collection is installed where ansible-playbook finds it: the staged tree.
PLAYBOOK_ENV := ANSIBLE_COLLECTIONS_PATH=$(abspath $(BUILD)) PATH=$(BIN):$$PATH

# The DR test playbook, with its inputs as AWX would give them: credentials in the environment,
# the rest as extra variables. Targets are on the simulator's clock (one hour each).
DEMO_REPORT := $(abspath $(BUILD))/demo-report
DEMO_VARS := -e dr_test_project=demo -e dr_test_report_dir=$(DEMO_REPORT) -e dr_test_poll_interval=1 \
	-e dr_test_rpo_target=3600 -e dr_test_rto_target=3600 -e dr_test_checks_tasks=$(abspath tests/demo/checks.yml) -e dr_test_checks_name=demo-checks

demo: stage
	rm -rf $(DEMO_REPORT)
	$(BIN)/python tests/utils/with_simulator.py --seed demo --time-scale $(TIME_SCALE) -- \
		env $(PLAYBOOK_ENV) REPLICATION_SERVICE_USERNAME=demo@example.com REPLICATION_SERVICE_PASSWORD=demo \
		$(BIN)/ansible-playbook tests/demo/demo.yml $(DEMO_VARS)
	@echo
	@echo "The DR test's report is in $(DEMO_REPORT):"
	@ls -1 $(DEMO_REPORT)
	@echo
	@cat $(DEMO_REPORT)/dr_test_demo.md

test: test-sanity test-units test-simulator test-integration test-lint test-build test-demo

test-sanity: stage
	$(ANSIBLE_TEST) sanity --local --python $(TEST_PYTHON) --requirements

test-units: stage
	$(ANSIBLE_TEST) units --venv --python $(TEST_PYTHON) --requirements

# Integration targets run against a simulator started for them on a free port.
# The clock runs 60 times real time, so that jobs the modules wait for end in seconds.
test-integration: stage
	$(BIN)/python tests/utils/with_simulator.py --check-answers --time-scale 60 --vars-file $(COLLECTION)/tests/integration/integration_config.yml -- \
		sh -c 'cd $(COLLECTION) && $(BIN)/ansible-test integration --local --python $(TEST_PYTHON) $(TARGETS)'

test-simulator: $(STAMP)
	$(BIN)/python -m pytest -q tests/simulator/tests

test-lint: $(STAMP)
	$(BIN)/antsibull-changelog lint
	env PATH=$(BIN):$$PATH $(BIN)/ansible-lint

test-build: stage
	$(BIN)/ansible-galaxy collection build --force --output-path $(BUILD)/dist $(COLLECTION)

test-demo: demo

# Requests each task costs (job polling included), written to $(BUILD)/bench/requests.json; then
# whole DR tests of 5, 50 and 200 machines beside a hand-written uri playbook, and the simulator
# with 1000 machines, written to $(BUILD)/bench/scale.json (see tests/bench/scale.py).
bench: stage
	mkdir -p $(BUILD)/bench
	$(BIN)/python tests/utils/with_simulator.py --seed demo --time-scale 60 -- \
		env $(PLAYBOOK_ENV) BENCH_REPORT=$(abspath $(BUILD))/bench/requests.json $(BIN)/ansible-playbook tests/bench/requests.yml
	env $(PLAYBOOK_ENV) $(BIN)/python tests/bench/scale.py --output $(abspath $(BUILD))/bench/scale.json

clean:
	rm -rf $(VENV) $(BUILD) tests/output .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
