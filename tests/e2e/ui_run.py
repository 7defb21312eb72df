"""What one hand costs a player on a phone (ofc bench): two members play a whole hand by their
DM buttons through the real bot and the local Discord double, and we count

- ui_taps_per_hand: the buttons each clicked on their prompts (placements, Confirm, a second
  Confirm for a board that fouls); the most of the two. Target: at most 18 (6 on street 1, 3
  on each later street).
- ui_dm_kb_per_hand: the bytes of every image uploaded to each member's DMs (every version of
  every DM message, each attachment counted once); the most of the two, in KB. Target: at most
  300.
- ui_dm_height_pt: the tallest prompt on a phone, in points, by tests/phone.py's model: of
  every version of every prompt each member saw, and of every version of the seeded prompts
  of tests/phone_prompts.py (each language, seat count, variant, street, Fantasyland size and
  hints setting). Target: at most 640, one screen.

`python -m tests.e2e.ui_run --json` prints them (bot/cli/bench/e2e.py runs it for `ofc bench`).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from PIL import Image

from tests.e2e.discord_double import DiscordDouble, Member
from tests.e2e.discord_double.components import SELECT_TYPES, walk
from tests.e2e.flows import TAPS, open_table, play_out, seats_of, seed_decks, start_bot
from tests.phone import Prompt, height
from tests.phone_prompts import tallest

REACTION_SECONDS = 0.01
# The deck of every measured hand: the members fill their rows bottom up (as the system
# would, tests/e2e/flows.act), and with this deck neither board fouls, so no second Confirm
# is asked: a normal hand.
SEED = 4


def dm_image_bytes(member: Member) -> int:
    """Every image the member's DMs received: each attachment of every version, once."""
    seen: dict[int, int] = {}
    for message in member.dms():
        versions = [snap.attachments for snap in message.history] + [message.attachments]
        for attachments in versions:
            for attachment in attachments:
                if attachment.content_type.startswith("image/"):
                    seen[attachment.id] = len(attachment.data)
    return sum(seen.values())


def dm_heights(member: Member) -> list[float]:
    """The phone height of every version of the member's prompts that offered controls, with
    the image the version showed (uploaded with it or kept from before)."""
    heights = []
    for message in member.dms():
        images = {a.url: a.data for version in [*message.history, message]
                  for a in version.attachments}
        for version in [*message.history, message]:
            embed = version.embeds[0] if version.embeds else {}
            if not version.components:
                continue
            data = images.get((embed.get("image") or {}).get("url"))
            size = Image.open(io.BytesIO(data)).size if data else None
            rows = [[str(c["label"]) for c in walk([row]) if c.get("label")]
                    for row in version.components]
            menus = sum(1 for c in walk(version.components) if c.get("type") in SELECT_TYPES)
            heights.append(height(Prompt((embed.get("author") or {}).get("name"),
                                         str(embed.get("title", "")),
                                         str(embed.get("description", "")), size,
                                         [row for row in rows if row], menus)).total)
    return heights


async def ui_run(hands: int = 1, seed: int = SEED, *, matrix: bool = True) -> dict[str, float]:
    """Play `hands` hands (no Fantasyland) from `seed` and return the figures per hand; without
    `matrix`, the height is of the hand's own prompts only (tests/cogs/test_dm_height.py
    measures the seeded ones)."""
    async with DiscordDouble() as double:
        double.reaction_time = REACTION_SECONDS
        members = (double.add_member("alice"), double.add_member("bob"))
        with tempfile.TemporaryDirectory() as folder:
            bot = await start_bot(double, Path(folder) / "ofc.sqlite3")
            seed_decks(bot, seed)
            try:
                for member in members:
                    TAPS.pop(member.id, None)
                table = await open_table(double, *members, seats=2, format="hands",
                                         hands=hands, fantasy="off")
                await play_out(double, table, seats_of(members))
                taps = max(TAPS.get(m.id, 0) for m in members) / hands
                kb = max(dm_image_bytes(m) for m in members) / 1024 / hands
                seen = max(h for m in members for h in dm_heights(m))
            finally:
                await double.stop_client(bot)
    if matrix:
        seen = max(seen, tallest()[1].total)
    return {"ui_taps_per_hand": taps, "ui_dm_kb_per_hand": round(kb, 1),
            "ui_dm_height_pt": round(seen)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.e2e.ui_run",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args(argv)
    figures = asyncio.run(ui_run(args.hands, args.seed))
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:20} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
