"""Every string of kiosk/, hardware/, ui/touch/ and ui/handheld/ has a German and a Finnish translation."""

from __future__ import annotations

import re

import pytest

from kiosk.i18n import catalog
from ui.translations import msgids

PLACEHOLDER = re.compile(r"\{[^{}]*\}")


@pytest.mark.parametrize("language", ["de", "fi"])
def test_every_msgid_is_translated(language: str) -> None:
    known = catalog(language)
    missing = sorted(m for m in msgids() if not known.get(m))
    assert not missing, f"{language} lacks: {missing[:10]} (run python -m ui.translations --template)"


@pytest.mark.parametrize("language", ["de", "fi"])
def test_translations_keep_their_placeholders(language: str) -> None:
    known = catalog(language)
    for msgid, msgstr in known.items():
        assert sorted(PLACEHOLDER.findall(msgid)) == sorted(PLACEHOLDER.findall(msgstr)), msgid
