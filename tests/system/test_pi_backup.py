"""`dartship backup`: SQLite's online backup of a real store, rotation, refusals."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from kiosk.app import backup as backup_module
from kiosk.app.backup import BackupError, backup, backups, rotate
from kiosk.darts.kind import DARTS
from kiosk.darts.match import Setup, Team
from kiosk.store import Store

SETUP = Setup((Team("Sharks", ("Ann",)), Team("Jets", ("Bob",))))
T0 = datetime(2026, 3, 1, 6, 0, tzinfo=UTC)


@pytest.fixture
def store(tmp_path: Path):
    s = Store(tmp_path / "dartship.db")
    s.games.new_game(DARTS, SETUP)
    yield s
    s.close()


def test_copy_is_a_dartship_database_with_the_games(store: Store, tmp_path: Path) -> None:
    result = backup(store.path, tmp_path / "backups", keep=3, now=T0)
    assert result.copy == tmp_path / "backups" / "dartship-20260301-060000.db"
    assert result.removed == ()
    copy = Store(result.copy)
    try:
        assert copy.games.unfinished() == store.games.unfinished()
        assert copy.games.setup(copy.games.unfinished()) == SETUP
    finally:
        copy.close()


def test_copy_made_while_the_kiosk_holds_the_database_open_sees_committed_games(
    store: Store, tmp_path: Path
) -> None:
    store.games.new_game(DARTS, SETUP)  # committed in WAL, not yet checkpointed into the main file
    result = backup(store.path, tmp_path / "b", now=T0)
    conn = sqlite3.connect(result.copy)
    try:
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 2
    finally:
        conn.close()


def test_rotation_keeps_the_newest(store: Store, tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    made = [backup(store.path, folder, keep=3, now=T0 + timedelta(days=d)).copy for d in range(5)]
    assert backups(folder) == made[-3:]
    assert not made[0].exists() and not made[1].exists()


def test_same_second_copies_get_a_counter_and_keep_their_order(store: Store, tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    first = backup(store.path, folder, keep=5, now=T0).copy
    second = backup(store.path, folder, keep=5, now=T0).copy
    third = backup(store.path, folder, keep=2, now=T0)
    assert second.name == "dartship-20260301-060000-1.db"
    assert third.removed == (first,)
    assert backups(folder) == [second, third.copy]


def test_rotation_never_touches_other_files(tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    for name in ("notes.txt", "dartship.db", "dartship-2026.db", "dartship-20260101-000000.db.bak"):
        (folder / name).write_text("mine")
    old = folder / "dartship-20250101-000000.db"
    new = folder / "dartship-20260101-000000.db"
    old.write_text("x")
    new.write_text("y")
    assert rotate(folder, 1) == (old,)
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        ["notes.txt", "dartship.db", "dartship-2026.db", "dartship-20260101-000000.db.bak", new.name]
    )


def test_keep_must_be_positive(store: Store, tmp_path: Path) -> None:
    with pytest.raises(BackupError, match="--keep"):
        backup(store.path, tmp_path / "b", keep=0)


def test_a_foreign_file_is_not_copied(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE t(x)")
    conn.commit()
    conn.close()
    with pytest.raises(BackupError, match="not a Dartship database"):
        backup(other, tmp_path / "b")
    assert not (tmp_path / "b").exists() or backups(tmp_path / "b") == []


def test_root_is_sent_to_the_owner(store: Store, tmp_path: Path) -> None:
    if store.path.stat().st_uid == 0:
        pytest.skip("the test database is owned by root here: nothing to refuse")
    with pytest.raises(BackupError, match="sudo -u"):
        backup(store.path, tmp_path / "b", euid=0)


def test_root_owned_database_may_be_copied_by_root(store: Store, tmp_path: Path) -> None:
    if store.path.stat().st_uid != 0:
        pytest.skip("needs a root-owned file")
    assert backup(store.path, tmp_path / "b", euid=0).copy.exists()


def test_command_line(store: Store, tmp_path: Path, capsys) -> None:
    dest = tmp_path / "usb"
    assert backup_module.main(["--db", str(store.path), "--dest", str(dest), "--keep", "1"]) == 0
    assert backup_module.main(["--db", str(store.path), "--dest", str(dest), "--keep", "1"]) == 0
    out = capsys.readouterr().out
    assert "backed up" in out and "removed old backup" in out
    assert len(backups(dest)) == 1


def test_command_line_default_dest_is_next_to_the_database(store: Store, tmp_path: Path) -> None:
    assert backup_module.main(["--db", str(store.path)]) == 0
    assert len(backups(tmp_path / "backups")) == 1


def test_command_line_without_a_database_is_not_an_error(tmp_path: Path, capsys) -> None:
    assert backup_module.main(["--db", str(tmp_path / "none.db"), "--dest", str(tmp_path / "b")]) == 0
    assert "nothing to back up" in capsys.readouterr().out


def test_command_line_through_dartship(store: Store, tmp_path: Path) -> None:
    from kiosk.app.cli import main

    assert main(["backup", "--db", str(store.path), "--dest", str(tmp_path / "c")]) == 0
    assert len(backups(tmp_path / "c")) == 1


def test_a_full_disk_drops_the_copies_keep_would_drop_and_a_read_only_one_is_said(
    store: Store, tmp_path: Path, capsys
) -> None:
    """A USB stick with room for --keep copies and no more: every later backup still makes its
    copy (the oldest, which --keep deletes after it anyway, goes first; before, every backup
    failed from then on with "database or disk is full" and the newest copy aged). Without such
    a copy, the message says what is free and what a copy needs, and leaves nothing behind. A
    stick mounted read-only is said as such: before, removing the partial copy raised on the
    read-only disk and the command ended in a traceback."""
    from tests.small_disk import remount, small_disk

    size = backup(store.path, tmp_path / "measure", now=T0).copy.stat().st_size
    room = 2 * size + max(size // 2, 64 * 1024)
    with small_disk(tmp_path / "usb", f"{room // 4096 * 4096 + 4096}") as usb:
        made = [backup(store.path, usb, keep=2, now=T0 + timedelta(days=d)).copy for d in range(4)]
        assert backups(usb) == made[-2:] and sorted(p.name for p in usb.iterdir()) == [
            m.name for m in made[-2:]
        ]
        with pytest.raises(BackupError) as full:
            backup(store.path, usb, keep=3, now=T0 + timedelta(days=9))
        assert f"{usb} is full" in str(full.value) and "--keep" in str(full.value)
        assert sorted(usb.iterdir()) == made[-2:]  # no partial file, no -wal, no -shm
        remount(usb, "ro")
        try:
            dest = ["--db", str(store.path), "--dest", str(usb), "--keep", "2"]
            assert backup_module.main(dest) == 1
            err = capsys.readouterr().err
            assert "may not write here" in err and "Traceback" not in err
        finally:
            remount(usb, "rw")
        assert backups(usb) == made[-2:]


def test_a_typo_in_the_config_never_stops_the_daily_backup(store: Store, tmp_path: Path, capsys) -> None:
    """The timer's `dartship backup --keep 14` with a config whose one key is misspelt (which
    the kiosk plays on with): the copy is made, the problem said in the kiosk's language.
    Before, any bad key ended the backup with status 2, every day, and the copies stopped."""
    from kiosk.i18n import catalog, language

    config = tmp_path / "config.toml"
    config.write_text(f'[kiosk]\nlanguage = "de"\ndatabase = "{store.path}"\n[caller]\nvolumen = 50\n')
    dest = tmp_path / "daily"
    assert backup_module.main(["--config", str(config), "--dest", str(dest)]) == 0
    assert len(backups(dest)) == 1
    out = capsys.readouterr()
    meant = catalog("de")["unknown setting; did you mean {key}?"].format(key="caller.volume")
    assert f"caller.volumen: {meant}" in out.err
    german = catalog("de")["backed up {source} to {copy}"]
    assert german.format(source=store.path, copy=backups(dest)[0]) in out.out
    assert language() == "en"


def test_a_database_grown_past_the_disk_never_costs_the_last_copy(store: Store, tmp_path: Path) -> None:
    """`--keep 1` on a stick that held one copy, the database since grown past what the stick
    holds: the old copy stays and the message says the stick is full (dropping it first would
    have left no copy at all)."""
    from tests.small_disk import small_disk

    size = backup(store.path, tmp_path / "measure", now=T0).copy.stat().st_size
    with small_disk(tmp_path / "usb", f"{(size + 48 * 1024) // 4096 * 4096 + 4096}") as usb:
        first = backup(store.path, usb, keep=1, now=T0).copy
        for _ in range(200):
            store.games.new_game(DARTS, SETUP)
        with pytest.raises(BackupError) as full:
            backup(store.path, usb, keep=1, now=T0 + timedelta(days=1))
        assert "is full" in str(full.value)
        assert backups(usb) == [first] and sorted(usb.iterdir()) == [first]


def test_a_retry_that_still_does_not_fit_says_the_copies_it_removed(
    store: Store, tmp_path: Path, monkeypatch
) -> None:
    """The sizes said that dropping the one old copy makes room, and the copy still did not fit
    (a stick's own overhead, a database grown during the copy): the old copy is gone, and the
    message says so and names it. Before, it said "nothing was copied" as if the stick still
    held its backup."""
    folder = tmp_path / "usb"
    first = backup(store.path, folder, keep=1, now=T0).copy

    def no_room(source: Path, folder: Path, final: Path) -> None:
        raise backup_module._Full(1)

    monkeypatch.setattr(backup_module, "_copy", no_room)
    with pytest.raises(BackupError) as full:
        backup(store.path, folder, keep=1, now=T0 + timedelta(days=1))
    said = str(full.value)
    assert "is full" in said and first.name in said and "0 copies are left" in said
    assert backups(folder) == []
