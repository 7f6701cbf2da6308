"""`dartship backup`: a consistent copy of the database while the kiosk keeps playing.

SQLite's online backup API (`sqlite3.Connection.backup`) copies the database as one read
transaction, so a dart committed during the copy is either wholly in it or wholly not. The copy
is written under a temporary name, checked, synced and only then renamed, so the backups folder
never holds half a file; then all but the newest `--keep` copies are deleted. Only files this
command names (`dartship-YYYYMMDD-HHMMSS[-N].db`) are ever deleted.
"""

from __future__ import annotations

import argparse
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
from kiosk.errors import DartshipError
from kiosk.i18n import _
from kiosk.store import APPLICATION_ID, SQLITE_HEADER

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
    final = _new_name(folder, now or datetime.now(UTC))
    partial = folder / f".{final.name}.partial"
    try:
        src = sqlite3.connect(f"file:{quote(str(source))}?mode=ro", uri=True)
        try:
            # Read through the connection, not the file: under WAL the newest header page may
            # still be in the -wal file.
            if src.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
                raise _foreign(source)
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
        partial.unlink(missing_ok=True)
        raise BackupError(
            _("backup of {path} into {folder} failed: {error}").format(path=source, folder=folder, error=err)
        ) from None
    except BackupError:
        partial.unlink(missing_ok=True)
        raise
    return BackupResult(final, rotate(folder, keep))


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
    args = _parser().parse_args(list(argv))
    if args.db:
        source = Path(args.db).expanduser()
    else:
        try:
            source = config_module.load(args.config).database_path()
        except config_module.ConfigError as err:
            for problem in err.problems:
                print(problem, file=sys.stderr)
            return 2
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
