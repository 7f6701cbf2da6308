"""What a WAV file holds, read from its header: the length the caller plays, or 0 for a file
SDL_mixer cannot play.

Python 3.11's `wave` reads plain 8/16-bit PCM only: it refuses WAVE_FORMAT_EXTENSIBLE (what
sox, Audacity and most recorders write for 24- and 32-bit PCM and for more than two channels),
32-bit float and A-law/u-law, all of which SDL_mixer plays. A bar's own recording in any of
them was refused as "not a WAV file" and the synthetic voice said it instead; this reader
accepts every format SDL_mixer plays, Microsoft's and IMA's ADPCM among them (what some
recorders and older sound boards write to save room: SDL's own WAV loader decodes both), and
refuses what it cannot (a file that is no RIFF/WAVE, an empty or truncated one with no sound in
it, another compressed format such as MP3 or GSM in WAV).
"""

from __future__ import annotations

import struct
from pathlib import Path

PCM, IEEE_FLOAT, ALAW, MULAW, EXTENSIBLE = 0x0001, 0x0003, 0x0006, 0x0007, 0xFFFE
MS_ADPCM, IMA_ADPCM = 0x0002, 0x0011  # blocks of `align` bytes, each `samples per block` frames
PLAYABLE = frozenset({PCM, IEEE_FLOAT, ALAW, MULAW, MS_ADPCM, IMA_ADPCM})
ADPCM = frozenset({MS_ADPCM, IMA_ADPCM})
MAX_CHUNKS = 64  # a header with more chunks before its sound is no recording


def wav_seconds(path: Path) -> float:
    """The length of the sound in a WAV file, in seconds; 0 for a file that is no WAV SDL plays."""
    try:
        with open(path, "rb") as f:
            size = f.seek(0, 2)
            f.seek(0)
            head = f.read(12)
            if len(head) < 12 or head[:4] != b"RIFF" or head[8:12] != b"WAVE":
                return 0.0
            fmt: tuple[int, int, int, int, int] | None = None  # tag, channels, rate, align, frames/block
            for _ in range(MAX_CHUNKS):
                chunk = f.read(8)
                if len(chunk) < 8:
                    return 0.0
                name, length = chunk[:4], struct.unpack("<I", chunk[4:])[0]
                start = f.tell()
                if name == b"fmt ":
                    body = f.read(min(length, 40))
                    if len(body) < 16:
                        return 0.0
                    tag, channels, rate, _bytes, align = struct.unpack("<HHIIH", body[:14])
                    if tag == EXTENSIBLE:
                        if len(body) < 26:
                            return 0.0
                        tag = struct.unpack("<H", body[24:26])[0]  # the sub-format GUID's first two bytes
                    per_block = 1  # PCM and its kind: a block is one frame
                    if tag in ADPCM:
                        # the format's extra bytes: their count, then the frames in a block
                        per_block = struct.unpack("<H", body[18:20])[0] if len(body) >= 20 else 0
                    fmt = (tag, channels, rate, align, per_block)
                elif name == b"data":
                    if fmt is None:
                        return 0.0
                    tag, channels, rate, align, per_block = fmt
                    if tag not in PLAYABLE or not channels or not rate or not align or not per_block:
                        return 0.0
                    held = min(length, size - start)  # a truncated file: what is there
                    # a block cut short still holds its share of frames (ADPCM's last block is)
                    frames = held // align * per_block + held % align * per_block // align
                    return frames / rate
                f.seek(start + length + (length & 1))
    except OSError:
        return 0.0
    return 0.0


MIN_SECONDS = 0.01  # less is no recording: a file cut off after its header (a click at most)


def is_wav(path: Path) -> bool:
    """A WAV file SDL_mixer can play, with at least 10 ms of sound."""
    return wav_seconds(path) >= MIN_SECONDS
