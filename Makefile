# Everything runs from a virtual environment that this Makefile creates and fills,
# so a fresh machine needs only Python 3.11+ and make.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
REQUIREMENTS := requirements.txt requirements-dev.txt tests/simulator/requirements.txt

SIMULATOR_HOST ?= 127.0.0.1
SIMULATOR_PORT ?= 8080
TIME_SCALE ?= 60

.PHONY: help venv simulator test test-simulator clean

help:
	@echo "make test       run every test (what CI runs)"
	@echo "make simulator  serve the simulator with the demo seed on $(SIMULATOR_HOST):$(SIMULATOR_PORT)"
	@echo "make clean      remove the virtual environment and test output"

$(STAMP): $(REQUIREMENTS)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

venv: $(STAMP)

simulator: $(STAMP)
	$(BIN)/python -m tests.simulator --host $(SIMULATOR_HOST) --port $(SIMULATOR_PORT) --seed demo --time-scale $(TIME_SCALE)

test: test-simulator

test-simulator: $(STAMP)
	$(BIN)/python -m pytest -q tests/simulator/tests

clean:
	rm -rf $(VENV) tests/output .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
