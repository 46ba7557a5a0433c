"""Reference answers kept on disk, spot-checked on every run.

The plain-Python references are what make the cross-checks independent, and
they are slow: on two cores they took most of `make test`. So a test may keep
the reference's answers in a record (``tests/data/<game>/<name>.json.gz``,
keyed by the question asked) and hold the engine to every recorded answer,
while every 16th question is put to the reference again there and then and
its answer must equal the record's: a record that drifted from the
reference fails, it is not trusted. A question the record lacks is answered
live. A record written from other reference sources than today's (its
fingerprint) is not read at all.

Inputs that a reference chose (cases kept because the reference found them
undecided, say) can be kept the same way (``kept``): read from the record
when today's sources wrote it, else made there and then.

``SMOKEJUMPER_RECORD=1`` writes the records anew from the answers of the run.
"""

from __future__ import annotations

import ast
import gzip
import hashlib
import io
import json
import os
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
RECHECK_EVERY = 16
WRITING = os.environ.get("SMOKEJUMPER_RECORD") == "1"


HARNESS = {"bounds", "recorded"}  # how questions are put, not what answers them: the rechecks watch those


def sources(module: str) -> list[Path]:
    """The module's file and every tests/ module it imports, transitively
    (the harness aside): what its answers depend on besides the engine."""
    seen: dict[str, Path] = {}
    todo = [module]
    while todo:
        name = todo.pop()
        path = HERE / f"{name}.py"
        if name in seen or name in HARNESS or not path.exists():
            continue
        seen[name] = path
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                todo += [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                todo.append(node.module)
    return [seen[n] for n in sorted(seen)]


def fingerprint(*modules: str) -> str:
    digest = hashlib.sha256()
    for path in sorted({p for m in modules for p in sources(m)}):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _plain(value: Any) -> Any:
    """JSON that reads back to an equal value: tuples and fractions tagged."""
    if isinstance(value, Fraction):
        return {"fraction": str(value)}
    if isinstance(value, tuple):
        return {"tuple": [_plain(v) for v in value]}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        assert all(isinstance(k, str) for k in value) and not {"fraction", "tuple"} & set(value), value
        return {k: _plain(v) for k, v in value.items()}
    assert value is None or isinstance(value, (bool, int, str)), type(value)
    return value


def _typed(value: Any) -> Any:
    if isinstance(value, list):
        return [_typed(v) for v in value]
    if isinstance(value, dict):
        if set(value) == {"fraction"}:
            return Fraction(value["fraction"])
        if set(value) == {"tuple"}:
            return tuple(_typed(v) for v in value["tuple"])
        return {k: _typed(v) for k, v in value.items()}
    return value


def encode(value: Any) -> str:
    return json.dumps(_plain(value), sort_keys=True, separators=(",", ":"))


def decode(text: str) -> Any:
    return _typed(json.loads(text))


def write_lines(path: Path, header: dict, lines: list[str]) -> None:
    text = io.StringIO()
    text.write(json.dumps(header) + "\n")
    for line in lines:
        text.write(line + "\n")
    path.parent.mkdir(parents=True, exist_ok=True)
    # mtime 0: the same answers give the same bytes
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as out:
        out.write(text.getvalue().encode())


def read_lines(path: Path, print_: str) -> list[str] | None:
    """The record's lines after its header, or None when there is none of
    today's sources (``print_``, their fingerprint)."""
    if not path.exists():
        return None
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        if json.loads(next(lines))["fingerprint"] != print_:
            return None
        return [line.rstrip("\n") for line in lines]


class Record:
    """The answers of one reference to one test's questions."""

    def __init__(self, game: str, name: str, *reference_modules: str) -> None:
        self.path = HERE / "data" / game / f"{name}.json.gz"
        self.print = fingerprint(*reference_modules)
        lines = read_lines(self.path, self.print) or []
        self.answers = dict(line.split("\t", 1) for line in lines)
        self.asked: dict[str, str] = {}
        self.live = self.rechecked = 0

    def answer(self, index: int, question: Any, reference: Callable[[], Any]) -> Any:
        """The reference's answer to ``question`` (JSON), recorded or live."""
        key = hashlib.sha256(encode(question).encode()).hexdigest()[:24]
        kept = self.answers.get(key)
        if kept is not None and index % RECHECK_EVERY and not WRITING:
            self.asked[key] = kept
            return decode(kept)
        live = encode(reference())
        self.live += 1
        if kept is not None:
            self.rechecked += 1
            assert live == kept, (f"question {index}: the record {self.path.name} differs from the reference "
                                  f"today; rewrite it with SMOKEJUMPER_RECORD=1\nrecorded {kept}\nlive     {live}")
        self.asked[key] = live
        return decode(live)

    def close(self) -> str:
        """Writes the record when asked to; says where the answers came from."""
        if WRITING:
            write_lines(self.path, {"fingerprint": self.print, "answers": len(self.asked)},
                        [f"{k}\t{v}" for k, v in sorted(self.asked.items())])
        return (f"{len(self.asked)} answers: {len(self.asked) - self.live} recorded, {self.live} live "
                f"({self.rechecked} of them rechecked against the record)")


def kept(game: str, name: str, reference_modules: tuple[str, ...], question: Any, make: Callable[[], Any]) -> Any:
    """``make()``'s value (JSON), the answer to ``question`` (JSON: what
    ``make`` was asked), kept in ``tests/data/<game>/<name>.json.gz``. It
    is read back only for the same question and when the sources ``make``
    depends on (the reference modules, their fingerprint) are the ones that
    wrote it; else it is made there and then. Made deterministically (a
    seeded rng), it needs no recheck beyond that."""
    path = HERE / "data" / game / f"{name}.json.gz"
    print_ = fingerprint(*reference_modules)
    lines = None if WRITING else read_lines(path, print_)
    if lines is not None and lines[0] == encode(question):
        return decode(lines[1])
    value = make()
    if WRITING:
        write_lines(path, {"fingerprint": print_}, [encode(question), encode(value)])
    return value
