"""Does every text on the screen fit? The check `dartship screenshots --check` and the tests run
on every screen of every game, in every language and size: a word broken inside ("Rückgängi" /
"g"), a text cut short (an ellipsis, lines dropped), a text wider or taller than its widget, or
one that runs off the window.

It reads what Kivy laid out (each label's lines, as its text layout wrapped them), not a picture
of our own of it, so what it passes is what the screen draws.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from kiosk.i18n import _
from ui.touch.emoji import clusters

_TAG = re.compile(r"\[/?[a-z_]+(?:=[^\]]*)?\]")
Box = tuple[float, float, float, float]  # left, bottom, right, top
_ENTITIES = (("&bl;", "["), ("&br;", "]"), ("&amp;", "&"))
SLACK = 1.0  # px: Kivy rounds positions and texture sizes to whole pixels
# Marks that belong to the word before them: "attacks …", "wins!", "Wer war näher dran?".
_MARKS = "…!?:;"
_SPACED_MARKS = re.compile(rf" +([{_MARKS}]+)(?=\s|$)")
NO_BREAK = "\u00a0"


def marks_kept(text: str) -> str:
    """`text` with every mark that follows a space (an ellipsis, ! ? : ;) held to the word
    before it by a no-break space, so that wrapping never puts it on a line of its own
    ("Computer 4 attacks" / "…"): Kivy's layout breaks lines at plain spaces only."""
    return _SPACED_MARKS.sub(lambda found: NO_BREAK + found.group(1), text)


def _emoji_cut(wanted: str, lines: list[str]) -> bool:
    """Whether the lines show part of an emoji of `wanted` (Kivy's shortening cut a family
    👨‍👩‍👧 after its first code points, or a flag 🇩🇪 between its two: `emoji.cuts`)."""
    whole_ones = set(clusters(wanted)) | {".", "…", " ", NO_BREAK}  # Kivy's "..." besides
    return any(piece not in whole_ones for line in lines for piece in clusters(line))


def _mark_alone(lines: list[str]) -> list[str]:
    """The lines after the first that hold marks and nothing else."""
    return [line for line in lines[1:] if line.strip() and not line.strip().strip(_MARKS)]


@dataclass(frozen=True)
class Fault:
    """One text that does not fit: what it says, where, and how it fails."""

    text: str
    widget: str
    problem: str

    def __str__(self) -> str:
        return f"{self.widget} {self.text!r}: {self.problem}"


def plain_text(text: str, markup: bool) -> str:
    """The words a text shows (with `markup`, its tags taken out)."""
    if not markup:
        return text
    text = _TAG.sub("", text)
    for entity, char in _ENTITIES:
        text = text.replace(entity, char)
    return text


def plain(label: Label) -> str:
    """The words a label is to show."""
    return plain_text(str(label.text), bool(label.markup))


def whole(wanted: str, lines: list[str]) -> bool:
    """Whether `lines`, as laid out, show the words of `wanted`, every one whole and none cut."""
    return " ".join(lines).split() == wanted.split()


def rows(core: object) -> tuple[list[str], float]:
    """A core label's lines as Kivy's text layout made them (after wrapping, shortening,
    max_lines), and how tall they are together."""
    lines = getattr(core, "_cached_lines", None) or []
    return ["".join(word.text for word in line.words) for line in lines], float(sum(line.h for line in lines))


def laid_out(label: Label) -> list[str]:
    """The lines as Kivy's text layout made them (after wrapping, shortening, max_lines)."""
    label.texture_update()
    return rows(label._label)[0]


def label_faults(label: Label, window: tuple[float, float] | None = None) -> list[str]:
    """How `label` fails to fit (nothing when it fits). `window`: the window's size, to check
    that the text stays on it (not for a label inside a ScrollView, which clips on purpose)."""
    text = plain(label)
    if not text.strip():
        return []
    lines = laid_out(label)
    wanted, shown = text.split(), " ".join(lines).split()
    problems = []
    if not whole(text, lines):
        if "".join(shown) == "".join(wanted):
            broken = [line for line in lines if line.split() and line.split()[-1] not in wanted]
            problems.append(_("a word broken inside ({lines})").format(lines=" | ".join(broken or lines)))
        else:
            problems.append(_("cut: shows '{text}'").format(text=" / ".join(lines)))
    if _emoji_cut(text, lines):
        problems.append(_("an emoji cut inside ({lines})").format(lines=" | ".join(lines)))
    alone = _mark_alone(lines)
    if alone:
        problems.append(_("a mark alone on its line ({lines})").format(lines=" | ".join(lines)))
    laid = _laid_height(label)
    if laid is not None and laid > label.height + SLACK:
        # A label with a height for its text draws only that much of it: lines taller than
        # it lose their tops and bottoms (a title of two lines in the room of one).
        problems.append(
            _("drawn beyond its widget: text {text}, widget {widget} px").format(
                text=f"{label.width:.0f}x{laid:.0f}", widget=f"{label.width:.0f}x{label.height:.0f}"
            )
        )
    box = _drawn(label)
    if box is None:
        return problems
    inked = _ink(label, box)
    if inked is not None and not _inside(inked, label):
        problems.append(
            _("drawn beyond its widget: text {text}, widget {widget} px").format(
                text=f"{inked[2] - inked[0]:.0f}x{inked[3] - inked[1]:.0f}",
                widget=f"{label.width:.0f}x{label.height:.0f}",
            )
        )
    if window is not None and inked is not None:
        x0, y0 = label.to_window(inked[0], inked[1])
        x1, y1 = label.to_window(inked[2], inked[3])
        if x0 < -SLACK or y0 < -SLACK or x1 > window[0] + SLACK or y1 > window[1] + SLACK:
            problems.append(
                _("off the window at {box}").format(box=f"({x0:.0f}, {y0:.0f})-({x1:.0f}, {y1:.0f})")
            )
    return problems


def _laid_height(label: Label) -> float | None:
    """How tall the lines Kivy laid out are, for a label whose text has a height of its own
    (`text_size`: its texture is then that tall, whatever the lines need); None otherwise."""
    if label.text_size[1] is None:
        return None
    padding = label.padding[1] + label.padding[3] if len(label.padding) == 4 else 0
    return rows(label._label)[1] + padding


def _drawn(label: Label) -> Box | None:
    """Where Kivy's Label draws its texture (its canvas: centred on the widget, whole pixels),
    in the widget's parent's coordinates."""
    if label.texture is None:
        return None
    tw, th = label.texture_size
    x, y = int(label.center_x - tw / 2.0), int(label.center_y - th / 2.0)
    return (x, y, x + tw, y + th)


def _ink(label: Label, box: Box) -> Box | None:
    """The part of the drawn texture that has ink (a glyph's box has room above and below the
    letters: a texture a little taller than its widget shows nothing outside it)."""
    if _inside(box, label):
        return box  # inside anyway: no need to read the pixels
    return _read_ink(label, box)


def _read_ink(label: Label, box: Box) -> Box | None:
    left, bottom, right, top = box
    texture = label.texture
    width, height = texture.size
    alpha = texture.pixels[3::4]
    rows = [i for i in range(height) if alpha[i * width : (i + 1) * width].strip(b"\x00")]
    if not rows:
        return None
    columns = [alpha[i * width : (i + 1) * width] for i in rows]
    first = min(len(row) - len(row.lstrip(b"\x00")) for row in columns)
    last = max(len(row.rstrip(b"\x00")) for row in columns)
    coords = texture.tex_coords
    flipped = coords[1] > coords[5]  # a text's texture is stored top row first
    low, high = (height - 1 - rows[-1], height - 1 - rows[0]) if flipped else (rows[0], rows[-1])
    sx, sy = (right - left) / width, (top - bottom) / height
    return (left + first * sx, bottom + low * sy, left + last * sx, bottom + (high + 1) * sy)


def ink(label: Label) -> Box | None:
    """Where `label`'s drawn text has ink (its glyphs, not their boxes), in its parent's
    coordinates; None when it draws nothing."""
    label.texture_update()
    box = _drawn(label)
    return None if box is None else _read_ink(label, box)


def _inside(box: Box, label: Label) -> bool:
    left, bottom, right, top = box
    return (
        left >= label.x - SLACK
        and bottom >= label.y - SLACK
        and right <= label.right + SLACK
        and top <= label.top + SLACK
    )


def _shown(root: Widget) -> Iterator[tuple[Widget, bool]]:
    """Every widget drawn under `root` (not the transparent ones), and whether a ScrollView
    clips it."""
    stack: list[tuple[Widget, bool]] = [(root, False)]
    while stack:
        widget, clipped = stack.pop()
        if widget.opacity <= 0:
            continue
        yield widget, clipped
        inner = clipped or isinstance(widget, ScrollView)
        stack.extend((child, inner) for child in widget.children)


def faults(root: Widget | None = None) -> list[Fault]:
    """Every text that does not fit on the window (its screen and any popup open over it)."""
    from kivy.core.window import Window

    roots = [root] if root is not None else list(Window.children)
    size = (float(Window.width), float(Window.height))
    found = []
    for top in roots:
        for widget, clipped in _shown(top):
            if not isinstance(widget, Label) or widget.width <= 1 or widget.height <= 1:
                continue
            for problem in label_faults(widget, None if clipped else size):
                found.append(Fault(plain(widget), type(widget).__name__, problem))
    return found
