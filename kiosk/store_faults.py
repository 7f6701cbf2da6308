"""What is wrong with a database file, found out without writing to it, said so the owner can act.

Two questions, asked by the store when it opens a file and when a write fails, and by `dartship
doctor`:

* `inspect(path)`: is this file ours to use, before a single byte is written to it? It reads the
  header and then the file through a read-only connection (never `PRAGMA journal_mode`, never a
  migration): a new or empty file, ours (with its schema version), not SQLite, another program's,
  damaged, written by a newer Dartship, or unreadable.
* `explain(err, path)`: what an SQLite or OS error means for the owner: the file or its disk is
  read-only, the disk is full, another program holds the file, the file is damaged, it cannot be
  opened, the disk failed; each with what to do. SQLite's own words mislead ("disk I/O error" on
  a full disk that has no room for the -shm file; "unable to open database file" on a read-only
  disk), so the file system is asked too: is it mounted read-only, may we write, is there room.
"""

from __future__ import annotations

import enum
import errno
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from kiosk.i18n import _

APPLICATION_ID = 0x44415254  # "DART": marks the file as ours in the SQLite header
SQLITE_HEADER = b"SQLite format 3\x00"
# Below this much free space a failed write is put down to a full disk (SQLite needs a few pages
# for the WAL and 32 KiB for the -shm index).
FULL_BELOW_BYTES = 256 * 1024


class Verdict(enum.Enum):
    NEW = "new"  # missing, empty, or an SQLite file with nothing in it: ours to set up
    OURS = "ours"
    NOT_SQLITE = "not_sqlite"
    FOREIGN = "foreign"  # an SQLite database of another program
    DAMAGED = "damaged"
    NEWER = "newer"  # ours, but from a newer Dartship
    UNREADABLE = "unreadable"  # cannot be read at all (permissions, locked, a disk error)


@dataclass(frozen=True)
class Inspection:
    verdict: Verdict
    version: int = 0  # the schema version of a file that is ours (or newer)
    detail: str = ""  # SQLite's or the OS's words, where they say more (a damaged page)
    error: BaseException | None = None  # what made the file unreadable


class Fault(enum.Enum):
    """What a failed read or write of the database comes down to."""

    READ_ONLY = "read_only"
    FULL = "full"
    LOCKED = "locked"
    DAMAGED = "damaged"
    CANNOT_OPEN = "cannot_open"
    DISK_ERROR = "disk_error"
    OTHER = "other"


def inspect(path: Path, known_version: int) -> Inspection:
    """What this file is, read without writing anything to it or beside it."""
    try:
        with open(path, "rb") as f:
            header = f.read(100)
    except FileNotFoundError:
        return Inspection(Verdict.NEW)
    except OSError as err:
        return Inspection(Verdict.UNREADABLE, detail=str(err), error=err)
    if not header:
        return Inspection(Verdict.NEW)
    if not header.startswith(SQLITE_HEADER):
        return Inspection(Verdict.NOT_SQLITE)
    if len(header) >= 72 and int.from_bytes(header[68:72], "big") not in (0, APPLICATION_ID):
        return Inspection(Verdict.FOREIGN)
    try:
        conn = _read_only(path)
        try:
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if app_id == 0:
                return Inspection(Verdict.FOREIGN if tables else Verdict.NEW)
            check = conn.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                return Inspection(Verdict.DAMAGED, detail=str(check))
            version = 0
            if "meta" in tables:
                row = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
                version = int(row[0]) if row else 0
        finally:
            conn.close()
    except (sqlite3.DatabaseError, ValueError) as err:
        if fault_of(err, path) is Fault.DAMAGED or isinstance(err, ValueError):
            return Inspection(Verdict.DAMAGED, detail=str(err))
        return Inspection(Verdict.UNREADABLE, detail=str(err), error=err)
    if version > known_version:
        return Inspection(Verdict.NEWER, version)
    return Inspection(Verdict.OURS, version)


def _read_only(path: Path) -> sqlite3.Connection:
    """A connection that writes nothing. With a -wal file present (a writer has the file open,
    or one crashed) `mode=ro` reads the newest data through the existing -wal and -shm; without
    one it would create both, so the file is read as `immutable` (nothing to miss: no writer)."""
    wal, shm = Path(f"{path}-wal"), Path(f"{path}-shm")
    mode = "mode=ro" if wal.exists() and shm.exists() else "immutable=1"
    return sqlite3.connect(f"file:{quote(str(path))}?{mode}", uri=True)


# -- what an error means --------------------------------------------------------------------

_LOCKED_CODES = {sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED}
_DAMAGED_CODES = {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB}
_WRITE_REFUSED_CODES = {
    sqlite3.SQLITE_READONLY,
    sqlite3.SQLITE_CANTOPEN,
    sqlite3.SQLITE_PERM,
    sqlite3.SQLITE_IOERR,
}
_CODE_OF_ERRNO = {
    errno.ENOSPC: sqlite3.SQLITE_FULL,
    errno.EDQUOT: sqlite3.SQLITE_FULL,
    errno.EROFS: sqlite3.SQLITE_READONLY,
    errno.EACCES: sqlite3.SQLITE_PERM,
    errno.EPERM: sqlite3.SQLITE_PERM,
    errno.EIO: sqlite3.SQLITE_IOERR,
}


def fault_of(err: BaseException, path: Path) -> Fault:
    """The fault behind `err` (an sqlite3.Error or an OSError) on the file `path`."""
    if isinstance(err, OSError):
        code = _CODE_OF_ERRNO.get(err.errno or 0, sqlite3.SQLITE_CANTOPEN)
    else:
        # The primary result code: the low byte of an extended one (SQLITE_IOERR_SHMSIZE...).
        code = getattr(err, "sqlite_errorcode", sqlite3.SQLITE_ERROR) & 0xFF
    if code in _LOCKED_CODES:
        return Fault.LOCKED
    if code in _DAMAGED_CODES:
        return Fault.DAMAGED
    if code == sqlite3.SQLITE_FULL:
        return Fault.FULL
    if code in _WRITE_REFUSED_CODES:
        if _read_only_disk(path) or not _writable(path):
            return Fault.READ_ONLY
        if _free_bytes(path) < FULL_BELOW_BYTES:
            return Fault.FULL
        if code == sqlite3.SQLITE_READONLY:
            return Fault.READ_ONLY
        return Fault.DISK_ERROR if code == sqlite3.SQLITE_IOERR else Fault.CANNOT_OPEN
    return Fault.OTHER


def explain(err: BaseException, path: Path) -> str:
    """What went wrong with the database at `path`, and what to do, in one message."""
    fault = fault_of(err, path)
    detail = str(err)
    if fault is Fault.READ_ONLY:
        return _(
            "{path} cannot be written: the file, its folder or its disk is read-only. Make it "
            "writable for this user (a disk mounted read-only after errors: see dmesg), or "
            "use another database file"
        ).format(path=path)
    if fault is Fault.FULL:
        return _("the disk holding {path} is full: free some space (old backups, logs)").format(path=path)
    if fault is Fault.LOCKED:
        return _(
            "{path} is locked by another program (another kiosk or referee on the same "
            "file?): stop it, or use another database file"
        ).format(path=path)
    if fault is Fault.DAMAGED:
        return damaged(path, detail)
    if fault is Fault.CANNOT_OPEN:
        return _(
            "{path} cannot be opened ({error}): check that its folder exists and that this "
            "user may read and write there"
        ).format(path=path, error=detail)
    if fault is Fault.DISK_ERROR:
        return _(
            "reading or writing {path} failed ({error}): the disk or SD card may be failing (see dmesg)"
        ).format(path=path, error=detail)
    return f"{path}: {detail}"


def damaged(path: Path, detail: str) -> str:
    return _(
        "{path} is damaged ({error}); it was left untouched. Keep it (sqlite3 .recover can "
        "often save its games), move it away and start again for a new database, or copy "
        "back a backup"
    ).format(path=path, error=detail)


def refusal(inspection: Inspection, path: Path, known_version: int) -> str | None:
    """Why the store must not use this file (None: it may), with what to do."""
    verdict = inspection.verdict
    if verdict is Verdict.NOT_SQLITE:
        return _(
            "{path} is not a Dartship database (not SQLite at all); it was left untouched. "
            "Use another database file"
        ).format(path=path)
    if verdict is Verdict.FOREIGN:
        return _(
            "{path} is an SQLite database of another program; it was left untouched. Use "
            "another database file"
        ).format(path=path)
    if verdict is Verdict.DAMAGED:
        return damaged(path, inspection.detail)
    if verdict is Verdict.NEWER:
        return _(
            "{path} was written by a newer Dartship (schema {found}, this one knows {known}); "
            "it was left untouched. Update Dartship, or use another database file"
        ).format(path=path, found=inspection.version, known=known_version)
    if verdict is Verdict.UNREADABLE:
        assert inspection.error is not None
        return explain(inspection.error, path)
    return None


# -- the file system's side of the story ----------------------------------------------------


def nearest_existing(path: Path) -> Path:
    """`path`, or its nearest folder that exists (a database not made yet is on that disk)."""
    path = path.absolute()
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def disk_of(path: Path) -> tuple[bool, int] | None:
    """The disk under `path`: whether it is mounted read-only, and the bytes free on it for
    this process; None where the system will not say."""
    try:
        st = os.statvfs(nearest_existing(path))
    except OSError:
        return None
    return bool(st.f_flag & os.ST_RDONLY), st.f_bavail * st.f_frsize


def human_size(size: int) -> str:
    """A size as an owner reads it: 0 KB, 52 KB, 1.3 MB, 2.0 GB."""
    if size < 1 << 20:
        return f"{size / 1024:.0f} KB"
    return f"{size / (1 << 20):.1f} MB" if size < 1 << 30 else f"{size / (1 << 30):.1f} GB"


def _read_only_disk(path: Path) -> bool:
    disk = disk_of(path)
    return disk is not None and disk[0]


def _writable(path: Path) -> bool:
    """May this process write the file and create its -wal and -shm beside it? (root may
    always, as far as permissions go: a read-only disk is asked separately)."""
    where = nearest_existing(path)
    folder = where if where.is_dir() else where.parent
    if where.is_file() and not os.access(where, os.W_OK):
        return False
    return os.access(folder, os.W_OK | os.X_OK)


def _free_bytes(path: Path) -> int:
    disk = disk_of(path)
    return FULL_BELOW_BYTES if disk is None else disk[1]
