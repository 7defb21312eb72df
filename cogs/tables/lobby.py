"""The lobby: `/ofc create` (every table option of RULES.md), `/ofc join`, `/ofc leave`,
`/ofc start`, `/ofc cancel`, and the lobby message's buttons.

Thin: each command or click is one table-service call; the lobby message itself is drawn and
kept up to date by cogs/tables/presenter.py from the service's events, whoever caused them.
"""

import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.i18n import Slash, Text, t
from bot.i18n.names import LEVELS, seat_name
from bot.tables import LobbyView, StaleAction, TableError
from cogs.common.answers import (
    ELSEWHERE,
    PersistentItem,
    Refusal,
    acknowledge,
    manages_server,
    send,
)
from cogs.common.client import Interaction, SlashCommand
from cogs.common.format import chips, clip, isolated
from cogs.common.interactions import (
    channel_id_of,
    guild_id_of,
    name_of,
    per_member,
    table_here,
    tables_of,
)
from cogs.common.language import lang, server_locale
from cogs.common.options import AT_A_TABLE, table_options
from cogs.common.permissions import can_open_threads, require_table_permissions, table_needs
from cogs.tables import ids
from cogs.tables.embeds import PRACTICE_CLOSED

Action = Callable[[Interaction, int], Awaitable[Text]]
THREAD_NAME = 100  # Discord's limit of a thread's name

@app_commands.command(name="create",
                      description="Open a table in this channel and sit down at it")
@table_options(*AT_A_TABLE)
async def create(interaction: Interaction, *, options: dict[str, Any]) -> None:
    guild_id = guild_id_of(interaction)
    # A table the bot could not post in would hold the buy-ins; check first.
    require_table_permissions(interaction.app_permissions, table_needs(interaction.channel))
    acknowledge(interaction, ephemeral=True, thinking=True)  # while the table is opened
    lobby = await tables_of(interaction).create_table(
        guild_id, channel_id_of(interaction), interaction.user.id, name_of(interaction.user),
        options)
    loc = lang(interaction)
    await send(interaction, ephemeral=True, content=t(
        loc, "Your table is open (lobby below); you sat down with {chips}. Press **Start** "
             "when everyone is in.", chips=chips(loc, lobby.rules.buy_in)))


PRACTICE_HANDS = 5
NO_PRACTICE_THREAD = Text(
    "I cannot open a practice thread here: use {cmd} in a text channel where I have the Create "
    "Public Threads and Send Messages in Threads permissions.", cmd=Slash("ofc practice"))


@per_member(2, 60)  # each practice opens a thread
@app_commands.command(
    name="practice",
    description="Play heads-up against the computer for play chips, with hints (no chips at stake)")
@app_commands.describe(level="How the computer plays (default strong)",
                       hands="Hands to play (default 5)")
@app_commands.choices(level=[app_commands.Choice(name=level, value=level)
                             for level in ("easy", "strong")])
async def practice(interaction: Interaction, level: str = "strong",
                   hands: app_commands.Range[int, 1, 50] = PRACTICE_HANDS) -> None:
    """For newcomers: a practice table in a thread of its own (the channel stays free for a real
    table), dealt at once; its stacks are play chips and its hands are not in /ofc stats."""
    guild_id = guild_id_of(interaction)
    require_table_permissions(interaction.app_permissions)
    channel = interaction.channel
    if not isinstance(channel, discord.TextChannel) or not can_open_threads(interaction):
        raise Refusal(NO_PRACTICE_THREAD)
    await interaction.response.defer(ephemeral=True, thinking=True)
    name = name_of(interaction.user)
    # The thread's name is seen by the whole server: in its language. It is plain text: the
    # member's name is isolated, not escaped.
    server = await server_locale(interaction.client, guild_id)
    thread = await channel.create_thread(
        name=clip(t(server, "Practice: {name} vs computer ({level})", name=isolated(name),
                    level=LEVELS.get(level, level)), THREAD_NAME),
        type=discord.ChannelType.public_thread)
    try:
        await tables_of(interaction).practice(guild_id, thread.id, interaction.user.id, name,
                                              level, {"format": "hands", "hands": hands})
    except BaseException:
        with contextlib.suppress(discord.HTTPException):
            await thread.delete()  # nothing was dealt: leave no empty thread behind
        raise
    await send(interaction, ephemeral=True, content=t(
        lang(interaction), "Your practice table is open in {thread}: {n} hand against the "
        "computer ({level}) for play chips, no chips at stake. Your cards come by DM; "
        "**Suggest** shows the strong computer's choice, and {review} goes over your hands "
        "afterwards.", "Your practice table is open in {thread}: {n} hands against the "
        "computer ({level}) for play chips, no chips at stake. Your cards come by DM; "
        "**Suggest** shows the strong computer's choice, and {review} goes over your hands "
        "afterwards.", thread=thread.mention, n=hands, level=LEVELS.get(level, level),
        review=Slash("ofc review")))


async def _join(interaction: Interaction, table: int) -> Text:
    service = tables_of(interaction)
    if interaction.user.id in service.lobby(table).leaving:  # a cash leave still to come
        # The hand may end (and the leave be done) before the table's turn comes to this
        # click: then the member sits down again, as Join does for anyone.
        with contextlib.suppress(StaleAction):
            await service.stay(table, interaction.user.id)
            return Text("You stay at the table: you will not get up after this hand, and "
                        "your chips stay where they are.")
    lobby = await service.join(table, interaction.user.id, name_of(interaction.user))
    return Text("You sat down with {chips} from your wallet.",
                chips=chips(lang(interaction), lobby.rules.buy_in))


async def _leave(interaction: Interaction, table: int) -> Text:
    lobby = await tables_of(interaction).leave(table, interaction.user.id)
    if lobby.seated(interaction.user.id):  # a hand in play, or a Fantasyland hand owed (R11)
        return Text("You will get up after this hand; your chips go back to your wallet then.")
    return Text("You got up; your chips went back to your wallet.")


async def _start(interaction: Interaction, table: int) -> Text:
    await tables_of(interaction).start(table, interaction.user.id,
                                       is_admin=manages_server(interaction))
    return Text("The match has started: your cards come by DM.")


async def _cancel(interaction: Interaction, table: int) -> Text:
    service = tables_of(interaction)
    practice = service.lobby(table).practice
    await service.cancel(table, interaction.user.id, is_admin=manages_server(interaction))
    if practice:
        return PRACTICE_CLOSED
    return Text("The table is closed; every stack went back to its wallet.")


async def _remove(interaction: Interaction, table: int) -> Text:
    service = tables_of(interaction)
    computers = [s for s in service.lobby(table).seats if s.ai_level]
    if not computers:
        raise Refusal(Text("There is no computer player to remove."))
    await service.remove_computer(table, interaction.user.id, computers[-1].player_id,
                                  is_admin=manages_server(interaction))
    return Text("{name} got up.", name=seat_name(lang(interaction), computers[-1].name))


def _computer(level: str) -> Action:
    async def add(interaction: Interaction, table: int) -> Text:
        await tables_of(interaction).add_computer(table, interaction.user.id, level,
                                                  is_admin=manages_server(interaction))
        return Text("A computer player ({level}) sat down.", level=LEVELS[level])
    return add


ACTIONS: dict[str, Action] = {"join": _join, "leave": _leave, "start": _start,
                              "cancel": _cancel, "easy": _computer("easy"),
                              "strong": _computer("strong"), "remove": _remove}


def _slash(action: str, description: app_commands.locale_str) -> app_commands.Command[
        Any, ..., None]:
    """`/ofc <action>` at this channel's table: the same as the lobby button, answered
    privately."""
    async def run(interaction: Interaction) -> None:
        table = table_here(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        answer = await ACTIONS[action](interaction, table)
        await send(interaction, ephemeral=True, content=t(lang(interaction), answer))
    return app_commands.Command(name=action, description=description, callback=run)


Button = discord.ui.Button[discord.ui.View]


class LobbyButton(PersistentItem, discord.ui.DynamicItem[Button], template=ids.LOBBY):
    """A lobby button: the lobby message itself is redrawn from the service's events."""

    in_dms = False

    async def clicked(self, interaction: Interaction) -> None:
        key = ids.parse_lobby(self.custom_id)
        await interaction.response.defer()
        await ACTIONS[key.action](interaction, key.table)


def _button(action: str, table: int, label: str, style: discord.ButtonStyle, *, row: int,
            disabled: bool = False) -> LobbyButton:
    return LobbyButton(discord.ui.Button(label=label, style=style, row=row, disabled=disabled,
                                         custom_id=str(ids.LobbyId(table, action))))


def lobby_view(loc: str, lobby: LobbyView) -> discord.ui.View:
    """Join / Leave / Start / Cancel, and computers of both levels; nothing once it started,
    nor at a tournament's table (the tournament seats and starts it). In the server's
    language (`loc`), as the lobby message is."""
    view = discord.ui.View(timeout=None)
    if lobby.status != "lobby" or lobby.lent:
        return view
    full = lobby.is_full
    table = lobby.table_id
    grey, green = discord.ButtonStyle.secondary, discord.ButtonStyle.success
    view.add_item(_button("join", table, t(loc, "Join"), green, row=0, disabled=full))
    view.add_item(_button("leave", table, t(loc, "Leave"), grey, row=0))
    view.add_item(_button("start", table, t(loc, "Start"), discord.ButtonStyle.primary, row=0,
                          disabled=len(lobby.seats) < 2))
    view.add_item(_button("cancel", table, t(loc, "Cancel"), discord.ButtonStyle.danger, row=0))
    for level in ("easy", "strong"):
        view.add_item(_button(level, table, t(loc, "Add computer ({level})", level=LEVELS[level]),
                              grey, row=1, disabled=full))
    view.add_item(_button("remove", table, t(loc, "Remove computer"), grey, row=1,
                          disabled=not any(s.ai_level for s in lobby.seats)))
    return view


class RematchButton(PersistentItem, discord.ui.DynamicItem[Button], template=ids.REMATCH):
    """"Rematch" under a match's standings: the first click opens a table here with the same
    options (the clicker seated, the buy-in taken again); each later click sits down at it.
    The offer is the closed table's, saved with it: it outlives a restart of the bot."""

    def _check_origin(self, interaction: Interaction) -> None:
        """The table is closed (the service may have let it go): `rematch` checks where the
        click comes from against the offer, read from storage if need be."""

    async def clicked(self, interaction: Interaction) -> None:
        old = ids.parse_table_button(self.custom_id).table
        await interaction.response.defer(ephemeral=True, thinking=True)
        await send(interaction, ephemeral=True,
                   content=t(lang(interaction), await rematch(interaction, old)))


async def rematch(interaction: Interaction, old: int) -> Text:
    service = tables_of(interaction)
    finished = await service.rematch_offer(old)
    if finished is None:
        raise Refusal(Text("This rematch is no longer offered: open a table with {cmd}.",
                           cmd=Slash("ofc create")))
    if finished.guild_id != interaction.guild_id or \
            interaction.channel_id not in (finished.channel_id, finished.thread_id):
        raise Refusal(ELSEWHERE)  # a forged id from another server or channel
    here = service.table_for_channel(finished.thread_id or finished.channel_id)
    if here is not None and service.lobby(here).status == "lobby":
        return await _join(interaction, here)
    if here is not None:
        raise Refusal(Text("A new match is already being played here."))
    # The bot may have lost a permission since that match: the new lobby must be seen.
    require_table_permissions(interaction.app_permissions, table_needs(interaction.channel))
    try:
        lobby = await service.create_table(
            finished.guild_id, finished.channel_id, interaction.user.id,
            name_of(interaction.user), finished.rules.to_dict(), thread_id=finished.thread_id)
    except TableError:
        if service.table_for_channel(finished.thread_id or finished.channel_id) is None:
            raise
        return await rematch(interaction, old)  # another click opened it meanwhile: join it
    return Text("The rematch is open (lobby below); you sat down with {chips}. Press **Start** "
                "when everyone is in.", chips=chips(lang(interaction), lobby.rules.buy_in))


def rematch_view(loc: str, table: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(discord.ui.Button(
        label=t(loc, "Rematch"), style=discord.ButtonStyle.primary,
        custom_id=str(ids.TableButtonId("rematch", table)))))
    return view


COMMANDS: tuple[SlashCommand, ...] = (
    create,
    practice,
    _slash("join", locale_str("Sit down at this table (the buy-in leaves your wallet)")),
    _slash("leave", locale_str("Get up from this channel's table; your chips go back")),
    _slash("start", locale_str("Start this channel's table (host or Manage Server)")),
    _slash("cancel",
           locale_str("Close this table and refund every stack (host or Manage Server)")),
)
