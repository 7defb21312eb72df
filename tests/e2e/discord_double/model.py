"""What the double knows: users, guilds, roles, members, channels, messages and attachments,
each able to render itself as the JSON Discord sends for it."""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field
from typing import Any

from .components import BUTTON, walk
from .snowflakes import iso_time

# Channel types (Discord API "Channel Types").
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (PUBLIC_THREAD, PRIVATE_THREAD)

# Message flags.
EPHEMERAL = 1 << 6
LOADING = 1 << 7

# Permission bits the double computes with.
ADMINISTRATOR = 1 << 3
ALL_PERMISSIONS = (1 << 53) - 1
MEMBER_PERMISSIONS = (
    (1 << 6)  # add reactions
    | (1 << 10)  # view channel
    | (1 << 11)  # send messages
    | (1 << 14)  # embed links
    | (1 << 15)  # attach files
    | (1 << 16)  # read message history
    | (1 << 31)  # use application commands
    | (1 << 35)  # create public threads
    | (1 << 36)  # create private threads
    | (1 << 38)  # send messages in threads
)
BOT_PERMISSIONS = MEMBER_PERMISSIONS | (1 << 13) | (1 << 34)  # + manage messages, manage threads
MANAGE_GUILD = 1 << 5
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38

# Permission overwrite targets.
ROLE_OVERWRITE = 0
MEMBER_OVERWRITE = 1


@dataclass
class User:
    id: int
    username: str
    global_name: str | None = None
    bot: bool = False

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,
        }
        if self.bot:
            data["bot"] = True
        return data


@dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
            "icon": None,
            "unicode_emoji": None,
        }


@dataclass
class Overwrite:
    """A channel's permission overwrite for a role (the guild's id: @everyone) or a member."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "type": self.type, "allow": str(self.allow),
                "deny": str(self.deny)}


@dataclass
class GuildMember:
    user: User
    roles: list[int]
    joined_at: str
    nick: str | None = None

    def payload(self, *, with_user: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(r) for r in self.roles],
            "joined_at": self.joined_at,
            "nick": self.nick,
            "avatar": None,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        return data


@dataclass
class Attachment:
    id: int
    filename: str
    content_type: str
    data: bytes
    url: str
    width: int | None = None
    height: int | None = None
    description: str | None = None

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.width is not None:
            data["width"], data["height"] = self.width, self.height
        if self.description is not None:
            data["description"] = self.description
        return data


@dataclass
class Snapshot:
    """One version of a message as people saw it before an edit."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[Attachment]
    flags: int
    edited_timestamp: str | None


@dataclass
class Message:
    """A message as the double stores it. Edits update it in place and keep `history`."""

    id: int
    channel_id: int
    guild_id: int | None
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    visible_to: int | None = None
    """A user id for an ephemeral message (only that user sees it), None when public."""
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    edited_timestamp: str | None = None
    deleted: bool = False
    history: list[Snapshot] = field(default_factory=list)
    thread_id: int | None = None
    shown_at: float = field(default_factory=time.monotonic)
    """When people last saw it change (created or edited), on the monotonic clock."""
    pinged: list[str] = field(default_factory=list)
    """Whom its content notified, at its creation and each edit: "@everyone" (@here too),
    "role:<id>", "user:<id>" (see `state.pings`)."""

    @property
    def ephemeral(self) -> bool:
        return self.visible_to is not None

    @property
    def loading(self) -> bool:
        """True while this is a deferred "is thinking..." response not yet resolved."""
        return bool(self.flags & LOADING)

    @property
    def embed(self) -> dict[str, Any] | None:
        """The first embed, as stored (images resolved to their attachment URLs)."""
        return self.embeds[0] if self.embeds else None

    def labels(self) -> list[str]:
        """Labels of the buttons a person sees, in order (disabled ones included)."""
        return [
            str(c["label"])
            for c in walk(self.components)
            if c.get("type") == BUTTON and c.get("label")
        ]

    def images(self) -> list[Attachment]:
        """Image attachments, in order."""
        return [a for a in self.attachments if a.content_type.startswith("image/")]

    def attachment(self, filename: str) -> Attachment:
        found = [a for a in self.attachments if a.filename == filename]
        if not found:
            names = [a.filename for a in self.attachments]
            raise AssertionError(f"message {self.id} has no attachment {filename!r}: {names}")
        return found[0]

    def embed_image(self, index: int = 0, *, key: str = "image") -> bytes:
        """The bytes of embed `index`'s image (or thumbnail), as a person's client shows it."""
        url = ((self.embeds[index].get(key) or {}) if index < len(self.embeds) else {}).get("url")
        known = self.attachments + [a for snap in self.history for a in snap.attachments]
        for attachment in known:
            if attachment.url == url:
                return attachment.data
        raise AssertionError(
            f"embed {index} of message {self.id} shows no uploaded {key} (url {url!r})"
        )

    def snapshot(self) -> Snapshot:
        return Snapshot(
            content=self.content,
            embeds=copy.deepcopy(self.embeds),
            components=copy.deepcopy(self.components),
            attachments=list(self.attachments),
            flags=self.flags,
            edited_timestamp=self.edited_timestamp,
        )

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": self.type,
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso_time(self.id),
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "pinned": False,
            "flags": self.flags,
        }
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = copy.deepcopy(self.interaction_metadata)
        return data

    def gateway_payload(self) -> dict[str, Any]:
        """MESSAGE_CREATE / MESSAGE_UPDATE carry the guild id on top of the REST shape."""
        data = self.payload()
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        return data


@dataclass
class Channel:
    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    recipient: User | None = None
    """The other end of a DM channel (the bot is the implicit first end)."""
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    thread_members: set[int] = field(default_factory=set)
    messages: list[Message] = field(default_factory=list)
    overwrites: dict[int, Overwrite] = field(default_factory=dict)
    """Permission overwrites by role or member id (a thread takes its parent's)."""

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    def payload(self) -> dict[str, Any]:
        last = next((m for m in reversed(self.messages) if not m.ephemeral and not m.deleted), None)
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "last_message_id": str(last.id) if last else None,
            "flags": 0,
        }
        if self.type == DM:
            assert self.recipient is not None
            data["recipients"] = [self.recipient.payload()]
            return data
        data.update(
            guild_id=str(self.guild_id),
            name=self.name,
            position=self.position,
            permission_overwrites=[o.payload() for o in self.overwrites.values()],
            nsfw=False,
            rate_limit_per_user=0,
            parent_id=str(self.parent_id) if self.parent_id else None,
        )
        if self.is_thread:
            data.update(
                owner_id=str(self.owner_id),
                member_count=len(self.thread_members),
                message_count=sum(1 for m in self.messages if not m.deleted),
                total_message_sent=len(self.messages),
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": iso_time(self.id),
                    "locked": self.locked,
                    "invitable": self.invitable,
                    "create_timestamp": iso_time(self.id),
                },
            )
        else:
            data["topic"] = None
        return data


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, GuildMember] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    preferred_locale: str = "en-US"  # Server Settings -> Community: the server's language

    def permissions_of(self, user_id: int) -> int:
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        member = self.members[user_id]
        value = self.roles[self.id].permissions
        for role_id in member.roles:
            value |= self.roles[role_id].permissions
        return ALL_PERMISSIONS if value & ADMINISTRATOR else value

    def permissions_in(self, user_id: int, channel: Channel) -> int:
        """Discord's computation: the roles' permissions, then the channel's overwrites for
        @everyone, for the member's roles together, for the member; without View Channel,
        nothing. A thread takes its parent channel's overwrites."""
        value = self.permissions_of(user_id)
        if value & ADMINISTRATOR:
            return ALL_PERMISSIONS
        source = self.channels.get(channel.parent_id or 0) if channel.is_thread else channel
        overwrites = source.overwrites if source is not None else {}
        everyone = overwrites.get(self.id)
        if everyone is not None:
            value = (value & ~everyone.deny) | everyone.allow
        allow = deny = 0
        for role_id in self.members[user_id].roles:
            role = overwrites.get(role_id)
            if role is not None and role.type == ROLE_OVERWRITE:
                allow, deny = allow | role.allow, deny | role.deny
        value = (value & ~deny) | allow
        own = overwrites.get(user_id)
        if own is not None and own.type == MEMBER_OVERWRITE:
            value = (value & ~own.deny) | own.allow
        return value if value & VIEW_CHANNEL else 0

    def payload(self) -> dict[str, Any]:
        """The GUILD_CREATE payload: everything the bot's cache needs."""
        channels = [c for c in self.channels.values() if not c.is_thread]
        threads = [c for c in self.channels.values() if c.is_thread and not c.archived]
        return {
            "id": str(self.id),
            "name": self.name,
            "owner_id": str(self.owner_id),
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "features": [],
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "preferred_locale": self.preferred_locale,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "large": False,
            "unavailable": False,
            "lazy": True,
            "joined_at": iso_time(self.id),
            "member_count": len(self.members),
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "members": [m.payload() for m in self.members.values()],
            "channels": [c.payload() for c in channels],
            "threads": [t.payload() for t in threads],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }
