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
from bot.i18n import Text, series, t
from cogs.common.format import chips, clock_words, option_notes

# R4's paying hands, one example each, in the order RULES.md lists them.
_BOTTOM_EXAMPLES = (
    (Text("straight"), "5s 6h 7d 8c 9s"), (Text("flush"), "2h 5h 7h 9h Jh"),
    (Text("full house"), "3s 3h 3d 8c 8s"), (Text("quads"), "4s 4h 4d 4c 9s"),
    (Text("straight flush"), "5d 6d 7d 8d 9d"), (Text("royal flush"), "Ts Js Qs Ks As"),
)
_MIDDLE_EXAMPLES = ((Text("trips"), "7s 7h 7d 2c 9s"), *_BOTTOM_EXAMPLES)
_TOP_PAIRS = (("66", "6h 6d 2c"), ("AA", "Ah Ad 2c"))
_TOP_TRIPS = (("222", "2h 2d 2c"), ("AAA", "Ah Ad Ac"))
_LOW_EXAMPLES = ((Text("9-high"), "9s 6h 5d 3c 2s"), (Text("8-high"), "8s 6h 5d 3c 2s"),
                 (Text("7-high"), "7s 6h 4d 3c 2s"), ("7-5-4-3-2", "7s 5h 4d 3c 2s"))
# A board that is not fouled under every variant but lowball, per top row, for R8's entry.
_ENTRY_TOPS = (("QQ", "Qh Qd 2c"), ("KK", "Kh Kd 2c"), ("AA", "Ah Ad 2c"),
               (Text("trips"), "5h 5d 5c"))
_ENTRY_MIDDLE, _ENTRY_BOTTOM = "9s 9h 9d 3c 4s", "Ts Th Tc Jd Js"
_STAY_BOARD = ("5h 5d 5c", "9s 9h 9d 3c 4s", "Ts Th Tc Jd Js")  # trips on top: stays (R8)

_VARIANTS = {
    "pineapple": Text("**Pineapple**: 5 cards first, all placed; then four streets of 3 cards: "
                      "place 2, discard 1 face down. 2-3 players."),
    "turbo": Text("**Turbo**: streets of 5, 4 and 4 cards, all placed, no discards. 2-4 "
                  "players."),
    "lowball": Text("**Pineapple 2-7**: Pineapple streets; the middle must be a 2-7 low (ace "
                    "high, no pair, straight or flush, 10-high or lower) and the lower middle "
                    "wins. 2-3 players."),
    "joker": Text("**Joker Pineapple**: 54 cards with two jokers (X). A joker is whatever card "
                  "makes its board best: the board fouls only if every choice fouls; among the "
                  "others, the most royalties, then the strongest bottom, middle, top (never "
                  "five of a kind). 2-3 players."),
}
_ORDERS = {
    "sequential": Text("Players act one at a time in seat order on each street, starting left "
                       "of the button, and see the placements made before theirs."),
    "simultaneous": Text("Everyone acts on a street at once; placements are shown when the "
                         "street is done."),
}

_ROW_ORDER = Text("The bottom must be at least as strong as the middle, and the middle at least "
                  "as strong as the top; equal is allowed (top `Qh Qd 5c` beats middle "
                  "`Qs Qc 4h 3d 2s`, top `Qh Qd 4c` equals it).")
_LOWBALL_ORDER = Text("The middle must be a 2-7 low and the bottom at least as strong as the top "
                      "(the middle is not compared with them).")
_SYSTEMS = {
    "1-6": Text("**1-6**: +1 for each row won, -1 for each lost; winning all three (a scoop) "
                "gives 3 more, 6 in all. A fouled board pays 6."),
    "2-4": Text("**2-4**: +1 for each row won, -1 for each lost, and 1 more for winning two or "
                "three rows: 2-1 gives 2, 3-0 gives 4, two wins and a tie give 3. A fouled "
                "board pays 4."),
}
_TABLES = {"american": Text("**American** table, paid only to a board that did not foul."),
           "russian": Text("**Russian** table, paid only to a board that did not foul."),
           "off": Text("**No royalties** at this table.")}
_FANTASY_DEALS = {
    "first": Text("Fantasyland is dealt first, and the others play their streets once every "
                  "Fantasyland board is set: its player sees none of their cards (a single "
                  "player outside Fantasyland plays at the same time, face down)."),
    "last": Text("Fantasyland is dealt once the others have played all their streets: its "
                 "player sees their boards while setting."),
}
# The options these sections word themselves; any other is added, in its declaration's
# words, to the section that tells its part of RULES.md (`describe`).
RULES_SAY = frozenset({
    "variant", "seats", "order", "scoring", "point_value", "royalties", "fantasy",
    "fantasy_stay_full_house_middle", "button_moves_on_fantasy", "fantasy_deal", "format",
    "hands", "buy_in", "turn_seconds", "fantasy_turn_seconds", "time_bank_seconds",
    "time_bank_refill_seconds", "clock", "hints"})
_FANTASY_MODES = {"standard": Text("**Standard**"), "progressive": Text("**Progressive**"),
                  "ultimate": Text("**Ultimate**"), "tournament": Text("**Tournament**")}


def _game(loc: str, rules: TableRules) -> str:
    return t(loc, "{variant} Up to {n} seats at this table.\n{order} A confirmed street is "
                  "final; dealt cards and discards are seen only by their owner.",
             variant=_VARIANTS[rules.variant], n=rules.seats, order=_ORDERS[rules.order])


def _fouls(loc: str, rules: TableRules) -> str:
    need = _LOWBALL_ORDER if rules.variant == "lowball" else _ROW_ORDER
    return t(loc, "{need} A fouled board scores no royalties and loses every line to every "
                  "board that did not foul; two fouled boards score 0 against each other.",
             need=need)


def _scoring(loc: str, rules: TableRules) -> str:
    return t(loc, "Every pair of players is scored head to head. {system} Royalties too: you get "
                  "yours from each opponent and pay theirs. Each point is {chips}.",
             system=_SYSTEMS[rules.scoring], chips=chips(loc, rules.point_value))


def _paying(loc: str, examples: tuple[tuple[Text | str, str], ...], royalties: list[int],
            evaluate: Callable[[Sequence[Card]], int], separator: str = ", ") -> str:
    return separator.join(f"{t(loc, name) if isinstance(name, Text) else name} "
                          f"{royalties[evaluate(parse_cards(cards))]}"
                          for name, cards in examples)


def _royalties(loc: str, rules: TableRules) -> str:
    if rules.royalties == "off":
        return t(loc, _TABLES["off"])
    table = ROYALTY[rules.royalties]
    pairs = _paying(loc, _TOP_PAIRS, table["top"], eval3, " ... ")
    trips = _paying(loc, _TOP_TRIPS, table["top"], eval3, " ... ")
    if rules.variant == "lowball":
        middle = _paying(loc, _LOW_EXAMPLES, ROYALTY["lowball"]["middle"], eval5)
    else:
        middle = _paying(loc, _MIDDLE_EXAMPLES, table["middle"], eval5)
    return t(loc, "{table}\nBottom: {bottom}.\nMiddle: {middle}.\nTop: pairs {pairs}; trips "
                  "{trips} (smaller pairs pay nothing).", table=_TABLES[rules.royalties],
             bottom=_paying(loc, _BOTTOM_EXAMPLES, table["bottom"], eval5), middle=middle,
             pairs=pairs, trips=trips)


def _cards(rules: TableRules, top: str, middle: str, bottom: str, in_fantasy: bool,
           entry: int = 0) -> int:
    result = evaluate_board(Board.parse(top, middle, bottom), rules)
    return fantasy_cards(result, rules, in_fantasy, entry)


def _fantasy(loc: str, rules: TableRules) -> str:
    if rules.fantasy == "off":
        return t(loc, "**Off**: nobody plays Fantasyland.")
    text: Text
    if rules.variant == "turbo":
        text = Text("QQ or better on top (board not fouled): {n} cards next hand. Stay with "
                    "trips on top, a full house or better in the middle, or quads or better on "
                    "the bottom.", n=TURBO_CARDS)
    elif rules.variant == "lowball":
        text = Text("KK or better on top, or 7-5-4-3-2 in the middle: {n} cards (both: "
                    "{both}). Stay with trips on top or quads or better on the bottom: {n} "
                    "cards.", n=LOWBALL_CARDS, both=LOWBALL_CARDS + 1)
    else:
        counts = [_cards(rules, top, _ENTRY_MIDDLE, _ENTRY_BOTTOM, False) for _, top in _ENTRY_TOPS]
        if len(set(counts)) == 1:
            entry = Text("QQ or better on top (board not fouled): {n} cards next hand.",
                         n=counts[0])
        else:
            entry = Text("On top (board not fouled): {counts} cards.", counts=series([
                f"{t(loc, name) if isinstance(name, Text) else name} {n}"
                for (name, _), n in zip(_ENTRY_TOPS, counts, strict=True)]))
        repeat = _cards(rules, *_STAY_BOARD, True, entry=max(counts))
        if not repeat:
            stay = Text("Nobody stays: Fantasyland is played once.")
        else:
            again = Text("as many cards as on entry") if rules.fantasy == "ultimate" \
                else Text("{n} cards", n=repeat)
            stay = Text("From a Fantasyland hand, stay with trips on top, a full house or "
                        "better in the middle, or quads or better on the bottom: {again}.",
                        again=again) if rules.fantasy_stay_full_house_middle else \
                Text("From a Fantasyland hand, stay with trips on top or quads or better on "
                     "the bottom: {again}.", again=again)
        text = Text("{mode}: {entry} {stay}", mode=_FANTASY_MODES[rules.fantasy], entry=entry,
                    stay=stay)
    button = Text("the button moves as usual") if rules.button_moves_on_fantasy \
        else Text("the button does not move")
    return t(loc, "{text} A Fantasyland player gets all the cards at once and sets 13 unseen "
                  "until showdown; {button}.", text=text, button=button) + " " + t(
        loc, _FANTASY_DEALS[rules.fantasy_deal])


def _table(loc: str, rules: TableRules) -> str:
    extra = Text("plus one Fantasyland hand after every hand in which anyone earned it")
    # Without Fantasyland nobody earns one, so no word of dealing it (R8).
    formats = {
        "match": Text("**Match**: one hand per player (the button goes round once), {extra}.",
                      extra=extra),
        "hands": Text("**{n} hand**, {extra}.", "**{n} hands**, {extra}.", n=rules.hands,
                      extra=extra),
        "cash": Text("**Cash**: no end; players join and leave between hands (a player owed a "
                     "Fantasyland hand plays it first)."),
    } if rules.fantasy != "off" else {
        "match": Text("**Match**: one hand per player (the button goes round once)."),
        "hands": Text("**{n} hand**.", "**{n} hands**.", n=rules.hands),
        "cash": Text("**Cash**: no end; players join and leave between hands."),
    }
    bank = Text("a {bank} s time bank, full again at a deal once {n} s have passed since it "
                "was last full", bank=rules.time_bank_seconds,
                n=rules.time_bank_refill_seconds) if rules.time_bank_refill_seconds else \
        Text("a {bank} s time bank per match", bank=rules.time_bank_seconds)
    # A table without Fantasyland has no Fantasyland clock to tell (R8, R10).
    time = Text("Time: {clock}, then {bank}; after that the bot places the cards and the "
                "player is away.", clock=clock_words(rules), bank=bank) \
        if rules.fantasy == "off" else Text(
        "Time: {clock}, {fantasy_turn} s for a Fantasyland hand, then {bank}; after that the "
        "bot places the cards and the player is away.", clock=clock_words(rules),
        fantasy_turn=rules.fantasy_turn_seconds, bank=bank)
    return t(loc, "{format} Buy-in {buy_in}. Table stakes: nobody loses more than their stack, "
                  "and nobody wins more from one opponent than they have in front of them.\n"
                  "{time}", format=formats[rules.format], buy_in=chips(loc, rules.buy_in),
             time=time) + (
        " " + t(loc, "The hand has one clock: the time a street takes comes off the streets "
                     "after it.") if rules.clock == "per_hand" else "") + (
        "\n" + t(loc, "Hints: on. **Suggest** in a player's controls fills the street with the "
                      "strong computer's choice from that player's own view; it can still be "
                      "changed before Confirm.") if rules.hints == "on" else "")


_SECTIONS: tuple[tuple[Text, frozenset[str], Callable[[str, TableRules], str]], ...] = (
    # (title, the sections of RULES.md it tells, its words)
    (Text("Game"), frozenset({"R1", "R2", "R7", "R9"}), _game),
    (Text("Fouls"), frozenset({"R3"}), _fouls),
    (Text("Scoring"), frozenset({"R5", "R6"}), _scoring),
    (Text("Royalties"), frozenset({"R4"}), _royalties),
    (Text("Fantasyland"), frozenset({"R8"}), _fantasy),
    (Text("Table"), frozenset({"R10", "R11", "R12", "R13"}), _table),
)


def describe(loc: str, rules: TableRules) -> list[tuple[str, str]]:
    """(title, text) sections, in the order of RULES.md."""
    notes = option_notes(rules, RULES_SAY)
    return [(t(loc, title), " ".join([words(loc, rules), *(
        t(loc, note) for section, note in notes if section in sections)]))
        for title, sections, words in _SECTIONS]
