"""QR codes of the phone links, drawn by segno (no network, no images on disk)."""

from __future__ import annotations

import io

import segno


def qr_png(url: str, scale: int = 8, border: int = 2) -> bytes:
    buffer = io.BytesIO()
    segno.make(url, error="m", micro=False).save(buffer, kind="png", scale=scale, border=border)
    return buffer.getvalue()


def qr_svg(url: str, scale: int = 8, border: int = 2) -> bytes:
    buffer = io.BytesIO()
    segno.make(url, error="m", micro=False).save(
        buffer, kind="svg", scale=scale, border=border, xmldecl=False
    )
    return buffer.getvalue()
