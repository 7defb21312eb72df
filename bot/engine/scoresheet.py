"""A finished hand as plain data in, its full scoring as plain data out.

The `ofc score` JSON contract (docs/cli.md) and `/ofc score` both go through
`score_sheet`."""

from collections.abc import Mapping
from typing import Any

from bot.engine.board import Board, evaluate_board
from bot.engine.cards import parse_cards
from bot.engine.errors import RuleError
from bot.engine.fantasy import fantasy_cards, repeats_entry
from bot.engine.royalties import ROWS
from bot.engine.rules import TableRules
from bot.engine.scoring import score_hand
from bot.engine.settlement import settle
from bot.engine.text import Text, Typed

MIN_PLAYERS, MAX_PLAYERS = 2, 4
# The most chips a stack may hold: the bot's books hold no more (bot.storage's MAX_CHIPS), and
# a bigger number could grow past what Python prints as an integer.
MAX_STACK = 10**12
MAX_NAME = 32  # characters of a player's name (`/ofc score` takes as many)
KEYS = frozenset({"rules", "button", "players"})
PLAYER_KEYS = frozenset({"name", "stack", "in_fantasy", "fantasy_entry_cards", *ROWS})


def _known_keys(data: Mapping[str, Any], known: frozenset[str], who: str = "") -> None:
    """Refuse a key the input does not take: a misspelt one would be scored as if absent."""
    unknown = set(data) - known
    if unknown:
        raise RuleError(f"{who}unknown key '{sorted(unknown)[0]}'")


def _field(player: Mapping[str, Any], name: str, kind: type, default: Any = None) -> Any:
    value = player.get(name, default)
    if value is None or (kind is int and isinstance(value, bool)) or not isinstance(value, kind):
        who = player.get("name", "a player")
        raise RuleError(f"{who}: '{name}' must be {'a whole number' if kind is int else 'text'}")
    return value


def _fantasy_input(player: Mapping[str, Any], rules: TableRules) -> tuple[bool, int]:
    in_fantasy = player.get("in_fantasy", False)
    if not isinstance(in_fantasy, bool):
        raise RuleError(f"{player.get('name')}: 'in_fantasy' must be true or false")
    entry = _field(player, "fantasy_entry_cards", int, 0)
    if entry and not 13 <= entry <= 17:
        raise RuleError(f"{player.get('name')}: 'fantasy_entry_cards' must be from 13 to 17")
    if in_fantasy and not entry and repeats_entry(rules):
        raise RuleError(f"{player.get('name')}: under ultimate Fantasyland a player in "
                        "Fantasyland needs 'fantasy_entry_cards', the cards it entered with")
    return in_fantasy, entry


def parse_boards(players: list[Mapping[str, Any]], rules: TableRules) -> list[Board]:
    """Every player's board, checked together so a card on two boards is named."""
    boards = []
    for player in players:
        rows = [_field(player, r, str) for r in ROWS]
        try:
            boards.append(Board.parse(rows[0], rows[1], rows[2], jokers=rules.jokers))
        except RuleError as error:
            raise RuleError(Text("{name}: {reason}", name=Typed(player["name"]),
                                 reason=error.text)) from None

    # A card can be on one board only; there are two jokers in the whole deck (R1, R9).
    parse_cards(" ".join(_field(p, r, str) for p in players for r in ROWS),
                allow_jokers=rules.jokers)
    return boards


def score_sheet(data: Mapping[str, Any]) -> dict[str, Any]:
    """Score and settle one finished hand given as `ofc score` input."""
    if not isinstance(data, Mapping):
        raise RuleError("the input must be a JSON object")
    _known_keys(data, KEYS)
    rules_in = data.get("rules", {})
    if not isinstance(rules_in, Mapping):
        raise RuleError("'rules' must be an object")
    rules = TableRules.from_mapping(rules_in)
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, Mapping) for p in players):
        raise RuleError("'players' must be a list of objects")
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise RuleError(f"scoring needs 2 to 4 players, not {len(players)}")
    rules.check_players(len(players))  # four only where four are dealt (turbo)
    for number, player in enumerate(players, start=1):
        if not isinstance(player.get("name"), str):  # not quoted: it reads as no name
            raise RuleError(f"player {number}: 'name' must be text")
    names: list[str] = [p["name"] for p in players]
    for number, name in enumerate(names, start=1):
        # Refusals quote a name: it must read as one, on the refusal's one line.
        if not 0 < len(name) <= MAX_NAME or not name.isprintable():
            raise RuleError(f"player {number}: a name is 1 to {MAX_NAME} printable characters.")
    if len(set(names)) != len(names):
        raise RuleError(Text("Every player needs a different name."))
    for name, player in zip(names, players, strict=True):
        _known_keys(player, PLAYER_KEYS, f"{name}: ")
    button = data.get("button", 0)
    if isinstance(button, bool) or not isinstance(button, int) or not 0 <= button < len(players):
        raise RuleError(f"'button' must be a player index from 0 to {len(players) - 1}")
    stacks = [_field(p, "stack", int, 0) for p in players]
    if any(not 0 <= s <= MAX_STACK for s in stacks):
        raise RuleError(f"stacks are from 0 to {MAX_STACK:,} chips")
    fantasy_in = [_fantasy_input(p, rules) for p in players]
    boards = parse_boards(players, rules)

    results = [evaluate_board(b, rules) for b in boards]
    points, pairs = score_hand(results, rules.scoring, button)
    after, transfers = settle(stacks, pairs, rules.point_value)
    out_players = []
    for i, result in enumerate(results):
        in_fantasy, entry = fantasy_in[i]
        out_players.append({
            "name": names[i],
            "fouled": result.fouled,
            "royalties": result.total_royalties,
            "row_royalties": dict(zip(ROWS, result.royalties, strict=True)),
            "rows": dict(zip(ROWS, result.names, strict=True)),
            "fantasy_cards": fantasy_cards(result, rules, in_fantasy, entry),
            "points": points[i],
            "stack_before": stacks[i],
            "stack_after": after[i],
        })
    return {
        "players": out_players,
        "pairs": [
            {"a": names[p.a], "b": names[p.b], "lines": list(p.lines),
             "line_points": p.line_points, "bonus": p.bonus, "royalties": p.royalties,
             "points": p.points}
            for p in pairs
        ],
        "transfers": [
            {"from": names[t.payer], "to": names[t.payee], "owed": t.owed, "paid": t.paid}
            for t in transfers
        ],
    }
