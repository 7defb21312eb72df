"""Scripted users: what a person can do in the Discord client, sent as the client sends it.

A `Member` runs slash commands from the command tree the bot synced, clicks buttons by label,
picks select options, fills modals, and reads DMs, channel messages and ephemeral replies.
Everything it cannot do in the real client (a disabled button, another member's ephemeral
message, an option outside a command's choices) is a `ComponentError`, so a test cannot
pass by doing the impossible. `forge` is the one exception, for a modified client.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from . import components as comp
from .components import ComponentError
from .model import DM, MEMBER_PERMISSIONS, Channel, Guild, Message, Role, User
from .state import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    PATIENCE,
    Interaction,
    owners,
)

if TYPE_CHECKING:
    from .server import DiscordDouble

SUBCOMMAND, SUBCOMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10
GUILD_CONTEXT, BOT_DM_CONTEXT = 0, 1
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


class InteractionNotAnswered(AssertionError):
    """The bot did not call back within Discord's deadline: the user saw "interaction failed"."""


class Member:
    """A person in the double's guild, driving the bot through the Discord client."""

    def __init__(self, double: DiscordDouble, user: User, guild: Guild,
                 locale: str = "en-US") -> None:
        self.double = double
        self.user = user
        self.guild = guild
        self.locale = locale  # the language of the member's Discord client

    def __repr__(self) -> str:
        return f"<Member {self.name} {self.id}>"

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.username

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    # -- acting ----------------------------------------------------------------------------

    async def slash(
        self,
        command: str,
        options: Mapping[str, Any] | None = None,
        /,
        *,
        channel: Channel | None = None,
        timeout: float | None = None,
        **kwargs: Any,
    ) -> Interaction:
        """Run `/command` (e.g. "ofc create") with options by name, in `channel` (default: the
        double's main channel; a DM channel for a command used in the bot's DMs)."""
        values = {**(options or {}), **kwargs}
        return await self._slash(command, values, channel, timeout, shown_only=True)

    async def forge_slash(
        self,
        command: str,
        options: Mapping[str, Any] | None = None,
        /,
        *,
        channel: Channel | None = None,
        timeout: float | None = None,
        **kwargs: Any,
    ) -> Interaction:
        """`slash`, for a command the client hides from this member (its
        default_member_permissions, its contexts): what only a modified client sends."""
        values = {**(options or {}), **kwargs}
        return await self._slash(command, values, channel, timeout, shown_only=False)

    async def raw_slash(
        self,
        command: str,
        options: Mapping[str, Any],
        /,
        *,
        channel: Channel | None = None,
        timeout: float | None = None,
        kinds: Mapping[str, int] | None = None,
    ) -> Interaction:
        """`forge_slash` past the client's checks: each value is sent as it is (a `Member`
        as its id, with `resolved` data), with its option's published type, or `kinds[name]`
        (an unknown option: STRING). Lengths, ranges, choices, required options and unknown
        names go unchecked: what a modified client or a raw API call sends."""
        return await self._slash(command, options, channel, timeout, shown_only=False,
                                 raw=kinds or {})

    async def _slash(
        self,
        command: str,
        values: Mapping[str, Any],
        channel: Channel | None,
        timeout: float | None,
        *,
        shown_only: bool,
        raw: Mapping[str, int] | None = None,
    ) -> Interaction:
        channel = channel or self.home_channel()
        path = command.removeprefix("/").split()
        guild = self.double.state.guild_of(channel)
        found = self._command(path[0], guild, shown_only=shown_only)
        data = self._command_data(found, path, values, guild, raw)
        return await self._interact(
            APPLICATION_COMMAND, channel, data, None, f"/{command} by {self.name}", timeout
        )

    async def autocomplete(
        self,
        command: str,
        focused: str,
        typed: str,
        /,
        *,
        channel: Channel | None = None,
        **options: Any,
    ) -> list[dict[str, Any]]:
        """Type `typed` into option `focused` of `/command` (other options as already filled
        in): the choices the bot offers, as the client lists them under the field."""
        channel = channel or self.home_channel()
        path = command.removeprefix("/").split()
        guild = self.double.state.guild_of(channel)
        found = self._command(path[0], guild)
        # As typed so far: required options may still be empty, the text is not checked yet.
        data = self._command_data(found, path, {**options, focused: typed}, guild, raw={})
        leaves = data["options"]
        while leaves and leaves[0]["type"] in (SUBCOMMAND, SUBCOMMAND_GROUP):
            leaves = leaves[0]["options"]
        next(o for o in leaves if o["name"] == focused)["focused"] = True
        asked = await self._interact(
            AUTOCOMPLETE, channel, data, None, f"/{command} {focused}={typed!r} by {self.name}",
            None,
        )
        return list(asked.choices or [])

    async def redeliver(self, interaction: Interaction) -> None:
        """Discord delivers `interaction` again, the same id and token (a resumed gateway
        replays it); the bot's answer to the copy is in `double.requests`."""
        await self.double.gateway.dispatch("INTERACTION_CREATE", self._payload(interaction), None)

    async def click(
        self,
        message: Message,
        label: str | None = None,
        *,
        row: int | None = None,
        custom_id: str | None = None,
        version: int | None = None,
        timeout: float | None = None,
    ) -> Interaction:
        """Click a button of `message` found by label (or emoji name), `row` and/or `custom_id`.
        `version` clicks what an earlier version showed (`message.history[version]`), as a
        client that has not yet seen an edit would; the payload still carries the message."""
        shown = self._components(message, version)
        await self._react(message.shown_at)
        button = comp.find(shown, types=(comp.BUTTON,), label=label, row=row, custom_id=custom_id)
        self._clickable(button)
        data = {"custom_id": button.custom_id, "component_type": comp.BUTTON}
        what = f"click {label or custom_id!r} by {self.name} on message {message.id}"
        return await self._interact(
            MESSAGE_COMPONENT, self._channel_of(message), data, message, what, timeout
        )

    async def select(
        self,
        message: Message,
        *choices: str | Member | User,
        placeholder: str | None = None,
        row: int | None = None,
        custom_id: str | None = None,
        timeout: float | None = None,
    ) -> Interaction:
        """Pick options (by label or value) in a string select, or members in a user select."""
        shown = self._components(message, None)
        await self._react(message.shown_at)
        found = comp.find(
            shown, types=comp.SELECT_TYPES, label=placeholder, row=row, custom_id=custom_id
        )
        self._clickable(found)
        data: dict[str, Any] = {"custom_id": found.custom_id, "component_type": found.type}
        if found.type == comp.STRING_SELECT:
            data["values"] = comp.choose_options(found.component, [str(c) for c in choices])
        elif found.type == comp.USER_SELECT:
            users = [c.user if isinstance(c, Member) else c for c in choices]
            if not all(isinstance(u, User) for u in users):
                raise ComponentError("a user select takes members")
            resolved: dict[str, Any] = {}
            data["values"] = [self._resolve_user(u, resolved) for u in users]  # type: ignore[arg-type]
            data["resolved"] = resolved
        else:
            raise ComponentError(f"select type {found.type} is not scripted yet")
        what = f"select {list(map(str, choices))} by {self.name} on message {message.id}"
        return await self._interact(
            MESSAGE_COMPONENT, self._channel_of(message), data, message, what, timeout
        )

    async def submit_modal(
        self, opened: Interaction, values: Mapping[str, Any], *, timeout: float | None = None
    ) -> Interaction:
        """Fill in and submit the modal the bot opened in answer to `opened`; `values` are keyed
        by each field's label or custom_id."""
        if opened.modal is None or opened.user.id != self.id:
            raise ComponentError(f"{self.name} has no modal open from {opened.description}")
        await self._react(opened.answered_at)
        data = {
            "custom_id": opened.modal["custom_id"],
            "components": comp.modal_submission(opened.modal, values),
        }
        what = f"submit modal {opened.modal.get('title')!r} by {self.name}"
        return await self._interact(
            MODAL_SUBMIT, opened.channel, data, opened.source_message, what, timeout, opened
        )

    async def forge(
        self,
        message: Message,
        custom_id: str,
        *,
        component_type: int = comp.BUTTON,
        values: Sequence[str] | None = None,
        timeout: float | None = None,
    ) -> Interaction:
        """Send a component interaction with any custom_id on `message`: what only a modified
        client could send (forged or tampered ids)."""
        await self._react(message.shown_at)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            data["values"] = list(values)
        what = f"forged {custom_id!r} by {self.name} on message {message.id}"
        return await self._interact(
            MESSAGE_COMPONENT, self._channel_of(message), data, message, what, timeout
        )

    # -- reading ---------------------------------------------------------------------------

    @property
    def dm_channel(self) -> Channel | None:
        """The DM channel with the bot, once the bot or the member opened it."""
        return self.double.state.dm_channels.get(self.id)

    def home_channel(self) -> Channel:
        """Where a slash command runs by default: the double's channel for its own guild's
        members, else the first text channel of the member's guild."""
        if self.guild is self.double.guild:
            return self.double.channel
        return next(c for c in self.guild.channels.values() if not c.is_thread)

    def open_dm(self) -> Channel:
        """Open the DM with the bot from the member's side (to run a command there)."""
        return self.double.state.dm_channel(self.user)

    def dms(self) -> list[Message]:
        """The bot's messages in this member's DMs, oldest first."""
        channel = self.dm_channel
        return [] if channel is None else self.sees(channel)

    def last_dm(self) -> Message | None:
        dms = self.dms()
        return dms[-1] if dms else None

    def ephemerals(self, channel: Channel | None = None) -> list[Message]:
        """Ephemeral messages only this member sees (in `channel`, or anywhere)."""
        channels = [channel] if channel else list(self.double.state.channels.values())
        return [
            m for c in channels for m in c.messages if m.visible_to == self.id and not m.deleted
        ]

    def last_ephemeral(self, channel: Channel | None = None) -> Message | None:
        found = self.ephemerals(channel)
        return max(found, key=lambda m: m.id) if found else None

    def sees(self, channel: Channel | None = None) -> list[Message]:
        """What this member sees in `channel`: public messages and their own ephemerals."""
        channel = channel or self.double.channel
        return [m for m in channel.messages if not m.deleted and m.visible_to in (None, self.id)]

    async def wait_for_dm(
        self,
        predicate: Callable[[Message], Any] | None = None,
        *,
        after: Message | None = None,
        timeout: float = PATIENCE,
    ) -> Message:
        """The latest DM (newer than `after`) that satisfies `predicate`, waiting for it."""
        return await self.double.state.wait_for_latest(
            self.dms, predicate, after, timeout, f"a DM to {self.name}"
        )

    async def wait_for_ephemeral(
        self,
        predicate: Callable[[Message], Any] | None = None,
        *,
        after: Message | None = None,
        timeout: float = PATIENCE,
    ) -> Message:
        """The latest ephemeral message to this member satisfying `predicate`, waiting for it."""
        return await self.double.state.wait_for_latest(
            lambda: sorted(self.ephemerals(), key=lambda m: m.id),
            predicate,
            after,
            timeout,
            f"an ephemeral to {self.name}",
        )

    # -- the Discord client's side ---------------------------------------------------------

    def _command(
        self, name: str, guild: Guild | None, *, shown_only: bool = True
    ) -> dict[str, Any]:
        state = self.double.state
        scopes = ([guild.id] if guild else []) + [None]
        for scope in scopes:
            for command in state.commands.get(scope, []):
                if command["name"] == name and command["type"] == 1:
                    if shown_only:
                        self._command_allowed(command, guild)
                    return command
        synced = sorted(c["name"] for scope in scopes for c in state.commands.get(scope, []))
        raise ComponentError(f"no slash command /{name} here; the bot synced {synced}")

    def _command_allowed(self, command: Mapping[str, Any], guild: Guild | None) -> None:
        contexts = command.get("contexts")
        context = GUILD_CONTEXT if guild else BOT_DM_CONTEXT
        if contexts is not None and context not in contexts:
            raise ComponentError(f"/{command['name']} is not offered in this context ({context})")
        if guild is None and contexts is None and command.get("dm_permission") is False:
            raise ComponentError(f"/{command['name']} is not offered in DMs")
        needed = command.get("default_member_permissions")
        if (
            guild is not None
            and needed is not None
            and (guild.permissions_of(self.id) & int(needed) != int(needed))
        ):
            raise ComponentError(f"/{command['name']} is hidden from {self.name} (permissions)")

    def _command_data(
        self,
        command: dict[str, Any],
        path: list[str],
        values: Mapping[str, Any],
        guild: Guild | None,
        raw: Mapping[str, int] | None = None,
    ) -> dict[str, Any]:
        node: Mapping[str, Any] = command
        chain = []
        for name in path[1:]:
            subs = [
                o for o in node.get("options", []) if o["type"] in (SUBCOMMAND, SUBCOMMAND_GROUP)
            ]
            node = next((o for o in subs if o["name"] == name), None)  # type: ignore[assignment]
            if node is None:
                raise ComponentError(
                    f"/{' '.join(path)}: no {name!r} among {[o['name'] for o in subs]}"
                )
            chain.append(node)
        schema = node.get("options", [])
        if any(o["type"] in (SUBCOMMAND, SUBCOMMAND_GROUP) for o in schema):
            raise ComponentError(f"/{' '.join(path)} needs one of {[o['name'] for o in schema]}")
        names = {o["name"] for o in schema}
        missing = [o["name"] for o in schema if o.get("required") and o["name"] not in values]
        extra = sorted(set(values) - names)
        resolved: dict[str, Any] = {}
        if raw is not None:
            options = self._raw_options(schema, values, raw, resolved)
        elif extra or missing:
            raise ComponentError(
                f"/{' '.join(path)}: unknown {extra}, missing {missing}; takes {sorted(names)}"
            )
        else:
            options = [
                self._option(o, values[o["name"]], resolved, guild)
                for o in schema
                if o["name"] in values
            ]
        for sub in reversed(chain):
            options = [{"type": sub["type"], "name": sub["name"], "options": options}]
        data: dict[str, Any] = {
            "id": command["id"],
            "name": command["name"],
            "type": 1,
            "options": options,
        }
        if resolved:
            data["resolved"] = resolved
        if "guild_id" in command:
            data["guild_id"] = command["guild_id"]
        return data

    def _option(
        self, schema: Mapping[str, Any], value: Any, resolved: dict[str, Any], guild: Guild | None
    ) -> dict[str, Any]:
        kind, name = schema["type"], schema["name"]
        if kind == STRING:
            value = self._choice(schema, str(value))
            low, high = schema.get("min_length", 0), schema.get("max_length", 6000)
            if not low <= len(value) <= high:
                raise ComponentError(f"option {name!r} takes {low}..{high} characters")
        elif kind in (INTEGER, NUMBER):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ComponentError(f"option {name!r} takes a number, not {value!r}")
            value = self._choice(schema, int(value) if kind == INTEGER else float(value))
            low, high = schema.get("min_value"), schema.get("max_value")
            if (low is not None and value < low) or (high is not None and value > high):
                raise ComponentError(f"option {name!r} takes {low}..{high}, not {value}")
        elif kind == BOOLEAN:
            value = bool(value)
        elif kind in (USER, MENTIONABLE) and isinstance(value, Member | User):
            value = self._resolve_user(value.user if isinstance(value, Member) else value, resolved)
        elif kind in (ROLE, MENTIONABLE) and isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            value = str(value.id)
        elif kind == CHANNEL and isinstance(value, Channel):
            data = value.payload()
            if guild is not None:
                data["permissions"] = str(guild.permissions_of(self.id))
            resolved.setdefault("channels", {})[str(value.id)] = data
            value = str(value.id)
        else:
            raise ComponentError(f"option {name!r} of type {kind} cannot take {value!r}")
        return {"type": kind, "name": name, "value": value}

    def _raw_options(
        self,
        schema: list[Mapping[str, Any]],
        values: Mapping[str, Any],
        kinds: Mapping[str, int],
        resolved: dict[str, Any],
    ) -> list[dict[str, Any]]:
        published = {o["name"]: o["type"] for o in schema}
        options = []
        for name, value in values.items():
            kind = kinds.get(name, published.get(name, STRING))
            if isinstance(value, Member | User):
                value = self._resolve_user(
                    value.user if isinstance(value, Member) else value, resolved
                )
            options.append({"type": kind, "name": name, "value": value})
        return options

    @staticmethod
    def _choice(schema: Mapping[str, Any], value: Any) -> Any:
        """The client offers only the choices: a choice is picked by its name or its value."""
        choices = schema.get("choices")
        if not choices:
            return value
        for choice in choices:
            if value in (choice["value"], choice["name"]):
                return choice["value"]
        raise ComponentError(
            f"option {schema['name']!r} has choices {[c['name'] for c in choices]}, not {value!r}"
        )

    def _resolve_user(self, user: User, resolved: dict[str, Any]) -> str:
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        member = self.guild.members.get(user.id)
        if member is not None:
            data = member.payload(with_user=False)
            data["permissions"] = str(self.guild.permissions_of(user.id))
            resolved.setdefault("members", {})[str(user.id)] = data
        return str(user.id)

    def _components(self, message: Message, version: int | None) -> list[dict[str, Any]]:
        if message.deleted:
            raise ComponentError(f"message {message.id} was deleted")
        if message.visible_to not in (None, self.id):
            raise ComponentError(
                f"{self.name} cannot see another member's ephemeral message {message.id}"
            )
        channel = self.double.state.channels[message.channel_id]
        if channel.type == DM and channel.recipient is not None and channel.recipient.id != self.id:
            raise ComponentError(f"{self.name} cannot see another member's DM {message.id}")
        return message.components if version is None else message.history[version].components

    @staticmethod
    def _clickable(found: comp.Located) -> None:
        if found.component.get("disabled"):
            raise ComponentError(f"component {found.custom_id!r} is disabled")
        if found.component.get("style") in (comp.LINK_STYLE, comp.PREMIUM_STYLE):
            raise ComponentError("a link button opens a URL, the bot never hears of it")

    async def _react(self, since: float) -> None:
        delay = since + self.double.reaction_time - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)

    def _channel_of(self, message: Message) -> Channel:
        return self.double.state.channels[message.channel_id]

    async def _interact(
        self,
        kind: int,
        channel: Channel,
        data: dict[str, Any],
        source: Message | None,
        what: str,
        timeout: float | None,
        trigger: Interaction | None = None,
    ) -> Interaction:
        """Send INTERACTION_CREATE and wait for the bot's callback (by default as long as the
        double accepts one: `state.interaction_deadline`)."""
        state = self.double.state
        if not self.double.gateway.ready_sessions:
            raise InteractionNotAnswered(f"{what}: no bot is connected to the gateway")
        interaction = state.new_interaction(
            type=kind,
            user=self.user,
            channel=channel,
            data=data,
            source_message=source,
            description=what,
            trigger=trigger,
        )
        await self.double.gateway.dispatch("INTERACTION_CREATE", self._payload(interaction), None)
        limit = state.interaction_deadline if timeout is None else timeout
        try:
            await state.wait_until(interaction.answered.is_set, limit, what)
        except TimeoutError:
            raise InteractionNotAnswered(
                f"{what}: the bot did not answer within {limit} s"
            ) from None
        return interaction

    def _payload(self, interaction: Interaction) -> dict[str, Any]:
        """INTERACTION_CREATE's `d`, field for field as Discord builds it."""
        state = self.double.state
        channel, guild = interaction.channel, interaction.guild
        channel_data = channel.payload()
        data: dict[str, Any] = {
            "id": str(interaction.id),
            "application_id": str(state.application_id),
            "type": interaction.type,
            "data": interaction.data,
            "channel_id": str(channel.id),
            "channel": channel_data,
            "token": interaction.token,
            "version": 1,
            "locale": self.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": owners(guild, self.user),
            "context": GUILD_CONTEXT if guild else BOT_DM_CONTEXT,
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        if guild is not None:
            permissions = str(guild.permissions_in(self.id, channel))
            channel_data["permissions"] = permissions
            member = guild.members[self.id].payload()
            member["permissions"] = permissions
            data.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
                guild_locale=guild.preferred_locale,
                member=member,
                app_permissions=str(guild.permissions_in(state.bot.id, channel)),
            )
        else:
            data.update(user=self.user.payload(), app_permissions=str(MEMBER_PERMISSIONS))
        if interaction.source_message is not None:
            data["message"] = interaction.source_message.payload()
        return data
