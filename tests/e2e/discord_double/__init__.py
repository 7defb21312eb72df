"""A local Discord API double (REST + gateway) and scripted users for end-to-end tests."""

from .components import ComponentError
from .model import Attachment, Channel, Guild, Message, Role, Snapshot, User
from .server import DiscordDouble, RecordedRequest, Violation
from .state import DISCORD_DEADLINE, PATIENCE, ApiError, Interaction
from .users import InteractionNotAnswered, Member

__all__ = [
    "DISCORD_DEADLINE",
    "PATIENCE",
    "ApiError",
    "Attachment",
    "Channel",
    "ComponentError",
    "DiscordDouble",
    "Guild",
    "Interaction",
    "InteractionNotAnswered",
    "Member",
    "Message",
    "RecordedRequest",
    "Role",
    "Snapshot",
    "User",
    "Violation",
]
