"""The double's world and Discord's rules for changing it: messages (create, edit with kept or
replaced attachments, delete), DM channels, threads, application commands and interactions.

Transport-free: the REST layer parses requests into calls here, and every change that Discord
would announce on the gateway goes out through `dispatch`.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import io
import mimetypes
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, UnidentifiedImageError

from . import components as comp
from . import limits
from .model import (
    BOT_PERMISSIONS,
    DM,
    EPHEMERAL,
    GUILD_TEXT,
    LOADING,
    MEMBER_PERMISSIONS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    Attachment,
    Channel,
    Guild,
    GuildMember,
    Message,
    Role,
    User,
)
from .snowflakes import Snowflakes, iso_now

# Gateway intents that gate the events the double dispatches.
PATIENCE = 30.0
"""Seconds a test waits for something the bot should do before it fails. Generous: a busy CI
machine can stall a process for seconds, and a passing test never waits this long."""
DISCORD_DEADLINE = 3.0
"""Seconds Discord gives a bot to answer an interaction; a later callback gets 404 10062."""


def loop_time() -> float:
    """The running event loop's clock: the bot's timers run on it, so a test that holds the
    loop's clock (tests/cogs/test_deferral.py) holds the double's interaction deadline too."""
    return asyncio.get_running_loop().time()

GUILDS_INTENT = 1 << 0
GUILD_MESSAGES_INTENT = 1 << 9
DIRECT_MESSAGES_INTENT = 1 << 12

# Interaction types and callback types (Discord API "Interactions").
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9
CHAT_INPUT_COMMAND_MESSAGE = 20
_CALLBACKS_FOR = {
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
        MODAL,
    },
    MODAL_SUBMIT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
    },
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
}
_EDITABLE_FLAGS = (1 << 2) | comp.COMPONENTS_V2  # suppress embeds, components v2
_CREATE_FLAGS = _EDITABLE_FLAGS | EPHEMERAL | (1 << 12)  # + suppress notifications
MAX_UPLOAD_BYTES = 10 * 1024 * 1024
# The mentions Discord reads in a message's content: @everyone and @here, a role, a member.
_MENTIONS = re.compile(r"@(?P<everyone>everyone|here)|<@&(?P<role>[0-9]+)>|<@!?(?P<user>[0-9]+)>")
_POLL_SECONDS = 0.02

Dispatch = Callable[[str, dict[str, Any], int], Awaitable[None]]


class ApiError(Exception):
    """An error answer exactly as Discord words it: HTTP status, JSON error code, message."""

    def __init__(
        self, status: int, code: int, message: str, errors: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = dict(self.errors)
        return body


def unknown(what: str, code: int) -> ApiError:
    return ApiError(404, code, f"Unknown {what}")


UNKNOWN_CHANNEL, UNKNOWN_MESSAGE, UNKNOWN_WEBHOOK, UNKNOWN_INTERACTION = 10003, 10008, 10015, 10062
UNKNOWN_COMMAND, UNKNOWN_GUILD, UNKNOWN_MEMBER, UNKNOWN_USER = 10063, 10004, 10007, 10013
GUILD_INSTALL = 0


@dataclass(frozen=True)
class Upload:
    """One `files[n]` part of a multipart request."""

    index: int
    filename: str
    content_type: str
    data: bytes


@dataclass
class Interaction:
    """One interaction a scripted user started, and everything the bot did to answer it."""

    id: int
    token: str
    type: int
    user: User
    channel: Channel
    guild: Guild | None
    data: dict[str, Any]
    source_message: Message | None
    description: str
    created: float = field(default_factory=loop_time)
    callback_type: int | None = None
    callback_body: dict[str, Any] | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] | None = None
    trigger: Interaction | None = None
    """For a modal's submission: the interaction the modal was opened in answer to."""
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once the callback is answered and recorded (`callback_type` is set a bit earlier)."""
    answered_at: float = 0.0
    """When the callback was recorded, on the loop's clock (`created`'s)."""

    def mark_answered(self) -> None:
        self.answered_at = loop_time()
        self.answered.set()

    @property
    def lateness(self) -> float:
        """Seconds from the interaction's creation to the bot's callback (0 unanswered)."""
        return self.answered_at - self.created if self.answered.is_set() else 0.0

    @property
    def message(self) -> Message | None:
        """What the answer shows: the new (or deferred) response, or the updated message."""
        return self.original

    @property
    def ephemeral(self) -> bool:
        return self.original is not None and self.original.ephemeral

    def metadata(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "user": self.user.payload(),
            "authorizing_integration_owners": owners(self.guild, self.user),
        }
        if self.type == APPLICATION_COMMAND:
            data["name"], data["command_type"] = self.data["name"], self.data.get("type", 1)
        if self.source_message is not None:
            data["interacted_message_id"] = str(self.source_message.id)
        if self.trigger is not None:
            data["triggering_interaction_metadata"] = self.trigger.metadata()
        return data


def owners(guild: Guild | None, user: User) -> dict[str, str]:
    """authorizing_integration_owners: the guild install, or the user for a DM."""
    return {"0": str(guild.id)} if guild is not None else {"1": str(user.id)}


class DoubleState:
    """Users, guilds, channels, messages, commands and interactions of one double."""

    def __init__(self, *, base_url: Callable[[], str], dispatch: Dispatch) -> None:
        self.snowflakes = Snowflakes()
        self._base_url = base_url
        self._dispatch = dispatch
        self.application_id = self.snowflakes.next()
        self.owner = User(self.snowflakes.next(), "double-owner")
        self.bot = User(self.application_id, "ofc-test-bot", "OFC Test Bot", bot=True)
        self.users: dict[int, User] = {u.id: u for u in (self.owner, self.bot)}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.dm_channels: dict[int, Channel] = {}
        self.closed_dms: set[int] = set()
        self.commands: dict[int | None, list[dict[str, Any]]] = {None: []}
        self.interactions: dict[int, Interaction] = {}
        self.interactions_by_token: dict[str, Interaction] = {}
        self.attachments: dict[str, Attachment] = {}
        self.interaction_deadline = PATIENCE
        """Seconds after which a callback is refused (404 10062). Discord's is
        DISCORD_DEADLINE of real time; in a test's process the bot shares the machine, and
        often the event loop, with the double and the members, so a busy machine would make
        a correct bot late. The default is the tests' patience; every callback's `lateness`
        is recorded, and `late()` lists those Discord would have refused. Tests of the 3 s
        itself set DISCORD_DEADLINE (tests/cogs/test_deferral.py holds the loop's clock; the
        load run measures the bot in its own process)."""
        self._changed = asyncio.Event()
        self.busy = asyncio.Lock()
        """Held while a request is handled and recorded: waiters see whole requests only."""

    # -- change notification ---------------------------------------------------------------

    def changed(self) -> None:
        """Wake every `wait_until` so it re-checks its condition."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_until(self, predicate: Callable[[], Any], timeout: float, what: str) -> Any:
        """Wait until `predicate()` is truthy: re-checked on every change in the double, and
        every few milliseconds for conditions on the bot's side."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            async with self.busy:
                result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout} s waiting for {what}")
            # asyncio.timeout, not wait_for: in Python 3.11 a cancel arriving as wait_for
            # times out can come back as TimeoutError, and be swallowed here with it.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(min(remaining, _POLL_SECONDS)):
                    await self._changed.wait()

    async def wait_for_latest(
        self,
        source: Callable[[], list[Message]],
        predicate: Callable[[Message], Any] | None,
        after: Message | None,
        timeout: float,
        what: str,
    ) -> Message:
        """The newest message of `source()` newer than `after`, resolved (not "thinking") and
        satisfying `predicate`, waiting for one."""

        def latest() -> Message | None:
            for m in reversed(source()):
                fresh = after is None or m.id > after.id
                if fresh and not m.loading and (predicate is None or predicate(m)):
                    return m
            return None

        return await self.wait_until(latest, timeout, what)

    # -- world building --------------------------------------------------------------------

    def add_user(self, username: str, *, bot: bool = False) -> User:
        user = User(self.snowflakes.next(), username, username.title(), bot=bot)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str, shard: int = 0, shard_count: int = 1) -> Guild:
        """A guild; its id on `shard` of `shard_count` (Discord routes its events there)."""
        guild = Guild(self.snowflakes.next(shard, shard_count), name, owner_id=self.owner.id)
        guild.roles[guild.id] = Role(guild.id, "@everyone", MEMBER_PERMISSIONS)
        bot_role = Role(self.snowflakes.next(), "OFC Test Bot", BOT_PERMISSIONS, position=1)
        guild.roles[bot_role.id] = bot_role
        self.guilds[guild.id] = guild
        for user, roles in ((self.owner, []), (self.bot, [bot_role.id])):
            guild.members[user.id] = GuildMember(user, roles, iso_now())
        return guild

    def add_role(self, guild: Guild, name: str, permissions: int) -> Role:
        role = Role(self.snowflakes.next(), name, permissions, position=len(guild.roles))
        guild.roles[role.id] = role
        return role

    def add_text_channel(self, guild: Guild, name: str) -> Channel:
        channel = Channel(
            self.snowflakes.next(), GUILD_TEXT, name, guild.id, position=len(guild.channels)
        )
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        return channel

    def join(self, guild: Guild, user: User, roles: Iterable[Role] = ()) -> GuildMember:
        member = GuildMember(user, [r.id for r in roles], iso_now())
        guild.members[user.id] = member
        return member

    # -- look-ups --------------------------------------------------------------------------

    def channel(self, channel_id: int) -> Channel:
        channel = self.channels.get(channel_id)
        if channel is None:
            raise unknown("Channel", UNKNOWN_CHANNEL)
        return channel

    def guild(self, guild_id: int) -> Guild:
        guild = self.guilds.get(guild_id)
        if guild is None:
            raise unknown("Guild", UNKNOWN_GUILD)
        return guild

    def guild_of(self, channel: Channel) -> Guild | None:
        return None if channel.guild_id is None else self.guilds[channel.guild_id]

    def message(self, channel: Channel, message_id: int) -> Message:
        """A message as the channel routes see it: ephemeral messages are not reachable."""
        for message in channel.messages:
            if message.id == message_id and not message.deleted and not message.ephemeral:
                return message
        raise unknown("Message", UNKNOWN_MESSAGE)

    def dm_channel(self, user: User) -> Channel:
        """The bot's DM channel with `user`, created once like Discord's."""
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = Channel(self.snowflakes.next(), DM, recipient=user)
            self.dm_channels[user.id] = channel
            self.channels[channel.id] = channel
        return channel

    # -- messages --------------------------------------------------------------------------

    async def create_message(
        self,
        channel: Channel,
        body: Mapping[str, Any],
        uploads: list[Upload],
        *,
        visible_to: int | None = None,
        interaction: Interaction | None = None,
        flags: int = 0,
    ) -> Message:
        """A new message from the bot, after Discord's checks on the body."""
        if channel.type == DM and channel.recipient and channel.recipient.id in self.closed_dms:
            raise ApiError(403, 50007, "Cannot send messages to this user")
        if channel.is_thread and channel.archived:
            raise ApiError(400, 50083, "Thread is archived")
        body_flags = int(body.get("flags") or 0)
        message = Message(
            id=self.snowflakes.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=self.bot,
            # Only an interaction response can be ephemeral; Discord drops the flag elsewhere.
            flags=(body_flags & _CREATE_FLAGS & ~EPHEMERAL)
            | flags
            | (EPHEMERAL if visible_to is not None else 0),
            visible_to=visible_to,
        )
        if interaction is not None:
            message.webhook_id = message.application_id = self.application_id
            message.interaction_metadata = interaction.metadata()
            if interaction.type == APPLICATION_COMMAND and interaction.original is None:
                message.type = CHAT_INPUT_COMMAND_MESSAGE
        self._apply(message, body, uploads, creating=not message.loading)
        channel.messages.append(message)
        if not message.ephemeral:
            await self._dispatch("MESSAGE_CREATE", message.gateway_payload(), _intent_for(channel))
        self.changed()
        return message

    async def edit_message(
        self, channel: Channel, message: Message, body: Mapping[str, Any], uploads: list[Upload]
    ) -> Message:
        if message.author.id != self.bot.id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        before = message.snapshot()
        was_loading = message.loading
        self._apply(message, body, uploads, creating=False)
        message.shown_at = time.monotonic()
        if was_loading:
            # Editing a deferred "is thinking..." response resolves it; that is not an edit.
            message.flags &= ~LOADING
        else:
            message.history.append(before)
            message.edited_timestamp = iso_now()
        if not message.ephemeral:
            await self._dispatch("MESSAGE_UPDATE", message.gateway_payload(), _intent_for(channel))
        self.changed()
        return message

    async def delete_channel(self, channel: Channel, *, announce: bool = True) -> dict[str, Any]:
        """A channel deleted, with its threads: every route to them answers 404 Unknown
        Channel. Clients hear CHANNEL_DELETE (THREAD_DELETE for a thread) unless `announce`
        is False (an event a client missed). Returns the channel's payload."""
        data = channel.payload()
        for gone in [channel, *(c for c in self.channels.values() if c.parent_id == channel.id)]:
            self.channels.pop(gone.id)
            if gone.guild_id is not None:
                self.guilds[gone.guild_id].channels.pop(gone.id, None)
        if announce:
            event = "THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE"
            await self._dispatch(event, data, GUILDS_INTENT)
        self.changed()
        return data

    async def delete_message(self, channel: Channel, message: Message) -> None:
        message.deleted = True
        if not message.ephemeral:
            data = {"id": str(message.id), "channel_id": str(channel.id)}
            if channel.guild_id is not None:
                data["guild_id"] = str(channel.guild_id)
            await self._dispatch("MESSAGE_DELETE", data, _intent_for(channel))
        self.changed()

    def _apply(
        self, message: Message, body: Mapping[str, Any], uploads: list[Upload], *, creating: bool
    ) -> None:
        errors = limits.PayloadErrors()
        limits.check_message(body, errors)
        if sum(len(u.data) for u in uploads) > MAX_UPLOAD_BYTES:
            raise ApiError(413, 40005, "Request entity too large")
        attachments = self._attachments(message, body, uploads, errors)
        if errors.errors:
            raise ApiError(400, 50035, "Invalid Form Body", errors.errors)
        if "content" in body:
            message.content = body["content"] or ""
            if not message.ephemeral:
                message.pinged += pings(message.content, body.get("allowed_mentions"))
        if "components" in body:
            message.components = self._unfurled(_numbered(body["components"] or []), attachments)
        if "flags" in body and not creating:
            keep = message.flags & ~_EDITABLE_FLAGS
            message.flags = keep | (int(body["flags"] or 0) & _EDITABLE_FLAGS)
        message.attachments = attachments
        if "embeds" in body:
            message.embeds = [self._embed(e, attachments) for e in body["embeds"] or []]
        if creating and not (
            message.content or message.embeds or message.attachments or message.components
        ):
            raise ApiError(400, 50006, "Cannot send an empty message")

    def _attachments(
        self,
        message: Message,
        body: Mapping[str, Any],
        uploads: list[Upload],
        errors: limits.PayloadErrors,
    ) -> list[Attachment]:
        """Discord's rule: an `attachments` list names exactly what the message keeps (existing
        ids) or gains (upload indexes); without it, uploads are added to what is there."""
        by_index = {u.index: u for u in uploads}
        if "attachments" not in body:
            return message.attachments + [self._store(message, u, None) for u in uploads]
        existing = {a.id: a for a in message.attachments}
        result = []
        for i, entry in enumerate(body["attachments"] or []):
            key = int(entry["id"])
            if key in existing:
                result.append(existing[key])
            elif key in by_index:
                result.append(self._store(message, by_index[key], entry))
            else:
                errors.add(f"attachments.{i}.id", f"Unknown attachment {key}")
        return result

    def _store(
        self, message: Message, upload: Upload, entry: Mapping[str, Any] | None
    ) -> Attachment:
        filename = (entry or {}).get("filename") or upload.filename
        attachment_id = self.snowflakes.next()
        url = f"{self._base_url()}/attachments/{message.channel_id}/{attachment_id}/{filename}"
        guessed = mimetypes.guess_type(filename)[0]
        attachment = Attachment(
            id=attachment_id,
            filename=filename,
            content_type=guessed or upload.content_type,
            data=upload.data,
            url=url,
            description=(entry or {}).get("description"),
        )
        if attachment.content_type.startswith("image/"):
            try:
                with Image.open(io.BytesIO(upload.data)) as image:
                    attachment.width, attachment.height = image.size
            except (UnidentifiedImageError, OSError):
                pass  # Discord too keeps an unreadable "image" as a plain file.
        self.attachments[url] = attachment
        return attachment

    @staticmethod
    def _embed(embed: Mapping[str, Any], attachments: list[Attachment]) -> dict[str, Any]:
        """Discord's stored embed: typed, with `attachment://name` images resolved to the file."""
        out = copy.deepcopy(dict(embed))
        out.setdefault("type", "rich")
        by_name = {a.filename: a for a in attachments}
        for key in ("image", "thumbnail"):
            media = out.get(key)
            url = (media or {}).get("url", "")
            if url.startswith("attachment://") and url[len("attachment://") :] in by_name:
                found = by_name[url[len("attachment://") :]]
                media.update(url=found.url, proxy_url=found.url)
                if found.width is not None:
                    media.update(width=found.width, height=found.height)
        return out

    def _unfurled(
        self, components: list[dict[str, Any]], attachments: list[Attachment]
    ) -> list[dict[str, Any]]:
        """Discord's stored layout components: each media (gallery items, thumbnails, files)
        resolved as Discord resolves it, `attachment://name` to the uploaded file."""
        by_name = {a.filename: a for a in attachments}

        def media(given: Mapping[str, Any]) -> dict[str, Any]:
            url = str(given.get("url", ""))
            found = by_name.get(url.removeprefix("attachment://"))
            if not url.startswith("attachment://") or found is None:
                return {"id": str(self.snowflakes.next()), "url": url, "proxy_url": url}
            return {"id": str(self.snowflakes.next()), "url": found.url, "proxy_url": found.url,
                    "width": found.width, "height": found.height,
                    "content_type": found.content_type, "attachment_id": str(found.id)}

        for component in comp.walk(components):
            shown: list[Any] = [component] if component.get("type") == comp.THUMBNAIL else []
            shown += component.get("items", []) if component.get("type") == comp.GALLERY else []
            for item in shown:
                item.update(media=media(item["media"]), description=item.get("description"),
                            spoiler=bool(item.get("spoiler")))
            if component.get("type") == comp.FILE:
                found = by_name.get(str(component["file"].get("url", "")).removeprefix(
                    "attachment://"))
                component.update(  # type: ignore[attr-defined]
                    file=media(component["file"]), spoiler=bool(component.get("spoiler")),
                    name=found.filename if found else None,
                    size=len(found.data) if found else None)
        return components

    # -- threads ---------------------------------------------------------------------------

    async def create_thread(
        self, parent: Channel, body: Mapping[str, Any], *, from_message: Message | None
    ) -> Channel:
        if parent.type != GUILD_TEXT:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if from_message is not None and from_message.thread_id is not None:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        thread_type = PUBLIC_THREAD if from_message else int(body.get("type") or PRIVATE_THREAD)
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                {"name": {"_errors": [{"code": "BASE_TYPE_BAD", "message": "1-100 characters"}]}},
            )
        thread = Channel(
            # A thread started from a message shares the message's id, as on Discord.
            id=from_message.id if from_message else self.snowflakes.next(),
            type=thread_type,
            name=name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=self.bot.id,
            invitable=bool(body.get("invitable", True)),
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
            thread_members={self.bot.id},
        )
        if from_message is not None:
            from_message.thread_id = thread.id
        self.channels[thread.id] = thread
        self.guilds[parent.guild_id or 0].channels[thread.id] = thread
        await self._dispatch(
            "THREAD_CREATE", {**thread.payload(), "newly_created": True}, GUILDS_INTENT
        )
        self.changed()
        return thread

    async def update_channel(self, channel: Channel, body: Mapping[str, Any]) -> Channel:
        if "name" in body:
            channel.name = body["name"]
        if channel.is_thread:
            channel.archived = bool(body.get("archived", channel.archived))
            channel.locked = bool(body.get("locked", channel.locked))
        event = "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE"
        await self._dispatch(event, channel.payload(), GUILDS_INTENT)
        self.changed()
        return channel

    # -- application commands --------------------------------------------------------------

    def command_list(self, guild_id: int | None) -> list[dict[str, Any]]:
        if guild_id is not None:
            self.guild(guild_id)
        return self.commands.setdefault(guild_id, [])

    def upsert_command(self, guild_id: int | None, body: Mapping[str, Any]) -> dict[str, Any]:
        existing = {(c["name"], c["type"]): c for c in self.command_list(guild_id)}
        kind = int(body.get("type") or 1)
        old = existing.get((body["name"], kind))
        permissions = body.get("default_member_permissions")
        command = copy.deepcopy(dict(body))
        command.update(
            id=old["id"] if old else str(self.snowflakes.next()),
            application_id=str(self.application_id),
            version=str(self.snowflakes.next()),
            type=kind,
            description=body.get("description", ""),
            # Sent as a number or a string; Discord answers a string (a 53-bit bit set).
            default_member_permissions=None if permissions is None else str(permissions),
            nsfw=bool(body.get("nsfw", False)),
            # Discord's default when a command names none: installed to servers.
            integration_types=body.get("integration_types") or [GUILD_INSTALL],
        )
        if guild_id is not None:
            command["guild_id"] = str(guild_id)
        commands = [c for c in self.command_list(guild_id) if c is not old]
        self.commands[guild_id] = [*commands, command]
        self.changed()
        return command

    def replace_commands(
        self, guild_id: int | None, bodies: list[Mapping[str, Any]]
    ) -> list[dict[str, Any]]:
        previous = {(c["name"], c["type"]): c["id"] for c in self.command_list(guild_id)}
        self.commands[guild_id] = []
        result = []
        for body in bodies:
            command = self.upsert_command(guild_id, body)
            key = (command["name"], command["type"])
            if key in previous:
                command["id"] = previous[key]
            result.append(command)
        return result

    def command(self, guild_id: int | None, command_id: int) -> dict[str, Any]:
        for command in self.command_list(guild_id):
            if int(command["id"]) == command_id:
                return command
        raise unknown("application command", UNKNOWN_COMMAND)

    def delete_command(self, guild_id: int | None, command_id: int) -> None:
        command = self.command(guild_id, command_id)
        self.commands[guild_id] = [c for c in self.command_list(guild_id) if c is not command]
        self.changed()

    # -- interactions ----------------------------------------------------------------------

    def new_interaction(
        self,
        *,
        type: int,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        source_message: Message | None,
        description: str,
        trigger: Interaction | None = None,
    ) -> Interaction:
        interaction = Interaction(
            id=self.snowflakes.next(),
            token="aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48),
            type=type,
            user=user,
            channel=channel,
            guild=self.guild_of(channel),
            data=data,
            source_message=source_message,
            description=description,
            trigger=trigger,
        )
        self.interactions[interaction.id] = interaction
        self.interactions_by_token[interaction.token] = interaction
        return interaction

    def late(self) -> list[Interaction]:
        """Interactions answered later than Discord's DISCORD_DEADLINE after their creation
        (accepted under a longer `interaction_deadline`)."""
        return [i for i in self.interactions.values() if i.lateness > DISCORD_DEADLINE]

    def interaction(self, interaction_id: int, token: str) -> Interaction:
        found = self.interactions_by_token.get(token)
        if found is None or found.id != interaction_id:
            raise unknown("interaction", UNKNOWN_INTERACTION)
        return found

    def webhook_interaction(self, application_id: int, token: str) -> Interaction:
        found = self.interactions_by_token.get(token)
        if found is None or application_id != self.application_id:
            raise unknown("Webhook", UNKNOWN_WEBHOOK)
        return found

    async def callback(
        self, interaction: Interaction, body: Mapping[str, Any], uploads: list[Upload]
    ) -> dict[str, Any]:
        """POST /interactions/{id}/{token}/callback, with Discord's checks and its answer."""
        if interaction.callback_type is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        if loop_time() - interaction.created > self.interaction_deadline:
            raise unknown("interaction", UNKNOWN_INTERACTION)
        kind = int(body["type"])
        if kind not in _CALLBACKS_FOR.get(interaction.type, set()):
            raise ApiError(
                400, 50035, f"Interaction callback type {kind} is invalid for this interaction"
            )
        if kind in (UPDATE_MESSAGE, DEFERRED_UPDATE_MESSAGE) and interaction.source_message is None:
            raise ApiError(400, 50035, "This interaction has no message to update")
        data = dict(body.get("data") or {})
        ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
        visible_to = interaction.user.id if ephemeral else None
        if kind == CHANNEL_MESSAGE:
            interaction.original = await self.create_message(
                interaction.channel, data, uploads, visible_to=visible_to, interaction=interaction
            )
        elif kind == DEFERRED_CHANNEL_MESSAGE:
            interaction.original = await self.create_message(
                interaction.channel,
                {},
                [],
                visible_to=visible_to,
                interaction=interaction,
                flags=LOADING,
            )
        elif kind in (UPDATE_MESSAGE, DEFERRED_UPDATE_MESSAGE):
            interaction.original = interaction.source_message
            if kind == UPDATE_MESSAGE:
                await self._edit_any(interaction.source_message, data, uploads)
        elif kind == MODAL:
            interaction.modal = data
        else:
            interaction.choices = list(data.get("choices") or [])
        interaction.callback_type, interaction.callback_body = kind, dict(body)
        self.changed()
        return self._callback_answer(interaction, kind)

    def _callback_answer(self, interaction: Interaction, kind: int) -> dict[str, Any]:
        original = (
            interaction.original
            if kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, UPDATE_MESSAGE)
            else None
        )
        about: dict[str, Any] = {
            "id": str(interaction.id),
            "type": interaction.type,
            "activity_instance_id": None,
        }
        answer: dict[str, Any] = {"interaction": about}
        if original is not None:
            about.update(
                response_message_id=str(original.id),
                response_message_loading=kind == DEFERRED_CHANNEL_MESSAGE,
                response_message_ephemeral=original.ephemeral,
            )
            if kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE):  # a deferral makes no message yet
                answer["resource"] = {"type": kind, "message": original.payload()}
        return answer

    async def _edit_any(
        self, message: Message, body: Mapping[str, Any], uploads: list[Upload]
    ) -> Message:
        return await self.edit_message(self.channels[message.channel_id], message, body, uploads)

    async def followup(
        self, interaction: Interaction, body: Mapping[str, Any], uploads: list[Upload]
    ) -> Message:
        """POST /webhooks/{app}/{token}: the first follow-up after a deferred response resolves
        the "is thinking..." message and keeps its visibility; later ones are new messages."""
        if interaction.callback_type is None:
            raise unknown("Webhook", UNKNOWN_WEBHOOK)
        original = interaction.original
        if original is not None and original.loading:
            return await self._edit_any(original, body, uploads)
        ephemeral = bool(int(body.get("flags") or 0) & EPHEMERAL)
        message = await self.create_message(
            interaction.channel,
            body,
            uploads,
            visible_to=interaction.user.id if ephemeral else None,
            interaction=interaction,
        )
        interaction.followups.append(message)
        return message

    def webhook_message(self, interaction: Interaction, message_id: str) -> Message:
        """@original or one of the interaction's follow-ups, as the webhook routes reach them."""
        if message_id == "@original":
            found = interaction.original
        else:
            candidates = [interaction.original, *interaction.followups]
            found = next((m for m in candidates if m is not None and m.id == int(message_id)), None)
        if found is None or found.deleted:
            raise unknown("Message", UNKNOWN_MESSAGE)
        return found

    async def edit_webhook_message(
        self,
        interaction: Interaction,
        message_id: str,
        body: Mapping[str, Any],
        uploads: list[Upload],
    ) -> Message:
        return await self._edit_any(self.webhook_message(interaction, message_id), body, uploads)

    async def delete_webhook_message(self, interaction: Interaction, message_id: str) -> None:
        message = self.webhook_message(interaction, message_id)
        await self.delete_message(self.channels[message.channel_id], message)


def _intent_for(channel: Channel) -> int:
    return DIRECT_MESSAGES_INTENT if channel.type == DM else GUILD_MESSAGES_INTENT


def _numbered(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Discord numbers every component of a message (its `id`) when the bot did not."""
    out = copy.deepcopy(components)
    taken = {c["id"] for c in comp.walk(out) if "id" in c}
    next_id = 1
    for component in comp.walk(out):
        if "id" not in component:
            while next_id in taken:
                next_id += 1
            component["id"] = next_id  # type: ignore[index]
            taken.add(next_id)
    return out


def pings(content: str, allowed: Mapping[str, Any] | None) -> list[str]:
    """Whom `content` notifies under `allowed_mentions` as Discord reads them: without it,
    every mention it holds (@everyone and roles as for a bot with Mention Everyone, the worst
    case); with it, the kinds in `parse` and the ids in `users` and `roles` only."""
    parse = {"everyone", "roles", "users"} if allowed is None else set(allowed.get("parse") or ())
    users = {str(u) for u in (allowed or {}).get("users") or ()}
    roles = {str(r) for r in (allowed or {}).get("roles") or ()}
    found = []
    for mention in _MENTIONS.finditer(content):
        if mention["everyone"] and "everyone" in parse:
            found.append("@everyone")
        elif mention["role"] and ("roles" in parse or mention["role"] in roles):
            found.append(f"role:{mention['role']}")
        elif mention["user"] and ("users" in parse or mention["user"] in users):
            found.append(f"user:{mention['user']}")
    return found
