"""Right-to-left text (Hebrew, Arabic names) put in the order it is seen, for the BASIC layout
(rendering/fonts.py), which draws characters left to right as stored and joins no letters.

`visual` reorders a line the way the Unicode bidirectional algorithm does for the text names
hold (one line, no explicit embeddings): right-to-left runs reversed, digits and left-to-right
words inside them kept in their order, brackets mirrored; and writes each Arabic letter in the
form its neighbours give it (isolated, initial, medial, final; lam-alef as its ligature), from
the presentation forms DejaVu holds. Text with no right-to-left letter is returned unchanged.
"""

import unicodedata
from functools import cache, lru_cache

_RTL = frozenset({"R", "AL"})
_NUMBER = frozenset({"EN", "AN"})
_MIRROR = dict(zip("()[]{}<>«»", ")(][}{><»«", strict=True))
_FORMS = ("isolated", "final", "initial", "medial")
_LAM = "\u0644"


@cache
def _presentation() -> dict[tuple[str, str], str]:
    """(letter or lam+alef, form) -> its presentation form, read from Unicode's own
    decompositions of the Arabic presentation forms."""
    found: dict[tuple[str, str], str] = {}
    for code in range(0xFE70, 0xFEFF):
        parts = unicodedata.decomposition(chr(code)).split()
        if len(parts) >= 2 and parts[0].strip("<>") in _FORMS:
            base = "".join(chr(int(p, 16)) for p in parts[1:])
            found.setdefault((base, parts[0].strip("<>")), chr(code))
    return found


def _joins_back(letter: str) -> bool:
    """Whether `letter` joins the letter before it (it has a final form)."""
    return (letter, "final") in _presentation()


def _joins_on(letter: str) -> bool:
    """Whether `letter` joins the letter after it (it has an initial form)."""
    return (letter, "initial") in _presentation()


def _transparent(char: str) -> bool:
    return unicodedata.category(char) in ("Mn", "Me")


def _shaped(text: str) -> list[str]:
    """Each Arabic letter in its joined form, by position (a lam-alef's alef left empty)."""
    forms = _presentation()
    letters = [i for i, c in enumerate(text) if not _transparent(c)]
    out = list(text)
    skip: set[int] = set()
    for k, i in enumerate(letters):
        if i in skip:
            continue
        letter = text[i]
        after = letters[k + 1] if k + 1 < len(letters) else None
        if letter == _LAM and after is not None and (_LAM + text[after], "isolated") in forms:
            letter = _LAM + text[after]  # lam-alef is always written as one ligature
            skip.add(after)
            out[after] = ""
            after = letters[k + 2] if k + 2 < len(letters) else None
        before = letters[k - 1] if k else None
        back = before is not None and before not in skip and _joins_on(text[before]) \
            and _joins_back(letter)
        on = after is not None and _joins_on(letter) and _joins_back(text[after])
        form = ("medial" if on else "final") if back else ("initial" if on else "isolated")
        out[i] = forms.get((letter, form)) or forms.get((letter, "isolated")) or letter
    return out


def _levels(text: str, rtl: bool) -> list[int]:
    """Each character's embedding level: 0 left to right, 1 right to left, 2 a number after
    right-to-left letters or a left-to-right word in a right-to-left line. A neutral (space,
    punctuation) takes the direction of its neighbours when both agree, numbers counting as
    right to left there, else the line's (rules W2, W7, N1, N2, I1, I2)."""
    line = "R" if rtl else "L"
    last = line  # the last strong direction: a number after a left-to-right word is one
    dirs: list[str] = []
    for c in text:
        kind = unicodedata.bidirectional(c)
        if kind in _RTL or kind == "L":
            last = "R" if kind in _RTL else "L"
            dirs.append(last)
        elif kind in _NUMBER:
            dirs.append("R" if last == "R" or kind == "AN" else "L")
        elif _transparent(c) and dirs:
            dirs.append(dirs[-1])
        else:
            dirs.append("")
    levels: list[int] = []
    for i, (c, d) in enumerate(zip(text, dirs, strict=True)):
        if not d:
            before = next((x for x in reversed(dirs[:i]) if x), line)
            after = next((x for x in dirs[i + 1:] if x), line)
            d = before if before == after else line
        number = unicodedata.bidirectional(c) in _NUMBER
        levels.append(2 if d == "R" and number else 1 if d == "R" else 2 if rtl else 0)
    return levels


def _clusters(text: str, levels: list[int]) -> list[tuple[str, int]]:
    """Each base character with the marks on it, and its level: a mark stays after its base
    (BASIC draws it over the character before it)."""
    out: list[tuple[str, int]] = []
    for c, level in zip(text, levels, strict=True):
        if out and _transparent(c):
            out[-1] = (out[-1][0] + c, out[-1][1])
        else:
            out.append((_MIRROR.get(c, c) if level % 2 else c, level))
    return out


def _reordered(clusters: list[tuple[str, int]]) -> str:
    """Rule L2: from the highest level down to the lowest odd one, reverse every run at that
    level or higher."""
    items = list(clusters)
    top = max(level for _, level in items)
    for level in range(top, 0, -1):
        i = 0
        while i < len(items):
            if items[i][1] >= level:
                j = i
                while j < len(items) and items[j][1] >= level:
                    j += 1
                items[i:j] = reversed(items[i:j])
                i = j
            else:
                i += 1
    return "".join(c for c, _ in items)


def has_rtl(text: str) -> bool:
    return any(unicodedata.bidirectional(c) in _RTL for c in text)


@lru_cache(maxsize=4096)  # the same names come back image after image
def visual(text: str) -> str:
    """`text` in the order and letter forms it is seen in (unchanged without right-to-left
    letters). The line reads right to left when its first strong letter does."""
    if not has_rtl(text):
        return text
    first = next((unicodedata.bidirectional(c) for c in text
                  if unicodedata.bidirectional(c) in _RTL | {"L"}), "L")
    kept = [(c, level) for c, level in zip(_shaped(text), _levels(text, first in _RTL),
                                           strict=True) if c]
    return _reordered(_clusters("".join(c for c, _ in kept), [lv for _, lv in kept]))
