"""A table's rules in words (RULES.md), for `/ofc rules`, `/ofc-admin settings` and `/ofc history`.

Every number shown (royalties, Fantasyland card counts) is read from the engine by scoring an
example, so the words cannot drift from the rules the bot plays.
"""

from collections.abc import Callable, Sequence

from bot.engine.board import Board, evaluate_board
from bot.engine.cards import Card, parse_cards
from bot.engine.evaluation import eval3, eval5
from bot.engine.fantasy import LOWBALL_CARDS, TURBO_CARDS, fantasy_cards
from bot.engine.royalties import ROYALTY
from bot.engine.rules import TableRules
from cogs.common.format import plural

# R4's paying hands, one example each, in the order RULES.md lists them.
_BOTTOM_EXAMPLES = (
    ("straight", "5s 6h 7d 8c 9s"), ("flush", "2h 5h 7h 9h Jh"),
    ("full house", "3s 3h 3d 8c 8s"), ("quads", "4s 4h 4d 4c 9s"),
    ("straight flush", "5d 6d 7d 8d 9d"), ("royal flush", "Ts Js Qs Ks As"),
)
_MIDDLE_EXAMPLES = (("trips", "7s 7h 7d 2c 9s"), *_BOTTOM_EXAMPLES)
_TOP_PAIRS = (("66", "6h 6d 2c"), ("AA", "Ah Ad 2c"))
_TOP_TRIPS = (("222", "2h 2d 2c"), ("AAA", "Ah Ad Ac"))
_LOW_EXAMPLES = (("9-high", "9s 6h 5d 3c 2s"), ("8-high", "8s 6h 5d 3c 2s"),
                 ("7-high", "7s 6h 4d 3c 2s"), ("7-5-4-3-2", "7s 5h 4d 3c 2s"))
# A board that is not fouled under every variant but lowball, per top row, for R8's entry.
_ENTRY_TOPS = (("QQ", "Qh Qd 2c"), ("KK", "Kh Kd 2c"), ("AA", "Ah Ad 2c"), ("trips", "5h 5d 5c"))
_ENTRY_MIDDLE, _ENTRY_BOTTOM = "9s 9h 9d 3c 4s", "Ts Th Tc Jd Js"
_STAY_BOARD = ("5h 5d 5c", "9s 9h 9d 3c 4s", "Ts Th Tc Jd Js")  # trips on top: stays (R8)

_VARIANTS = {
    "pineapple": "**Pineapple**: 5 cards first, all placed; then four streets of 3 cards: place "
                 "2, discard 1 face down. 2-3 players.",
    "turbo": "**Turbo**: streets of 5, 4 and 4 cards, all placed, no discards. 2-4 players.",
    "lowball": "**Pineapple 2-7**: Pineapple streets; the middle must be a 2-7 low (ace high, no "
               "pair, straight or flush, 10-high or lower) and the lower middle wins. 2-3 "
               "players.",
    "joker": "**Joker Pineapple**: 54 cards with two jokers (X). A joker is whatever card makes "
             "its board best: the board fouls only if every choice fouls; among the others, the "
             "most royalties, then the strongest bottom, middle, top (never five of a kind). "
             "2-3 players.",
}
_ORDERS = {
    "sequential": "Players act one at a time in seat order on each street, starting left of "
                  "the button, and see the placements made before theirs.",
    "simultaneous": "Everyone acts on a street at once; placements are shown when the street "
                    "is done.",
}

_ROW_ORDER = ("The bottom must be at least as strong as the middle, and the middle at least as "
              "strong as the top; equal is allowed (top `Qh Qd 5c` beats middle "
              "`Qs Qc 4h 3d 2s`, top `Qh Qd 4c` equals it).")
_LOWBALL_ORDER = ("The middle must be a 2-7 low and the bottom at least as strong as the top "
                  "(the middle is not compared with them).")
_SYSTEMS = {
    "1-6": "**1-6**: +1 for each row won, -1 for each lost; winning all three (a scoop) gives 3 "
           "more, 6 in all. A fouled board pays 6.",
    "2-4": "**2-4**: +1 for each row won, -1 for each lost, and 1 more for winning two or three "
           "rows: 2-1 gives 2, 3-0 gives 4, two wins and a tie give 3. A fouled board pays 4.",
}


def _game(rules: TableRules) -> str:
    return (f"{_VARIANTS[rules.variant]} Up to {rules.seats} seats at this table.\n"
            f"{_ORDERS[rules.order]} A confirmed street is final; dealt cards and discards "
            "are seen only by their owner.")


def _fouls(rules: TableRules) -> str:
    need = _LOWBALL_ORDER if rules.variant == "lowball" else _ROW_ORDER
    return (f"{need} A fouled board scores no royalties and loses every line to every board "
            "that did not foul; two fouled boards score 0 against each other.")


def _scoring(rules: TableRules) -> str:
    return (f"Every pair of players is scored head to head. {_SYSTEMS[rules.scoring]} "
            "Royalties too: you get yours from each opponent and pay theirs. Each point is "
            f"{plural(rules.point_value, 'chip')}.")


def _paying(examples: tuple[tuple[str, str], ...], royalties: list[int],
            evaluate: Callable[[Sequence[Card]], int]) -> str:
    return ", ".join(f"{name} {royalties[evaluate(parse_cards(cards))]}"
                     for name, cards in examples)


def _royalties(rules: TableRules) -> str:
    table = ROYALTY[rules.royalties]
    pairs = _paying(_TOP_PAIRS, table["top"], eval3).replace(", ", " ... ")
    trips = _paying(_TOP_TRIPS, table["top"], eval3).replace(", ", " ... ")
    if rules.variant == "lowball":
        middle = _paying(_LOW_EXAMPLES, ROYALTY["lowball"]["middle"], eval5)
    else:
        middle = _paying(_MIDDLE_EXAMPLES, table["middle"], eval5)
    return (f"**{rules.royalties.capitalize()}** table, paid only to a board that did not foul.\n"
            f"Bottom: {_paying(_BOTTOM_EXAMPLES, table['bottom'], eval5)}.\n"
            f"Middle: {middle}.\n"
            f"Top: pairs {pairs}; trips {trips} (smaller pairs pay nothing).")


def _cards(rules: TableRules, top: str, middle: str, bottom: str, in_fantasy: bool,
           entry: int = 0) -> int:
    result = evaluate_board(Board.parse(top, middle, bottom), rules)
    return fantasy_cards(result, rules, in_fantasy, entry)


def _fantasy(rules: TableRules) -> str:
    if rules.fantasy == "off":
        return "**Off**: nobody plays Fantasyland."
    if rules.variant == "turbo":
        text = (f"QQ or better on top (board not fouled): {TURBO_CARDS} cards next hand. Stay "
                "with trips on top, a full house or better in the middle, or quads or better "
                "on the bottom.")
    elif rules.variant == "lowball":
        text = (f"KK or better on top, or 7-5-4-3-2 in the middle: {LOWBALL_CARDS} cards "
                f"(both: {LOWBALL_CARDS + 1}). Stay with trips on top or quads or better on the "
                f"bottom: {LOWBALL_CARDS} cards.")
    else:
        counts = [_cards(rules, top, _ENTRY_MIDDLE, _ENTRY_BOTTOM, False) for _, top in _ENTRY_TOPS]
        if len(set(counts)) == 1:
            entry = f"QQ or better on top (board not fouled): {counts[0]} cards next hand."
        else:
            entry = "On top (board not fouled): " + ", ".join(
                f"{name} {n}" for (name, _), n in zip(_ENTRY_TOPS, counts, strict=True)) + " cards."
        repeat = _cards(rules, *_STAY_BOARD, True, entry=max(counts))
        if not repeat:
            stay = "Nobody stays: Fantasyland is played once."
        else:
            middle = (", a full house or better in the middle,"
                      if rules.fantasy_stay_full_house_middle else "")
            again = ("as many cards as on entry" if rules.fantasy == "ultimate"
                     else f"{repeat} cards")
            stay = (f"From a Fantasyland hand, stay with trips on top{middle} or quads or better "
                    f"on the bottom: {again}.")
        text = f"**{rules.fantasy.capitalize()}**: {entry} {stay}"
    button = ("the button moves as usual" if rules.button_moves_on_fantasy
              else "the button does not move")
    return (f"{text} A Fantasyland player gets all the cards at once and sets 13 unseen until "
            f"showdown; {button}.")


def _table(rules: TableRules) -> str:
    extra = "plus one Fantasyland hand after every hand in which anyone earned it"
    formats = {
        "match": f"**Match**: one hand per player (the button goes round once), {extra}.",
        "hands": f"**{plural(rules.hands, 'hand')}**, {extra}.",
        "cash": "**Cash**: no end; players join and leave between hands (a player owed a "
                "Fantasyland hand plays it first).",
    }
    return (f"{formats[rules.format]} Buy-in {plural(rules.buy_in, 'chip')}. Table stakes: "
            "nobody loses more than their stack, and nobody wins more from one opponent than "
            "they have in front of them.\n"
            f"Time: {rules.turn_seconds} s a street, {rules.fantasy_turn_seconds} s for a "
            f"Fantasyland hand, then a {rules.time_bank_seconds} s time bank per match; after "
            "that the bot places the cards and the player is away."
            + ("\nHints: on. **Suggest** in a player's controls fills the street with the "
               "strong computer's choice from that player's own view; it can still be changed "
               "before Confirm." if rules.hints == "on" else ""))


def describe(rules: TableRules) -> list[tuple[str, str]]:
    """(title, text) sections, in the order of RULES.md."""
    return [
        ("Game", _game(rules)),
        ("Fouls", _fouls(rules)),
        ("Scoring", _scoring(rules)),
        ("Royalties", _royalties(rules)),
        ("Fantasyland", _fantasy(rules)),
        ("Table", _table(rules)),
    ]
