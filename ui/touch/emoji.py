"""Emoji in what the kiosk draws: a team typed on a phone as "🎯 Jets" or "Die 🍺 Brüder".

Kivy 2.3's SDL2 text provider draws a text in one font file (SDL2_ttf 2.x has no fallback
fonts, and FreeType none of its own; Kivy's fallback fonts come with its SDL3 provider), and
Roboto, the kiosk's font, has no emoji: each drew as an empty box. Colour emoji come only at
their bitmaps' one size (Noto Color Emoji: 128 px tall at any font size; SDL2_ttf 2.22 does not
scale them), so the kiosk draws emoji in **Noto Emoji**, Google's monochrome outline emoji
(`fonts/NotoEmoji-Regular.ttf`, SIL Open Font License 1.1: `fonts/OFL.txt`), in the label's
colour, as a phone's keyboard shows them in outline.

`install()` (once, by `kivy_setup.configure`, before any text is drawn) teaches the provider
a font fallback: a text with a character that the label's own font lacks and Noto Emoji has is
measured and drawn run by run, each run of such characters in Noto Emoji, the rest in the
label's font as before. It is Kivy's own provider that measures and draws each run, at the
label's size, colour and outline: every label, button, text field, markup span and toast gets
it, and the fitting rule (`controls.fitting_font`), which measures with the same provider,
measures what is drawn. Texts without such a character take the provider's path unchanged.

Which font has which character is read from the fonts' own character maps (`code_points`),
so a sign drawn in DejaVu Sans on purpose (`controls.with_symbols`) stays DejaVu's.

A line too long for its label is shortened by Kivy at any code point; the provider's shortening
is taught to cut only where no emoji is parted (`cuts`: a family of emoji joined by zero-width
joiners, a flag's two letters, a skin tone or keycap stay with their emoji), so a name reads
"Die 👨‍👩‍👧‍👦..." or "Die ...", never "Die 👨‍...".
"""

from __future__ import annotations

import functools
import itertools
import re
import struct
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

FONT = Path(__file__).parent / "fonts" / "NotoEmoji-Regular.ttf"

# What belongs to the emoji before it, drawn with it (the font's shaping joins them): the
# zero-width joiner of a sequence, the emoji and text presentation selectors, the tags of a
# subdivision's flag (🏴 and "gbsct"), the keycap, the skin tones.
_INVISIBLE = frozenset([0x200D, 0xFE0E, 0xFE0F, *range(0xE0020, 0xE0080)])
_JOINERS = _INVISIBLE | frozenset([0x20E3, *range(0x1F3FB, 0x1F400)])
# After a character the label's font has (a digit, ©, ™, ❤ in some fonts): "as an emoji".
_AS_EMOJI = frozenset([0xFE0F, 0x20E3])


_ZWJ = 0x200D
_REGIONAL = range(0x1F1E6, 0x1F200)  # a flag is two of these: 🇩🇪 is D and E


def cuts(text: str) -> list[int]:
    """Every place `text` may be cut (0 and len(text) included) without parting the code
    points of one emoji: never before what joins the emoji before it (`_JOINERS`), never after
    a zero-width joiner (👨‍👩‍👧 is three emoji and two joiners), never inside a flag's pair."""
    chars = [ord(c) for c in text]
    places = [0]
    flag_run = 0  # regional indicators in a row so far
    for i in range(1, len(chars) + 1):
        before = chars[i - 1]
        flag_run = flag_run + 1 if before in _REGIONAL else 0
        after = chars[i] if i < len(chars) else None
        if after is not None and (after in _JOINERS or before == _ZWJ):
            continue
        if after in _REGIONAL and flag_run % 2 == 1:
            continue
        places.append(i)
    return places


def clusters(text: str) -> list[str]:
    """`text` in the pieces that are never parted (`cuts`): an emoji with all its code points,
    every other character alone."""
    places = cuts(text)
    return [text[a:b] for a, b in itertools.pairwise(places)]


def _whole_shortening(text: str, shortened: str) -> str:
    """Kivy's shortening of `text` (`text[:head] + "..." + text[tail:]`, cut at any code
    point) with its cuts moved to the nearest places outside an emoji (`cuts`), so a family or
    a flag is kept whole or left out whole; the result is never wider than Kivy's."""
    dots = "..."
    found = None
    for head in range(min(len(text), len(shortened)), -1, -1):
        rest = shortened[head:]
        if shortened[:head] == text[:head] and rest.startswith(dots):
            tail_text = rest[len(dots) :]
            if text.endswith(tail_text) and head + len(tail_text) <= len(text):
                found = head, len(text) - len(tail_text)
                break
    if found is None:
        return shortened  # not a shortening of `text` (".." or "." alone): nothing to keep
    head, tail = found
    places = cuts(text)
    head = max(p for p in places if p <= head)
    tail = min(p for p in places if p >= tail)
    return text[:head] + dots + text[tail:]


def code_points(path: str | Path) -> frozenset[int]:
    """The characters a TrueType/OpenType font maps to glyphs (its `cmap`: the Unicode
    subtable of format 12, else of format 4); nothing for a file that is no such font."""
    try:
        data = Path(path).read_bytes()
        return frozenset(_cmap(data))
    except (OSError, struct.error, ValueError):
        return frozenset()


def _cmap(data: bytes) -> Iterator[int]:
    (tables,) = struct.unpack_from(">H", data, 4)
    entries = (struct.unpack_from(">4s4xI4x", data, 12 + 16 * i) for i in range(tables))
    offset = next((at for tag, at in entries if tag == b"cmap"), None)
    if offset is None:
        raise ValueError("no cmap")
    (count,) = struct.unpack_from(">2xH", data, offset)
    subtables: dict[int, int] = {}
    for i in range(count):
        platform, encoding, at = struct.unpack_from(">HHI", data, offset + 4 + 8 * i)
        (fmt,) = struct.unpack_from(">H", data, offset + at)
        if (platform, encoding) in ((3, 10), (0, 4), (0, 6), (3, 1), (0, 3)) and fmt in (4, 12):
            subtables.setdefault(fmt, offset + at)
    if 12 in subtables:
        at = subtables[12]
        (groups,) = struct.unpack_from(">12xI", data, at)
        for g in range(groups):
            first, last, _glyph = struct.unpack_from(">III", data, at + 16 + 12 * g)
            yield from range(first, last + 1)
    elif 4 in subtables:
        at = subtables[4]
        (double,) = struct.unpack_from(">6xH", data, at)
        segments = double // 2
        ends = struct.unpack_from(f">{segments}H", data, at + 14)
        starts = struct.unpack_from(f">{segments}H", data, at + 16 + double)
        deltas = struct.unpack_from(f">{segments}h", data, at + 16 + 2 * double)
        ranges_at = at + 16 + 3 * double
        range_offsets = struct.unpack_from(f">{segments}H", data, ranges_at)
        for s, (start, end) in enumerate(zip(starts, ends, strict=True)):
            for char in range(start, end + 1):
                if char == 0xFFFF:
                    continue
                if range_offsets[s] == 0:
                    glyph = (char + deltas[s]) & 0xFFFF
                else:
                    where = ranges_at + 2 * s + range_offsets[s] + 2 * (char - start)
                    (glyph,) = struct.unpack_from(">H", data, where)
                if glyph:
                    yield char
    else:
        raise ValueError("no Unicode cmap")


@functools.cache
def _emoji() -> frozenset[int]:
    return code_points(FONT)


@functools.cache
def _lacking(font: str) -> tuple[frozenset[int], str, re.Pattern[str] | None]:
    """What Noto Emoji has and `font` lacks; the lowest character that may start a run in Noto
    Emoji; and a pattern that finds the first of them (None when there is nothing to find)."""
    missing = _emoji() - code_points(font) - _INVISIBLE
    if not missing:
        return missing, "", None
    starts = sorted(missing | _AS_EMOJI)
    spans: list[list[int]] = []
    for char in starts:  # as ranges: a class of 1500 single characters is searched slowly
        if spans and spans[-1][1] == char - 1:
            spans[-1][1] = char
        else:
            spans.append([char, char])
    pattern = "".join(re.escape(chr(a)) + (f"-{re.escape(chr(b))}" if b > a else "") for a, b in spans)
    return missing, chr(starts[0]), re.compile(f"[{pattern}]")


def runs(text: str, font: str) -> list[tuple[str, bool]]:
    """`text` in runs, each with whether it is drawn in Noto Emoji (True) or in `font`: a
    character `font` lacks and Noto Emoji has, with what joins it (`_JOINERS`), and a character
    `font` has that is followed by the emoji selector or the keycap (1️⃣, ©️)."""
    missing = _lacking(font)[0]
    emoji = _emoji()
    found: list[tuple[str, bool]] = []
    chars = [ord(c) for c in text]
    for i, char in enumerate(chars):
        if char in _JOINERS and found and found[-1][1]:
            drawn_as_emoji = True
        else:
            following = chars[i + 1] if i + 1 < len(chars) else None
            drawn_as_emoji = char in missing or (char in emoji and following in _AS_EMOJI)
        if found and found[-1][1] == drawn_as_emoji:
            found[-1] = (found[-1][0] + chr(char), drawn_as_emoji)
        else:
            found.append((chr(char), drawn_as_emoji))
    return found


def _needs(label: Any, text: str) -> bool:
    font = label.options.get("font_name_r")
    if not font or font == str(FONT):
        return False
    _missing, lowest, pattern = _lacking(font)
    # Most texts have no character as high as the lowest emoji (U+2049 for Roboto): max() says so
    # at C speed, before the search.
    return pattern is not None and bool(text) and max(text) >= lowest and pattern.search(text) is not None


def _in_emoji_font(label: Any, call: Callable[..., Any], *args: object) -> Any:
    """`call(label, *args)` with the label's options set to Noto Emoji (its size, colour and
    outline kept): the provider opens and caches the font by those options."""
    options = label.options
    own = options["font_name_r"]
    options["font_name_r"] = str(FONT)
    try:
        return call(label, *args)
    finally:
        options["font_name_r"] = own


_installed: list[str] = []


def install() -> bool:
    """Give Kivy's SDL2 text provider the fallback to Noto Emoji (once). False, doing
    nothing, where the provider is another (`KIVY_TEXT=pil`) or the font is missing."""
    if _installed:
        return True
    from kivy.core.text import Label as CoreLabel
    from kivy.logger import Logger

    try:
        from kivy.core.text.text_sdl2 import LabelSDL2
    except ImportError:
        LabelSDL2 = None
    if LabelSDL2 is None or not issubclass(CoreLabel, LabelSDL2) or not _emoji():
        Logger.warning("Dartship: emoji draw as boxes (no SDL2 text provider or no %s)", FONT.name)
        return False
    extents, render, ascent_of = LabelSDL2.get_extents, LabelSDL2._render_text, LabelSDL2.get_ascent

    def get_extents(self: Any, text: str) -> tuple[int, int]:
        if not _needs(self, text):
            return extents(self, text)
        width = 0
        for run, as_emoji in runs(text, self.options["font_name_r"]):
            if as_emoji:
                width += _in_emoji_font(self, extents, run)[0]
            else:
                width += extents(self, run)[0]
        return width, extents(self, text)[1]

    def _render_text(self: Any, text: str, x: int, y: int) -> None:
        if not _needs(self, text):
            render(self, text, x, y)
            return
        ascent = ascent_of(self)
        for run, as_emoji in runs(text, self.options["font_name_r"]):
            if as_emoji:
                # On the label's baseline (Noto's ascent is Roboto's, but not every font's).
                lift = ascent - _in_emoji_font(self, ascent_of)
                _in_emoji_font(self, render, run, x, y + lift)
                x += _in_emoji_font(self, extents, run)[0]
            else:
                render(self, run, x, y)
                x += extents(self, run)[0]

    shorten = LabelSDL2.shorten

    def shorten_whole(self: Any, text: str, margin: int = 2) -> str:
        # Kivy cuts a too-long line at any code point: inside 👨‍👩‍👧 or 🇩🇪 too.
        shortened = shorten(self, text, margin)
        return shortened if shortened == text else _whole_shortening(text.replace("\n", " "), shortened)

    LabelSDL2.get_extents = get_extents
    LabelSDL2._render_text = _render_text
    LabelSDL2.shorten = shorten_whole
    _installed.append(str(FONT))
    return True
