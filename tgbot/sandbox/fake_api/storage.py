"""Files: photos the bot uploads or resends by ``file_id``, ``getFile`` and the
download paths.
"""

from __future__ import annotations

import secrets

from tgbot.sandbox.fake_api.files import _StoredFile, image_size
from tgbot.sandbox.fake_api.hub import _Part
from tgbot.sandbox.fake_api.limits import MAX_PHOTO_BYTES
from tgbot.sandbox.fake_api.wire import ApiError, Json, Upload, _Params, bad_request


class _Storage(_Part):
    """Files: photos the bot uploads or resends, and their download paths."""

    def _photo_param(self, params: _Params) -> _StoredFile:
        value = params.text("photo")
        upload = params.files.get("photo")
        if value and value.startswith("attach://"):
            upload = params.files.get(value[len("attach://") :])
        if upload is not None:
            return self._store_upload(upload)
        if not value:
            raise bad_request("there is no photo in the request")
        if value in self.api._files:
            return self.api._files[value]
        if value.startswith(("http://", "https://")):
            return self._store_file(None, "image/jpeg", source_url=value)
        raise bad_request("wrong file identifier/HTTP URL specified")

    def _store_upload(self, upload: Upload) -> _StoredFile:
        if len(upload.data) > MAX_PHOTO_BYTES:
            raise ApiError(413, "Request Entity Too Large")
        if image_size(upload.data) is None:
            raise bad_request("IMAGE_PROCESS_FAILED")
        return self._store_file(upload.data, upload.content_type or "image/jpeg")

    def _store_file(
        self, data: bytes | None, content_type: str, source_url: str = ""
    ) -> _StoredFile:
        taken = {stored.file_path.rsplit(".", 1)[0] for stored in self.api._files.values()}
        number = len(self.api._files) + 1
        while f"photos/file_{number}" in taken:
            number += 1
        width, height = (image_size(data) if data else None) or (800, 600)
        suffix = {"image/png": "png", "image/gif": "gif"}.get(content_type, "jpg")
        stored = _StoredFile(
            file_id=f"AgACAgIAAx{secrets.token_hex(12)}",
            file_unique_id=f"AQAD{secrets.token_hex(6)}",
            file_path=f"photos/file_{number}.{suffix}",
            data=data,
            content_type=content_type,
            width=width,
            height=height,
            source_url=source_url,
        )
        self.api._files[stored.file_id] = stored
        return stored

    async def _api_getFile(self, params: _Params) -> Json:
        stored = self.api._files.get(params.text("file_id") or "")
        if stored is None:
            raise bad_request("invalid file_id")
        return {
            "file_id": stored.file_id,
            "file_unique_id": stored.file_unique_id,
            "file_size": len(stored.data or b""),
            "file_path": stored.file_path,
        }

    def file_by_path(self, file_path: str) -> tuple[bytes, str] | None:
        """Return the bytes and content type behind a ``getFile`` path."""
        for stored in self.api._files.values():
            if stored.file_path == file_path and stored.data is not None:
                return stored.data, stored.content_type
        return None

    def file_by_id(self, file_id: str) -> tuple[bytes, str] | None:
        """Return the bytes and content type of an uploaded file, for the page."""
        stored = self.api._files.get(file_id)
        if stored is None or stored.data is None:
            return None
        return stored.data, stored.content_type

    def file_source_url(self, file_id: str) -> str:
        """Return the URL a photo was sent by, when it was sent by URL."""
        stored = self.api._files.get(file_id)
        return stored.source_url if stored else ""

    def saved_file(self, file_id: str) -> tuple[str, bytes] | None:
        """Return a stored photo's unique id and bytes, for keeping it on disk."""
        stored = self.api._files.get(file_id)
        if stored is None or stored.data is None:
            return None
        return stored.file_unique_id, stored.data
