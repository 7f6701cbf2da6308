"""The caller says a team's name without its emoji (espeak-ng would read them aloud)."""

from __future__ import annotations

from kiosk.speech import as_said, name, template


def test_a_name_is_said_without_its_emoji() -> None:
    assert as_said("🎯 Jets") == "Jets"
    assert as_said("Die 🍺 Brüder") == "Die Brüder"
    assert as_said("👍🏽 Team 1️⃣ 👨\u200d👩\u200d👧") == "Team 1"
    assert as_said("Jäger 2") == "Jäger 2"  # letters, digits and accents are said as before
    assert name("🎯 Jets").text == "Jets" and name("🎯 Jets").phrase == "name-jets"


def test_a_name_of_emoji_only_is_left_out_of_the_call() -> None:
    assert [w.text for w in template("to-throw", "{team} to throw", team="🎯 Jets")] == ["Jets", "to throw"]
    assert [w.text for w in template("to-throw", "{team} to throw", team="🎯🍺")] == ["to throw"]
