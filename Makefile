# Everything runs from a virtual environment that this Makefile creates and fills,
# so a fresh machine needs only git, make and the Pythons below.

# A Python by its version: python<version> from PATH if it runs (a pyenv shim of a version not installed does not), else
# the one under ~/.pyenv/versions.
find_python = $(firstword $(shell command -v python$(1) >/dev/null && python$(1) -c '' 2>/dev/null && command -v python$(1)) \
	$(wildcard $(HOME)/.pyenv/versions/$(1).*/bin/python$(1)))
# The reference environment (.venv), where make test runs everything but the other ansible-cores: ansible-core 2.20
# (requirements-dev.txt) on Python 3.12, the pair Red Hat's platform ships and certifies against.
PYTHON_REFERENCE := 3.12
CORE_REFERENCE := $(shell sed -n 's/^ansible-core==//p' requirements-dev.txt)
PYTHON ?= $(call find_python,$(PYTHON_REFERENCE))
VENV := .venv
BIN := $(abspath $(VENV))/bin
STAMP := $(VENV)/.installed
REQUIREMENTS := requirements.txt requirements-dev.txt simulator/requirements.txt simulator/pyproject.toml

# ansible-test wants the collection at ansible_collections/<namespace>/<name>; it is staged there from
# the files git knows (tracked, or new and not ignored). The integration targets, the build and the
# demo use one staged copy; sanity, units and the other ansible-cores another, so that make test runs
# the two lanes side by side without either's output in the other's way.
BUILD := .build
COLLECTION := $(BUILD)/ansible_collections/replication/recovery
CHECKS_BUILD := $(BUILD)/checks
CHECKED := $(CHECKS_BUILD)/ansible_collections/replication/recovery
ANSIBLE_TEST := cd $(CHECKED) && $(BIN)/ansible-test
# A third copy for the integration targets that mostly wait (SIDE_TARGETS), in a lane of their own; a fourth for the other
# ansible-cores, then the targets of LAST_TARGETS, in the fourth lane; a fifth for the runbooks' longest targets (LONG_TARGETS).
SIDE_BUILD := $(BUILD)/side
SIDED := $(SIDE_BUILD)/ansible_collections/replication/recovery
LONG_BUILD := $(BUILD)/long
LONGED := $(LONG_BUILD)/ansible_collections/replication/recovery
MATRIX_BUILD := $(BUILD)/matrix
MATRIXED := $(MATRIX_BUILD)/ansible_collections/replication/recovery
TEST_PYTHON := $(PYTHON_REFERENCE)

SIMULATOR_HOST ?= 127.0.0.1
SIMULATOR_PORT ?= 8080
TIME_SCALE ?= 60

# Tools with dependencies of their own (the Galaxy importer, the docs linter, ansible-builder) and
# the other ansible-core versions the README claims live in virtual environments of their own.
VENVS := .venvs
VERSION := $(shell sed -n 's/^version: //p' galaxy.yml)
TARBALL := $(BUILD)/dist/replication-recovery-$(VERSION).tar.gz
PACKAGING := $(abspath $(VENVS))/packaging/bin

# The oldest and the newest ansible-core the README claims, each on a Python it supports. The newest (2.22's release
# candidate until 2.22.0 is released) needs Python 3.13 or newer: python3.13 from PATH, else from pyenv.
CORE_OLDEST := 2.16.19
PYTHON_OLDEST := 3.11
CORE_NEWEST := 2.22.0rc1
PYTHON_NEWEST := 3.13
PYTHON_OLDEST_BIN ?= $(call find_python,$(PYTHON_OLDEST))
# Between them, besides the reference (2.20), the ansible-core Red Hat's certification checker runs too: 2.18, on the checker's
# Python. There, the units and the sanity tests whose results can change with ansible-core (CORE_SANITY_TESTS).
CORE_BETWEEN := 2.18.19
PYTHON_BETWEEN := 3.12
PYTHON_BETWEEN_BIN ?= $(call find_python,$(PYTHON_BETWEEN))
PYTHON_NEWEST_BIN ?= $(call find_python,$(PYTHON_NEWEST))
# The smoke test on those versions: login, project, launch and cleanup; then the demo's DR test (the
# runbook steps, their plays and waves) with that ansible-core.
SMOKE_TARGETS := service_login service_project service_launch
# make test's five lanes end about together by the times it prints (two cores). With four, at the commit that put the reference
# environment on ansible-core 2.20 and 2.18 in the matrix, they ended at 2,143-2,240 s (3,726 s of CPU: 1.66 cores), each
# half waiting; five lanes keep both cores busier. The first lane: every integration target not named below. The second: the
# other suites one after another, then LATE_TARGETS. The third: SIDE_TARGETS, which wait most of their time - on a service that
# answers ten requests a second a session, on launch jobs - on a simulator of their own (within_limits starts its own). The
# fourth: the other ansible-cores, then LAST_TARGETS and the certification checker's tools. The fifth: LONG_TARGETS, the
# runbooks' longest. In a fresh clone (December 2026) they ended at 1,572, 1,678, 1,644, 1,659 and 1,650 s on 3,172 s of CPU:
# make test is bound by the CPU there, not by its waits - what shortens it is less work, not another lane. With the
# certification checker's lints as the importer runs them, two fresh clones took 1,565 and 1,643 s on 2,866 and 3,026 s of CPU.
# With the targets' waits in one process, 1,647 s on 2,899 s, the fifth lane last (1,641 s, 383 s of CPU by process accounting);
# with game_day_application moved from it to the fourth, 1,653 s on 3,028 s, the second lane last and the fifth at 1,507 s.
# With the simulator's set-up in a short Python rather than some sixty playbook runs, and judgement cases in the unit tests,
# 1,435 s on 2,502 s: the third lane (the targets that mostly wait) last, the first (1,231 s) first; game_day_drill (108 s)
# moved from the third to the first: 1,432 s on 2,578 s, every lane ending between 1,328 and 1,426 s (the second last).
LATE_TARGETS := flaky_clock
SIDE_TARGETS := within_limits playbook_game_day failover_safety first_night failover_resumed
LAST_TARGETS := playbook_evidence game_day_application
LONG_TARGETS := playbook_failover playbook_clean_point game_day_lever playbook_application game_day_failover
# Whether make test-integration's targets run with ansible-core pipelining modules (integration_in): PIPELINING=no for
# ansible-core's default today.
PIPELINING ?= yes

.PHONY: help venv install simulator simulator-package demo docs bench test test-lane test-side-lane test-matrix-lane test-integration-long test-sanity test-units test-simulator \
	test-integration test-integration-late test-integration-last test-lint test-build test-packaging test-simulator-package test-matrix test-oldest test-between test-newest \
	test-demo test-browser test-docs test-controllers test-readme stage stage-checks stage-side stage-matrix stage-long test-integration-side test-certification clean

help:
	@echo "make install    build the collection from this clone and install it where ansible-playbook finds it (COLLECTIONS_PATH)"
	@echo "make demo       run the demo playbook against the simulator (demo seed)"
	@echo "make test       run every test (what CI runs): needs Python $(PYTHON_REFERENCE) (the reference environment, .venv: ansible-core $(CORE_REFERENCE)),"
	@echo "                Python $(PYTHON_OLDEST) for ansible-core $(CORE_OLDEST) and Python $(PYTHON_NEWEST) for $(CORE_NEWEST) - each python3.X on PATH, else"
	@echo "                under ~/.pyenv/versions; ansible-core $(CORE_BETWEEN) runs on Python $(PYTHON_BETWEEN)"
	@echo "make docs       build the documentation site into $(BUILD)/docs/html"
	@echo "make bench      requests per task; DR tests of 5, 200 and 1000 machines beside a uri playbook, with the time of each phase; the simulator at 1000; the evidence of a year of 1000 machines"
	@echo "make simulator  serve the simulator with the demo seed on $(SIMULATOR_HOST):$(SIMULATOR_PORT)"
	@echo "make simulator-package  build the simulator's wheel into $(BUILD)/dist"
	@echo "make clean      remove the virtual environment, staged collection and test output"

$(STAMP): $(REQUIREMENTS)
	@$(call python_needed,$(PYTHON),$(PYTHON_REFERENCE),PYTHON,the reference environment)
	$(PYTHON) -m venv --clear $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

venv: $(STAMP)

simulator: $(STAMP)
	$(BIN)/python -m replication_service_simulator --host $(SIMULATOR_HOST) --port $(SIMULATOR_PORT) --seed demo --time-scale $(TIME_SCALE)

# $(1): a Python found by find_python, $(2): its version, $(3): the variable that sets it, $(4): what needs it. Where it is
# missing, make fails naming it and how to install it; nothing is skipped.
python_needed = test -n "$(1)" || { echo "$(4) needs Python $(2), found neither on PATH (python$(2)) nor under ~/.pyenv/versions: install it \
	(pyenv install $(2), or your system's python$(2) package), or set $(3) to its path"; exit 1; }

# $(1): the root to stage the collection under. ansible-test lists the collection's files through git:
# the copy gets a repository of its own.
define stage_into
	rm -rf $(1)/ansible_collections
	mkdir -p $(1)/ansible_collections/replication/recovery
	git ls-files -co --exclude-standard | tar -cf - -T - | tar -xf - -C $(1)/ansible_collections/replication/recovery
	cd $(1)/ansible_collections/replication/recovery && git init -q && git add -A
	$(BIN)/python tests/utils/install_get_pip.py
endef

# Inside make test's lanes (STAGED=1) the copies are staged already, and must stay as they are.
ifeq ($(STAGED),)
stage: $(STAMP)
	$(call stage_into,$(BUILD))

stage-checks: $(STAMP)
	$(call stage_into,$(CHECKS_BUILD))

stage-side: $(STAMP)
	$(call stage_into,$(SIDE_BUILD))

stage-matrix: $(STAMP)
	$(call stage_into,$(MATRIX_BUILD))

stage-long: $(STAMP)
	$(call stage_into,$(LONG_BUILD))
else
stage stage-checks stage-side stage-matrix stage-long: ;
endif

# The collection is installed where ansible-playbook finds it: the staged tree. The runs of the tests and the demo enter
# their reports in a default ledger of their own, not in the user's.
TEST_DATA := $(abspath $(BUILD))/data
PLAYBOOK_ENV := ANSIBLE_COLLECTIONS_PATH=$(abspath $(BUILD)) PATH=$(BIN):$$PATH XDG_DATA_HOME=$(TEST_DATA)

# The DR test playbook, with its inputs as AWX would give them: credentials in the environment,
# the rest as extra variables. Targets are on the simulator's clock (one hour each).
DEMO_REPORT := $(abspath $(BUILD))/demo-report
DEMO_VARS := -e dr_test_project=demo -e dr_test_report_dir=$(DEMO_REPORT) -e dr_test_poll_interval=1 \
	-e dr_test_rpo_target=3600 -e dr_test_rto_target=3600 -e dr_test_checks_tasks=$(abspath tests/demo/checks.yml) -e dr_test_checks_name=demo-checks

demo: stage
	rm -rf $(DEMO_REPORT)
	$(BIN)/python tests/utils/with_simulator.py --seed demo --time-scale $(TIME_SCALE) -- \
		env $(PLAYBOOK_ENV) REPLICATION_SERVICE_USERNAME=demo@example.com REPLICATION_SERVICE_PASSWORD=demo-secret-1 \
		$(BIN)/ansible-playbook tests/demo/demo.yml $(DEMO_VARS)
	@echo
	@echo "The DR test's report is in $(DEMO_REPORT):"
	@ls -1 $(DEMO_REPORT)
	@echo
	@cat $(DEMO_REPORT)/dr_test_demo.md

# Five lanes side by side, each in a copy of the collection of its own: the integration targets; the other suites one after
# another; the targets that mostly wait; the other ansible-cores; the runbooks' longest targets. Each lane's output is shown
# whole when it ends.
test: $(STAMP)
	@$(SHELLCHECK)
	@$(MAKE) --no-print-directory stage stage-checks stage-side stage-matrix stage-long && \
	echo "make test: the integration targets, the other suites one after another, the targets that mostly wait, the other ansible-cores, and the runbooks' longest targets, side by side; each lane's output follows when it ends" && \
	$(BIN)/python tests/utils/timed.py "every suite" -- $(MAKE) --no-print-directory -j5 --output-sync=target STAGED=1 \
		INTEGRATION_EXCLUDE="$(LATE_TARGETS) $(LAST_TARGETS) $(SIDE_TARGETS) $(LONG_TARGETS)" test-integration test-lane test-side-lane test-matrix-lane \
		test-integration-long

# The second lane's suites one after another, each said with its time (test-packaging builds the collection first).
LANE := test-sanity test-units test-simulator test-lint test-packaging test-simulator-package test-demo test-browser test-docs \
	test-controllers test-readme test-integration-late
# The third lane's: the targets that mostly wait; the fourth's: the other ansible-core versions, then LAST_TARGETS and the
# certification checker's tools.
SIDE_LANE := test-integration-side
MATRIX_LANE := test-oldest test-between test-newest test-integration-last test-certification
test-lane test-side-lane test-matrix-lane:
	@for suite in $($(if $(filter test-lane,$@),LANE,$(if $(filter test-side-lane,$@),SIDE_LANE,MATRIX_LANE))); do \
		MAKEFLAGS= $(BIN)/python tests/utils/timed.py $$suite -- $(MAKE) --no-print-directory STAGED=1 $$suite || exit 1; done

# ansible-test's shellcheck sanity test needs shellcheck, and without it skips with a warning: it is installed from Debian's
# packages when missing (before the lanes in make test, so that no two install at once), and said so.
SHELLCHECK = command -v shellcheck >/dev/null || { echo "make $@: installing shellcheck from Debian's packages (apt-get), for ansible-test's sanity test"; \
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends shellcheck; }

test-sanity: stage-checks
	@$(SHELLCHECK)
	$(ANSIBLE_TEST) sanity --local --python $(TEST_PYTHON) --requirements

test-units: stage-checks
	$(ANSIBLE_TEST) units --venv --python $(TEST_PYTHON) --requirements

# Integration targets run against a simulator started for them on a free port, each lane's on its own, with a default ledger of
# its own: ansible-test passes HOME to the targets but not XDG_DATA_HOME, so each lane has a home of its own (the runbooks'
# default ledger is under it, never in the user's). The clock runs 60 times real time, so that jobs the modules wait for end
# in seconds. $(1): the copy of the collection, $(2): the targets (ansible-test's arguments), $(3): the lane's data
# directory, $(4): its name, $(5): whether ansible-core pipelines modules there (ANSIBLE_PIPELINING, which ansible-core's
# roadmap turns on by default, through the ansible.cfg ansible-test gives the targets: tests/integration/integration.cfg) -
# the main, side and last lanes do, so that every runbook runs pipelined (the failback and the application in the side
# lane's failover_safety and first_night); the late and long lanes and the matrix's smoke targets and demos do not.
define integration_in
	$(if $(filter yes,$(5)),printf '[connection]\npipelining = True\n' > $(1)/tests/integration/integration.cfg,rm -f $(1)/tests/integration/integration.cfg)
	$(BIN)/python tests/utils/with_simulator.py --check-answers --time-scale 60 --vars-file $(1)/tests/integration/integration_config.yml --label "$(4)" -- \
		env HOME=$(3)/home sh -c 'mkdir -p "$$HOME" && cd $(1) && $(BIN)/ansible-test integration --local --python $(TEST_PYTHON) $(2)'; \
		status=$$?; $(BIN)/python tests/utils/target_times.py $(1) "$(4)" $$status; exit $$status
endef

test-integration: stage
	$(call integration_in,$(COLLECTION),$(TARGETS) $(addprefix --exclude ,$(INTEGRATION_EXCLUDE)),$(TEST_DATA),integration,$(PIPELINING))

# The second lane's integration targets (LATE_TARGETS), in the checks' copy of the collection.
test-integration-late: stage-checks
	$(call integration_in,$(CHECKED),$(LATE_TARGETS),$(TEST_DATA)-late,late integration,no)

# The fourth lane's (LAST_TARGETS), in the matrix's copy.
test-integration-last: stage-matrix
	$(call integration_in,$(MATRIXED),$(LAST_TARGETS),$(TEST_DATA)-last,last integration,yes)

# The targets that mostly wait (SIDE_TARGETS), in a copy of their own.
test-integration-side: stage-side
	$(call integration_in,$(SIDED),$(SIDE_TARGETS),$(TEST_DATA)-side,side integration,yes)

# The fifth lane's (LONG_TARGETS), in a copy of their own.
test-integration-long: stage-long
	$(call integration_in,$(LONGED),$(LONG_TARGETS),$(TEST_DATA)-long,long integration,no)

test-simulator: $(STAMP)
	$(BIN)/python -m pytest -q simulator/tests

# Headless Chromium, from Debian's packages: installed when missing (CI runs as root on a fresh machine), and said so.
CHROMIUM = command -v chromium >/dev/null || { echo "make $@: installing Chromium from Debian's packages (apt-get)"; \
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core; }

# The DR test's HTML page at 5 and 1000 machines in headless Chromium; the screenshots are left in $(BUILD)/browser.
test-browser: stage
	@$(CHROMIUM)
	env $(PLAYBOOK_ENV) BROWSER_SHOTS=$(abspath $(BUILD))/browser $(BIN)/python -m pytest -q -p no:cacheprovider tests/browser

# The documentation site built with no warning, every link between its pages followed, and the pages of a module, a
# role and a guide drawn by Chromium.
test-docs: docs
	@$(CHROMIUM)
	DOCS_SITE=$(abspath $(DOCS))/html $(BIN)/python -m pytest -q -p no:cacheprovider tests/docsite

# The collection as the controllers run it, each against a simulator of its own: the example rulebook in
# ansible-rulebook (the Event-Driven Ansible controller's runner), and the DR test through ansible-runner
# (AWX's). ansible-rulebook needs a Java runtime: installed from Debian's packages when missing.
CONTROLLERS := $(abspath $(VENVS))/controllers/bin
$(VENVS)/controllers/.installed: tests/requirements-controllers.txt
	$(PYTHON) -m venv --clear $(VENVS)/controllers
	$(CONTROLLERS)/python -m pip install --quiet --upgrade pip
	$(CONTROLLERS)/python -m pip install --quiet -r tests/requirements-controllers.txt
	touch $@

test-controllers: stage $(VENVS)/controllers/.installed
	@command -v java >/dev/null || { echo "make test-controllers: installing a Java runtime from Debian's packages (apt-get), for ansible-rulebook"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends openjdk-17-jre-headless; }
	env ANSIBLE_COLLECTIONS_PATH=$(abspath $(BUILD)) PATH=$(CONTROLLERS):$$PATH SIMULATOR_PYTHON=$(BIN)/python XDG_DATA_HOME=$(TEST_DATA) \
		JAVA_HOME=$${JAVA_HOME:-$$(dirname $$(dirname $$(readlink -f $$(command -v java))))} \
		$(CONTROLLERS)/python -m pytest -q -p no:cacheprovider tests/controllers

# The README's examples as a reader takes them: those aimed at the simulator run against one (make install and a playbook by
# its name, the ransomware walkthrough, the DR test in an isolated network); the others pass ansible-playbook --syntax-check.
test-readme: stage
	env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS $(PLAYBOOK_ENV) $(BIN)/python -m pytest -q -s -p no:cacheprovider tests/readme

test-lint: stage
	$(BIN)/antsibull-changelog lint
	env PATH=$(BIN):$$PATH $(BIN)/ansible-lint
	env $(PLAYBOOK_ENV) $(BIN)/python tests/utils/parse_quietly.py

test-build: stage
	$(BIN)/ansible-galaxy collection build --force --output-path $(BUILD)/dist $(COLLECTION)

# The collection of this clone, built and installed where ansible-playbook finds it: ~/.ansible/collections is on
# ansible-core's default search path. The virtual environment has ansible-core and the requests library the modules need.
COLLECTIONS_PATH ?= $(HOME)/.ansible/collections
install: test-build
	$(BIN)/ansible-galaxy collection install --force -p $(COLLECTIONS_PATH) $(TARBALL)
	@echo
	@echo "replication.recovery $(VERSION) is installed in $(COLLECTIONS_PATH)/ansible_collections/replication/recovery."
	@echo "Run its playbooks with the ansible-playbook of $(BIN) (ansible-core and requests are there), for example:"
	@echo "  $(BIN)/ansible-playbook replication.recovery.dr_test -e dr_test_project=demo"
	@echo "(Another ansible-core 2.16 to 2.22 finds it too, once 'pip install requests' is done beside it; for another path: COLLECTIONS_PATH=... and"
	@echo "ANSIBLE_COLLECTIONS_PATH=... when running.)"

# What Galaxy, Automation Hub and ansible-builder see of the built collection. The importer runs
# without a container engine (its own ansible-test run is off, tests/utils/galaxy-importer.cfg).
$(VENVS)/packaging/.installed: tests/requirements-packaging.txt
	$(PYTHON) -m venv --clear $(VENVS)/packaging
	$(PACKAGING)/python -m pip install --quiet --upgrade pip
	$(PACKAGING)/python -m pip install --quiet -r tests/requirements-packaging.txt
	touch $@

test-packaging: test-build $(VENVS)/packaging/.installed
	rm -rf $(BUILD)/importer $(BUILD)/ee && mkdir -p $(BUILD)/importer
	# A home of its own: its ansible-lint must not lint a copy that an earlier make install left in ~/.ansible/collections
	# (as on a fresh machine, where there is none).
	cd $(BUILD)/importer && mkdir -p home && GALAXY_IMPORTER_CONFIG=$(abspath tests/utils/galaxy-importer.cfg) PATH=$(PACKAGING):$$PATH \
		HOME=$(abspath $(BUILD))/importer/home \
		$(PACKAGING)/python -m galaxy_importer.main $(abspath $(TARBALL)) >importer.log 2>&1 || { cat importer.log; exit 1; }
	@if grep -E '^(WARNING|ERROR)' $(BUILD)/importer/importer.log; then echo "galaxy-importer warned (above)"; exit 1; fi
	@tail -n 1 $(BUILD)/importer/importer.log
	cd $(COLLECTION) && PATH=$(PACKAGING):$$PATH antsibull-docs lint-collection-docs --plugin-docs .
	$(PACKAGING)/ansible-builder introspect $(abspath $(BUILD)) | grep -F 'requests>=2.25.0  # from collection replication.recovery'
	$(PACKAGING)/ansible-builder create --file docs/awx/execution-environment.yml --context $(BUILD)/ee --output-filename Containerfile
	grep -q 'replication.recovery' $(BUILD)/ee/_build/requirements.yml
	rm -rf $(BUILD)/de && $(PACKAGING)/ansible-builder create --file extensions/eda/decision-environment.yml --context $(BUILD)/de --output-filename Containerfile
	grep -q 'replication.recovery' $(BUILD)/de/_build/requirements.yml && grep -qx 'ansible-rulebook' $(BUILD)/de/_build/requirements.txt

# What Red Hat's certification checker runs, at the versions it pins, beside the newest that test-packaging and test-lint run:
# galaxy-importer 0.4.31 on the built collection, ansible-lint 24.12.2 on ansible-core 2.16 and 25.2.0 on 2.18 - each in a
# virtual environment of its own. In the fourth lane, after its targets, on that lane's copy: its own tarball,
# and a home of its own for each tool. The lints run as the importer runs ansible-lint (CERTIFIED_LINT_ARGS: the production
# profile, offline, the collection found where it is, the tests' targets and units left out - they are not in the tarball);
# test-lint lints the tests' playbooks too, with the newest.
CERTIFIED_LINT_ARGS := --profile production --exclude tests/integration/ --exclude tests/unit/ --offline --nocolor
CERTIFICATION := $(BUILD)/certification
CERTIFIED_LINTS := 24.12.2:2.16.19 25.2.0:2.18.19
$(VENVS)/importer-0.4.31/.installed:
	$(PYTHON) -m venv $(VENVS)/importer-0.4.31
	$(VENVS)/importer-0.4.31/bin/python -m pip install --quiet galaxy-importer==0.4.31
	touch $@

$(VENVS)/lint-%/.installed:
	$(PYTHON) -m venv $(VENVS)/lint-$*
	$(VENVS)/lint-$*/bin/python -m pip install --quiet ansible-lint==$(word 1,$(subst :, ,$(filter $*:%,$(CERTIFIED_LINTS)))) \
		ansible-core==$(word 2,$(subst :, ,$(filter $*:%,$(CERTIFIED_LINTS))))
	touch $@

test-certification: stage-matrix $(VENVS)/importer-0.4.31/.installed $(foreach pair,$(CERTIFIED_LINTS),$(VENVS)/lint-$(word 1,$(subst :, ,$(pair)))/.installed)
	rm -rf $(CERTIFICATION) && mkdir -p $(CERTIFICATION)/home
	$(BIN)/ansible-galaxy collection build --force --output-path $(CERTIFICATION) $(MATRIXED) >/dev/null
	cd $(CERTIFICATION) && GALAXY_IMPORTER_CONFIG=$(abspath tests/utils/galaxy-importer.cfg) PATH=$(abspath $(VENVS))/importer-0.4.31/bin:$$PATH \
		HOME=$(abspath $(CERTIFICATION))/home $(abspath $(VENVS))/importer-0.4.31/bin/python -m galaxy_importer.main \
		$(abspath $(CERTIFICATION))/replication-recovery-$(VERSION).tar.gz >importer.log 2>&1 || { cat importer.log; exit 1; }
	@if grep -E '^(WARNING|ERROR)' $(CERTIFICATION)/importer.log; then echo "galaxy-importer 0.4.31 warned (above)"; exit 1; fi
	@echo "galaxy-importer 0.4.31: $$(tail -n 1 $(CERTIFICATION)/importer.log)"
	@for pair in $(CERTIFIED_LINTS); do lint=$${pair%%:*}; mkdir -p $(abspath $(CERTIFICATION))/home-$$lint; \
		echo "ansible-lint $$lint on ansible-core $${pair#*:}:"; \
		(cd $(MATRIXED) && env PATH=$(abspath $(VENVS))/lint-$$lint/bin:$$PATH HOME=$(abspath $(CERTIFICATION))/home-$$lint \
			ANSIBLE_COLLECTIONS_PATH=$(abspath $(MATRIX_BUILD)) $(abspath $(VENVS))/lint-$$lint/bin/ansible-lint $(CERTIFIED_LINT_ARGS) >$(abspath $(CERTIFICATION))/lint-$$lint.log 2>&1); status=$$?; \
		if [ $$status != 0 ]; then cat $(CERTIFICATION)/lint-$$lint.log; exit $$status; fi; tail -n 1 $(CERTIFICATION)/lint-$$lint.log; done

# The documentation site, in .build/docs/html: antsibull-docs writes the reference of every module, plugin and role, the
# guides go beside it as they are in the repository (docs/docsite/assemble.py), and Sphinx builds it with every warning an
# error - a broken link or reference fails it. In the packaging environment, which has antsibull-docs already.
DOCS := $(BUILD)/docs
docs: stage $(VENVS)/packaging/.installed
	rm -rf $(DOCS) && mkdir -p $(DOCS) && mkdir -m 700 $(DOCS)/src
	ANSIBLE_COLLECTIONS_PATH=$(abspath $(BUILD)) PATH=$(PACKAGING):$$PATH antsibull-docs collection --use-current --fail-on-error \
		--dest-dir $(DOCS)/src replication.recovery >$(DOCS)/antsibull-docs.log 2>&1 || { cat $(DOCS)/antsibull-docs.log; exit 1; }
	$(PACKAGING)/python docs/docsite/assemble.py $(COLLECTION) $(DOCS)/src
	$(PACKAGING)/sphinx-build -q -W --keep-going -n -b html -c docs/docsite $(DOCS)/src $(DOCS)/html
	@echo "The documentation site is in $(DOCS)/html (index.html)."

# The simulator as a Python package: its wheel, built from its own directory (its tests left out).
simulator-package: $(STAMP)
	rm -rf $(BUILD)/dist/replication_service_simulator-*.whl && mkdir -p $(BUILD)/dist
	$(BIN)/python -m pip wheel --quiet --no-deps --wheel-dir $(BUILD)/dist ./simulator

test-simulator-package: simulator-package
	rm -rf $(VENVS)/simulator-check
	$(PYTHON) -m venv $(VENVS)/simulator-check
	$(VENVS)/simulator-check/bin/python -m pip install --quiet $(BUILD)/dist/replication_service_simulator-*.whl
	$(VENVS)/simulator-check/bin/python tests/utils/check_simulator_package.py

# Sanity, units and the integration smoke test on the oldest and the newest ansible-core claimed.
# $(1): ansible-core version, $(2): the Python found for it, $(3): its version, $(4): the variable that sets it. ansible-test's
# own requirements pinned to an archive on GitHub (2.22 pins pylint's dill so) are taken from the package registry.
define core_venv
	@$(call python_needed,$(2),$(3),$(4),ansible-core $(1))
	$(2) -m venv $(VENVS)/core-$(1)
	$(VENVS)/core-$(1)/bin/python -m pip install --quiet ansible-core==$(1) -r requirements.txt
	$(VENVS)/core-$(1)/bin/python tests/utils/install_get_pip.py
	$(VENVS)/core-$(1)/bin/python tests/utils/registry_requirements.py
	touch $@
endef

$(VENVS)/core-$(CORE_OLDEST)/.installed: requirements.txt
	$(call core_venv,$(CORE_OLDEST),$(PYTHON_OLDEST_BIN),$(PYTHON_OLDEST),PYTHON_OLDEST_BIN)

$(VENVS)/core-$(CORE_BETWEEN)/.installed: requirements.txt
	$(call core_venv,$(CORE_BETWEEN),$(PYTHON_BETWEEN_BIN),$(PYTHON_BETWEEN),PYTHON_BETWEEN_BIN)

$(VENVS)/core-$(CORE_NEWEST)/.installed: requirements.txt
	$(call core_venv,$(CORE_NEWEST),$(PYTHON_NEWEST_BIN),$(PYTHON_NEWEST),PYTHON_NEWEST_BIN)

# The sanity tests whose results can change with ansible-core: those that read the collection with the core's own code or
# the tools it pins - its documentation and argument specs, its imports, the Pythons it compiles for, pylint and pycodestyle.
# The others read the files' text alone.
CORE_SANITY_TESTS := action-plugin-docs ansible-doc compile import pep8 pylint runtime-metadata validate-modules yamllint

# $(1): ansible-core version, $(2): its Python, $(3): which sanity tests (all when not given): sanity, then the units.
define core_checks
	cd $(MATRIXED) && PATH=$(abspath $(VENVS))/core-$(1)/bin:$$PATH ansible-test sanity --local --python $(2) --requirements $(3)
	cd $(MATRIXED) && PATH=$(abspath $(VENVS))/core-$(1)/bin:$$PATH ansible-test units --venv --python $(2) --requirements
endef

# $(1): ansible-core version, $(2): its Python. The environment's bin comes first in PATH, so that
# ansible-test finds that Python by its name. The demo's DR test must launch and pass every machine: on ansible-core
# 2.22.0rc1 it once ended NOTHING DONE, and succeeded, its waves' plays matching no host.
define core_leg
	rm -f $(MATRIXED)/tests/integration/integration.cfg  # the smoke targets as ansible-core runs by default: not pipelined
	@$(SHELLCHECK)
	$(call core_checks,$(1),$(2))
	$(BIN)/python tests/utils/with_simulator.py --check-answers --time-scale 60 --vars-file $(MATRIXED)/tests/integration/integration_config.yml -- \
		env HOME=$(TEST_DATA)-matrix/home sh -c 'mkdir -p "$$HOME" && cd $(MATRIXED) && PATH=$(abspath $(VENVS))/core-$(1)/bin:$$PATH ansible-test integration --local --python $(2) $(SMOKE_TARGETS)'
	$(BIN)/python tests/utils/with_simulator.py --seed demo --time-scale $(TIME_SCALE) -- \
		env ANSIBLE_COLLECTIONS_PATH=$(abspath $(MATRIX_BUILD)) PATH=$(abspath $(VENVS))/core-$(1)/bin:$$PATH XDG_DATA_HOME=$(TEST_DATA)-matrix \
		REPLICATION_SERVICE_USERNAME=demo@example.com REPLICATION_SERVICE_PASSWORD=demo-secret-1 \
		sh -c 'ansible-playbook tests/demo/demo.yml $(DEMO_VARS) -e dr_test_report_dir=$(abspath $(BUILD))/demo-report-$(1) -e "dr_test_waves=db-*;app-*;web-*" \
			> $(BUILD)/demo-$(1).log 2>&1; status=$$?; cat $(BUILD)/demo-$(1).log; test $$status = 0 || exit $$status; \
			! grep -n "does not support Ansible version" $(BUILD)/demo-$(1).log || { echo "meta/runtime.yml does not claim ansible-core $(1)"; exit 1; }; \
			grep -q "DR test of demo: PASSED. 5 of 5 machines passed." $(BUILD)/demo-$(1).log || { echo "the DR test did not launch and pass every machine"; exit 1; }'
endef

test-oldest: stage-matrix $(VENVS)/core-$(CORE_OLDEST)/.installed
	$(call core_leg,$(CORE_OLDEST),$(PYTHON_OLDEST))

test-newest: stage-matrix $(VENVS)/core-$(CORE_NEWEST)/.installed
	$(call core_leg,$(CORE_NEWEST),$(PYTHON_NEWEST))

test-between: stage-matrix $(VENVS)/core-$(CORE_BETWEEN)/.installed
	$(call core_checks,$(CORE_BETWEEN),$(PYTHON_BETWEEN),$(addprefix --test ,$(CORE_SANITY_TESTS)))

test-matrix: test-oldest test-between test-newest

# The demo, and what it printed read as a newcomer reads it (tests/utils/demo_output.py).
test-demo: stage
	@$(MAKE) --no-print-directory demo > $(BUILD)/demo.log 2>&1; status=$$?; cat $(BUILD)/demo.log; exit $$status
	$(BIN)/python tests/utils/demo_output.py $(BUILD)/demo.log tests/demo/checks.yml

# Requests each task costs (job polling included), written to $(BUILD)/bench/requests.json; then
# whole DR tests of 5, 200 and 1000 machines beside a hand-written uri playbook (the controller time of each phase), and the simulator
# with 1000 machines, written to $(BUILD)/bench/scale.json (see tests/bench/scale.py).
bench: stage
	mkdir -p $(BUILD)/bench
	$(BIN)/python tests/utils/with_simulator.py --seed demo --time-scale 60 -- \
		env $(PLAYBOOK_ENV) BENCH_REPORT=$(abspath $(BUILD))/bench/requests.json $(BIN)/ansible-playbook tests/bench/requests.yml
	env $(PLAYBOOK_ENV) $(BIN)/python tests/bench/scale.py --output $(abspath $(BUILD))/bench/scale.json
	env $(PLAYBOOK_ENV) $(BIN)/python tests/bench/programme.py --output $(abspath $(BUILD))/bench/programme.json

clean:
	rm -rf $(VENV) $(VENVS) $(BUILD) tests/output .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
