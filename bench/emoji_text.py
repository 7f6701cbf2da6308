"""What the emoji fallback (ui/touch/emoji.py) costs: time and memory. Figures only, never a test.

    python bench/emoji_text.py [--rounds 2000]

In one process with SDL's offscreen window: the fallback's installation (reading the character
maps of Noto Emoji and Roboto), then the provider's `get_extents` and a label's whole `refresh`
(layout and drawing into a texture), per call, for a name without emoji before and after the
fallback is installed (its fast path) and for a name with emoji after; the RSS before and after
the first emoji text at the sizes the kiosk uses (SDL2_ttf opens Noto Emoji once per size).
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")

PLAIN, EMOJI = "Die Bier Brüder", "Die 🍺 Brüder"
SIZES = (12.5, 18, 20, 22, 26, 28, 30, 34, 44, 56)


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        line = next(x for x in status if x.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024


def per_call(work: Callable[[], object], rounds: int) -> float:
    """Microseconds per call, the best of three runs of `rounds` calls."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(rounds):
            work()
        best = min(best, (time.perf_counter() - start) / rounds)
    return best * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    rounds = parser.parse_args().rounds
    from kivy.core.text import Label as CoreLabel
    from kivy.core.window import Window

    assert Window is not None  # the window's GL context holds the textures

    from ui.touch import emoji

    core = CoreLabel(font_size=26)
    core.resolve_font_name()

    def refresh(text: str) -> Callable[[], object]:
        label = CoreLabel(text=text, font_size=26)
        return label.refresh

    figures = {
        "get_extents, no emoji, before": per_call(lambda: core.get_extents(PLAIN), rounds),
        "refresh, no emoji, before": per_call(refresh(PLAIN), rounds // 10),
    }
    start = time.perf_counter()
    assert emoji.install()
    core.get_extents(EMOJI)  # the character maps are read at the first text that needs them
    install_ms = (time.perf_counter() - start) * 1000
    figures["get_extents, no emoji, after"] = per_call(lambda: core.get_extents(PLAIN), rounds)
    figures["get_extents, emoji, after"] = per_call(lambda: core.get_extents(EMOJI), rounds)
    figures["refresh, no emoji, after"] = per_call(refresh(PLAIN), rounds // 10)
    figures["refresh, emoji, after"] = per_call(refresh(EMOJI), rounds // 10)
    before = rss_mb()
    for size in SIZES:
        CoreLabel(text=EMOJI, font_size=size).refresh()
    after = rss_mb()
    print(f"install and the first emoji text (character maps read): {install_ms:.1f} ms")
    for name, micros in figures.items():
        print(f"{name:34s} {micros:8.1f} µs per call")
    print(f"RSS before the emoji at {len(SIZES)} sizes: {before:.1f} MB, after: {after:.1f} MB")
    print(f"the font file: {emoji.FONT.stat().st_size / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
