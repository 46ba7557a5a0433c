"""One house for every game (issue 17): a game is its own files, and no
other file names it, so that the next game is added without editing the
house. The files a game may add are listed in docs/architecture.md
("Adding a game")."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from smokejumper.games import Game, registered

ROOT = Path(__file__).resolve().parents[1]
# Prose about every game, and the test that runs the README's commands.
DOCS = {"README.md", "docs/architecture.md", "docs/benchmarks.md", "tests/test_readme.py",
        "docs/examples/hint-from-another-site.html"}


def own_files(game: Game) -> list[str]:
    """Where a game's own files may be: its C++ folder, its Python module,
    its page module, its tests, its rules page and its benchmark."""
    n = re.escape(game.name)
    return [rf"cpp/games/{n}/", rf"python/smokejumper/{n}(\.py|/)", rf"service/static/games/{n}\.js$",
            rf"tests/(.*/)?({n}|test_{n})(_[a-z_]+)?\.py$", rf"tests/data/{n}/", rf"docs/rules/{n}\.md$",
            rf"bench/{n}\.py$"]


def another_games_file(game: Game, path: str) -> bool:
    """Whether ``path`` is the engine, module, data, view, rules page or a
    test file of a game other than ``game`` (registered yet or not)."""
    m = re.match(r"(?:cpp/games/([a-z]+)/|python/smokejumper/([a-z]+)(?:\.py|\.json|/)|"
                 r"service/static/games/([a-z]+)\.js$|docs/rules/([a-z]+)\.md$|"
                 r"tests/(?:.*/)?(?:test_)?([a-z]+?)(?:_[a-z_]+)?\.py$)", path)
    return bool(m) and next(g for g in m.groups() if g) != game.name


def name_patterns(name: str, quoted: bool = True) -> re.Pattern:
    """The game's name where code or a path uses it: quoted or a path
    segment, a module or a namespace (NAME.solve, smokejumper.NAME, _core.NAME,
    sj::NAME), an import, or its test files' names. Not the bare word: one
    game's name is another's word for a burning square, said on every line
    of its rules; and in another game's own files not a quoted word either
    (``quoted`` False), where such a word may be a card's type."""
    n = re.escape(name)
    return re.compile("|".join([
        *([rf"[\"'`/]{n}[\"'`/.]"] if quoted else []), rf"\b{n}\.(?=[a-z_])", rf"^[ \t]*(?:import|from)[ \t][^\n]*\b{n}\b",
        rf"\b(?:_core|smokejumper|contract|sj|games)(?:\.|::|/){n}\b", rf"\b{n}::",
        rf"\btest_{n}\b", rf"\b{n}_(?:reference|bounds|positions|page|service|cli)\b"]), re.M)


def names(game: Game, text: str, quoted: bool = True) -> bool:
    """Whether ``text`` names the game: as code names it, or by its title."""
    if name_patterns(game.name, quoted).search(text):
        return True
    others = [g.title for g in registered() if g is not game and game.title in g.title]
    for other in others:  # a title inside another title is the other game's
        text = text.replace(other, "")
    return game.title in text


def tree() -> list[str]:
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.split()
    return [f for f in listed if (ROOT / f).is_file()]


@pytest.fixture(scope="module")
def texts() -> dict[str, str]:
    out = {}
    for f in tree():
        try:
            out[f] = (ROOT / f).read_text()
        except UnicodeDecodeError:
            continue  # not text
    return out


@pytest.mark.parametrize("game", registered(), ids=lambda g: g.name)
def test_no_file_outside_a_games_own_names_it(game: Game, texts: dict[str, str]):
    allowed = [re.compile(p) for p in own_files(game)]
    named = sorted(f for f, text in texts.items()
                   if f not in DOCS and not any(p.match(f) for p in allowed)
                   and names(game, text, quoted=not another_games_file(game, f)))
    assert named == [], f"these files name {game.title} outside its own files"


def test_the_architecture_lists_what_a_new_game_adds():
    text = (ROOT / "docs/architecture.md").read_text()
    section = text.split("## Adding a game", 1)
    assert len(section) == 2, "docs/architecture.md has no 'Adding a game' section"
    for part in ("cpp/games/<game>/", "python/smokejumper/<game>", "service/static/games/<game>.js",
                 "docs/rules/<game>.md", "tests/contract/<game>.py"):
        assert part in section[1], part
