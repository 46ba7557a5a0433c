# One entry point for people and CI. Every target sets up what it needs:
# a .venv with the package built and installed (warnings are errors here).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
SOURCES := $(shell find cpp python service -type f -not -name '*.pyc') pyproject.toml CMakeLists.txt
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run test bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(STAMP): $(PY) $(SOURCES)
	$(PY) -m pip install --quiet ".[test]" --config-settings=cmake.define.SMOKEJUMPER_WERROR=ON
	touch $(STAMP)

install: $(STAMP)

run: install
	$(VENV)/bin/smokejumper serve --host $(HOST) --port $(PORT)

test: install
	$(PY) -m pytest -q

bench: install
	$(PY) bench/run.py
	$(PY) bench/fire.py
	$(PY) bench/wildfire.py

clean:
	rm -rf $(VENV) build
