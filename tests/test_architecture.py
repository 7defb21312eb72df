"""The architecture page's package table (docs/maintainers/architecture.md) names every package
of the shipped roots and every module at the top of bot/, and nothing that is not there; its
map of the Discord layer names every module of each cogs/ package, and no other."""

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


def cogs_modules_named() -> dict[str, set[str]]:
    """The modules the page's map of the Discord layer names, by their `cogs/` folder."""
    section = PAGE.read_text().split("## The Discord layer", 1)[1].split("\n## ", 1)[0]
    block = section.split("```", 2)[1]
    named: dict[str, set[str]] = {}
    folder = ""
    for line in block.splitlines():
        if heading := re.match(r"(cogs/\w+)/", line):
            folder = heading[1]
        if folder:
            named.setdefault(folder, set()).update(re.findall(r"\b(\w+)\.py\b", line))
    return named


def test_the_discord_layers_map_names_every_module_and_no_other() -> None:
    named = cogs_modules_named()
    assert {"cogs/common", "cogs/tables", "cogs/tournaments"} <= set(named)  # the map was read
    there = {str(folder.relative_to(ROOT)): {path.stem for path in folder.glob("*.py")} - {
        "__init__"} for folder in (ROOT / "cogs").iterdir() if (folder / "__init__.py").is_file()}
    assert set(named) == set(there)
    wrong = {folder: (sorted(there[folder] - named[folder]), sorted(named[folder] - there[folder]))
             for folder in there if named[folder] != there[folder]}
    assert wrong == {}, f"(missing from the map, named but not there) by folder: {wrong}"
