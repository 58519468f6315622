# Quick start: `make run` starts the app, `make test` runs every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Two stamps: running needs only requirements.txt; the tests and house-rule tools
# (requirements-dev.txt: pytest, Playwright, mypy, ruff, ...) are installed by the targets
# that use them, so `make run` answers without waiting for the test toolchain.
RUN_STAMP := $(VENV)/.installed-run-$(shell cat requirements.txt | cksum | cut -d' ' -f1)
DEV_STAMP := $(VENV)/.installed-dev-$(shell cat requirements.txt requirements-dev.txt | cksum | cut -d' ' -f1)

.PHONY: setup setup-run run test test-fast check browser validate clean

setup-run: $(RUN_STAMP)

setup: $(DEV_STAMP)

# --no-compile: the packages' modules are compiled when first imported, not all at install
# (pip's byte-compiling was half of the install; on a fresh venv the first page came ~9 s sooner).
$(RUN_STAMP): requirements.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-compile -r requirements.txt
	rm -f $(VENV)/.installed-run-*
	touch $@

$(DEV_STAMP): $(RUN_STAMP) requirements-dev.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	rm -f $(VENV)/.installed-dev-*
	touch $@

browser:
	@bash scripts/ensure-browser.sh

run: setup-run
	$(BIN)/python -m streamlit run app.py

validate: setup-run
	$(BIN)/python -m quiz validate

# The house rules, kept by tools: the stages' layering, only quiz.ui imports streamlit, the
# product never imports the benchmark (import-linter); types (mypy); lint (ruff); card kinds
# branched on only in their dispatch modules (a test that reads the source, a second or two).
check: setup
	$(BIN)/lint-imports
	$(BIN)/mypy
	$(BIN)/ruff check quiz quizbench tests app.py
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/test_card_kind_dispatch.py

# Every test: two workers for most, then the timed tests one at a time (scripts/test-all.sh
# says why).
test: check browser
	bash scripts/with-postgres.sh bash scripts/test-all.sh

# The fast suite: no browser, no reliability runs, no PostgreSQL, no minutes-long tools. Work
# stealing, so one long test does not finish alone; bytecode written (__pycache__, ignored by
# git) even where the shell says not to, else each worker rewrites every test module's asserts.
test-fast: setup
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n 2 --dist worksteal -m "not e2e and not reliability and not postgres and not slow" -q

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis

# Event-day capacity (docs/DEPLOYMENT.md): a local cluster (a throwaway PostgreSQL, two app
# servers, HAProxy in front), and the whole capacity measurement through one.
.PHONY: cluster cluster-down capacity

cluster: setup
	bash scripts/cluster.sh up

cluster-down:
	bash scripts/cluster.sh down

capacity: setup
	@mkdir -p test-artifacts
	$(BIN)/python -m quizbench.capacity measure --json "$${CAPACITY_JSON:-test-artifacts/capacity.json}"
