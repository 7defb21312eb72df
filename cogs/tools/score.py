"""`/ofc score`: score a finished hand of a game at a real table.

It takes one text option per player (`Name: top / middle / bottom`, cogs/tools/score_input.py)
rather than a modal per player: the whole hand and the table's rules go in one command with
Discord's own choice lists for the options, a typo is fixed by editing one line of the recalled
command, and it reads the same on a phone. The numbers come from
bot.engine.scoresheet.score_sheet, the very code of `ofc score`.
"""

from typing import Any

from discord import app_commands
from discord.app_commands import locale_str

from bot.engine.scoresheet import parse_boards, score_sheet
from cogs.common import images
from cogs.common.answers import send
from cogs.common.client import Interaction
from cogs.common.interactions import in_time, per_member, storage_of
from cogs.common.language import lang
from cogs.common.options import chosen_rules, table_options
from cogs.tools import embeds
from cogs.tools.engine_views import score_view
from cogs.tools.score_input import EXAMPLE, score_input

BOARD = locale_str(f"Name: top / middle / bottom, e.g. {EXAMPLE}")  # a command string
# A name of MAX_NAME characters and 13 cards, with room to spare for spaces and separators.
Board = app_commands.Range[str, 1, 200]
Fantasy = app_commands.Range[str, 1, 200]  # up to four names, each with a card count


@per_member(3, 10)
@app_commands.command(name="score", description="Score a finished hand of a game at a real table")
@app_commands.describe(
    player1=BOARD, player2=BOARD, player3=BOARD, player4=BOARD,
    in_fantasy="Who played this hand in Fantasyland, e.g. 'Alice' or 'Alice 15'",
)
@table_options("variant", "scoring", "royalties", "fantasy", "point_value")
async def score(interaction: Interaction, player1: Board, player2: Board,
                player3: Board | None = None, player4: Board | None = None, *,
                in_fantasy: Fantasy | None = None, options: dict[str, Any]) -> None:
    # (deferred publicly only when the server's settings are slow to read: a refusal then
    # shows in the channel)
    rules = await in_time(interaction, chosen_rules(interaction, options), ephemeral=False)
    blocks = [text for text in (player1, player2, player3, player4) if text]
    request = score_input(blocks, rules, in_fantasy or "", lang(interaction))
    sheet = score_sheet(request)  # every refusal comes before this point
    boards = parse_boards(request["players"], rules)
    if not interaction.response.is_done():
        await interaction.response.defer(thinking=True)  # the image takes a moment
    prefs = await storage_of(interaction).preferences.preferences(interaction.user.id)
    loc = lang(interaction)
    await send(interaction, ephemeral=False, embed=embeds.score(loc, rules, boards, sheet),
               file=await images.score_file(loc, score_view(rules, request, sheet),
                                            prefs.four_colour))
