"""Languages: every text a player reads, in English, Russian, Swedish or Simplified Chinese.

One function for translated text, `t(locale, ...)`:

    t(locale, "Seat {seat} is empty", seat=3)          # a template and its fields
    t(locale, "{n:,} chip", "{n:,} chips", n=2000)     # with a plural form (the count is n)
    t(locale, error.text)                              # a Text made earlier (bot.engine.text)
    t(locale, "Open one with {cmd}.", cmd=Slash("ofc create"))  # a command, as Discord shows it

The English template is the message id; each language's catalogue (po/*.po, gettext's
format, read with babel) gives its translation. A template a catalogue lacks, or whose
translation is empty or fuzzy, is shown in English. Code that does not know the reader's
language yet (the engine, the table service, refusals) makes a `Text` instead and the layer
that shows it calls `t`. `ofc-bot --update-catalogues` collects every template of the code
and the slash commands into po/messages.pot and merges it into each language's file;
tests/i18n checks that every template has a translation in every language.

Locales are Discord's codes (`interaction.locale`): en-US, ru, sv-SE, zh-CN. Any other code
reads English (en-GB too, as en-US).
"""

from bot.engine.text import Rank, Text, series
from bot.i18n.catalogue import (
    ENGLISH,
    LANGUAGE_NAMES,
    LOCALES,
    Slash,
    decimal,
    locale_of,
    number,
    short_number,
    t,
    untranslated,
)

__all__ = ["ENGLISH", "LANGUAGE_NAMES", "LOCALES", "Rank", "Slash", "Text", "decimal",
           "locale_of", "number", "series", "short_number", "t",
           "untranslated"]
