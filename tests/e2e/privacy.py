"""Privacy checked by the data each image was rendered from (RULES.md R7, R8).

`PrivacyWatch.install(monkeypatch)`:
- wraps the engine's `Match.public_view` and `Match.view_for`, where every view comes from (on
  the class, so a restarted bot is watched too): each view is registered with what each seat
  may show at that very moment, read from every seat's private view (and the hand's record of
  a simultaneous street's placements not yet shown): its own placed board, nothing of a
  Fantasyland board in play nor of the one board laid out face down beside them, never a
  dealt (or drafted) or discarded card;
- wraps the bot's ways to an image, `cogs.common.images.render(kind, view, ...)` and
  `render_newest(kind, read)` (whose view is recorded as `read()` gives it), with a recorder in
  this process: the real image (drawn by the bot's worker processes, or on a
  thread with OFC_WORKERS=0), with a PNG text chunk carrying the number of the view it was
  drawn from, so every image Discord shows can be traced back to that exact view.

`problems(double, channel)` then reads what people saw (every version of every message) and
names each leak: a public image drawn from anything but a registered public TableView or
showing a card it may not, a private image in someone else's DM or ephemeral message, a card
written in a public message (its buttons and menus too) other than a showdown, a seat's
controls (whose ids name its cards) on a public message, a discard written in a showdown, and a
card written in a member's DM or ephemeral message about a hand ("Hand N ...", its review,
its boards in /ofc history) that was neither theirs in that hand nor face up on a board
(placed, or shown down).
"""

from __future__ import annotations

import io
import itertools
import re
import struct
import threading
import zlib
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from PIL import Image

from bot.engine.cards import Card
from bot.engine.match import Match
from bot.engine.views import PrivateView, TableView
from cogs.common import images
from cogs.common.format import card_label
from cogs.tables import ids
from tests.e2e.breakdowns import TITLE
from tests.e2e.discord_double import Attachment, Channel, DiscordDouble, Message, Snapshot
from tests.e2e.discord_double.components import walk

PNG_KEY = "ofc-view"  # the PNG text chunk holding a recorded view's number
CARD_TEXT = re.compile(r"[2-9TJQKA][♠♥♦♣]|Joker")
# A prompt's, its record's, a result's title; a hand's review (/ofc review) and its boards
# picked in /ofc history.
HAND_TITLE = re.compile(r"(?:Hand|Review: match #\d+, hand|Match #\d+, hand) (\d+)\b")


@dataclass(frozen=True)
class Secrets:
    """What a table's seats may show publicly at one moment, from their private views."""

    hand_no: int
    allowed: dict[int, frozenset[Card]]  # seat -> its placed cards a spectator may see
    hidden: frozenset[Card]  # dealt (and drafted), discarded, or a Fantasyland board in play
    discards: frozenset[Card]
    hidden_fantasy_board: bool  # a set Fantasyland board was being kept face down
    owner: int | None = None  # for a private view: the player it belongs to


@dataclass
class Rendered:
    kind: str  # "table" | "showdown" | "private"
    view: Any
    secrets: Secrets | None  # None: the view came from nowhere the watch knows
    locale: str | None = None  # the language its words were drawn in


@dataclass
class PrivacyWatch:
    rendered: dict[int, Rendered] = field(default_factory=dict)  # by the number in the PNG
    discards: dict[int, set[Card]] = field(default_factory=dict)  # hand -> every discard seen
    # (hand, player) -> the cards that player held in that hand (dealt, placed or discarded)
    owned: dict[tuple[int, int], set[Card]] = field(default_factory=dict)
    face_up: dict[int, set[Card]] = field(default_factory=dict)  # hand -> cards seen face up
    _registered: dict[int, tuple[Any, Secrets]] = field(default_factory=dict)
    _numbers: Iterator[int] = field(default_factory=itertools.count)

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        public_view, view_for = Match.public_view, Match.view_for
        inside = threading.local()  # computing secrets calls the views again: not watched

        def secrets(match: Match, view: TableView, owner: int | None) -> Secrets:
            allowed: dict[int, frozenset[Card]] = {}
            hidden: set[Card] = set()
            discards: set[Card] = set()
            fantasy = False
            playing = match.hand.seats if match.hand and view.phase == "playing" else {}
            # R8 (seeds 000, 003): the one player outside Fantasyland while all the others
            # dealt in are in it lays out face down too.
            outside = [s for s, sh in playing.items() if not sh.fantasy]
            alone = set(outside) if len(outside) == 1 and len(playing) > 1 else set()
            for seat in view.seats:
                own = view_for(match, seat.seat)
                hidden.update(own.dealt, own.discards)
                discards.update(own.discards)
                board = frozenset(own.board.cards)
                self.owned.setdefault((view.hand_no, seat.player_id), set()).update(
                    own.dealt, own.discards, board)
                if seat.seat in playing and (seat.in_fantasy or seat.seat in alone):
                    allowed[seat.seat] = frozenset()  # R8: face down until showdown
                    hidden.update(board)
                    fantasy = fantasy or (seat.in_fantasy and bool(board))
                else:
                    # R7, simultaneous: a street's placements show when the street ends
                    unshown = frozenset(playing[seat.seat].hidden) if seat.seat in playing \
                        else frozenset()
                    allowed[seat.seat] = board - unshown
                    hidden.update(unshown)
            self.discards.setdefault(view.hand_no, set()).update(discards)
            self.face_up.setdefault(view.hand_no, set()).update(*allowed.values())
            return Secrets(view.hand_no, allowed, frozenset(hidden), frozenset(discards),
                           fantasy, owner)

        def watched(match: Match, view: Any, table: TableView, owner: int | None) -> None:
            if getattr(inside, "busy", False):
                return
            inside.busy = True
            try:
                self._register(view, secrets(match, table, owner))
            finally:
                inside.busy = False

        def watched_public(match: Match, now: float | None = None) -> TableView:
            view = public_view(match, now)
            watched(match, view, view, None)
            return view

        def watched_private(match: Match, seat: int, now: float | None = None) -> PrivateView:
            view = view_for(match, seat, now)
            watched(match, view, view.table, match.player(seat).player_id)
            return view

        monkeypatch.setattr(Match, "public_view", watched_public)
        monkeypatch.setattr(Match, "view_for", watched_private)
        monkeypatch.setattr(images, "render", self._recorder(images.render))
        monkeypatch.setattr(images, "render_newest", self._newest_recorder(images.render_newest))

    def _register(self, view: Any, secrets: Secrets) -> None:
        # The view itself is kept too, so its id() is never reused for another object.
        self._registered[id(view)] = (view, secrets)

    def _recorder(self, real: Callable[..., Awaitable[bytes]]) -> Callable[..., Awaitable[bytes]]:
        async def record(kind: str, view: Any, *args: Any, **options: Any) -> bytes:
            """On the event loop, before the view goes to a worker (a copy of it does)."""
            number = self._record(kind, view, args)
            return _numbered(await real(kind, view, *args, **options), number)

        return record

    def _newest_recorder(self, real: Callable[..., Awaitable[bytes]]
                         ) -> Callable[..., Awaitable[bytes]]:
        async def record(kind: str, read: Callable[[], tuple[Any, ...]],
                         **options: Any) -> bytes:
            numbers: list[int] = []

            def recorded() -> tuple[Any, ...]:
                view, *args = read()
                numbers.append(self._record(kind, view, args))
                return (view, *args)

            png = await real(kind, recorded, **options)
            return _numbered(png, numbers[-1])

        return record

    def _record(self, kind: str, view: Any, args: Sequence[Any]) -> int:
        """Number the rendering of `view` and keep what it could show."""
        known = self._registered.get(id(view))
        number = next(self._numbers)
        locale = args[-1] if args and isinstance(args[-1], str) else None
        self.rendered[number] = Rendered(kind, view, known[1] if known else None, locale)
        return number

    # ------------------------------------------------------------------ reading Discord
    def rendered_from(self, attachment: Attachment) -> Rendered:
        """The recorded rendering an uploaded image came from."""
        with Image.open(io.BytesIO(attachment.data)) as image:
            return self.rendered[int(image.text[PNG_KEY])]  # type: ignore[attr-defined]

    def problems(self, double: DiscordDouble, channel: Channel,
                 members: Iterable[Any]) -> list[str]:
        """Every leak people could have seen in `channel` and the members' DMs."""
        found: list[str] = []
        for message in channel.messages:
            for version in _versions(message):
                where = f"message {message.id} ({_title(version)})"
                if message.visible_to is None:
                    found += self._public_text(version, where)
                    found += _public_controls(version, where)
                    for image in _images(version):
                        found += self._public_image(self.rendered_from(image), where)
                else:
                    found += self._private_images(version, message.visible_to, where)
                    found += self._private_text(version, message.visible_to, where)
        for member in members:
            for message in member.dms():
                for version in _versions(message):
                    where = f"DM {message.id} to {member.name}"
                    found += self._private_images(version, member.id, where)
                    found += self._private_text(version, member.id, where)
        return found

    def _public_text(self, version: Snapshot | Message, where: str) -> list[str]:
        text = "\n".join([version.content, *map(str, version.embeds),
                          *map(str, version.components)])
        shown = set(CARD_TEXT.findall(text))
        heading = TITLE.fullmatch(_title(version))
        if heading is None:
            return [f"{where} writes cards {sorted(shown)}"] if shown else []
        discarded = {card_label("en-US", c) for c in self.discards.get(int(heading[1]), ())}
        leaked = shown & discarded
        return [f"{where} writes discards {sorted(leaked)}"] if leaked else []

    def _private_text(self, version: Snapshot | Message, reader: int, where: str) -> list[str]:
        """The cards a message about a hand writes to `reader`: their own in that hand, or
        seen face up on a board in it (placed, or shown down)."""
        heading = HAND_TITLE.match(_title(version))
        if heading is None:
            return []
        hand = int(heading[1])
        text = "\n".join([version.content, *map(str, version.embeds),
                          *map(str, version.components)])
        seen = self.owned.get((hand, reader), set()) | self.face_up.get(hand, set())
        leaked = set(CARD_TEXT.findall(text)) - {card_label("en-US", c) for c in seen}
        return [f"{where} writes {sorted(leaked)} to {reader}"] if leaked else []

    def _public_image(self, rendered: Rendered, where: str) -> list[str]:
        if rendered.kind == "private" or not isinstance(rendered.view, TableView):
            return [f"{where} shows a {rendered.kind} image made from {type(rendered.view)}"]
        if rendered.secrets is None:
            return [f"{where} shows an image of a view the table service never made"]
        return leaks(rendered.view, rendered.secrets, where)

    def _private_images(self, version: Snapshot | Message, reader: int, where: str) -> list[str]:
        found = []
        for image in _images(version):
            rendered = self.rendered_from(image)
            secrets = rendered.secrets
            if rendered.kind != "private":
                continue  # a public image is public everywhere
            if not isinstance(rendered.view, PrivateView) or secrets is None:
                found.append(f"{where} shows a private image of an unknown view")
            elif secrets.owner != reader:
                found.append(f"{where} shows player {secrets.owner}'s cards to {reader}")
            else:
                found += leaks(rendered.view.table, secrets, where)
        return found

    def count(self, kind: str, *, hidden_fantasy: bool = False) -> int:
        """How many images of `kind` were made (with a Fantasyland board face down)."""
        return sum(1 for r in self.rendered.values() if r.kind == kind and r.secrets is not None
                   and (r.secrets.hidden_fantasy_board or not hidden_fantasy))


def leaks(view: TableView, secrets: Secrets, where: str) -> list[str]:
    """Cards `view` shows that its seats' owners had not placed, or that were hidden."""
    found = []
    for seat in view.seats:
        shown = set(seat.board.cards) | set(seat.new_cards)
        extra = shown - secrets.allowed.get(seat.seat, frozenset())
        if extra or shown & secrets.hidden:
            found.append(f"{where}: hand {view.hand_no} street {view.street} seat {seat.seat} "
                         f"shows {_labels(extra | (shown & secrets.hidden))}")
    if view.showdown is not None and view.phase != "playing":
        for seat_result in view.showdown.seats:
            leaked = set(seat_result.board.cards) & secrets.hidden
            if leaked:
                found.append(f"{where}: the showdown shows {_labels(leaked)}")
    return found


def _public_controls(version: Snapshot | Message, where: str) -> list[str]:
    """A seat's controls on a public message: their ids name the cards dealt (any client
    can read a message's component ids), and they would draw its cards there."""
    seat_kinds = (ids.PLACE, ids.ROW_NAME, ids.STEP, ids.FANTASY_ROW, ids.BACK)
    return [f"{where} carries the seat control {c['custom_id']!r}"
            for c in walk(version.components)
            if any(kind.fullmatch(str(c.get("custom_id", ""))) for kind in seat_kinds)]


def _versions(message: Message) -> list[Snapshot | Message]:
    return [*message.history, message]


def _images(version: Snapshot | Message) -> list[Attachment]:
    return [a for a in version.attachments if a.content_type.startswith("image/")]


def _title(version: Snapshot | Message) -> str:
    return str(version.embeds[0].get("title", "")) if version.embeds else version.content[:40]


def _labels(cards: Iterable[Card]) -> str:
    return " ".join(sorted(card_label("en-US", c) for c in cards))


def _numbered(png: bytes, number: int) -> bytes:
    """`png` with a text chunk naming its recorded view, put before the closing IEND chunk
    (12 bytes): the image is drawn as it was, and nothing is re-encoded."""
    data = f"{PNG_KEY}\0{number}".encode()
    chunk = b"tEXt" + data
    return (png[:-12] + struct.pack(">I", len(data)) + chunk
            + struct.pack(">I", zlib.crc32(chunk)) + png[-12:])
