"""A minimal interaction double: what the economy and tool commands touch of a
discord.Interaction, recording every answer so a test reads what the member would see."""

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord


@dataclass(frozen=True)
class User:
    """A member (or a bot account) as a command option or as the invoker."""

    id: int
    name: str
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def display_name(self) -> str:
        return self.name


@dataclass
class Answer:
    """One message sent in answer: the first response or a follow-up."""

    embed: discord.Embed | None
    ephemeral: bool
    view: discord.ui.View | None = None
    file: discord.File | None = None
    content: str | None = None

    @property
    def text(self) -> str:
        """Everything a reader sees in the embed, in one string."""
        if self.embed is None:
            return self.content or ""
        parts = [self.embed.title or "", self.embed.description or ""]
        for f in self.embed.fields:
            parts += [f.name or "", f.value or ""]
        parts.append(self.embed.footer.text or "")
        return "\n".join(parts)


@dataclass
class Response:
    interaction: "Interaction"
    deferred: bool | None = None  # None: not deferred; else whether ephemerally

    def is_done(self) -> bool:
        return bool(self.interaction.answers) or self.deferred is not None

    async def send_message(self, content: str | None = None, *, ephemeral: bool = False,
                           embed: discord.Embed | None = None, view: Any = None,
                           file: discord.File | None = None) -> None:
        assert not self.is_done(), "an interaction can be answered only once"
        self.interaction.answers.append(Answer(embed, ephemeral, view, file, content))

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        assert not self.is_done(), "an interaction can be answered only once"
        self.deferred = ephemeral


@dataclass
class Followup:
    interaction: "Interaction"

    async def send(self, content: str | None = None, *, ephemeral: bool = False,
                   embed: discord.Embed | None = None, view: Any = None,
                   file: discord.File | None = None) -> None:
        response = self.interaction.response
        assert response.is_done(), "a follow-up needs a response first"
        if not self.interaction.answers and response.deferred is not None:
            # Discord: the first follow-up replaces the "thinking" message, whose
            # visibility was chosen when deferring.
            ephemeral = response.deferred
        self.interaction.answers.append(Answer(embed, ephemeral, view, file, content))


@dataclass
class Guild:
    id: int
    name: str


@dataclass
class Interaction:
    client: Any
    user: User
    guild: Guild | None
    channel_id: int
    created_at: datetime
    id: int
    permissions: discord.Permissions = field(default_factory=discord.Permissions.none)
    answers: list[Answer] = field(default_factory=list)
    locale: discord.Locale = discord.Locale.american_english  # the member's Discord language
    extras: dict[Any, Any] = field(default_factory=dict)  # discord.py's, for the cogs' own use

    def __post_init__(self) -> None:
        self.response = Response(self)
        self.followup = Followup(self)

    @property
    def guild_id(self) -> int | None:
        return self.guild.id if self.guild else None

    @property
    def answer(self) -> Answer:
        """The one answer a command gives."""
        assert len(self.answers) == 1, f"expected one answer, got {len(self.answers)}"
        return self.answers[0]


def at(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, tz=UTC)
