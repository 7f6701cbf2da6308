"""The page's files, served from a list made at start: no path from a request touches the disk.

A request names a file; it is looked up in a dict of the files that were under `static/` when
the server started (no symlinks followed). `..`, absolute paths, encoded slashes or anything
else not in the dict is a plain 404.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

STATIC_DIR = Path(__file__).with_name("static")
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".json": "application/json; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
}


@dataclass(frozen=True)
class StaticFile:
    body: bytes
    content_type: str


class StaticFiles:
    def __init__(self, root: Path = STATIC_DIR) -> None:
        self._files: dict[str, StaticFile] = {}
        for path in sorted(root.rglob("*")):
            if path.is_symlink() or not path.is_file():
                continue
            kind = CONTENT_TYPES.get(path.suffix)
            if kind is None:
                continue
            name = path.relative_to(root).as_posix()
            self._files[name] = StaticFile(path.read_bytes(), kind)

    def get(self, name: str) -> StaticFile | None:
        return self._files.get(name)

    def names(self) -> list[str]:
        return sorted(self._files)
