# Entry points for people and CI: `make demo` and `make test` work on a fresh machine with
# nothing but Python installed. torch is installed first at an exact version whose CPU build is
# available offline here; the package's looser range (torch>=2.2) is then already satisfied, so
# pip never pulls a multi-GB CUDA build.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
TORCH_VERSION ?= 2.13.0
PIP := $(BIN)/python -m pip
CURATE := $(BIN)/curate
# The Label Studio server of the integration tests lives in its own virtualenv: its exact
# Django pins must never constrain this project's environment (pyproject's `server` extra).
LS_VENV ?= .venv-labelstudio
LABEL_STUDIO_VERSION ?= 1.23.2

.PHONY: help install dictionaries labelstudio demo test lint docs fuzz clean

help:
	@echo "make demo  - create .venv, install, fetch CrowS-Pairs and run the pipeline on it,"
	@echo "             then stats and lint on the StereoSet dev set"
	@echo "make test  - create .venv if needed, install with the test and ray extras, run ruff, the"
	@echo "             import contracts (lint-imports) and"
	@echo "             the tests (the Ray tests start a local Ray and a two-node cluster)"
	@echo "             (also installs the Label Studio server into $(LS_VENV) for the integration tests)"
	@echo "make docs  - build the guide (docs/, mkdocs.yml) into build/site; any warning fails it"
	@echo "make fuzz  - fuzz every reader for FUZZ_MINUTES (30) and interrupt every command 20 times"
	@echo "             with kill -9 and 20 with Ctrl-C in its write window; failing inputs become"
	@echo "             tests/fuzz_corpus/ cases"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(PIP) install --quiet torch==$(TORCH_VERSION)
	$(PIP) install --quiet -e '.[test,ray]'
	touch $@

# French and Dutch lint read Debian's Hunspell dictionaries (curate/lint/hunspell.py), and
# French lint Debian's Grammalecte (curate/lint/grammalecte.py); without them it falls back to
# its word lists, skips G006 and says so, so a failed install only warns.
HUNSPELL_PACKAGES ?= hunspell-fr hunspell-nl python3-grammalecte
HUNSPELL_DIR ?= /usr/share/hunspell
GRAMMALECTE_DIR ?= /usr/lib/python3/dist-packages/grammalecte

dictionaries:
	@if [ ! -f $(HUNSPELL_DIR)/fr_FR.dic ] || [ ! -f $(HUNSPELL_DIR)/nl.dic ] || [ ! -f $(GRAMMALECTE_DIR)/fr/gc_engine.py ]; then \
	  sudo=""; [ "$$(id -u)" -eq 0 ] || sudo="sudo -n"; \
	  { command -v apt-get >/dev/null 2>&1 && { \
	      DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $(HUNSPELL_PACKAGES) \
	      || { $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $(HUNSPELL_PACKAGES); }; }; } \
	  || echo "$(HUNSPELL_PACKAGES) could not be installed: French and Dutch lint will use its word lists alone and skip G006 (it says so)" >&2; \
	fi

install: $(VENV)/.installed dictionaries

$(LS_VENV)/.installed:
	$(PYTHON) -m venv $(LS_VENV) && $(LS_VENV)/bin/pip install --quiet label-studio==$(LABEL_STUDIO_VERSION)
	touch $@

labelstudio: $(LS_VENV)/.installed

# `curate lint` exits 1 when it finds defects, which is the expected outcome here.
demo: install
	$(CURATE) fetch crows-pairs
	$(CURATE) stats
	$(CURATE) lint --statistics || [ $$? -eq 1 ]
	$(CURATE) lint --format jsonl --output build/findings.jsonl || [ $$? -eq 1 ]
	$(CURATE) publish 1.0.0-auto
	$(CURATE) diff raw 1.0.0-auto --summary
	$(CURATE) fetch stereoset-dev
	$(CURATE) stats data/raw/stereoset_dev.json
	$(CURATE) lint --statistics data/raw/stereoset_dev.json || [ $$? -eq 1 ]

lint: install
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-cache

# pytest exits 5 when it collects no tests; that is not a failure of the suite.
test: install lint labelstudio
	CURATE_LABEL_STUDIO_BIN="$${CURATE_LABEL_STUDIO_BIN:-$(abspath $(LS_VENV))/bin/label-studio}" \
		$(BIN)/pytest || [ $$? -eq 5 ]

# The guide as a static site (open build/site/index.html; it works offline). --strict makes a
# warning, such as a broken link or anchor, fail the build; tests/test_docs.py runs the same
# build in `make test`. NO_MKDOCS_2_WARNING silences Material's banner about MkDocs 2.0.
docs: install
	NO_MKDOCS_2_WARNING=1 $(BIN)/python -m mkdocs build --strict -d build/site

# The long profile of tests/test_fuzz*.py (the bounded one runs in `make test`) and the kill trials.
FUZZ_MINUTES ?= 30
fuzz: install
	$(BIN)/python benchmarks/fuzz.py --minutes $(FUZZ_MINUTES)
	$(BIN)/python benchmarks/fault_trials.py --trials 20

clean:
	rm -rf $(VENV) build .pytest_cache .ruff_cache
