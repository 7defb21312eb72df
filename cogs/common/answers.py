"""How the bot answers an interaction, and the one error path.

`send` is the first answer to an interaction, or a follow-up once it was answered or deferred.
`answer_error` is where every failure of a slash command (the command tree's `on_error`, set
by `install_error_handler`) and of a component callback (`PersistentItem`) ends: a refusal (Refusal,
the engine's RuleError and so the table service's TableError, storage's StorageError, a failed
app_commands check, an option Discord could not convert) gets one ephemeral embed naming the
problem; anything else is logged once, with its traceback, and the member gets an apology.
Refusals are raised before anything changes.
"""

import asyncio
import contextlib
import logging
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self, cast

import discord
from discord import app_commands

from bot.engine.errors import RuleError
from bot.engine.text import excerpt, joined
from bot.i18n import Text, t
from bot.storage import StorageError
from cogs.common.bounds import refusal
from cogs.common.client import Interaction, Tree
from cogs.common.format import as_shown
from cogs.common.language import lang, remember

log = logging.getLogger(__name__)

REFUSED = discord.Colour.red()
SOMETHING_WRONG = Text("Something went wrong; nothing was lost. Please try again.")
INVALID = Text("That control is not valid.")
MANAGE_SERVER = Text("Only members with the Manage Server permission can do that.")
ELSEWHERE = Text("That control belongs to a table in another channel.")
NOT_IN_DMS = Text("That control works in the table's channel, not in direct messages.")
UNCHANGED = Text("Nothing was changed.")  # closes a refusal that could seem to have saved
ALREADY_ANSWERED = 40060  # Discord's code: the interaction has already been acknowledged
# When Discord refuses an answer (logged with its reason), the member gets one of these.
DONE_UNSHOWN = Text("Done, but Discord refused to show the answer.")
REFUSED_UNSHOWN = Text("Refused, but Discord refused to show why. Nothing was changed.")


class Refusal(Exception):
    """A command refused for a reason its invoker can read; nothing was changed. `text` is
    the reason, said in the reader's language; `str(error)` is the English sentence."""

    def __init__(self, text: Text) -> None:
        super().__init__(str(text))
        self.text = text


class BadId(Refusal):
    """A custom_id (or menu value) no component of this bot carries: forged or mangled."""

    def __init__(self, custom_id: str) -> None:
        super().__init__(INVALID)
        self.custom_id = custom_id


class Refused(app_commands.CheckFailure):
    """A check (Manage Server, a cooldown) refused the command; `text` as a Refusal's."""

    def __init__(self, text: Text) -> None:
        super().__init__(str(text))
        self.text = text


class NotManager(Refused):
    """The member lacks the Manage Server permission a command requires."""


REFUSALS = (Refusal, RuleError, StorageError, app_commands.CheckFailure,
            app_commands.TransformerError)


def manages_server(interaction: Interaction) -> bool:
    """R12: tables and settings are the server's; Manage Server (or Administrator) runs them."""
    permissions = interaction.permissions
    return permissions.manage_guild or permissions.administrator


def _check_manages_server(interaction: Interaction) -> bool:
    if not manages_server(interaction):
        raise NotManager(MANAGE_SERVER)
    return True


# The runtime half of the Manage Server rule, as an app_commands check: default_permissions is
# only the default Discord shows (a server can change it, and subcommands cannot carry it).
manage_server = app_commands.check(_check_manages_server)


_ACKNOWLEDGING = "ofc_acknowledging"  # in Interaction.extras: the defer under way


def acknowledge(interaction: Interaction, **defer: Any) -> None:
    """Defer the interaction without waiting for Discord's answer, so that the work it asks
    for runs meanwhile: the member waits for the longer of the two, not for both in turn.
    Whatever is sent in the interaction's name waits for it first (`acknowledged`)."""
    interaction.extras[_ACKNOWLEDGING] = asyncio.ensure_future(
        interaction.response.defer(**defer))


async def acknowledged(interaction: Interaction) -> None:
    """Wait until `acknowledge`'s defer is through (its error, if it failed)."""
    pending = interaction.extras.get(_ACKNOWLEDGING)
    if pending is not None:
        await pending


async def send(interaction: Interaction, *, ephemeral: bool, fallback: Text = DONE_UNSHOWN,
               **content: Any) -> discord.Message | None:
    """The first answer to an interaction, or a follow-up once it was answered or deferred.
    An answer Discord refuses (too long, malformed) is logged with Discord's reason and the
    member gets `fallback` instead, never silence; the work it reports stays done, so the
    member is not led to do it again. Returns the follow-up sent (a first answer: None)."""
    try:
        return await _answer(interaction, ephemeral, content)
    except discord.HTTPException as error:
        if error.status != 400 or error.code == ALREADY_ANSWERED:
            raise  # not the answer's fault (gone, forbidden, answered): the caller's call
        log.warning("Discord refused the answer to %s: %s %s", _what(interaction), error.code,
                    error.text)
        await _answer(interaction, True, {"content": t(lang(interaction), fallback)})
        return None


async def _answer(interaction: Interaction, ephemeral: bool,
                  content: dict[str, Any]) -> discord.Message | None:
    await acknowledged(interaction)
    if interaction.response.is_done():
        return await interaction.followup.send(ephemeral=ephemeral, wait=True, **content)
    await interaction.response.send_message(ephemeral=ephemeral, **content)
    return None


async def answer_error(interaction: Interaction, error: BaseException) -> None:
    """The one error path: a refusal's reason as an ephemeral embed; anything else logged once
    with its traceback, then an apology. Safe whether or not the interaction was answered."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    content: dict[str, Any]
    loc = lang(interaction)
    if isinstance(error, REFUSALS):
        if isinstance(error, BadId):
            log.info("refused component id %r from %s", _logged_id(error.custom_id),
                     interaction.user.id)
        content = {"embed": discord.Embed(description=reason(loc, error), colour=REFUSED)}
    else:
        log.error("%s failed", _what(interaction), exc_info=error)
        content = {"content": t(loc, SOMETHING_WRONG)}
    try:
        await send(interaction, ephemeral=True, fallback=REFUSED_UNSHOWN, **content)
    except discord.HTTPException as failed:  # the interaction expired, or Discord is down
        log.warning("could not answer %s: %s %s", _what(interaction), failed.status,
                    failed.text)


def reason(loc: str, error: BaseException) -> str:
    """A refusal's reason in the reader's language (discord.py's own checks have theirs)."""
    text = getattr(error, "text", None)
    if isinstance(text, Text):
        return t(loc, as_shown(text))
    if isinstance(error, app_commands.TransformerError):
        return t(loc, "'{value}' is not a valid value for this option.",
                 value=excerpt(str(error.value)))
    if isinstance(error, app_commands.NoPrivateMessage):
        return t(loc, "This command works in a server, not in direct messages.")
    return str(error)


# The card in a component id (cogs/tables/ids.py): a placement's, or the greyed button naming
# a dealt card.
_CARD_IN_ID = re.compile(r"ofc:(?:place:(?:[0-9]+:){4}|row:card)(?P<card>[0-9]+)")


def _logged_id(custom_id: str) -> str:
    """A component id as the logs show it: without its card, which is its player's alone
    (R7: dealt, or about to be discarded); the logs are the operator's, often shared."""
    found = _CARD_IN_ID.match(custom_id)
    if found is None:
        return custom_id
    return custom_id[:found.start("card")] + "..." + custom_id[found.end("card"):]


def _what(interaction: Interaction) -> str:
    command = interaction.command
    if command is not None:
        return f"command {command.qualified_name!r}"
    data: Any = interaction.data or {}
    return f"component {_logged_id(str(data.get('custom_id', '')))!r}"


class PersistentItem:
    """Mixed into every DynamicItem of the bot (before DynamicItem): rebuilt from the clicked
    component as it is, and its `callback` runs `clicked`, sending any failure down the one
    error path (discord.py would only log it). A kind whose template carries fields the item
    keeps overrides `from_custom_id`.

    Against forged ids: a kind whose template names a `table` acts only on a table of the server and
    channel (or thread) the click came from, so a member of another server cannot reach it
    with a forged id, and permissions are always those of the table's server. From a DM it acts
    only for the clicker's own seat (the table service checks the seat), or not at all where
    `in_dms` is False (the lobby)."""

    in_dms: ClassVar[bool] = True

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)  # type: ignore[call-arg]  # DynamicItem's

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str]) -> Self:
        return cls(item)

    async def clicked(self, interaction: Interaction) -> None:
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        # discord.py's signature; the bot's interactions are Interaction[OFCBot].
        try:
            await remember(interaction)
            self._check_origin(interaction)
            await self.clicked(interaction)
        except Exception as error:
            await answer_error(interaction, error)
        finally:
            # Its outcome is taken: a failed defer was answered above, or there was nothing
            # more to send.
            with contextlib.suppress(Exception):
                await acknowledged(interaction)

    def _check_origin(self, interaction: Interaction) -> None:
        custom_id = getattr(self, "custom_id", "")
        template = type(self).__discord_ui_compiled_template__  # type: ignore[attr-defined]
        match = template.fullmatch(custom_id)
        if match is None or "table" not in match.groupdict():
            return
        if interaction.guild_id is None:
            if not self.in_dms:
                raise Refusal(NOT_IN_DMS)
            return
        table = interaction.client.tables.lobby(int(match["table"]))
        if table.guild_id != interaction.guild_id or \
                interaction.channel_id not in (table.channel_id, table.thread_id):
            raise Refusal(ELSEWHERE)


def _listed(message: discord.Message | None, custom_id: str) -> bool:
    """Is `custom_id` one of the message's components?"""
    if message is None:
        return False
    return any(getattr(child, "custom_id", None) == custom_id
               for row in message.components for child in getattr(row, "children", ()))


async def answer_unlisted(interaction: Interaction,
                          kinds: Sequence[type[discord.ui.DynamicItem[Any]]]) -> None:
    """A component id that is on no message (only a modified client sends one): discord.py
    runs a DynamicItem only for a component of the clicked message, so route it here through
    the same checks as a real click of its kind; an id of no kind, whatever its shape, is
    refused (left alone, it would go unanswered)."""
    if interaction.type is not discord.InteractionType.component:
        return
    data: Any = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    if _listed(interaction.message, custom_id):
        return
    try:
        for kind in kinds:
            match = kind.__discord_ui_compiled_template__.fullmatch(custom_id)
            if match is not None:
                base: discord.ui.Item[Any] = (
                    discord.ui.Select(custom_id=custom_id)
                    if data.get("component_type") == discord.ComponentType.select.value
                    else discord.ui.Button(custom_id=custom_id))
                item = await kind.from_custom_id(interaction, base, match)
                await item.callback(interaction)
                return
        raise BadId(custom_id)
    except Exception as error:
        await answer_error(interaction, error)


async def _before_command(interaction: Interaction) -> bool:
    await remember(interaction)
    if interaction.type is discord.InteractionType.application_command:
        refused = refusal(interaction.command, cast(Mapping[str, Any], interaction.data or {}))
        if refused is not None:
            raise Refused(joined([refused, UNCHANGED], " "))
    return True


def install_error_handler(tree: Tree) -> None:
    """Make `answer_error` the command tree's `on_error`; before any command runs, remember
    the member's locale and refuse options past what the command publishes
    (cogs/common/bounds.py). Each extension's setup calls it."""
    tree.error(answer_error)
    # The tree's global check: CommandTree.interaction_check is meant to be replaced.
    tree.interaction_check = _before_command  # type: ignore[method-assign]
