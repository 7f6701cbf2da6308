"""QR codes for the phones' page, drawn as a Kivy texture (segno makes the matrix)."""

from __future__ import annotations

import segno
from kivy.graphics.texture import Texture


def qr_texture(url: str, border: int = 2) -> Texture:
    """A black-on-white texture, one texel per module: scale it up with nearest filtering."""
    code = segno.make(url, error="m")
    rows = [list(row) for row in code.matrix_iter(scale=1, border=border)]
    size = len(rows)
    data = bytearray()
    for row in reversed(rows):  # textures start at the bottom
        for dark in row:
            data += b"\x00\x00\x00" if dark else b"\xff\xff\xff"
    texture = Texture.create(size=(size, size), colorfmt="rgb")
    texture.blit_buffer(bytes(data), colorfmt="rgb", bufferfmt="ubyte")
    texture.mag_filter = "nearest"
    texture.min_filter = "nearest"
    return texture
