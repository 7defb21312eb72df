"""Words a player reads, each as a player understands it: a computer's name not cut beside
the badge that repeats it, a tournament's lent chips called lent, signed chips in each
language's plural forms (CLDR through babel), Swedish in Swedish, one spelling of
Fantasyland, and table options whose help says what the choices mean."""

import re

from babel.messages.pofile import read_po

from bot.engine.hand import EMPTY
from bot.engine.match import Match, PlayerSpec
from bot.engine.rules import TableRules
from bot.engine.views import SeatView
from bot.i18n import LOCALES, t
from bot.i18n.catalogue import PO_DIR
from bot.tables import LobbySeat, LobbyView
from cogs.common.format import signed_chips, signed_points
from cogs.common.options import TABLE_OPTIONS
from cogs.economy.embeds import _result_line
from cogs.tables.embeds import lobby_embed, table_embed
from rendering.seat import seat_header

FIELD = re.compile(r"\{[^}]*\}")


def test_a_computers_name_beside_its_level_badge_is_not_repeated() -> None:
    seat = SeatView(seat=1, player_id=-2, name="Computer 1 (strong)", stack=200, board=EMPTY,
                    is_ai=True, ai_level="strong")
    header = seat_header("en-US", seat, button=0, to_act=False)
    assert header.name == "Computer 1" and ("BOT strong", header.badges[0][1]) in header.badges
    assert seat_header("ru", seat, button=0, to_act=False).name == "Компьютер 1"


def test_a_tournaments_lent_chips_are_called_lent() -> None:
    lobby = LobbyView(table_id=1, guild_id=1, channel_id=1, thread_id=None, host_id=5,
                      rules=TableRules(seats=2), status="lobby", created_at=0.0,
                      expires_at=None, lent=True,
                      seats=(LobbySeat(5, "Alice", None, 100_000),
                             LobbySeat(6, "Bob", None, 100_000)))
    seats = lobby_embed("en-US", lobby).fields[0].value or ""
    assert "100,000 lent chips" in seats and "<@6>: 100,000 lent chips" in seats
    view = Match.new(TableRules(seats=2), [PlayerSpec(5, "Alice", 100_000),
                                           PlayerSpec(6, "Bob", 100_000)]).public_view()
    assert table_embed("en-US", view, lent=True).fields[0].name == \
        "Stacks (lent for the tournament)"
    assert table_embed("en-US", view).fields[0].name == "Stacks"


def test_signed_chips_and_points_take_the_plural_of_their_number() -> None:
    assert [signed_chips("ru", n) for n in (72, 75, -1, 11, 0)] == [
        "+72 фишки", "+75 фишек", "-1 фишка", "+11 фишек", "+0 фишек"]
    assert [signed_points("ru", n) for n in (2, 5, -21)] == ["+2 очка", "+5 очков", "-21 очко"]
    assert signed_chips("en-US", 1) == "+1 chip" and signed_chips("en-US", -2) == "-2 chips"
    assert "+72 фишки" in _result_line("ru", 3, 72, False, 0, None)


def _translations(file: str) -> list[tuple[str, str]]:
    with open(PO_DIR / file, "rb") as handle:
        catalog = read_po(handle)
    out = []
    for message in catalog:
        if message.id:
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            out += [(str(message.id), FIELD.sub("", str(s))) for s in strings]
    return out


def test_swedish_says_bust_scoops_and_royalties_in_swedish() -> None:
    english = re.compile(r"\b(bust|scoops?|royalties)\b", re.IGNORECASE)
    left = [(msgid, text) for msgid, text in _translations("sv_SE.po") if english.search(text)]
    assert left == []


def test_fantasyland_is_spelled_one_way_in_every_language() -> None:
    for file in ("ru.po", "sv_SE.po", "zh_CN.po"):
        # the images' capitals too ("FANTASYLAND NEXT")
        assert [text for _, text in _translations(file) if "fantasy land" in text.lower()] == []
    assert t("sv-SE", "Fantasyland") == "Fantasyland"


def test_the_options_help_says_what_the_choices_mean() -> None:
    fantasy, scoring = str(TABLE_OPTIONS["fantasy"][1]), str(TABLE_OPTIONS["scoring"][1])
    assert "progressive: QQ 14" in fantasy and "trips 17" in fantasy  # R8
    assert "1-6: 1 a row, 6 for all 3" in scoring and "2-4" in scoring  # R5
    for name in ("variant", "scoring", "royalties", "fantasy"):
        text = str(TABLE_OPTIONS[name][1])
        for loc in LOCALES:  # Discord's limit for an option's description
            assert 0 < len(t(loc, text)) <= 100, (name, loc)
