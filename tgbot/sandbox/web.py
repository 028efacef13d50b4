"""HTTP face of the sandbox: the Bot API, its file downloads, and the players' page.

Routes under ``prefix`` (default ``/sandbox``):
    ``/api/bot{token}/{method}``       the Bot API (PTB ``base_url = {origin}{prefix}/api/bot``)
    ``/api/file/bot{token}/{path}``    files (``base_file_url = {origin}{prefix}/api/file/bot``)
    ``GET {prefix}``                   the page
    ``GET {prefix}/state``             JSON snapshot for one player
    ``GET {prefix}/players``           who the page can play as
    ``POST {prefix}/send|press|open|link|start|menu|language|topic|inline|choose|results_button``
                                       player actions (``inline``: type ``@bot query``;
                                       ``choose``: pick one of its results;
                                       ``results_button``: press the button above them)
    ``GET {prefix}/events``            server-sent events of the change feed
    ``GET {prefix}/photo/{file_id}``   photo bytes for the page
"""

from __future__ import annotations

import contextlib
import functools
import hmac
import json
from pathlib import Path
from typing import Any

import jinja2
from aiohttp import BodyPartReader, web

from core.words.i18n import PSEUDO, available, lang_for
from tgbot.sandbox.fake_api import ApiError, FakeBotApi, Json, SandboxError, Upload
from tgbot.sandbox.words import all_words, language_name, page_words

HERE = Path(__file__).parent
HEARTBEAT_SECONDS = 15.0
INLINE_ANSWER_SECONDS = 10.0  # as long as Telegram waits for answerInlineQuery
MAX_UPLOAD_BYTES = 20 * 1024 * 1024

_dumps = functools.partial(json.dumps, ensure_ascii=False)


def _json(data: Any, status: int = 200) -> web.Response:
    return web.json_response(data, status=status, dumps=_dumps)


async def _read_params(request: web.Request) -> tuple[dict[str, Any], dict[str, Upload]]:
    """Read Bot API parameters from the query, a form, multipart or a JSON body."""
    params: dict[str, Any] = dict(request.query)
    files: dict[str, Upload] = {}
    if request.method != "POST" or not request.can_read_body:
        return params, files
    if request.content_type == "application/json":
        body = await request.json()
        if not isinstance(body, dict):
            raise ApiError(400, "Bad Request: request body must be a JSON object")
        params.update(body)
    elif request.content_type == "multipart/form-data":
        await _read_multipart(request, params, files)
    else:
        form = await request.post()
        params.update({key: value for key, value in form.items() if isinstance(value, str)})
    return params, files


async def _read_multipart(
    request: web.Request, params: dict[str, Any], files: dict[str, Upload]
) -> None:
    reader = await request.multipart()
    total = 0
    while (part := await reader.next()) is not None:
        if not isinstance(part, BodyPartReader) or not part.name:
            continue
        data = await part.read(decode=False)
        total += len(data)
        if total > MAX_UPLOAD_BYTES:
            raise ApiError(413, "Request Entity Too Large")
        if part.filename is not None:
            content_type = part.headers.get("Content-Type", "application/octet-stream")
            files[part.name] = Upload(part.filename, content_type, bytes(data))
        else:
            params[part.name] = bytes(data).decode("utf-8", "replace")


class _Sandbox:
    """Request handlers bound to one ``FakeBotApi``."""

    def __init__(self, api: FakeBotApi, prefix: str) -> None:
        self.api = api
        self.prefix = prefix
        self.templates = jinja2.Environment(
            loader=jinja2.FileSystemLoader(HERE / "templates"),
            autoescape=jinja2.select_autoescape(["html"]),
        )

    def _token_ok(self, request: web.Request) -> bool:
        return hmac.compare_digest(request.match_info["token"].encode(), self.api.token.encode())

    async def bot_api(self, request: web.Request) -> web.Response:
        """Answer one Bot API call."""
        if not self._token_ok(request):
            return _json(ApiError(401, "Unauthorized").payload(), status=401)
        try:
            params, files = await _read_params(request)
            result = await self.api.call(request.match_info["method"], params, files)
        except ApiError as error:
            return _json(error.payload(), status=error.code)
        except (ValueError, UnicodeDecodeError):
            return _json(ApiError(400, "Bad Request: can't parse request").payload(), 400)
        return _json({"ok": True, "result": result})

    async def bot_file(self, request: web.Request) -> web.Response:
        """Serve a file the bot asked for with getFile."""
        if not self._token_ok(request):
            return web.Response(status=401, text="Unauthorized")
        found = self.api.storage.file_by_path(request.match_info["path"])
        if found is None:
            return web.Response(status=404, text="Not Found")
        return web.Response(body=found[0], content_type=found[1])

    async def page(self, request: web.Request) -> web.Response:
        """Render the sandbox page."""
        html = self.templates.get_template("sandbox.html").render(
            prefix=self.prefix,
            bot=self.api.bot_user(),
            words=page_words(lang_for(None)),
            words_json=all_words(),
            languages=[
                *((code, language_name(code)) for code in available()),
                (PSEUDO, "⟦Pseudo⟧"),  # every message bracketed: shows words that escaped
            ],
        )
        return web.Response(text=html, content_type="text/html")

    async def state(self, request: web.Request) -> web.Response:
        """Return the page's snapshot for one player."""
        try:
            user_id = int(request.query["user_id"])
            self.api.player(user_id)
        except (KeyError, ValueError, SandboxError):
            return _json({"ok": False, "error": "unknown user_id"}, status=400)
        return _json({"ok": True, **self.api.snapshot(user_id)})

    async def players(self, request: web.Request) -> web.Response:
        """Return the players the page can pick from."""
        return _json({"ok": True, "players": self.api.snapshot()["players"]})

    async def photo(self, request: web.Request) -> web.StreamResponse:
        """Serve a photo's bytes, or redirect to the URL it was sent by."""
        file_id = request.match_info["file_id"]
        found = self.api.file_by_id(file_id)
        if found is not None:
            return web.Response(body=found[0], content_type=found[1])
        source = self.api.storage.file_source_url(file_id)
        if source:
            raise web.HTTPFound(source)
        return web.Response(status=404, text="Not Found")

    async def action(self, request: web.Request) -> web.Response:
        """Run a player action posted by the page."""
        try:
            body = await request.json()
            result = await self._run_action(request.match_info["action"], body)
        except (SandboxError, ApiError, KeyError, ValueError, TypeError) as error:
            return _json({"ok": False, "error": str(error) or type(error).__name__}, status=400)
        return _json({"ok": True, **result})

    async def _run_action(self, action: str, body: Json) -> Json:
        user_id = int(body["user_id"])
        if action == "send":
            reply_to = body.get("reply_to_message_id")
            thread = body.get("thread_id")
            message = await self.api.send_text(
                user_id,
                int(body["chat_id"]),
                str(body["text"]),
                reply_to_message_id=int(reply_to) if reply_to else None,
                thread_id=int(thread) if thread else None,
            )
            return {"message": message}
        if action == "topic":
            thread = await self.api.player_topic(
                user_id,
                int(body["chat_id"]),
                str(body["do"]),
                int(body.get("thread_id") or 0),
                str(body.get("name", "")),
            )
            return {"thread_id": thread}
        if action == "start":
            return {"message": await self.api.start_bot(user_id, str(body.get("payload", "")))}
        if action == "inline":
            return await self._inline_query(user_id, body)
        if action == "results_button":  # the button above the inline results
            return await self.api.press_results_button(user_id, str(body["query_id"]))
        if action == "choose":
            thread = body.get("thread_id")
            message = await self.api.choose_inline_result(
                user_id,
                str(body["query_id"]),
                str(body["result_id"]),
                int(body["chat_id"]),
                thread_id=int(thread) if thread else None,
            )
            return {"message": message}
        if action == "press":
            press = await self.api.press_button(
                user_id, int(body["chat_id"]), int(body["message_id"]), str(body["data"])
            )
            return {"query_id": press.query_id}
        theme = str(body.get("theme", "light"))
        if action == "open":
            return await self._open_button(user_id, body, theme)
        if action == "link":
            return await self._open_url(user_id, int(body["chat_id"]), str(body["url"]), theme)
        if action == "language":
            self.api.users.set_language(user_id, str(body["language_code"]))
            return {}
        if action == "menu":
            menu = self.api.menu_button(user_id)
            if menu.get("type") != "web_app":
                raise SandboxError("the menu button does not open a Mini App")
            url = self.api.open_web_app(user_id, menu, from_chat_id=user_id, theme=theme)
            return {"action": "web_app", "url": url}
        raise SandboxError(f"unknown action {action}")

    async def _inline_query(self, user_id: int, body: Json) -> Json:
        """Type ``@bot query`` in a chat: the bot's results, as the composer lists them."""
        ask = await self.api.inline_query(user_id, str(body["query"]), int(body["chat_id"]))
        try:
            answer = await ask.answered(INLINE_ANSWER_SECONDS)
        except TimeoutError:
            raise SandboxError("the bot did not answer the inline query") from None
        results = [
            {
                "id": r["id"],
                "type": r["type"],
                "title": r.get("title", ""),
                "description": r.get("description", ""),
            }
            for r in answer["results"]
        ]
        return {"query_id": ask.query_id, "results": results, "button": answer["button"]}

    async def _open_button(self, user_id: int, body: Json, theme: str) -> Json:
        """Open a url or web_app button: a Mini App frame, a deep link, or a new tab."""
        chat_id = int(body["chat_id"])
        button = self.api.users.button_at(
            user_id, chat_id, int(body["message_id"]), int(body["row"]), int(body["column"])
        )
        if "web_app" in button:
            if chat_id != user_id:
                raise SandboxError("web_app buttons work in private chats only")
            url = self.api.open_web_app(user_id, button, from_chat_id=chat_id, theme=theme)
            return {"action": "web_app", "url": url}
        return await self._open_url(user_id, chat_id, str(button.get("url", "")), theme)

    async def _open_url(self, user_id: int, chat_id: int, url: str, theme: str) -> Json:
        """Follow a link as Telegram clients do: Mini App, deep link, or a new tab."""
        if self.api.mini_app.is_mini_app_link(url):
            url = self.api.open_web_app(user_id, url, from_chat_id=chat_id, theme=theme)
            return {"action": "web_app", "url": url}
        payload = self.api.start_link_payload(url)
        if payload is not None:
            await self.api.start_bot(user_id, payload)
            return {"action": "start", "chat_id": user_id}
        return {"action": "external", "url": url}

    async def events(self, request: web.Request) -> web.StreamResponse:
        """Stream the change feed as server-sent events."""
        since = request.headers.get("Last-Event-ID") or request.query.get("since") or "0"
        seq = int(since) if since.isdigit() else 0
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-cache",
                "X-Accel-Buffering": "no",
            }
        )
        await response.prepare(request)
        with contextlib.suppress(ConnectionResetError):
            await response.write(b"retry: 1000\n\n")
            # Too old for the feed, or from before a restart that lost changes: reload.
            if seq and (seq < self.api.oldest_seq() - 1 or seq > self.api.mark()):
                seq = self.api.mark()
                reset = _dumps({"seq": seq, "kind": "reset", "chat_id": None})
                await response.write(f"id: {seq}\ndata: {reset}\n\n".encode())
            while not self.api.closed:
                events = await self.api.next_events(seq, HEARTBEAT_SECONDS)
                if not events:
                    await response.write(b": keep-alive\n\n")
                for event in events:
                    seq = event["seq"]
                    data = _dumps(event)
                    await response.write(f"id: {seq}\ndata: {data}\n\n".encode())
        return response


def setup_sandbox(app: web.Application, api: FakeBotApi, *, prefix: str = "/sandbox") -> None:
    """Mount the fake Bot API and the players' page into ``app`` under ``prefix``."""
    sandbox = _Sandbox(api, prefix)
    router = app.router
    api_path = f"{prefix}/api/bot{{token}}/{{method}}"
    router.add_route("POST", api_path, sandbox.bot_api)
    router.add_route("GET", api_path, sandbox.bot_api)
    router.add_get(f"{prefix}/api/file/bot{{token}}/{{path:.+}}", sandbox.bot_file)
    router.add_get(prefix, sandbox.page)
    router.add_get(f"{prefix}/", sandbox.page)
    router.add_get(f"{prefix}/state", sandbox.state)
    router.add_get(f"{prefix}/players", sandbox.players)
    router.add_get(f"{prefix}/events", sandbox.events)
    router.add_get(f"{prefix}/photo/{{file_id}}", sandbox.photo)
    router.add_post(
        f"{prefix}/{{action:send|press|open|link|start|menu|language|topic|inline|choose"
        "|results_button}",
        sandbox.action,
    )
    router.add_static(f"{prefix}/static", HERE / "static")

    async def close_api(_app: web.Application) -> None:
        await api.aclose()

    app.on_shutdown.append(close_api)


def create_sandbox_app(api: FakeBotApi, *, prefix: str = "/sandbox") -> web.Application:
    """Return an aiohttp application that serves only the sandbox."""
    app = web.Application(client_max_size=MAX_UPLOAD_BYTES)
    setup_sandbox(app, api, prefix=prefix)
    return app
