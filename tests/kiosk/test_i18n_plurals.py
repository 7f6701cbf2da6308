"""Plural forms through gettext's .po plural entries (msgid_plural, msgstr[n], Plural-Forms)."""

from __future__ import annotations

import pytest

from kiosk import i18n
from kiosk.i18n import ngettext, read_catalog, set_language, translator
from ui import translations


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


def test_a_po_file_with_plural_entries_and_its_own_rule(tmp_path):
    po = tmp_path / "x.po"
    # Three forms with a Slavic-like rule: the header's rule is the one used, not ours.
    po.write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 ? 1 : 2);\\n"\n\n'
        'msgid "{n} dart"\nmsgid_plural "{n} darts"\n'
        'msgstr[0] "{n} lotka"\nmsgstr[1] "{n} lotki"\nmsgstr[2] "{n} lotek"\n\n'
        'msgid "Home"\nmsgstr "Dom"\n',
        encoding="utf-8",
    )
    found = read_catalog(po)
    assert found.messages == {"Home": "Dom"}
    assert found.plurals == {"{n} dart": ("{n} lotka", "{n} lotki", "{n} lotek")}
    words = i18n._PoTranslations(found)
    assert [words.ngettext("{n} dart", "{n} darts", n) for n in (1, 3, 5, 22)] == [
        "{n} lotka",
        "{n} lotki",
        "{n} lotek",
        "{n} lotki",
    ]
    assert words.ngettext("{n} ship", "{n} ships", 1) == "{n} ship"  # untranslated: English


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        ("en", "1 point to win", "2 points to win"),
        ("de", "1 Punkt zum Sieg", "2 Punkte zum Sieg"),
        ("fi", "1 piste voittoon", "2 pistettä voittoon"),
    ],
)
def test_the_kiosk_counts_in_each_language(language, one, two):
    set_language(language)
    said = [ngettext("{n} point to win", "{n} points to win", n).format(n=n) for n in (1, 2)]
    assert said == [one, two]
    assert translator(language).ngettext("{rolls} roll", "{rolls} rolls", 1) != "{rolls} rolls"


def test_the_translation_check_knows_plural_messages(tmp_path):
    source = tmp_path / "screen.py"
    source.write_text(
        'label = ngettext("{n} ship", "{n} ships", n)\n'
        'other = ngettext("{n} point to win", "{n} points to win", n)\n'
    )
    assert translations.plural_msgids([tmp_path]) == {
        ("{n} ship", "{n} ships"),
        ("{n} point to win", "{n} points to win"),
    }
    # The catalogs have the second in every form, not the first.
    assert translations.missing("de", [tmp_path]) == ["{n} ship"]
    entry = translations.plural_po_entry("{n} ship", "{n} ships", ("", ""))
    assert 'msgid_plural "{n} ships"' in entry and 'msgstr[1] ""' in entry


def test_every_plural_message_of_the_kiosk_is_translated():
    for language in ("de", "fi"):
        assert translations.missing(language) == [], language
    assert ("{n} point to win", "{n} points to win") in translations.plural_msgids()
