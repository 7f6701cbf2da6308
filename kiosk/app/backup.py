"""`dartship backup`: a consistent copy of the database while the kiosk keeps playing.

SQLite's online backup API (`sqlite3.Connection.backup`) copies the database as one read
transaction, so a dart committed during the copy is either wholly in it or wholly not. The copy
is written under a temporary name, checked, synced and only then renamed, so the backups folder
never holds half a file; then all but the newest `--keep` copies are deleted. Only files this
command names (`dartship-YYYYMMDD-HHMMSS[-N].db`) are ever deleted.

A folder the command may not write in (a read-only stick, another user's folder) is said as
such before anything is tried. A disk too full for one more copy: its partial file is removed,
the copies that `--keep` would delete after it anyway are deleted, and the copy is tried once
more (the folder then ends as it would have: the newest `--keep`); where there are none, or it
is still too full, the message says how much is free and how much a copy needs (docs/qa8.md).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import re
import sqlite3
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

from kiosk import config as config_module
from kiosk import store_faults
from kiosk.errors import DartshipError
from kiosk.i18n import _, language, set_language
from kiosk.store import APPLICATION_ID, SQLITE_HEADER
from kiosk.store_faults import human_size

DEFAULT_KEEP = 14
NAME = re.compile(r"^dartship-(\d{8}-\d{6})(?:-(\d+))?\.db$")


class BackupError(DartshipError, RuntimeError):
    """The backup could not be made; the message says why and what to do."""


@dataclass(frozen=True)
class BackupResult:
    copy: Path
    removed: tuple[Path, ...]


def backups(folder: Path) -> list[Path]:
    """This command's copies in `folder`, oldest first."""
    found: list[tuple[str, int, Path]] = []
    if not folder.is_dir():
        return []
    for entry in folder.iterdir():
        match = NAME.match(entry.name)
        if match and entry.is_file():
            found.append((match.group(1), int(match.group(2) or 0), entry))
    return [path for _stamp, _n, path in sorted(found)]


def rotate(folder: Path, keep: int) -> tuple[Path, ...]:
    """Delete all but the newest `keep` copies; return what was deleted."""
    if keep < 1:
        raise BackupError(_("--keep must be 1 or more, got {keep}").format(keep=keep))
    old = backups(folder)[:-keep]
    for path in old:
        path.unlink()
    return tuple(old)


def _new_name(folder: Path, now: datetime) -> Path:
    stamp = now.astimezone(UTC).strftime("%Y%m%d-%H%M%S")
    candidate = folder / f"dartship-{stamp}.db"
    n = 0
    while candidate.exists():
        n += 1
        candidate = folder / f"dartship-{stamp}-{n}.db"
    return candidate


def _check_source(source: Path, euid: int) -> None:
    try:
        st = source.stat()
        with open(source, "rb") as f:
            header = f.read(100)
    except OSError as err:
        raise BackupError(_("{path}: cannot read: {error}").format(path=source, error=err)) from None
    if not header.startswith(SQLITE_HEADER):
        raise _foreign(source)
    if euid == 0 and st.st_uid != 0:
        # Root opening a WAL database would leave root-owned -wal/-shm files behind that the
        # kiosk (user dartship) then cannot write: refuse instead of breaking the kiosk.
        raise BackupError(
            _("run the backup as the database's owner, not as root: sudo -u {user} dartship backup").format(
                user=_owner_name(st.st_uid)
            )
        )


def _foreign(source: Path) -> BackupError:
    return BackupError(_("{path} is not a Dartship database; nothing was copied").format(path=source))


def _owner_name(uid: int) -> str:
    try:
        import pwd

        return pwd.getpwuid(uid).pw_name
    except (KeyError, ImportError):
        return str(uid)


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def backup(
    source: Path, folder: Path, keep: int = DEFAULT_KEEP, now: datetime | None = None, euid: int | None = None
) -> BackupResult:
    """Copy `source` into `folder` with the online backup API, then keep the newest `keep`."""
    if keep < 1:
        raise BackupError(_("--keep must be 1 or more, got {keep}").format(keep=keep))
    _check_source(source, os.geteuid() if euid is None else euid)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise BackupError(
            _("{path}: cannot create the backups folder: {error}").format(path=folder, error=err)
        ) from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise BackupError(
            _(
                "{folder}: {user} may not write here (a read-only disk, or another user's folder); "
                "nothing was copied"
            ).format(folder=folder, user=_owner_name(os.geteuid()))
        )
    final = _new_name(folder, now or datetime.now(UTC))
    try:
        _copy(source, folder, final)
        removed: tuple[Path, ...] = ()
    except _Full as full:
        # Too little room for one more copy: the copies --keep would delete after it go first,
        # if there are any, and the copy is tried once more; else nothing is deleted.
        kept = backups(folder)
        removed = tuple(kept[: max(0, len(kept) - keep + 1)])
        if not removed or _free(folder) + sum(p.stat().st_size for p in removed) < full.needed:
            # Deleting them would not make room (a database grown past the disk): the old copies
            # stay, never all deleted for a copy that cannot be made (--keep 1 had only one).
            raise _no_room(folder, full.needed) from None
        for path in removed:
            path.unlink()
        try:
            _copy(source, folder, final)
        except _Full as again:
            # The room was there by the sizes, and the copy still did not fit (a filesystem's
            # own overhead, the database grown during the copy): the copies are gone, and the
            # message must say so, not "nothing was copied" as if the stick were as it was.
            raise _no_room(folder, again.needed, removed) from None
    return BackupResult(final, removed + rotate(folder, keep))


SHM = 32 * 1024  # SQLite's shared-memory file beside the copy while it is checked


class _Full(DartshipError):
    """The destination has no room for a copy that needs `needed` bytes."""

    def __init__(self, needed: int) -> None:
        super().__init__(needed)
        self.needed = needed


def _copy(source: Path, folder: Path, final: Path) -> None:
    """One copy of `source` as `final` (through a partial file, checked and synced); `_Full`
    when the disk has no room for it (its partial file removed)."""
    partial = folder / f".{final.name}.partial"
    needed = source.stat().st_size
    try:
        src = sqlite3.connect(f"file:{quote(str(source))}?mode=ro", uri=True)
        try:
            # Read through the connection, not the file: under WAL the newest header page may
            # still be in the -wal file.
            if src.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
                raise _foreign(source)
            needed = _size(src)
            dst = sqlite3.connect(partial)
            try:
                src.backup(dst)
                check = dst.execute("PRAGMA quick_check").fetchone()[0]
                if check != "ok":
                    raise BackupError(
                        _("the copy of {path} failed its check ({error}); nothing was kept").format(
                            path=source, error=check
                        )
                    )
            finally:
                dst.close()
        finally:
            src.close()
        with open(partial, "rb") as f:
            os.fsync(f.fileno())
        os.replace(partial, final)
        _fsync_dir(folder)
    except (sqlite3.Error, OSError) as err:
        _discard(partial)
        # SQLite says a full disk as "database or disk is full", or as "disk I/O error" where
        # its shared-memory file found no room: what is free tells.
        if _is_full(err) or _free(folder) < needed + SHM:
            raise _Full(needed + SHM) from None
        raise BackupError(
            _("backup of {path} into {folder} failed: {error}").format(path=source, folder=folder, error=err)
        ) from None
    except BackupError:
        _discard(partial)
        raise


def _discard(partial: Path) -> None:
    """Remove a copy that failed, and SQLite's files beside it (the copy is in WAL mode once
    the source's header is in it), where the disk lets us (a read-only one does not)."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(OSError):
            partial.with_name(partial.name + suffix).unlink(missing_ok=True)


def _size(conn: sqlite3.Connection) -> int:
    """The bytes a copy of this database takes (its pages)."""
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    return int(pages) * int(conn.execute("PRAGMA page_size").fetchone()[0])


def _free(folder: Path) -> int:
    disk = store_faults.disk_of(folder)
    return 0 if disk is None else disk[1]


def _is_full(err: Exception) -> bool:
    if isinstance(err, OSError):
        return err.errno == errno.ENOSPC
    return isinstance(err, sqlite3.Error) and (
        getattr(err, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or "disk is full" in str(err)
    )


def _no_room(folder: Path, needed: int, removed: Sequence[Path] = ()) -> BackupError:
    said = _(
        "{folder} is full: {free} free, one more copy needs {needed}; nothing was copied. "
        "Free space there, keep fewer copies (--keep), or use another --dest"
    ).format(folder=folder, free=human_size(_free(folder)), needed=human_size(needed))
    if removed:
        left = len(backups(folder))
        said += ". " + _(
            "To make room the old copies {names} were removed first; {left} copies are left there"
        ).format(names=", ".join(p.name for p in removed), left=left)
    return BackupError(said)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dartship backup",
        description=_("Copy the database with SQLite's online backup and keep the newest copies."),
    )
    parser.add_argument(
        "--keep",
        type=int,
        default=DEFAULT_KEEP,
        help=_("how many copies to keep (default {n})").format(n=DEFAULT_KEEP),
    )
    parser.add_argument("--dest", help=_("folder for the copies (default: backups/ next to the database)"))
    parser.add_argument("--config", help=_("config file"))
    parser.add_argument("--db", help=_("SQLite file (overrides kiosk.database)"))
    return parser


def main(argv: Sequence[str]) -> int:
    before = language()
    try:
        return _main(argv)
    finally:
        set_language(before)


def _main(argv: Sequence[str]) -> int:
    args = _parser().parse_args(list(argv))
    # Read as the kiosk reads it: a bad key (a typo in any section) keeps its default and is
    # said, and the copy is made. Before, any bad key ended the daily backup with status 2
    # while the kiosk played on with the same file: the copies stopped, and nobody was told.
    config = config_module.read(args.config, strict=False)
    if set_language(config.settings.kiosk.language) != "en":
        config = config_module.read(args.config, strict=False)  # its problems in that language
    for problem in config.problems:
        print(_("config problem, using the default instead: %s") % problem, file=sys.stderr)
    source = Path(args.db).expanduser() if args.db else config.settings.database_path()
    folder = Path(args.dest).expanduser() if args.dest else source.parent / "backups"
    if not source.exists():
        print(_("no database yet at {path}: nothing to back up").format(path=source))
        return 0
    try:
        result = backup(source, folder, args.keep)
    except BackupError as err:
        print(f"dartship backup: {err}", file=sys.stderr)
        return 1
    print(_("backed up {source} to {copy}").format(source=source, copy=result.copy))
    for path in result.removed:
        print(_("removed old backup {path}").format(path=path))
    return 0
