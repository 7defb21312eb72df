"""Settings of `ofc-bot`: the environment, then a `.env` file, then the defaults.

A tiny `.env` reader instead of python-dotenv: the format needed (KEY=value, comments, quotes,
`export`) is a dozen lines, and one dependency less is one thing less to keep up to date.
Every setting is listed with its default and a comment in `.env.example`.
"""

import ipaddress
import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from bot.refusal import TRY_OFFLINE
from bot.storage.backend import foreign_scheme, is_postgres
from bot.storage.validate import MAX_CHIPS

T = TypeVar("T")

_LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

NO_TOKEN_HELP = f"""\
ofc-bot: no DISCORD_TOKEN is set, so the bot cannot connect to Discord.

To get a token:
  1. Open https://discord.com/developers/applications and click "New Application".
  2. In "Bot", click "Reset Token" and copy it.
  3. Put it in a file named .env next to where you run the bot:  DISCORD_TOKEN=your-token
     (or export DISCORD_TOKEN in your shell). See .env.example for every setting.
  4. Invite the bot: in "OAuth2" -> "URL Generator", tick the scopes "bot" and
     "applications.commands", and the permissions View Channels, Send Messages, Embed Links,
     Attach Files, Read Message History and Use Application Commands, and for tournaments and
     /ofc practice (played in threads) Create Public Threads and Send Messages in Threads;
     open the URL and pick your server.
  5. Run `ofc-bot` again (first time: `ofc-bot --sync`, or set OFC_DEV_GUILD to your server's
     id for instant commands there).

To try the game without Discord, let computer players play it out:
  {TRY_OFFLINE}
"""


class ConfigError(ValueError):
    """A setting with a value that cannot be used; the message names it."""


@dataclass(frozen=True, slots=True)
class Settings:
    token: str | None = None  # DISCORD_TOKEN
    database: str = "ofc.sqlite3"  # OFC_DATABASE: an SQLite file or a postgresql:// URL
    dev_guild: int | None = None  # OFC_DEV_GUILD: commands copied and synced there at start
    log_level: str = "INFO"  # OFC_LOG_LEVEL
    starting_chips: int = 1000  # OFC_STARTING_CHIPS: a new wallet's balance (R12)
    daily_chips: int = 200  # OFC_DAILY_CHIPS: one /ofc daily claim
    ai_delay_seconds: float = 1.5  # OFC_AI_DELAY_SECONDS: a computer seat's pause before acting
    next_hand_seconds: float = 8.0  # OFC_NEXT_HAND_SECONDS: pause after a showdown
    lobby_idle_minutes: float = 15.0  # OFC_LOBBY_IDLE_MINUTES: an untouched lobby then expires
    table_edit_seconds: float = 1.5  # OFC_TABLE_EDIT_SECONDS: at most one table edit this often
    # OFC_WORKERS: worker processes for computer decisions, solves and images; None: the cores
    # this process may use, from 2 to 32; 0: none, that work runs in the bot's process on a
    # thread
    workers: int | None = None
    # OFC_SHARD_LEASE_SECONDS: a shard's lease lasts this long unless renewed (every third of
    # it); a process that died holds its shards this long before a replacement may take them
    shard_lease_seconds: float = 30.0
    # OFC_RELAY_ADDRESS: host:port where a sharded process takes the clicks in DMs that
    # Discord sends to shard 0's process for its tables (port 0: any free port)
    relay_address: str = "127.0.0.1:0"
    # OFC_RELAY_TLS_CERT, OFC_RELAY_TLS_KEY: PEM files; with them the relay takes HTTPS only
    # (processes on several machines: the clicks carry Discord's interaction tokens).
    # OFC_RELAY_TLS_CA: what the other processes' certificates are checked against (None:
    # the certificate itself, one shared by every process)
    relay_tls_cert: str | None = None
    relay_tls_key: str | None = None
    relay_tls_ca: str | None = None
    metrics_port: int | None = None  # OFC_METRICS_PORT: /health and /metrics there; None: off
    metrics_host: str = "127.0.0.1"  # OFC_METRICS_HOST: the address that port listens on

    @property
    def worker_count(self) -> int:
        """OFC_WORKERS, or its default (`default_workers`)."""
        return default_workers() if self.workers is None else self.workers

    @property
    def log_level_number(self) -> int:
        return int(logging.getLevelName(self.log_level))


ENV_FILE = ".env"  # read if it is there; a file named with --env-file must be


def named_env_file_missing(path: str | Path) -> str | None:
    """Why a settings file given with --env-file cannot be read: it was named, so meant, and
    running on the defaults instead (a new, empty database) would be wrong. None when it is
    there, or is the default `.env`."""
    if str(path) != ENV_FILE and not Path(path).exists():
        return f"the settings file {path} does not exist"
    return None


def read_dotenv(path: str | Path) -> dict[str, str]:
    """KEY=value lines of a .env file: `#` comments, blank lines, an optional `export `, and
    values in single or double quotes are understood. A missing file is an empty mapping; one
    that cannot be read (a folder, no permission, not UTF-8) is a ConfigError naming it."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except UnicodeDecodeError:
        raise ConfigError(f"{path} is not UTF-8 text") from None
    except OSError as error:
        raise ConfigError(f"{path} cannot be read: {error.strerror or error}") from None
    values: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        line = line.removeprefix("export ").lstrip()
        key, sep, value = line.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key.isidentifier():
            raise ConfigError(f"{path}, line {number}: expected KEY=value, got {raw.strip()!r}")
        if value[:1] in ("'", '"'):
            value = _unquoted(value, f"{path}, line {number}", key)
        elif " #" in value:  # an unquoted value may carry a trailing comment
            value = value.split(" #", 1)[0].rstrip()
        values[key] = value
    return values


def _unquoted(value: str, where: str, key: str) -> str:
    """A quoted value without its quotes, and without a comment after them. A quote left
    open would otherwise be read into the value: a database named `"ofc.sqlite3`, new and
    empty, beside the real one."""
    end = value.find(value[0], 1)
    rest = value[end + 1:].strip() if end > 0 else None
    if rest is None or (rest and not rest.startswith("#")):
        raise ConfigError(f"{where}: the quote that opens the value of {key} is not closed "
                          f"where the value ends")
    return value[1:end]


def load_settings(environ: Mapping[str, str] | None = None,
                  dotenv: str | Path | None = ".env") -> Settings:
    """Settings from `environ` (default os.environ), falling back to the `.env` file."""
    env = dict(read_dotenv(dotenv)) if dotenv is not None else {}
    env.update(os.environ if environ is None else environ)  # the real environment wins

    def get(name: str, parse: Callable[[str, str], T], default: T) -> T:
        raw = env.get(name, "").strip()
        return parse(name, raw) if raw else default

    defaults = Settings()
    level = get("OFC_LOG_LEVEL", _level, defaults.log_level)
    settings = Settings(
        token=get("DISCORD_TOKEN", _text, None),
        database=get("OFC_DATABASE", _database, defaults.database),
        dev_guild=get("OFC_DEV_GUILD", _snowflake, None),
        log_level=level,
        starting_chips=get("OFC_STARTING_CHIPS", _chips, defaults.starting_chips),
        daily_chips=get("OFC_DAILY_CHIPS", _chips, defaults.daily_chips),
        ai_delay_seconds=get("OFC_AI_DELAY_SECONDS", _seconds, defaults.ai_delay_seconds),
        next_hand_seconds=get("OFC_NEXT_HAND_SECONDS", _seconds, defaults.next_hand_seconds),
        lobby_idle_minutes=get("OFC_LOBBY_IDLE_MINUTES", _minutes, defaults.lobby_idle_minutes),
        table_edit_seconds=get("OFC_TABLE_EDIT_SECONDS", _seconds, defaults.table_edit_seconds),
        workers=get("OFC_WORKERS", _workers, defaults.workers),
        shard_lease_seconds=get("OFC_SHARD_LEASE_SECONDS", _lease, defaults.shard_lease_seconds),
        relay_address=get("OFC_RELAY_ADDRESS", _address, defaults.relay_address),
        relay_tls_cert=get("OFC_RELAY_TLS_CERT", _text, None),
        relay_tls_key=get("OFC_RELAY_TLS_KEY", _text, None),
        relay_tls_ca=get("OFC_RELAY_TLS_CA", _text, None),
        metrics_port=get("OFC_METRICS_PORT", _port, None),
        metrics_host=get("OFC_METRICS_HOST", _text, defaults.metrics_host),
    )
    if (settings.relay_tls_cert is None) != (settings.relay_tls_key is None) or (
            settings.relay_tls_ca is not None and settings.relay_tls_cert is None):
        raise ConfigError("OFC_RELAY_TLS_CERT and OFC_RELAY_TLS_KEY go together (a "
                          "certificate and its private key), and OFC_RELAY_TLS_CA needs them")
    return settings


MIN_WORKERS, MAX_WORKERS = 2, 32  # the default's bounds


def default_workers() -> int:
    """One worker process per core this process may use (its CPU affinity, as a container's
    cpuset sets it), from 2 to 32. Images come in bursts (tables dealing and showing down
    together) while the event loop mostly waits on the network, so the workers may use every
    core; at least 2, so that one keeps drawing people's prompts while a computer thinks in
    the other (bot/process/workers.py); at most 32, where the one event loop feeding them is
    long saturated."""
    return max(MIN_WORKERS, min(MAX_WORKERS, usable_cores()))


def usable_cores() -> int:
    """The cores this process may run on (all of the machine's where affinity is unknown)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _text(name: str, raw: str) -> str:
    return raw


def _database(name: str, raw: str) -> str:
    """An SQLite file (a path, or sqlite:PATH) or a postgresql:// URL; any other URL is a
    mistake, named by its scheme only (a URL may hold a password). SQLite's database in
    memory is refused: everything in it would be gone at the next stop."""
    if (scheme := foreign_scheme(raw)) is not None:
        raise ConfigError(f"{name} must be an SQLite file or a postgresql:// URL, not a "
                          f"{scheme}:// URL")
    if raw == "sqlite:":
        raise ConfigError(f"{name} must name a file after sqlite:")
    if raw.removeprefix("sqlite:") == ":memory:":
        raise ConfigError(f"{name} must name a file, not an SQLite database in memory (lost "
                          "at each stop)")
    if not is_postgres(raw):
        # Told here, naming the setting: SQLite would report only the lock file it cannot create.
        folder = Path(raw.removeprefix("sqlite:")).parent
        if folder.is_file():
            raise ConfigError(f"{name} is {raw}, but {folder} is a file, not a folder: correct "
                              "the path")
        if not folder.is_dir():
            raise ConfigError(f"{name} is {raw}, but the folder {folder} does not exist: "
                              "create it, or correct the path")
    return raw


def _whole(name: str, raw: str) -> int:
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, not {raw!r}") from None
    if value < 0:
        raise ConfigError(f"{name} must not be negative")
    return value


def _chips(name: str, raw: str) -> int:
    """An amount of chips, within what a server's admins may set (/ofc-admin settings)."""
    value = _whole(name, raw)
    if value > MAX_CHIPS:
        raise ConfigError(f"{name} must be from 0 to {MAX_CHIPS} chips")
    return value


def _workers(name: str, raw: str) -> int:
    value = _whole(name, raw)
    if value > 64:
        raise ConfigError(f"{name} must be from 0 to 64 worker processes")
    return value


def _port(name: str, raw: str) -> int:
    value = _whole(name, raw)
    if not 1 <= value <= 65535:
        raise ConfigError(f"{name} must be a port number from 1 to 65535")
    return value


def _address(name: str, raw: str) -> str:
    split_address(raw, name)
    return raw


def split_address(address: str, name: str) -> tuple[str, int]:
    """The host (IPv6 without its brackets) and port of a relay's `host:port`. The address
    is published to the other processes, so a wildcard (0.0.0.0, ::), which would send each
    of them to its own machine, is refused."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise ConfigError(f"{name} must be host:port (port 0: any free port), not {address!r}")
    host = host.removeprefix("[").removesuffix("]")
    try:
        wildcard = ipaddress.ip_address(host).is_unspecified
    except ValueError:  # a name
        wildcard = host == "*"
    if wildcard:
        raise ConfigError(
            f"{name} must name the address the other processes of the bot can reach this "
            f"one at (this machine's name or IP address), not the wildcard {host}: it is "
            "published to them, and they would each connect to their own machine")
    return host, int(port)


def _snowflake(name: str, raw: str) -> int:
    value = _whole(name, raw)
    if not 0 < value < 2**63:  # every Discord id fits in 63 bits
        raise ConfigError(f"{name} must be a server id (right-click the server: Copy Server ID)")
    return value


def _number(unit: str, low: float, high: float) -> Callable[[str, str], float]:
    def parse(name: str, raw: str) -> float:
        try:
            value = float(raw)
        except ValueError:
            raise ConfigError(f"{name} must be a number of {unit}, not {raw!r}") from None
        if not low <= value <= high:
            raise ConfigError(f"{name} must be from {low:g} to {high:g} {unit}")
        return value

    return parse


_seconds = _number("seconds", 0, 3600)
_minutes = _number("minutes", 1, 7 * 24 * 60)
_lease = _number("seconds", 3, 600)


def _level(name: str, raw: str) -> str:
    level = raw.upper()
    if level not in _LOG_LEVELS:
        raise ConfigError(f"{name} must be one of {', '.join(_LOG_LEVELS)}, not {raw!r}")
    return level
