"""A message said again in another language (kiosk.i18n: `Said`, `said_json`, `said_again`) and
the reasons a kiosk keeps (kiosk/league/reasons.py): what travels is only what the text shows,
only our own messages are said again, and anything else falls back to the text as first said."""

from __future__ import annotations

import json

from kiosk.errors import CellError
from kiosk.i18n import _, joined, recording, said_again, said_json, said_of, speaking
from kiosk.league import reasons


def test_a_message_said_in_german_is_said_again_in_finnish_and_english():
    with speaking("de"), recording():
        inner = CellError(
            _("{token!r} is not a cell (try T20, L5, S11, D3, BULL or MISS)").format(token="Q9")
        )
        message = _("command {number} cannot be read: {error}").format(number=4, error=inner)
    assert (
        message == "Befehl 4 ist nicht lesbar: 'Q9' ist kein Feld (versuche T20, L5, S11, D3, BULL oder MISS)"
    )
    kept = json.loads(json.dumps(said_json(message)))  # as it travels and is kept
    with speaking("fi"):
        assert said_again(kept) == (
            "komentoa 4 ei voi lukea: 'Q9' ei ole lohko (kokeile T20, L5, S11, D3, BULL tai MISS)"
        )
    with speaking("en"):
        assert (
            said_again(kept)
            == "command 4 cannot be read: 'Q9' is not a cell (try T20, L5, S11, D3, BULL or MISS)"
        )


def test_only_the_values_a_message_shows_travel_with_it():
    with recording():
        message = _("{token!r} is not a cell (try T20, L5, S11, D3, BULL or MISS)").format(
            token="Q9", fleet="T20-T1-T18", secret="hidden"
        )
    said = said_json(message)
    assert said is not None and said["params"] == {"token": "Q9"}
    assert "T20-T1-T18" not in json.dumps(said) and "hidden" not in json.dumps(said)


def test_not_recording_is_plain_text_and_an_exception_keeps_its_said_message():
    plain = _("the report is not JSON")
    assert type(plain) is str and said_json(plain) is None
    with recording():
        err = ValueError(_("the report is not JSON"))
    assert said_json(said_of(err)) == {
        "msgid": "the report is not JSON",
        "params": {},
        "text": "the report is not JSON",
    }
    assert said_of(KeyError("cell")) == "'cell'"  # Python's own words, as written


def test_joined_problems_are_each_said_again():
    with speaking("de"), recording():
        problems = [
            _("the winner: the report says {claimed}, the replay gives {replayed}").format(
                claimed=1, replayed=0
            ),
            "a text as written",
        ]
        message = _("the result is not what the log gives: {problems}").format(problems=joined(problems))
    with speaking("en"):
        assert said_again(said_json(message)) == (
            "the result is not what the log gives: the winner: the report says 1, the replay gives 0; "
            "a text as written"
        )


def test_what_is_not_ours_is_not_said_again():
    assert said_again({"msgid": "{x.__class__.__mro__}", "params": {"x": "a"}, "text": "t"}) is None
    assert said_again({"msgid": "a message of a newer hub", "params": {}, "text": "t"}) is None
    known = "command {number} cannot be read: {error}"
    assert said_again({"msgid": known, "params": {"number": 1, "error": {"nested": []}}}) is None
    assert said_again({"msgid": known, "params": {"number": [1], "error": "x"}}) is None
    assert said_again({"msgid": known, "params": {"number": 1}}) is None  # a field without its value
    deep: dict = {"msgid": known, "params": {"number": 1, "error": "end"}, "text": "deep"}
    for _n in range(10):
        deep = {"msgid": known, "params": {"number": 1, "error": deep}}
    assert said_again(deep) is None  # too deep to say again, and no text to fall back on
    assert said_again("not a said message") is None


def test_a_kept_reason_is_told_in_the_kiosk_s_language_of_the_moment():
    with speaking("de"), recording():
        kept = reasons.keep(_("not sent: the kiosk left the league"))
    with speaking("en"):
        assert reasons.told(kept) == "not sent: the kiosk left the league"
    with speaking("de"):
        assert reasons.told(kept) == "nicht gesendet: der Kiosk hat die Liga verlassen"
    assert reasons.told("HTTP 422: kept as plain text by an older kiosk") == (
        "HTTP 422: kept as plain text by an older kiosk"
    )
    newer = json.dumps({"error": "ein Grund eines neueren Hubs", "code": "x", "said": {"msgid": "new"}})
    assert reasons.told(reasons.of_hub(422, newer)) == "HTTP 422: ein Grund eines neueren Hubs"
    assert (
        reasons.told(reasons.of_hub(502, "<html>Bad Gateway</html>")) == "HTTP 502: <html>Bad Gateway</html>"
    )
    assert reasons.told(None) is None


def test_a_said_message_is_copied_and_pickled_as_it_was_made():
    """A phone's name or refusal made while recording goes through dataclasses.asdict and
    copy.deepcopy (str subclasses are copied through __reduce__) as the same message."""
    import copy
    import pickle

    with speaking("de"), recording():
        said = _("{square} has already been fired at: choose another square").format(square="B7")
        both = joined([_("Carrier"), "A1-A5"], " ")
    for again in (copy.deepcopy(said), pickle.loads(pickle.dumps(said))):
        assert again == said and said_json(again) == said_json(said)
    assert said_json(copy.deepcopy(both)) == said_json(both)


def test_a_message_said_as_written_keeps_its_braces():
    """A message never formatted (`_('send {"cell": "B7"}')`) has braces of its own: said
    again as written, in the other language."""
    with speaking("fi"), recording():
        written = _('send {"cell": "B7"}')
    with speaking("de"):
        again = said_again(said_json(written))
        assert again == _('send {"cell": "B7"}') and again != str(written)


def test_a_joined_messages_separator_of_ours_is_said_again():
    """ "Sharks v Jets" on a Finnish kiosk is "Sharks – Jets"; said again in German, "Sharks
    gegen Jets" (the separator is a message of ours, not punctuation)."""
    with speaking("fi"), recording():
        sides = joined(["Sharks", "Jets"], _(" v "))
    with speaking("de"):
        assert said_again(said_json(sides)) == "Sharks" + _(" v ") + "Jets" != str(sides)
