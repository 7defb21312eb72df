"""The documentation says what the code does, where a claim can be checked mechanically and
would otherwise drift: the settings tables (README.md, docs/admins/settings.md) against what
bot/config.py reads; the slash commands and options every page names, README.md's command
table and the limits page's lengths and ranges against the commands the bot publishes
(`ofc-bot --export-commands`), and its per-member limits against the Limits that guard the
commands and controls, and the tournaments page's cooldowns and caps against the
director's; the repository paths and README.md's links against the files;
the dependencies, benchmark figures and snapshot versions against pyproject.toml, `ofc bench`
and the snapshot codec; the schema versions the admin pages quote against the migrations; the
words the playing page quotes from the bot, in every language, against the catalogues."""

import asyncio
import json
import re
import tempfile
import tomllib
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from bot.app import OFCBot, export_commands
from bot.cli.bench import FIGURES
from bot.config import MAX_WORKERS, MIN_WORKERS, Settings
from bot.engine.rules import OPTIONS
from bot.i18n.catalogue import FILES, PO_DIR
from bot.storage.migrations import LATEST
from bot.tables.snapshot_versions import CURRENT
from bot.tournaments.limits import TournamentLimits
from cogs.common.interactions import Limit
from cogs.tables.controls import BEST, SUGGEST

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
SETTINGS_PAGE = ROOT / "docs" / "admins" / "settings.md"
# Shows the commands' translated names (`/ofc skapa`), which are Discord's, not the code's.
LOCALIZED_NAMES = ROOT / "docs" / "languages.md"
# Named as what the bot does not have ("a group of its own, not `/ofc admin`").
NOT_COMMANDS = {"/ofc admin"}


def settings_read() -> dict[str, str]:
    """Each environment variable load_settings reads, and the Settings field it sets (named
    for it: OFC_DEV_GUILD sets dev_guild, DISCORD_TOKEN token)."""
    source = (ROOT / "bot" / "config.py").read_text(encoding="utf-8")
    return {name: name.removeprefix("OFC_").removeprefix("DISCORD_").lower()
            for name in re.findall(r'\bget\("(\w+)"', source)}


def settings_table(page: Path) -> dict[str, str]:
    """A page's settings table: each `NAME` of its first column, and its default cell."""
    rows = re.findall(r"^\| `([A-Z_]+)` \| ([^|]*) \|", page.read_text(encoding="utf-8"),
                      flags=re.MULTILINE)
    return dict(rows)


def default_is_stated(name: str, field: str, cell: str) -> bool:
    default = getattr(Settings(), field)
    if name == "OFC_WORKERS":  # None: the usable cores, within the bounds the cell states
        return f"{MIN_WORKERS} to {MAX_WORKERS}" in cell
    if default is None:
        return cell.startswith("(")  # "(none)", "(off)"
    shown = f"{default:g}" if isinstance(default, float) else str(default)
    return f"`{shown}`" in cell


def test_the_settings_page_names_every_setting_with_its_default() -> None:
    read, page = settings_read(), settings_table(SETTINGS_PAGE)
    assert "OFC_DATABASE" in read and "OFC_METRICS_HOST" in read  # the parser was read
    assert sorted(set(read) - set(page)) == [], "settings missing from the page"
    assert sorted(set(page) - set(read)) == [], "the page names settings the bot ignores"
    wrong = [name for name, cell in page.items() if not default_is_stated(name, read[name], cell)]
    assert wrong == [], f"defaults that are not the code's: {wrong}"


def test_the_readme_settings_are_real_with_their_defaults() -> None:
    read, table = settings_read(), settings_table(README)
    assert "DISCORD_TOKEN" in table
    assert sorted(set(table) - set(read)) == []
    assert [name for name, cell in table.items()
            if not default_is_stated(name, read[name], cell)] == []


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """The commands as `ofc-bot --export-commands` writes them, as they reach Discord."""
    path = tmp_path_factory.mktemp("commands") / "commands.json"
    assert asyncio.run(export_commands(str(path))) == 0
    commands: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return commands


SUBCOMMAND, GROUP = 1, 2  # Discord's option types for a subcommand and a subcommand group


def children(command: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {o["name"]: o for o in command.get("options") or ()
            if o["type"] in (SUBCOMMAND, GROUP)}


def leaves(command: dict[str, Any], prefix: str = "") -> list[str]:
    """Every runnable command under `command`, by its full name ("ofc tournament warn")."""
    name = f"{prefix}{command['name']}"
    below = children(command)
    if not below:
        return [name]
    return [leaf for child in below.values() for leaf in leaves(child, f"{name} ")]


def mentions(text: str) -> list[str]:
    """Every code span of `text` that starts with a slash command."""
    return re.findall(r"`(/ofc(?:-admin)?(?: [^`]*)?)`", text)


def resolve(mention: str, tops: dict[str, dict[str, Any]]) -> tuple[dict[str, Any], list[str]]:
    """The command a mention names ("/ofc tournament warn ..."), and the words after it."""
    tokens = mention.split()
    command, rest = tops[tokens[0].removeprefix("/")], tokens[1:]
    while rest and rest[0] in children(command):
        command, rest = children(command)[rest[0]], rest[1:]
    return command, rest


def problems_of(mention: str, tops: dict[str, dict[str, Any]]) -> list[str]:
    """What in one mention (`/ofc create hints:on`, `/ofc-admin grant member amount reason`,
    `/ofc practice [level] [hands]`) is not a published command or option."""
    command, rest = resolve(mention.replace("[table options]", "[options]"), tops)
    if children(command):  # a group: only "..." or nothing may follow its subcommands
        return [f"{mention!r}: no subcommand {rest[0]!r}"] if rest and rest[0] != "..." else []
    options = {o["name"] for o in command.get("options") or ()}
    found, in_value = [], False
    for token in rest:
        name = token.split(":", 1)[0].strip("[]")
        if ":" not in token and in_value:  # more of a value ("controls:by direct message")
            continue
        in_value = ":" in token
        if name not in (*options, "...", "options"):  # "[options]", "[...]": any of them
            found.append(f"{mention!r}: {command['name']} has no option {name!r}")
    return found


def test_every_command_and_option_the_docs_name_is_published(
        published: list[dict[str, Any]]) -> None:
    tops = {command["name"]: command for command in published}
    assert set(tops) == {"ofc", "ofc-admin"}
    pages = [README, *sorted((ROOT / "docs").rglob("*.md"))]
    found = [f"{page.relative_to(ROOT)}: {problem}"
             for page in pages if page != LOCALIZED_NAMES
             for mention in mentions(page.read_text(encoding="utf-8"))
             if mention not in NOT_COMMANDS
             for problem in problems_of(mention, tops)]
    assert found == [], "\n".join(found)


def brackets_of(mention: str, tops: dict[str, dict[str, Any]]) -> list[str]:
    """What in one usage (`/ofc practice [level] [hands]`, `/ofc-admin grant member amount
    reason`) shows an option Discord requires in brackets, or an optional one without."""
    command, rest = resolve(mention, tops)
    required = {o["name"]: o.get("required", False) for o in command.get("options") or ()}
    found = []
    for token in rest:
        name = token.strip("[]")
        if ":" in token or name not in required:  # a value given, "...", "[options]"
            continue
        if token.startswith("[") and required[name]:
            found.append(f"{mention!r}: {name} is required, shown as optional")
        elif not token.startswith("[") and not required[name]:
            found.append(f"{mention!r}: {name} is optional, shown as required")
    return found


def test_the_docs_show_required_options_bare_and_optional_ones_in_brackets(
        published: list[dict[str, Any]]) -> None:
    tops = {command["name"]: command for command in published}
    pages = [README, *sorted((ROOT / "docs").rglob("*.md"))]
    usages = [(page, mention) for page in pages if page != LOCALIZED_NAMES
              for mention in mentions(page.read_text(encoding="utf-8"))
              if mention not in NOT_COMMANDS]
    assert any(mention == "/ofc practice [level] [hands]" for _, mention in usages)
    found = [f"{page.relative_to(ROOT)}: {problem}" for page, mention in usages
             for problem in brackets_of(mention, tops)]
    assert found == [], "\n".join(found)


def test_the_readme_command_table_names_every_command(published: list[dict[str, Any]]) -> None:
    rows = [line for line in README.read_text(encoding="utf-8").splitlines()
            if line.startswith("| `/ofc")]
    table = "\n".join(rows)
    missing = []
    for leaf in (leaf for command in published for leaf in leaves(command)):
        group, _, last = leaf.rpartition(" ")
        listed = f"`/{leaf}`" in table or f"`/{leaf} " in table or any(
            row.startswith(f"| `/{group} ...`") and f"`{last}`" in row for row in rows)
        if not listed:
            missing.append(leaf)
    assert len(rows) > 20  # the table was read
    assert missing == [], f"commands missing from README.md's table: {missing}"
    tops = {command["name"]: command for command in published}
    usages = [mention for row in rows for mention in mentions(row)]
    bare = [f"{usage}: lacks {option['name']}" for usage in usages
            for command, rest in [resolve(usage, tops)] if not children(command)
            for option in command.get("options") or ()
            if option.get("required") and option["name"] not in rest]
    assert bare == [], f"README.md's table leaves out required options: {bare}"


def test_the_readmes_relative_links_lead_to_files() -> None:
    text = README.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text)
    assert "docs/index.md" in targets
    assert [t for t in targets if "://" not in t and not (ROOT / t).exists()] == []


LIMITS_PAGE = ROOT / "docs" / "admins" / "limits.md"
STRING = 3  # Discord's option type for text


def options_by_command(published: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Every option of every runnable command, by "/command option" ("/ofc solve cards")."""
    found: dict[str, dict[str, Any]] = {}

    def walk(command: dict[str, Any], name: str) -> None:
        for option in command.get("options") or ():
            if option["type"] in (SUBCOMMAND, GROUP):
                walk(option, f"{name} {option['name']}")
            else:
                found[f"{name} {option['name']}"] = option
    for command in published:
        walk(command, f"/{command['name']}")
    return found


def limits_rows() -> list[tuple[str, str, int, int]]:
    """(command, option, low, high) for each command and option of the limits page's tables
    of lengths and ranges ("| `/ofc score` | `player1` … `player4`, `in_fantasy` | 1 – 200 |")."""
    rows = []
    for commands, options, low, high in re.findall(
            r"^\| (`/ofc[^|]*) \| (`[^|]*) \| ([\d,]+) – ([\d,]+)\b", LIMITS_PAGE.read_text(
                encoding="utf-8"), flags=re.MULTILINE):
        names = re.findall(r"`(\w+)`", options)
        if "…" in options:  # `player1` … `player4`
            first, last = names[0], names[1]
            names[:2] = [f"{first[:-1]}{n}" for n in range(int(first[-1]), int(last[-1]) + 1)]
        rows += [(command, name, int(low.replace(",", "")), int(high.replace(",", "")))
                 for command in re.findall(r"`(/[^`]+)`", commands) for name in names]
    return rows


def test_the_limits_page_states_the_published_lengths_and_ranges(
        published: list[dict[str, Any]]) -> None:
    options, rows = options_by_command(published), limits_rows()
    assert ("/ofc score", "player3", 1, 200) in rows  # the tables were read
    wrong = []
    for command, name, low, high in rows:
        option = options.get(f"{command} {name}", {})
        bounds = ((option.get("min_length"), option.get("max_length"))
                  if option.get("type") == STRING else
                  (option.get("min_value"), option.get("max_value")))
        if bounds != (low, high):
            wrong.append(f"{command} {name}: the page says {low}-{high}, published {bounds}")
    assert wrong == [], "\n".join(wrong)
    typed = {f"{command} {name}" for command, name, _, _ in rows}
    text = [name for name, option in options.items()
            if option["type"] == STRING and not option.get("choices") and name not in typed]
    assert text == [], f"text options missing from the page's table of lengths: {text}"


def limits_of_commands() -> dict[str, tuple[int, float]]:
    """(uses, seconds) of each slash command a per-member Limit guards, by "/ofc score"."""
    async def load(folder: Path) -> dict[str, tuple[int, float]]:
        bot = OFCBot(Settings(database=str(folder / "limits.sqlite3"), workers=0))
        try:
            await bot.load_cogs()
            return {f"/{command.qualified_name}": (cell.uses, cell.seconds)
                    for command in bot.tree.walk_commands()
                    for check in getattr(command, "checks", ())
                    for cell in (c.cell_contents for c in check.__closure__ or ())
                    if isinstance(cell, Limit)}
        finally:
            await bot.close()
    with tempfile.TemporaryDirectory() as folder:
        return asyncio.run(load(Path(folder)))


def test_the_limits_page_states_each_per_member_limit() -> None:
    rows = re.findall(r"^\| (.*?) \| (\d+) \| (\d+) s \|", LIMITS_PAGE.read_text(
        encoding="utf-8"), flags=re.MULTILINE)
    page = {}
    for what, uses, seconds in rows:
        name = (re.match(r"`(/ofc[^`]*)`", what) or re.match(r"\*\*(\w+)\*\*", what))
        assert name, what
        page[name.group(1)] = (int(uses), float(seconds))
    code = {**limits_of_commands(), "Suggest": (SUGGEST.uses, SUGGEST.seconds),
            "Solve": (BEST.uses, BEST.seconds)}
    assert "/ofc score" in code and "/ofc review" in page  # the code and the page were read
    assert page == code


def test_the_tournaments_page_states_the_cooldowns_and_caps() -> None:
    page = (ROOT / "docs" / "players" / "tournaments.md").read_text(encoding="utf-8")
    table = page.split("| what | per member | per server |", 1)[1].split("\n\n", 1)[0]
    first_numbers = [(int(re.findall(r"\d+", member)[0]), int(re.findall(r"\d+", server)[0]))
                     for member, server in re.findall(r"^\| [^|]+ \| ([^|]+) \| ([^|]+) \|$",
                                                      table, flags=re.MULTILINE)]
    limits = TournamentLimits()
    assert first_numbers == [
        (limits.create_member_seconds, limits.create_server_seconds),
        (limits.computer_member_seconds, limits.computer_server_seconds),
        (limits.start_member_seconds, limits.start_server_seconds),
        (limits.live_per_member, limits.live_per_server),
        (limits.computers_per_tournament, limits.computers_per_server),
        (limits.computer_tables_per_member, limits.computer_tables_per_server)]


def test_every_file_of_the_repository_the_docs_name_is_there() -> None:
    """A path such as `bot/engine/rules.py` or `tests/e2e/` on any page names a file or
    folder of the repository (not /opt/ofc-bot/.env, nor a template like `v<new>.json`)."""
    pages = [README, ROOT / "tests" / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    path = re.compile(r"(?<![\w/.-])((?:bot|cogs|rendering|tests|deploy|docs)/[\w./-]*\w)"
                      r"(?![\w<])")
    named = {(page.relative_to(ROOT), found) for page in pages
             for found in path.findall(page.read_text(encoding="utf-8"))}
    assert (Path("README.md"), "deploy/ofc-bot.service") in named  # the pages were read
    assert sorted(f"{page}: {found}" for page, found in named
                  if not (ROOT / found).exists()) == []


def test_the_dependencies_page_names_every_dependency() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    required = [*project["dependencies"],
                *(d for extra in project["optional-dependencies"].values() for d in extra)]
    names = [re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0] for requirement in required]
    page = (ROOT / "docs" / "maintainers" / "dependencies.md").read_text(encoding="utf-8").lower()
    assert "openskill" in names and "mkdocs-material" in names  # pyproject was read
    assert [name for name in names if name.lower() not in page] == []


def test_the_benchmarks_page_lists_every_figure_of_ofc_bench() -> None:
    page = (ROOT / "docs" / "maintainers" / "benchmarks.md").read_text(encoding="utf-8")
    table = page.split("| figure | what |", 1)[1].split("\n\n", 1)[0]
    listed = {key for first, second in re.findall(
        r"^\| `(\w+)`(?: / `(\w+)`)? \|", table, flags=re.MULTILINE) for key in (first, second)}
    assert "eval5_per_s" in listed  # the table was read
    assert sorted(set(FIGURES) - listed) == [] and sorted(listed - set(FIGURES) - {""}) == []


def test_the_snapshots_page_lists_every_snapshot_version() -> None:
    page = (ROOT / "docs" / "maintainers" / "snapshots.md").read_text(encoding="utf-8")
    listed = [int(n) for n in re.findall(r"^\| (\d+) \|", page, flags=re.MULTILINE)]
    assert listed == list(range(1, CURRENT + 1))


def test_the_schema_versions_the_pages_quote_are_the_current_one() -> None:
    """The refusal of a newer database and a backup's line name the schema version a bot of
    today writes: a migration added changes them."""
    pages = {page: page.read_text(encoding="utf-8")
             for page in (ROOT / "docs" / "admins").glob("*.md")}
    newer = [(page.name, int(found), int(bot)) for page, text in pages.items()
             for found, bot in re.findall(r"schema version (\d+) is newer than this bot \((\d+)\)",
                                          text)]
    backups = [(page.name, int(n)) for page, text in pages.items()
               for n in re.findall(r"schema version (\d+), SQLite's quick_check", text)]
    assert newer and backups  # the pages were read
    assert [n for n in newer if n[1:] != (LATEST + 1, LATEST)] == []
    assert [b for b in backups if b[1] != LATEST] == []


def catalogue_texts() -> list[str]:
    """Every English text of the bot and every translation, without its bold marks."""
    texts = []
    for name in FILES.values():
        with (PO_DIR / f"{name}.po").open("rb") as po:
            for message in read_po(po, locale=name):
                for text in (*_forms(message.id), *_forms(message.string)):
                    texts.append(text.replace("**", ""))
    return texts


def _forms(text: object) -> tuple[str, ...]:
    return tuple(str(t or "") for t in text) if isinstance(text, tuple) else (str(text or ""),)


def test_the_words_the_playing_page_quotes_are_the_bots() -> None:
    """The page's italics quote what the bot writes (*död hand*, *Готово*, the Swedish images'
    *FANTASYLAND*); a number, a name or a clock Discord draws ("in 59 seconds") stands for
    any ("+72 фишки", "#ofc-friday · Hand 2")."""
    page = (ROOT / "docs" / "players" / "playing.md").read_text(encoding="utf-8")
    quoted = re.findall(r"(?<![*\w])\*([^*\n]+)\*(?!\*)", page)
    texts = catalogue_texts()
    assert "död hand" in quoted and len(texts) > 1000  # the page and the catalogues were read
    missing = [words for words in quoted
               if not all(any(part.strip(" ·") in text for text in texts)
                          for part in re.split(r"in \d+ seconds|[\d…]+|Alice|#[\w-]+", words)
                          if part.strip(" .·:"))]
    assert missing == [], "quoted on docs/players/playing.md, but not what the bot writes"


def test_the_options_the_tables_page_leaves_out_of_create_are_those_it_lacks(
        published: list[dict[str, Any]]) -> None:
    """"Every table option is a slash option of `/ofc create` (but ...)": the options named in
    those brackets are the table options `/ofc create` does not publish, and only they."""
    page = (ROOT / "docs" / "players" / "tables.md").read_text(encoding="utf-8")
    found = re.search(r"is a slash option of `/ofc create` \(but ([^)]*)\)", page)
    assert found, "the sentence was read"
    named = set(re.findall(r"`(\w+)`", found[1]))
    create = children(next(c for c in published if c["name"] == "ofc"))["create"]
    lacking = set(OPTIONS) - {o["name"] for o in create.get("options") or ()}
    assert "clock" in lacking  # the options were read
    assert sorted(named) == sorted(lacking)
