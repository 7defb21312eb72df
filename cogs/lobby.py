"""The lobby: `/ofc create` (every table option of RULES.md), `/ofc join`, `/ofc leave`,
`/ofc start`, `/ofc cancel`, and the lobby message's buttons.

Thin: each command or click is one table-service call; the lobby message itself is drawn and
kept up to date by cogs/play.py from the service's events, whoever caused them.
"""

from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.components import handles
from cogs.context import guild_id_of, refusing, send
from cogs.group import attach, detach
from cogs.ids import parse_lobby
from cogs.rule_options import (
    CHOICE,
    BuyIn,
    FantasyTurnSeconds,
    Hands,
    PointValue,
    Seats,
    TimeBankSeconds,
    TurnSeconds,
    given,
)
from cogs.service import is_admin, name_of, table_here, tables_of
from cogs.text import plural

Interaction = discord.Interaction[Any]
Action = Callable[[Interaction, int], Awaitable[str]]

# Slash option help, by RULES.md section; an option left out takes this server's default
# (`/ofc settings`), else RULES.md's.
OPTION_HELP = {
    "variant": "R9: pineapple, turbo (5/4/4, up to 4 seats), lowball (2-7 middle), joker",
    "seats": "Players at the table: 2-3 (turbo 2-4)",
    "buy_in": "R12: chips each player brings from the wallet (default 200)",
    "point_value": "R5: chips per point (default 1)",
    "scoring": "R5: 1-6 (scoop +3) or 2-4 (+1 for two lines)",
    "royalties": "R4: american or russian bonus table, or off (none)",
    "fantasy": "R8: standard, progressive, ultimate, tournament, off",
    "fantasy_stay_full_house_middle": "R8: a full house in the middle also stays in Fantasyland",
    "button_moves_on_fantasy": "R8: move the button before a Fantasyland hand",
    "order": "R7: sequential (one at a time) or simultaneous",
    "format": "R11: match (one hand per player), hands (a number of hands), cash",
    "hands": "R11: hands to play in the 'hands' format (default 20)",
    "turn_seconds": "R10: seconds for each street (default 60)",
    "fantasy_turn_seconds": "R10: seconds for a Fantasyland hand (default 180)",
    "time_bank_seconds": "R10: extra seconds per match once a turn runs out (default 120)",
}


@app_commands.command(name="create",
                      description="Open a table in this channel and sit down at it")
@app_commands.describe(**OPTION_HELP)
@app_commands.choices(**{name: CHOICE[name] for name in CHOICE})
async def create(
    interaction: Interaction,
    variant: str | None = None, seats: Seats | None = None, buy_in: BuyIn | None = None,
    point_value: PointValue | None = None, scoring: str | None = None,
    royalties: str | None = None, fantasy: str | None = None,
    fantasy_stay_full_house_middle: bool | None = None,
    button_moves_on_fantasy: bool | None = None, order: str | None = None,
    format: str | None = None, hands: Hands | None = None,
    turn_seconds: TurnSeconds | None = None,
    fantasy_turn_seconds: FantasyTurnSeconds | None = None,
    time_bank_seconds: TimeBankSeconds | None = None,
) -> None:
    async with refusing(interaction):
        guild_id = guild_id_of(interaction)
        options = given(
            variant=variant, seats=seats, buy_in=buy_in, point_value=point_value,
            scoring=scoring, royalties=royalties, fantasy=fantasy,
            fantasy_stay_full_house_middle=fantasy_stay_full_house_middle,
            button_moves_on_fantasy=button_moves_on_fantasy, order=order, format=format,
            hands=hands, turn_seconds=turn_seconds, fantasy_turn_seconds=fantasy_turn_seconds,
            time_bank_seconds=time_bank_seconds)
        await interaction.response.defer(ephemeral=True, thinking=True)
        lobby = await tables_of(interaction).create_table(
            guild_id, interaction.channel_id, interaction.user.id, name_of(interaction.user),
            options)
        await send(interaction, ephemeral=True, content=(
            f"Your table is open (lobby below); you sat down with "
            f"{plural(lobby.rules.buy_in, 'chip')}. Press **Start** when everyone is in."))


async def _join(interaction: Interaction, table: int) -> str:
    lobby = await tables_of(interaction).join(table, interaction.user.id, name_of(interaction.user))
    return f"You sat down with {plural(lobby.rules.buy_in, 'chip')} from your wallet."


async def _leave(interaction: Interaction, table: int) -> str:
    await tables_of(interaction).leave(table, interaction.user.id)
    return "You got up; your chips went back to your wallet."


async def _start(interaction: Interaction, table: int) -> str:
    await tables_of(interaction).start(table, interaction.user.id,
                                       is_admin=is_admin(interaction))
    return "The match has started: your cards come by DM."


async def _cancel(interaction: Interaction, table: int) -> str:
    await tables_of(interaction).cancel(table, interaction.user.id,
                                        is_admin=is_admin(interaction))
    return "The table is closed; every stack went back to its wallet."


def _computer(level: str) -> Action:
    async def add(interaction: Interaction, table: int) -> str:
        await tables_of(interaction).add_computer(table, interaction.user.id, level,
                                                  is_admin=is_admin(interaction))
        return f"A computer player ({level}) sat down."
    return add


ACTIONS: dict[str, Action] = {"join": _join, "leave": _leave, "start": _start,
                              "cancel": _cancel, "easy": _computer("easy"),
                              "strong": _computer("strong")}


def _slash(action: str, description: str) -> app_commands.Command[Any, ..., None]:
    """`/ofc <action>` at this channel's table: the same as the lobby button, answered
    privately."""
    async def run(interaction: Interaction) -> None:
        async with refusing(interaction):
            table = table_here(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            answer = await ACTIONS[action](interaction, table)
            await send(interaction, ephemeral=True, content=answer)
    return app_commands.Command(name=action, description=description, callback=run)


@handles("lobby")
async def on_lobby_button(interaction: Interaction, custom_id: str, values: list[str]) -> None:
    """A lobby button: the lobby message itself is redrawn from the service's events."""
    key = parse_lobby(custom_id)
    await interaction.response.defer()
    await ACTIONS[key.action](interaction, key.table)


COMMANDS = (
    create,
    _slash("join", "Sit down at this table (the buy-in leaves your wallet)"),
    _slash("leave", "Get up from this channel's table; your chips go back"),
    _slash("start", "Start this channel's table (host or Manage Server)"),
    _slash("cancel", "Close this table and refund every stack (host or Manage Server)"),
)


async def setup(bot: commands.Bot) -> None:
    attach(bot.tree, COMMANDS)


async def teardown(bot: commands.Bot) -> None:
    detach(COMMANDS)
