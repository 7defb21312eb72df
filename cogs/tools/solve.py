"""`/ofc solve`: the best Fantasyland arrangement of 13-17 cards (bot.ai.solver), for the
asker only."""

from typing import Any

from discord import app_commands

from bot.ai.solver import check_cards
from bot.ai.solver import solve as solve_fantasyland
from bot.engine.cards import parse_cards
from bot.process.workers import PERSON
from cogs.common import images
from cogs.common.answers import send
from cogs.common.client import Interaction
from cogs.common.interactions import in_time, per_member, storage_of
from cogs.common.language import lang
from cogs.common.options import chosen_rules, table_options
from cogs.tools import embeds

# 17 cards of up to three characters ("10h") with a separator each: room to spare, and a
# bound on what a refusal can quote.
MAX_CARDS_TEXT = 100


@per_member(2, 10)
@app_commands.command(name="solve", description="The best Fantasyland arrangement of 13-17 cards")
@app_commands.describe(cards="13 to 17 cards, e.g. Ah Ad Kc Qs Js Ts 9s 8s 7h 7d 4c 3c 2d 2h")
@table_options("variant", "royalties", "fantasy", "fantasy_stay_full_house_middle")
async def solve(interaction: Interaction, cards: app_commands.Range[str, 1, MAX_CARDS_TEXT], *,
                options: dict[str, Any]) -> None:
    rules = await in_time(interaction, chosen_rules(interaction, options), ephemeral=True)
    hand = parse_cards(cards, allow_jokers=rules.jokers)
    check_cards(hand, rules)
    # A Fantasyland hand is secret until showdown: the answer is for the asker only.
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
    solved = await images.workers().run(solve_fantasyland, hand, rules, priority=PERSON)
    prefs = await storage_of(interaction).preferences.preferences(interaction.user.id)
    loc = lang(interaction)
    image = await images.solution_file(loc, solved.board, solved.discard, rules,
                                       prefs.four_colour)
    await send(interaction, ephemeral=True, file=image,
               embed=embeds.solution(loc, rules, solved, len(hand)))
