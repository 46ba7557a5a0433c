"""Every game's bounds against its reference solver (see bounds.py)."""

from __future__ import annotations

import importlib
import json
import os
import sys
from collections import Counter
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bounds import GameBounds, cases_for  # noqa: E402

MODULES = sorted(p.stem for p in HERE.glob("[!t]*_bounds.py"))
# Where the counts go for docs/benchmarks.md, when asked for.
REPORT = os.environ.get("SMOKEJUMPER_BOUNDS_REPORT")
# Fewer cases for a run that only needs the engine's calls exercised (the
# sanitizer run); the informative counts required scale with them.
CASES = os.environ.get("SMOKEJUMPER_BOUNDS_CASES")


def test_the_bound_modules_are_registered_games():
    # A game whose searches prune with a bound adds tests/<game>_bounds.py;
    # a sampling search has none.
    from smokejumper.games import registered

    assert MODULES and {m.removesuffix("_bounds") for m in MODULES} <= {g.name for g in registered()}


@pytest.mark.parametrize("module", MODULES)
def test_bounds_are_sound(module):
    spec: GameBounds = importlib.import_module(module).BOUNDS
    count = int(CASES) if CASES else spec.cases
    # The reference's answers, recorded and spot-checked (bounds.py); the
    # engine runs here on every case.
    cases, source = cases_for(module, count)
    print(f"{module}: {count} cases, {source}")
    informative, wrong = Counter(), Counter()
    examples: list[str] = []
    for case, (position, truth) in enumerate(cases):
        values = spec.measure(position)
        for bound in spec.bounds:
            value = values[bound.name]
            informative[bound.describe()] += bool(bound.informative(value, truth))
            if not bound.sound(value, truth):
                wrong[bound.describe()] += 1
                if len(examples) < 5:
                    examples.append(f"{bound.describe()}: {value!r} but the reference says {truth} "
                                    f"(case {case}): {json.dumps(position)}")
    assert not wrong, f"{dict(wrong)} of {count} cases\n" + "\n".join(examples)
    for bound in spec.bounds:
        needed = bound.at_least * count // spec.cases
        assert informative[bound.describe()] >= needed, (bound.describe(), informative[bound.describe()], needed)
    if REPORT:
        with open(REPORT, "a", encoding="utf-8") as out:
            for bound in spec.bounds:
                out.write(json.dumps({"game": spec.game, "bound": bound.describe(), "checked": count,
                                      "informative": informative[bound.describe()], "wrong": 0}) + "\n")
