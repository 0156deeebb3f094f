# Two commands: `make run` (the whole stack on embedded defaults) and `make test` (the suite).
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
TOOLS := .tools
TEST_SERVICES := redis postgres registry chromium promtool java nginx

.PHONY: run test test-fast setup lint schema client docs clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11) and "Python 3.11 is required (set PYTHON=...)")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip==26.3

$(VENV)/.runtime: requirements.txt | $(BIN)/python
	$(BIN)/pip install -q -r requirements.txt
	touch $@

$(VENV)/.dev: requirements-dev.txt $(VENV)/.runtime
	$(BIN)/pip install -q -r requirements-dev.txt
	touch $@

# The project itself, editable and without dependencies (they come pinned from the requirements): the
# `cpctl` console script, with the generated client in clients/python.
$(VENV)/.project: pyproject.toml $(VENV)/.runtime
	$(BIN)/pip install -q --no-deps -e .
	touch $@

$(TOOLS)/helm: scripts/install_helm.py | $(BIN)/python
	$(BIN)/python scripts/install_helm.py $(TOOLS)

# tsc type-checks the TypeScript client openapi-generator writes (tests/contract/test_openapi_generator.py).
TYPESCRIPT_VERSION := 5.9.3
$(TOOLS)/node/node_modules/.bin/tsc: Makefile
	npm install --no-audit --no-fund --no-save --prefix $(TOOLS)/node typescript@$(TYPESCRIPT_VERSION)
	touch $@

setup: $(VENV)/.runtime $(VENV)/.project $(TOOLS)/helm

run: setup
	scripts/ensure_services.sh redis
	$(BIN)/python scripts/run_local.py

test: setup $(VENV)/.dev $(TOOLS)/node/node_modules/.bin/tsc
	scripts/ensure_services.sh $(TEST_SERVICES)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy
	$(BIN)/mkdocs build --strict --quiet
	$(BIN)/python scripts/test_tiers.py

# The everyday loop: every tier but the live stack's (pure, db and cluster), in four pytest-xdist workers (each
# with its own test database and Redis databases; tests/settings_env.py). A module's tests stay on one worker.
test-fast: setup $(VENV)/.dev
	scripts/ensure_services.sh $(TEST_SERVICES)
	$(BIN)/python -m pytest -m "not stack" -n 4 --dist loadfile --durations=25

schema: setup
	$(BIN)/python manage.py spectacular --validate --fail-on-warn --file build/openapi.yaml

# Regenerate the Python client from the schema; tests/cli/test_client_fresh.py fails while it is stale.
client: setup $(VENV)/.dev
	$(BIN)/python clients/generate.py

# Write the generated configuration reference, then build the documentation site (build/site), failing on any
# broken link; tests/unit/test_settings_reference.py fails while the committed reference is stale.
docs: setup $(VENV)/.dev
	$(BIN)/python -m controlplane.settings_reference
	$(BIN)/mkdocs build --strict

clean:
	rm -rf $(VENV) $(TOOLS) .run build
