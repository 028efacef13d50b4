"""Files and photos: what the API keeps of an uploaded file, and the size of an image
(PNG, GIF or JPEG) as Telegram reports it in a ``PhotoSize``."""

from __future__ import annotations

from dataclasses import dataclass

from tgbot.sandbox.fake_api.wire import Json


def image_size(data: bytes) -> tuple[int, int] | None:
    """Return (width, height) of a PNG, GIF or JPEG, or None when it is not one."""
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        return int.from_bytes(data[6:8], "little"), int.from_bytes(data[8:10], "little")
    if data.startswith(b"\xff\xd8"):
        return _jpeg_size(data)
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    index = 2
    while index + 9 < len(data):
        if data[index] != 0xFF:
            return None
        marker = data[index + 1]
        if marker == 0xFF:
            index += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            index += 2
            continue
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height = int.from_bytes(data[index + 5 : index + 7], "big")
            width = int.from_bytes(data[index + 7 : index + 9], "big")
            return width, height
        index += 2 + int.from_bytes(data[index + 2 : index + 4], "big")
    return None


@dataclass
class _StoredFile:
    file_id: str
    file_unique_id: str
    file_path: str
    data: bytes | None
    content_type: str
    width: int = 0
    height: int = 0
    source_url: str = ""


def _photo_size(stored: _StoredFile) -> Json:
    return {
        "file_id": stored.file_id,
        "file_unique_id": stored.file_unique_id,
        "file_size": len(stored.data or b""),
        "width": stored.width,
        "height": stored.height,
    }
