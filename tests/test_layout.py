"""The tests mirror the code: every folder of tests that holds Python is named for the package
or module it tests (tests/engine -> bot/engine, tests/cogs/economy -> cogs/economy,
tests/engine/match -> bot/engine/match.py), or is a tier of its own (tests/README.md); and
tests/README.md names every top-level test folder."""

from pathlib import Path

TESTS = Path(__file__).parent
ROOT = TESTS.parent
# Tiers named for what they run, not for a package: the real bot against the Discord double
# in whole flows (and the double itself), and the deployment files.
TIERS = ("e2e", "deploy")


def source(parent: Path, name: str) -> Path | None:
    """The package `parent/name/` or the module `parent/name.py`, if there is one."""
    if (parent / name / "__init__.py").is_file():
        return parent / name
    if (parent / f"{name}.py").is_file():
        return parent / f"{name}.py"
    return None


def mirrored(parts: tuple[str, ...]) -> Path | None:
    """The code a test folder mirrors: its first part a top-level package (cogs, rendering)
    or one of `bot`'s, each further part a package or module inside the one before."""
    found = source(ROOT, parts[0]) or source(ROOT / "bot", parts[0])
    for part in parts[1:]:
        if found is None or found.suffix == ".py":
            return None
        found = source(found, part)
    return found


def folders_with_python() -> list[tuple[str, ...]]:
    """Every folder under tests/ with Python files in it, as its parts below tests/."""
    return sorted({path.parent.relative_to(TESTS).parts for path in TESTS.rglob("*.py")
                   if path.parent != TESTS and "__pycache__" not in path.parts})


def test_every_test_folder_mirrors_a_package_or_is_a_tier() -> None:
    folders = folders_with_python()
    assert ("cogs", "economy") in folders and ("engine", "match") in folders  # read at all
    astray = ["tests/" + "/".join(parts) for parts in folders
              if parts[0] not in TIERS and mirrored(parts) is None]
    assert astray == [], f"name these for the package they test, or a tier: {astray}"


def test_the_readme_names_every_top_level_test_folder() -> None:
    readme = (TESTS / "README.md").read_text(encoding="utf-8")
    top = sorted({parts[0] for parts in folders_with_python()})
    assert [name for name in top if f"tests/{name}/" not in readme] == []
