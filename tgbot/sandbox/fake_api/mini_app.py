"""Mini App links and launches: ``t.me`` links, start payloads and the launch URL
with signed initData and theme, as a player's client opens it.
"""

from __future__ import annotations

import json
import re
import secrets
from urllib.parse import parse_qs, quote, urlsplit

from tgbot.sandbox.fake_api.hub import _Part
from tgbot.sandbox.fake_api.people import Player
from tgbot.sandbox.fake_api.themes import LIGHT_THEME, THEMES, WEB_APP_VERSION
from tgbot.sandbox.fake_api.wire import Json, SandboxError
from webapp.auth import make_init_data


class _MiniApp(_Part):
    """Mini App links and launches."""

    def open_web_app(
        self,
        user_id: int,
        button_or_url: Json | str,
        *,
        from_chat_id: int,
        theme: str = "light",
    ) -> str:
        """Return the URL a Mini App frame loads when a player opens it.

        Args:
            user_id: who opens the app.
            button_or_url: a ``web_app`` button (or menu button) or a t.me Mini App link.
            from_chat_id: the chat the button or link is in.
            theme: ``light`` or ``dark``; picks the theme parameters.

        Raises:
            SandboxError: not a Mini App button or link of this bot.
        """
        player, state = self.api.users._player_chat(user_id, from_chat_id)
        if isinstance(button_or_url, dict):
            web_app = button_or_url.get("web_app")
            if not isinstance(web_app, dict) or not web_app.get("url"):
                raise SandboxError("not a web_app button")
            return self._launch_url(
                player, str(web_app["url"]), query_id=f"AAE{secrets.token_urlsafe(12)}", theme=theme
            )
        app_url, start_param = self._mini_app_link(button_or_url)
        chat_type = "sender" if self.api._is_private(state) else state.chat["type"]
        return self._launch_url(
            player,
            app_url,
            start_param=start_param,
            chat_type=chat_type,
            chat_instance=self.api.users.chat_instance(from_chat_id),
            theme=theme,
        )

    def is_mini_app_link(self, url: str) -> bool:
        """Whether ``url`` is a t.me link that opens this bot's Mini App."""
        try:
            self._mini_app_link(url)
        except SandboxError:
            return False
        return True

    def start_link_payload(self, url: str) -> str | None:
        """Return the payload of a ``t.me/<bot>?start=<payload>`` link, else None."""
        parts = urlsplit(url)
        if parts.hostname not in ("t.me", "telegram.me") or parts.path.strip("/").lower() != (
            self.api.username.lower()
        ):
            return None
        values = parse_qs(parts.query).get("start")
        return values[0] if values else None

    def _mini_app_link(self, url: str) -> tuple[str, str]:
        parts = urlsplit(url)
        if parts.scheme != "https" or parts.hostname not in ("t.me", "telegram.me"):
            raise SandboxError("not a t.me link")
        segments = [s for s in parts.path.split("/") if s]
        if not segments or segments[0].lower() != self.api.username.lower() or len(segments) > 2:
            raise SandboxError("not a Mini App link of this bot")
        query = parse_qs(parts.query)
        start_param = query.get("startapp", [""])[0]
        if start_param and not re.fullmatch(r"[A-Za-z0-9_-]{1,512}", start_param):
            raise SandboxError("startapp is up to 512 characters of A-Z a-z 0-9 _ -")
        if len(segments) == 2:
            if self.api.webapp_short_name and segments[1] != self.api.webapp_short_name:
                raise SandboxError(f"the bot has no Mini App named {segments[1]!r}")
        elif "startapp" not in query:
            raise SandboxError("a link to the bot, not to its Mini App")
        if not self.api.webapp_url:
            raise SandboxError("the bot has no Mini App")
        return self.api.webapp_url, start_param

    def _launch_url(
        self,
        player: Player,
        app_url: str,
        *,
        theme: str,
        start_param: str = "",
        chat_type: str = "",
        chat_instance: str = "",
        query_id: str = "",
    ) -> str:
        user = {**player.user_dict(), "allows_write_to_pm": True}
        user.pop("is_bot", None)
        init_data = make_init_data(
            self.api.token,
            user,
            int(self.api.clock()),
            start_param=start_param,
            chat_type=chat_type,
            chat_instance=chat_instance,
            query_id=query_id,
        )
        theme_json = json.dumps(THEMES.get(theme, LIGHT_THEME), separators=(",", ":"))
        base, _, _fragment = app_url.partition("#")
        if start_param:
            base += ("&" if "?" in base else "?") + f"tgWebAppStartParam={start_param}"
        launch = (
            f"tgWebAppData={quote(init_data, safe='')}&tgWebAppVersion={WEB_APP_VERSION}"
            f"&tgWebAppPlatform=web"
            f"&tgWebAppThemeParams={quote(theme_json, safe='')}"
        )
        return f"{base}#{launch}"
