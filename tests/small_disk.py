"""A real small disk for the tests that fill it or make it read-only: a tmpfs mounted for the
test (root only; elsewhere those tests are skipped, and say why)."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


@contextlib.contextmanager
def small_disk(folder: Path, size: str = "2m") -> Iterator[Path]:
    """Mount a tmpfs of `size` on `folder` for the duration; unmounted however the test ends."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs to fill needs root (run the tests as root, or in CI)")
    folder.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0777", "tmpfs", str(folder)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False, timeout=60)


def fill(folder: Path) -> Path:
    """Fill the disk of `folder` to the last byte; returns the filler (delete it to free space)."""
    filler = folder / "filler"
    with open(filler, "ab", buffering=0) as out:
        for size in (1 << 16, 1 << 12, 1 << 9, 1):
            with contextlib.suppress(OSError):
                while True:
                    out.write(b"\0" * size)
    return filler


def remount(folder: Path, mode: str) -> None:
    """`ro` or `rw`: a disk mounted read-only, as an SD card is after errors."""
    subprocess.run(["mount", "-o", f"remount,{mode}", str(folder)], check=True, timeout=60)
