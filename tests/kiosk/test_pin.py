"""The Settings PIN's guard: five wrong PINs lock, one more a minute, and neither a restart nor
a clock set back gives new tries."""

from __future__ import annotations

from kiosk.pin import SECONDS_PER_TRY, TRIES, PinGuard
from kiosk.store import Store


def test_the_lock_outlives_a_restart(tmp_path):
    now = [1_000_000.0]
    store = Store(tmp_path / "k.db")
    guard = PinGuard(store, clock=lambda: now[0])
    for _ in range(TRIES):
        assert not guard.check("0000", "1234")
    assert guard.locked_for() > 0
    store.close()
    again = PinGuard(Store(tmp_path / "k.db"), clock=lambda: now[0])  # the plug was pulled
    assert abs(again.locked_for() - SECONDS_PER_TRY) < 1
    now[0] += SECONDS_PER_TRY
    assert again.locked_for() == 0
    assert not again.check("0000", "1234")  # one try a minute, still
    assert again.locked_for() > 0
    now[0] += SECONDS_PER_TRY
    assert again.check("1234", "1234")  # the right PIN resets the count
    assert PinGuard(again.store, clock=lambda: now[0]).tries.level == TRIES


def test_a_clock_set_back_never_shortens_a_lock(tmp_path):
    now = [1_000_000.0]
    store = Store(tmp_path / "k.db")
    guard = PinGuard(store, clock=lambda: now[0])
    for _ in range(TRIES):
        guard.check("0000", "1234")
    now[0] -= 3600  # someone sets the clock back an hour
    assert guard.locked_for() > 0
    assert PinGuard(store, clock=lambda: now[0]).locked_for() > 0


def test_an_unreadable_count_starts_afresh(tmp_path):
    store = Store(tmp_path / "k.db")
    store.meta.remember("pin_lock", "{not json")
    guard = PinGuard(store)
    assert guard.locked_for() == 0 and guard.tries.level == TRIES


def test_the_lock_s_journal_line_is_in_the_kiosk_s_language(tmp_path, caplog):
    """A Finnish bar's journal says the keypad locked in Finnish, as the kiosk's other lines
    do: before, the PIN's lines were English whatever the language."""
    import logging

    from kiosk.i18n import catalog, language, set_language

    before = language()
    set_language("fi")
    try:
        guard = PinGuard(Store(tmp_path / "k.db"), clock=lambda: 1_000_000.0)
        with caplog.at_level(logging.WARNING, logger="dartship.pin"):
            for _ in range(TRIES):
                guard.check("0000", "1234")
    finally:
        set_language(before)
    finnish = catalog("fi")["Settings PIN: %d wrong tries, keypad locked"] % TRIES
    assert finnish in caplog.messages
