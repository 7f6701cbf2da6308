"""The store's drafts (`Store.drafts`): a game set up but not started survives the database
being opened again (a kill -9 between), is put away by name or all at once, and a broken one
is refused in words without touching anything else kept in the meta table."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.store import DraftError, Store


def test_a_kept_draft_is_there_when_the_database_is_opened_again(tmp_path: Path) -> None:
    store = Store(tmp_path / "kiosk.db")
    assert store.drafts.kept("express.lineup") is None
    store.drafts.keep("express.lineup", {"lines": [["Carrier"], None], "n": 1})
    store.drafts.keep("express.lineup", {"lines": [["Destroyer"], None], "n": 2})  # a swap
    store.drafts.keep("other", {"x": 1})
    # no close(): the file as a kill -9 leaves it
    again = Store(tmp_path / "kiosk.db")
    assert again.drafts.kept("express.lineup") == {"lines": [["Destroyer"], None], "n": 2}
    assert again.drafts.names() == ["express.lineup", "other"]
    again.drafts.put_away("express.lineup")
    assert again.drafts.kept("express.lineup") is None and again.drafts.kept("other") == {"x": 1}
    again.drafts.put_away()
    assert again.drafts.names() == []
    store.close()
    again.close()


@pytest.mark.parametrize("value", ["{not json", "[1, 2]", '"a line-up"', "null"])
def test_a_broken_draft_is_refused_in_words_and_nothing_else_is_lost(tmp_path: Path, value: str) -> None:
    store = Store(tmp_path / "kiosk.db")
    store.meta.remember("pin", "kept")
    store.drafts.keep("express.lineup", {"ok": True})
    store.db.execute("UPDATE meta SET value=? WHERE key='draft.express.lineup'", [value])
    with pytest.raises(DraftError, match="not readable"):
        store.drafts.kept("express.lineup")
    assert store.meta.recall("pin") == "kept"
    store.drafts.put_away("express.lineup")
    assert store.drafts.kept("express.lineup") is None and store.meta.recall("pin") == "kept"
    store.close()
