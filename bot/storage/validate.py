"""Argument checks: refuse bad input with a clear message before anything is written."""

from bot.storage.errors import InvalidInput

MAX_CHIPS = 10**12  # far above any real amount, far below SQLite's 64-bit limit when summed
MAX_KEY_LENGTH = 200
_INT64 = 2**63


def _int(value: object) -> int | None:
    """`value` if it is a true int (bool is not a number of chips), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def snowflake(name: str, value: object) -> int:
    """A Discord id (guild, channel, message): a positive 64-bit integer."""
    n = _int(value)
    if n is None or not 0 < n < _INT64:
        raise InvalidInput(f"{name} must be a positive 64-bit integer, not {value!r}")
    return n


def player(value: object) -> int:
    """A seat's owner: a Discord user id (> 0) or a computer player (< 0)."""
    n = _int(value)
    if n is None or n == 0 or not -_INT64 < n < _INT64:
        raise InvalidInput(f"A player id must be a non-zero 64-bit integer, not {value!r}")
    return n


def human(value: object) -> int:
    """A wallet owner: computer players (negative ids) have no wallet."""
    user_id = player(value)
    if user_id < 0:
        raise InvalidInput("Computer players have no wallet.")
    return user_id


def chips(value: object, *, allow_zero: bool = False) -> int:
    n = _int(value)
    low = 0 if allow_zero else 1
    if n is None or not low <= n <= MAX_CHIPS:
        raise InvalidInput(
            f"An amount of chips must be a whole number from {low} to {MAX_CHIPS}, not {value!r}."
        )
    return n


def signed_chips(value: object) -> int:
    n = _int(value)
    if n is None or n == 0 or abs(n) > MAX_CHIPS:
        raise InvalidInput(
            f"A correction must be a non-zero whole number of at most {MAX_CHIPS} chips, "
            f"not {value!r}."
        )
    return n


def integer(name: str, value: object) -> int:
    """A signed whole number (a hand's net points or chips)."""
    n = _int(value)
    if n is None or abs(n) > MAX_CHIPS:
        raise InvalidInput(f"{name} must be a whole number of at most {MAX_CHIPS}, not {value!r}")
    return n


def flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise InvalidInput(f"{name} must be True or False, not {value!r}")
    return value


def count(name: str, value: object) -> int:
    n = _int(value)
    if n is None or not 0 <= n < _INT64:
        raise InvalidInput(f"{name} must be a whole number >= 0, not {value!r}")
    return n


def storable(name: str, value: str) -> str:
    """`value`, refused if it holds the NUL character: PostgreSQL's text cannot store it,
    SQLite's can, and both databases must take the same strings."""
    if "\x00" in value:
        raise InvalidInput(f"A {name} cannot hold the NUL character.")
    return value


def key(value: object) -> str:
    if not isinstance(value, str) or not value or len(value) > MAX_KEY_LENGTH:
        raise InvalidInput(
            f"An idempotency key must be a non-empty string of at most {MAX_KEY_LENGTH} "
            f"characters, not {value!r}"
        )
    return storable("idempotency key", value)


def text(name: str, value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(f"A {name} is required.")
    return storable(name, value.strip())
