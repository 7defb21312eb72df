"""Player tools under `/ofc`: score, solve, rules, and the server's settings.

`/ofc score` takes one text option per player (`Name: top / middle / bottom`) rather than a
modal per player: the whole hand and the table's rules go in one command with Discord's own
choice lists for the options, a typo is fixed by editing one line of the recalled command, and
it reads the same on a phone. The numbers come from bot.engine.scoresheet.score_sheet, the very
code of `ofc score`.
"""

import asyncio
from typing import TYPE_CHECKING, Any

from discord import app_commands

from bot.ai.solver import check_cards
from bot.ai.solver import solve as solve_fantasyland
from bot.engine.cards import parse_cards
from bot.engine.rules import TableRules
from bot.engine.scoresheet import parse_boards, score_sheet
from bot.storage.validate import MAX_CHIPS
from cogs.common import images
from cogs.common.answers import Refusal, install_error_handler, manage_server, send
from cogs.common.client import Interaction, SlashCommand
from cogs.common.group import attach, detach
from cogs.common.interactions import guild_id_of, now_of, storage_of, tables_of
from cogs.common.options import chosen_rules, given, server_rules, table_options
from cogs.tools import embeds as embeds_tools
from cogs.tools.engine_views import score_view, solution_view
from cogs.tools.score_input import EXAMPLE, score_input

if TYPE_CHECKING:
    from bot.app import OFCBot

AUDIT_SHOWN = 5
BOARD = f"Name: top / middle / bottom, e.g. {EXAMPLE}"
RESETS = [
    app_commands.Choice(name="starting chips", value="starting_chips"),
    app_commands.Choice(name="daily chips", value="daily_chips"),
    app_commands.Choice(name="table options", value="table_options"),
    app_commands.Choice(name="everything", value="all"),
]
RESET_FIELDS: dict[str, Any] = {"starting_chips": None, "daily_chips": None, "table_options": {}}


@app_commands.command(name="score", description="Score a finished hand of a game at a real table")
@app_commands.describe(
    player1=BOARD, player2=BOARD, player3=BOARD, player4=BOARD,
    in_fantasy="Who played this hand in Fantasyland, e.g. 'Alice' or 'Alice 15'",
)
@table_options("variant", "scoring", "royalties", "fantasy", "point_value")
async def score(interaction: Interaction, player1: str, player2: str,
                player3: str | None = None, player4: str | None = None, *,
                in_fantasy: str | None = None, options: dict[str, Any]) -> None:
    rules = await chosen_rules(interaction, options)
    blocks = [text for text in (player1, player2, player3, player4) if text]
    request = score_input(blocks, rules, in_fantasy or "")
    sheet = score_sheet(request)  # every refusal comes before this point
    boards = parse_boards(request["players"], rules)
    await interaction.response.defer(thinking=True)  # the image takes a moment
    await send(interaction, ephemeral=False, embed=embeds_tools.score(rules, boards, sheet),
               file=await images.showdown_file(score_view(rules, request, sheet)))


@app_commands.command(name="solve", description="The best Fantasyland arrangement of 13-17 cards")
@app_commands.describe(cards="13 to 17 cards, e.g. Ah Ad Kc Qs Js Ts 9s 8s 7h 7d 4c 3c 2d 2h")
@table_options("variant", "royalties", "fantasy", "fantasy_stay_full_house_middle")
async def solve(interaction: Interaction, cards: str, *, options: dict[str, Any]) -> None:
    rules = await chosen_rules(interaction, options)
    hand = parse_cards(cards, allow_jokers=rules.jokers)
    check_cards(hand, rules)
    # A Fantasyland hand is secret until showdown: the answer is for the asker only.
    await interaction.response.defer(ephemeral=True, thinking=True)
    solved = await asyncio.to_thread(solve_fantasyland, hand, rules)
    image = await images.private_file(
        solution_view(rules, hand, interaction.user.display_name), solved.assignment())
    await send(interaction, ephemeral=True, file=image,
               embed=embeds_tools.solution(rules, solved, len(hand)))


@app_commands.command(name="rules",
                      description="The rules in force at a table here, or this server's")
@app_commands.describe(table="A table's number (default: the table in this channel)")
async def rules(interaction: Interaction,
                table: app_commands.Range[int, 1, MAX_CHIPS] | None = None) -> None:
    guild_id = guild_id_of(interaction)
    service = tables_of(interaction)
    table_id = table or service.table_for_channel(interaction.channel_id)
    if table_id is None:
        in_force = await server_rules(storage_of(interaction), guild_id)
        where = "No table in this channel: these are this server's default rules."
    else:
        lobby = service.lobby(table_id)
        if lobby.guild_id != guild_id:
            raise Refusal(f"There is no table #{table_id} in this server.")
        in_force = lobby.rules
        where = f"Table #{table_id} in <#{lobby.thread_id or lobby.channel_id}>."
    await send(interaction, ephemeral=False, embed=embeds_tools.rules(in_force, where))


@app_commands.command(name="settings",
             description="This server's chips and default table options (Manage Server)")
@app_commands.describe(
    starting_chips="Chips in a new wallet", daily_chips="Chips of one /daily claim",
    reset="Put a setting back to the bot's default first",
)
@manage_server
@app_commands.choices(reset=RESETS)
@table_options()
async def settings(
    interaction: Interaction,
    starting_chips: app_commands.Range[int, 0, MAX_CHIPS] | None = None,
    daily_chips: app_commands.Range[int, 0, MAX_CHIPS] | None = None, *,
    reset: str | None = None, options: dict[str, Any],
) -> None:
    guild_id = guild_id_of(interaction)
    storage = storage_of(interaction)
    before = await storage.guild_settings(guild_id)
    if reset is not None and reset != "all" and reset not in RESET_FIELDS:
        raise Refusal(f"'{reset}' is not a setting that can be reset.")
    update: dict[str, Any] = {
        field: default for field, default in RESET_FIELDS.items() if reset in (field, "all")
    }
    update |= given(starting_chips=starting_chips, daily_chips=daily_chips)
    if options:
        kept = update.get("table_options", before.table_options)
        merged = {**kept, **options}
        checked = TableRules.from_mapping(merged)  # names the first bad option
        update["table_options"] = {name: getattr(checked, name) for name in merged}
    after = before
    if update:
        after = await storage.update_guild_settings(
            guild_id, actor_id=interaction.user.id, now=now_of(interaction), **update)
    changed = [name.replace("_", " ") for name in RESET_FIELDS
               if getattr(before, name) != getattr(after, name)]
    defaults = (storage.defaults.starting_chips, storage.defaults.daily_chips)
    await send(interaction, ephemeral=True, embed=embeds_tools.settings(
        after, defaults, TableRules.from_mapping(after.table_options),
        await storage.settings_audit(guild_id, limit=AUDIT_SHOWN), changed))


COMMANDS: tuple[SlashCommand, ...] = (score, solve, rules, settings)


async def setup(bot: "OFCBot") -> None:
    install_error_handler(bot.tree)
    attach(bot.tree, COMMANDS)


async def teardown(bot: "OFCBot") -> None:
    detach(COMMANDS)
