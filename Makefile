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

.PHONY: help install demo test lint clean

help:
	@echo "make demo  - create .venv, install, fetch CrowS-Pairs and run the pipeline on it"
	@echo "make test  - create .venv if needed, install with test extras, run ruff and the tests"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(PIP) install --quiet torch==$(TORCH_VERSION)
	$(PIP) install --quiet -e '.[test]'
	touch $@

install: $(VENV)/.installed

demo: install
	$(CURATE) fetch crows-pairs
	$(CURATE) stats

lint: install
	$(BIN)/ruff check .

# pytest exits 5 when it collects no tests; that is not a failure of the suite.
test: install lint
	$(BIN)/pytest || [ $$? -eq 5 ]

clean:
	rm -rf $(VENV) build .pytest_cache .ruff_cache
