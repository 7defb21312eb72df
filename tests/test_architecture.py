"""The architecture page's package table (docs/maintainers/architecture.md) names every package
of the shipped roots and every module at the top of bot/, and nothing that is not there."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "maintainers" / "architecture.md"


def documented() -> set[str]:
    """The first column of the table under '## Packages'."""
    section = PAGE.read_text().split("## Packages", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([\w.]+)` \|", section, flags=re.MULTILINE))


def in_the_tree() -> set[str]:
    packages = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for root in ("bot", "cogs", "rendering")
        for init in (ROOT / root).rglob("__init__.py")
    }
    modules = {f"bot.{path.stem}" for path in (ROOT / "bot").glob("*.py")
               if path.stem != "__init__"}
    return packages | modules


def test_the_page_lists_every_package_and_no_other() -> None:
    tree, page = in_the_tree(), documented()
    assert not tree - page, f"packages missing from {PAGE.name}: {sorted(tree - page)}"
    assert not page - tree, f"{PAGE.name} names what is not there: {sorted(page - tree)}"


def test_the_check_reads_the_table() -> None:
    assert {"bot.engine", "bot.cli.bench", "bot.app", "rendering"} <= documented()
