"""/ofc stats's card with a long name, a long server name and large figures: the player's
name keeps half the header, the net total stays inside its panel, figures are not cut."""

import io
from dataclasses import replace

import pytest
from PIL import Image

from bot.i18n import number, short_number, t
from rendering import canvas, player_card, player_card_png, theme
from rendering.fonts import ELLIPSIS
from rendering.player_card import EDGE, WIDTH, Figures, PlayerCard
from tests.rendering.rooms import record_rooms

NAME = "Александр Константинопольский Я"  # 32 characters, Discord's longest display name
CARD = PlayerCard(name=NAME, server="Очень длинное название сервера для игры в покер",
                  rating=1284, rank=9999, rated=10000, matches=37, hands=412,
                  nets=(4000,) * 5, best_royalties=38, mine=Figures(0.07, 0.09, 3.4),
                  average=Figures(0.12, 0.06, 2.7))


def drawn_texts(monkeypatch: pytest.MonkeyPatch, card: PlayerCard,
                locale: str) -> dict[str, int]:
    """Each text drawn on the card and the room it was given (0: none)."""
    rooms = record_rooms(monkeypatch, canvas, player_card)
    player_card.player_card_image(card, locale)
    return rooms


@pytest.mark.parametrize("locale", ["en-US", "ru", "sv-SE", "zh-CN"])
def test_a_long_server_name_leaves_the_player_half_the_header(
        monkeypatch: pytest.MonkeyPatch, locale: str) -> None:
    rooms = drawn_texts(monkeypatch, CARD, locale)
    assert rooms[NAME] >= (WIDTH - 3 * 16) // 2


def test_the_net_total_stays_inside_its_panel() -> None:
    # +20,000 points over five matches: the total is drawn at the line's end.
    image = Image.open(io.BytesIO(player_card_png(CARD, "en-US"))).convert("RGB")
    edge = image.crop((WIDTH - EDGE - 2, 0, WIDTH, image.height)).tobytes()
    greens = [edge[i:i + 3] for i in range(0, len(edge), 3)
              if sum(abs(a - b) for a, b in zip(edge[i:i + 3], theme.WIN, strict=True)) < 90]
    assert not greens


def drawn_strings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each string drawn from now on, as drawn (shrunk or cut)."""
    shown: list[str] = []
    real = canvas._ink

    def seen(img: Image.Image, xy: tuple[int, int], s: str, *args: object) -> None:
        shown.append(s)
        real(img, xy, s, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(canvas, "_ink", seen)
    return shown


def test_a_rank_is_shrunk_not_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    shown = drawn_strings(monkeypatch)
    player_card.player_card_image(replace(CARD, rank=99999, rated=100000), "ru")
    assert "#99\u00a0999 из 100\u00a0000" in shown
    assert not any(s.endswith(ELLIPSIS) and "из" in s for s in shown)


@pytest.mark.parametrize("locale", ["en-US", "ru", "sv-SE", "zh-CN"])
@pytest.mark.parametrize("total", [-12_345, -123_456, 12_345_678, -999_999_999])
def test_the_net_total_keeps_its_unit(monkeypatch: pytest.MonkeyPatch, locale: str,
                                      total: int) -> None:
    # "-123,5 тыс." cut to "-123,5…" would read as -123.5 points.
    shown = drawn_strings(monkeypatch)
    player_card.player_card_image(replace(CARD, nets=(total // 2, total - total // 2)), locale)
    assert {number(locale, total, signed=True), short_number(locale, total, signed=True)} \
        & set(shown)
    image = player_card.player_card_image(replace(CARD, nets=(total,)), locale)
    edge = image.crop((WIDTH - EDGE - 2, 0, WIDTH, image.height)).convert("RGB").tobytes()
    assert all(sum(abs(a - b) for a, b in zip(edge[i:i + 3], colour, strict=True)) >= 90
               for colour in (theme.WIN, theme.LOSS) for i in range(0, len(edge), 3))


@pytest.mark.parametrize(("locale", "mine", "server"), [
    ("en-US", "3.4", "2.7"), ("ru", "3,4", "2,7"), ("sv-SE", "3,4", "2,7"),
    ("zh-CN", "3.4", "2.7")])
def test_royalties_a_hand_are_written_the_languages_way(
        monkeypatch: pytest.MonkeyPatch, locale: str, mine: str, server: str) -> None:
    # CARD's figures: 3.4 royalties a hand, the server's 2.7; Russian and Swedish write 3,4.
    shown = drawn_strings(monkeypatch)
    player_card.player_card_image(CARD, locale)
    assert mine in shown and server in shown


@pytest.mark.parametrize("locale", ["en-US", "ru", "sv-SE", "zh-CN"])
def test_counts_are_grouped_as_the_rating_is(monkeypatch: pytest.MonkeyPatch,
                                             locale: str) -> None:
    # "12345 матчей · 1234567 раздач" beside a rating of "1 284": every number the same way.
    shown = drawn_strings(monkeypatch)
    card = replace(CARD, matches=12_345, hands=1_234_567, rank=12_345, rated=100_000)
    player_card.player_card_image(card, locale)
    drawn = " ".join(shown)
    for n in (12_345, 1_234_567, 100_000):
        assert number(locale, n) in drawn


@pytest.mark.parametrize("locale", ["en-US", "ru", "sv-SE", "zh-CN"])
def test_unrated_is_shrunk_not_cut(monkeypatch: pytest.MonkeyPatch, locale: str) -> None:
    # A member with no rated match yet: "без рейтинга" was cut to "без рейт…".
    shown = drawn_strings(monkeypatch)
    player_card.player_card_image(replace(CARD, rating=None, rank=None), locale)
    assert t(locale, "unrated") in shown
