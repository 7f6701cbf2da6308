"""What is kept of a name as typed (kiosk.names.clean_name): emoji sequences stay whole."""

from __future__ import annotations

from kiosk.names import clean_name

FAMILY = "👨\u200d👩\u200d👧"
RAINBOW_FLAG = "🏳\ufe0f\u200d🌈"
SCOTLAND = "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"


def test_emoji_sequences_keep_their_joiners_and_tags() -> None:
    assert clean_name(f"{FAMILY} Jets") == f"{FAMILY} Jets"
    assert clean_name(f"Die {RAINBOW_FLAG} Brüder") == f"Die {RAINBOW_FLAG} Brüder"
    assert clean_name(f"{SCOTLAND} Jets") == f"{SCOTLAND} Jets"
    assert clean_name("👍🏽 Jets") == "👍🏽 Jets"


def test_joiners_and_tags_outside_a_sequence_are_dropped() -> None:
    assert clean_name("Je\u200dts") == "Jets"  # between letters: no sequence
    assert clean_name("\u200d🎯\u200d") == "🎯"  # at the ends: nothing to join
    assert clean_name("Jets\U000e0067") == "Jets"  # a tag after no black flag
    assert clean_name("\u200d\U000e0067") is None  # nothing visible
    assert clean_name("Anna\u200b\u2060") == "Anna"  # other format characters, as before
