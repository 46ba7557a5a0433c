# One entry point for people and CI. Every target sets up what it needs:
# a .venv with the package built and installed (warnings are errors here).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
SOURCES := $(shell find cpp python service -type f -not -name '*.pyc') pyproject.toml CMakeLists.txt
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run test test-sanitize fuzz bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(STAMP): $(PY) $(SOURCES)
	$(PY) -m pip install --quiet ".[test]" --config-settings=cmake.define.SMOKEJUMPER_WERROR=ON
	touch $(STAMP)

install: $(STAMP)

run: install
	$(VENV)/bin/smokejumper serve --host $(HOST) --port $(PORT)

# On every core (pytest-xdist): most tests are Python-bound references, so
# two cores halve the suite (29 -> 13 min side by side on a busy machine).
# worksteal: a few tests take minutes, and an idle worker takes others' queue.
# --durations: CI's log names the slowest tests, where its time goes.
test: install
	$(PY) -m pytest -q -n auto --dist worksteal --durations=15

# The C++-heavy tests again over a build with AddressSanitizer,
# UndefinedBehaviorSanitizer and pybind11's GIL assertions (issue 16), in its
# own venv and build dir. Python is not built with ASan, so only the pytest
# run preloads the runtimes the module links (pip's build must not get them):
# libasan, and libstdc++ so that ASan can intercept C++ throws (else the first
# exception aborts with "CHECK failed ... real___cxa_throw"). CPython's own
# allocations would read as leaks, so leak checks are off. --capture=sys: the
# report a dying process writes to fd 2 stays visible.
SAN_VENV := .venv-sanitize
SAN_PY := $(SAN_VENV)/bin/python
SAN_STAMP := $(SAN_VENV)/.installed
# Every test that calls the core in this process, but the cross-checks on
# 100 cases per game, not 2,000 (the contract's playouts on 10 seeds, not
# 40), Fire Tower's soak on a tenth, the service's storms at half their
# requests (as many clients at once), and no test marked `scale` (long
# searches whose paths lighter tests take): their time goes to the Python
# references, to Python's own loop and to node counts, and `make test` has
# run them whole. Left to `make
# test`: the CLI's tests (the calls they make into the core are the other
# tests' own), the page in a browser, the README, the house
# rules, and the service's plumbing (cache, jobs, slow clients) whose C++
# calls are the routes' (test_service.py and test_stress.py load those here).
SAN_TESTS ?= tests --ignore=tests/browser --ignore-glob='tests/test_*cli.py' --ignore=tests/test_readme.py \
  --ignore=tests/test_house.py --ignore=tests/test_cache.py --ignore=tests/test_jobs.py \
  --ignore=tests/test_connections.py

$(SAN_PY):
	$(PYTHON) -m venv $(SAN_VENV)
	$(SAN_PY) -m pip install --quiet --upgrade pip

$(SAN_STAMP): $(SAN_PY) $(SOURCES)
	$(SAN_PY) -m pip install --quiet ".[test]" --config-settings=build-dir=build/sanitize \
	  --config-settings=cmake.build-type=RelWithDebInfo --config-settings=cmake.define.SMOKEJUMPER_SANITIZE=ON
	touch $(SAN_STAMP)

test-sanitize: $(SAN_STAMP)
	LD_PRELOAD="$$(ldd $(SAN_VENV)/lib/python*/site-packages/smokejumper/_core*.so | awk '/libasan/ {a=$$3} /libstdc\+\+/ {s=$$3} END {print a, s}')" \
	ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	SMOKEJUMPER_BOUNDS_CASES=100 SMOKEJUMPER_CROSS_CASES=100 SMOKEJUMPER_SOAK_GAMES=200 SMOKEJUMPER_STORM_REQUESTS=1500 \
	  $(SAN_PY) -m pytest -q -n auto --dist worksteal --durations=15 --capture=sys -m 'not scale' $(SAN_TESTS)

# Fuzzing (issue 19): each game's atheris target for FUZZ_RUNS inputs,
# then schemathesis against the server's OpenAPI for FUZZ_SECONDS. CI runs
# the short default; `make bench` a million inputs a game.
FUZZ_RUNS ?= 20000
FUZZ_SECONDS ?= 30
FUZZ_STAMP := $(VENV)/.fuzz-tools

$(FUZZ_STAMP): $(STAMP)
	$(PY) -m pip install --quiet "atheris>=2.3" "schemathesis>=4"
	touch $(FUZZ_STAMP)

fuzz: $(FUZZ_STAMP)
	for g in $$($(PY) -c "from smokejumper.games import registered; print(*(g.name for g in registered()))"); do \
	  work=$$(mktemp -d) && (cd $$work && $(CURDIR)/$(PY) $(CURDIR)/tests/fuzz/fuzz.py $$g -runs=$(FUZZ_RUNS) \
	    -timeout=10 -rss_limit_mb=2048 $$work 2>&1 | grep -E "DONE|ERROR|SUMMARY") || exit 1; \
	  ! ls $$work/crash-* $$work/timeout-* $$work/oom-* 2>/dev/null || exit 1; rm -rf $$work; done  # a finding fails
	$(PY) tests/fuzz/schema.py $(FUZZ_SECONDS)

# Every game's benchmark (bench/<game>.py) and the load test, one after another, and the long fuzz.
# A benchmark that misses its target (load.py's) fails the run, but only after the others and the
# fuzz have run. Not batch.py: it measures one batch it is given (docs/benchmarks.md has its runs).
bench: install
	failed=""; for b in $$(ls bench/*.py | grep -v -e /measure.py -e /batch.py); do $(PY) $$b || failed="$$failed $$b"; done; \
	$(MAKE) fuzz FUZZ_RUNS=1000000 FUZZ_SECONDS=600 || failed="$$failed fuzz"; \
	if [ -n "$$failed" ]; then echo "missed:$$failed"; exit 1; fi

clean:
	rm -rf $(VENV) $(SAN_VENV) build
