"""A throwaway PostgreSQL server for the tests and `ofc bench`, never for the bot.

It runs the server binaries installed on this machine (Debian's `postgresql` package puts them
in /usr/lib/postgresql/VERSION/bin; elsewhere `initdb` on the PATH) in a temporary folder,
listening only on a unix socket there, and removes everything when stopped. PostgreSQL refuses
to run as root, so under root (CI) the server runs as the `postgres` user, which owns the
folder; otherwise as the current user.
"""

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import asyncpg

PORT = 5432  # only names the socket file: the server listens on no TCP port
SUPERUSER = "postgres"
_SEARCHED = "/usr/lib/postgresql/*/bin"
# Durability off: a test's database is thrown away, and fsyncs are most of its time.
_FAST = ("-c fsync=off -c synchronous_commit=off -c full_page_writes=off")


class Unavailable(Exception):
    """The server cannot run here; the message says why (for a skip or a note)."""


def binaries() -> Path:
    """The folder of `initdb` and `pg_ctl`: on the PATH, else Debian's newest version."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).parent
    for folder in sorted(glob.glob(_SEARCHED), key=_version, reverse=True):
        if all(os.access(Path(folder) / name, os.X_OK) for name in ("initdb", "pg_ctl")):
            return Path(folder)
    raise Unavailable(
        f"no PostgreSQL server binaries (initdb, pg_ctl) on the PATH or in {_SEARCHED}: "
        "install Debian's postgresql package")


def _version(folder: str) -> tuple[int, ...]:
    name = Path(folder).parent.name
    return tuple(int(part) for part in name.split(".") if part.isdigit())


class TempServer:
    """`with TempServer() as server:` ... `server.url("postgres")` ...; `durable=True`
    keeps PostgreSQL's default durability (each commit flushed to disk), as the bot's server
    would have it: for benchmarks."""

    def __init__(self, *, durable: bool = False) -> None:
        self.durable = durable
        self.folder: Path | None = None
        self._bin = binaries()
        self._as: list[str] = []
        self._owner: pwd.struct_passwd | None = None
        if os.geteuid() == 0:
            try:
                self._owner = pwd.getpwnam(SUPERUSER)
            except KeyError:
                raise Unavailable("PostgreSQL refuses to run as root, and there is no "
                                  f"'{SUPERUSER}' user to run it as") from None
            self._as = ["runuser", "-u", SUPERUSER, "--"]

    def __enter__(self) -> "TempServer":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def url(self, database: str) -> str:
        if self.folder is None:
            raise RuntimeError("the server is not running")
        return f"postgresql://{SUPERUSER}@/{database}?host={self.folder}&port={PORT}"

    def start(self) -> None:
        folder = Path(tempfile.mkdtemp(prefix="ofc-pg-"))
        self.folder = folder
        if self._owner is not None:
            os.chown(folder, self._owner.pw_uid, self._owner.pw_gid)
        data = folder / "data"
        options = f"-c listen_addresses='' -k {folder} -p {PORT} -c max_connections=200"
        if not self.durable:
            options += f" {_FAST}"
        try:
            self._run("initdb", "-D", str(data), "-U", SUPERUSER, "--auth=trust", "--no-sync",
                      "-E", "UTF8", "--locale=C")
            self._run("pg_ctl", "-D", str(data), "-l", str(folder / "log"), "-w", "-t", "60",
                      "-o", options, "start")
        except Unavailable:
            self.stop()
            raise

    def stop(self) -> None:
        if self.folder is None:
            return
        if (self.folder / "data" / "postmaster.pid").exists():
            with contextlib.suppress(Unavailable):
                self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "fast", "-w",
                          "stop")
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = None

    def _run(self, program: str, *args: str) -> None:
        command = [*self._as, str(self._bin / program), *args]
        done = subprocess.run(command, cwd=self.folder, capture_output=True, text=True,
                              check=False)
        if done.returncode:
            log = self.folder / "log" if self.folder else None
            tail = log.read_text(errors="replace")[-600:] if log and log.exists() else ""
            raise Unavailable(f"{program} failed ({done.returncode}): "
                              f"{(done.stderr or done.stdout).strip()[-600:]} {tail}".strip())

    async def create_database(self, name: str, *, template: str | None = None) -> str:
        """A new database (a copy of `template`, if given); its URL."""
        conn = await asyncpg.connect(self.url("postgres"))
        try:
            copy = f' TEMPLATE "{template}"' if template else ""
            await conn.execute(f'CREATE DATABASE "{name}"{copy}')
        finally:
            await conn.close()
        return self.url(name)

    async def drop_database(self, name: str) -> None:
        """Drop a database, closing whatever connections are still open to it."""
        conn = await asyncpg.connect(self.url("postgres"))
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()
