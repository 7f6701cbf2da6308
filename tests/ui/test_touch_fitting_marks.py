"""The shared fitting rule for marks (ui/touch/fitting.py): an ellipsis (or ! ? : ;) wrapped
onto a line of its own is a fault, found on any label; `marks_kept` holds it to its word, and
every Caption (prompts included) applies it to what it is given.

Each test takes the session's `tour`: its kiosk configures Kivy's window before any label is
made here (a label made first would open it at Kivy's default 800x600 for the whole session).
"""

from __future__ import annotations

import pytest

TEXT = "Computer 4 attacks …"


def _orphaning_width() -> float:
    """A width at which plain wrapping leaves the "…" alone (found, not assumed)."""
    from kivy.uix.label import Label

    from ui.touch.fitting import laid_out

    for width in range(120, 400, 2):
        label = Label(text=TEXT, font_size=21, bold=True, text_size=(width, None))
        if laid_out(label)[-1] == "…":
            return float(width)
    pytest.fail("no width leaves the ellipsis alone")


def test_a_mark_alone_on_its_line_is_a_fault_and_marks_kept_mends_it(tour) -> None:
    from kivy.uix.label import Label

    from ui.touch.fitting import label_faults, laid_out, marks_kept

    width = _orphaning_width()
    alone = Label(text=TEXT, font_size=21, bold=True, text_size=(width, None), size=(width, 200))
    assert any("a mark alone on its line" in problem for problem in label_faults(alone))
    kept = Label(text=marks_kept(TEXT), font_size=21, bold=True, text_size=(width, None), size=(width, 200))
    assert laid_out(kept)[-1].endswith("\u00a0…") and laid_out(kept)[-1] != "\u00a0…"
    assert label_faults(kept) == []


def test_marks_kept_holds_only_a_spaced_mark_to_its_word(tour) -> None:
    from ui.touch.fitting import marks_kept

    assert marks_kept("Bo attacks …") == "Bo attacks\u00a0…"
    assert marks_kept("Wer war näher dran?") == "Wer war näher dran?"
    assert marks_kept("is thinking … now") == "is thinking\u00a0… now"
    assert marks_kept("Computer: normal") == "Computer: normal"


def test_a_prompt_keeps_its_ellipsis_with_its_word_when_it_wraps(tour) -> None:
    from ui.touch.controls import Prompt
    from ui.touch.fitting import laid_out

    width = _orphaning_width()
    prompt = Prompt(font_units=21, size_hint_x=None, width=width)
    prompt.text = TEXT
    prompt.text_size = (width, None)
    assert prompt.text == "Computer 4 attacks\u00a0…"
    assert laid_out(prompt)[-1] != "…" and laid_out(prompt)[-1].endswith("…")
