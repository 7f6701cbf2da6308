"""A name too long for its line is shortened to "...", and never between the code points of one
emoji: a family (👨‍👩‍👧‍👦 is four emoji held by three zero-width joiners), a flag (🇩🇪 is two
regional letters), a skin tone, a keycap. Kivy's shortening cuts at any code point, so "Die
👨‍👩‍👧‍👦 Bande" in a narrow cell could read "Die 👨‍👩..." (a man and a woman, a joiner
dangling), and "🇩🇪🇫🇮 Nord" "🇩🇪🇫..." (a lone letter F in a box). `ui.touch.emoji` moves each
cut to the nearest place outside an emoji; the text-fit check (`ui.touch.fitting`) names a cut
emoji as a fault.
"""

from __future__ import annotations

import pytest

FAMILY = "👨\u200d👩\u200d👧\u200d👦"
NAMES = (
    f"Die {FAMILY} Bande vom Eck",
    "🇩🇪🇫🇮 Nordlichter Stammtisch",
    "Team 👍🏽👍🏽 und 1️⃣ Freund",
    f"{FAMILY}{FAMILY}{FAMILY}{FAMILY}",
)


def test_the_places_a_text_may_be_cut_keep_every_emoji_whole() -> None:
    from ui.touch.emoji import clusters

    assert clusters(f"a {FAMILY}!") == ["a", " ", FAMILY, "!"]
    assert clusters("🇩🇪🇫🇮x") == ["🇩🇪", "🇫🇮", "x"]
    assert clusters("👍🏽1️⃣") == ["👍🏽", "1️⃣"]
    scotland = "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
    assert clusters(f"{scotland}Jo") == [scotland, "J", "o"]


@pytest.mark.parametrize("side", ["right", "center", "left"])
def test_a_shortened_name_never_parts_an_emoji(tour, side: str) -> None:
    from kivy.uix.label import Label

    from ui.touch.emoji import clusters
    from ui.touch.fitting import label_faults, laid_out

    shortened = 0
    for name in NAMES:
        whole = set(clusters(name))
        for width in range(24, 460, 3):
            label = Label(text=name, font_size=30, shorten=True, shorten_from=side, text_size=(width, None))
            (line,) = laid_out(label)
            pieces = [p for p in clusters(line) if p != "."]
            assert all(p in whole for p in pieces), (name, side, width, line)
            assert not [p for p in label_faults(label) if "emoji" in p], (name, width, line)
            shortened += line != name
    assert shortened > 50  # the widths tried do shorten: the cuts were met


def test_the_check_names_an_emoji_cut_inside(tour) -> None:
    """The check itself can fail: a line that shows part of an emoji of the text is a fault."""
    from ui.touch.fitting import _emoji_cut

    assert _emoji_cut(NAMES[0], ["Die 👨\u200d👩\u200d..."])
    assert _emoji_cut(NAMES[1], ["🇩🇪🇫..."])
    assert not _emoji_cut(NAMES[0], ["Die ..."])
    assert not _emoji_cut(NAMES[0], [f"Die {FAMILY}..."])
