"""Formatted text as Telegram handles it: the HTML parse mode, message entities with
offsets in UTF-16 code units, trimming, and the entities Telegram detects itself
(mentions, links, commands...)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from tgbot.sandbox.fake_api.limits import MAX_TEXT_LENGTH
from tgbot.sandbox.fake_api.wire import ApiError, Json, bad_request


def utf16_len(text: str) -> int:
    """Return the length of ``text`` in UTF-16 code units, as Telegram counts."""
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def _utf16_offsets(text: str) -> list[int]:
    """Return the UTF-16 offset of every index of ``text`` plus one for its end."""
    offsets = [0]
    for ch in text:
        offsets.append(offsets[-1] + (2 if ord(ch) > 0xFFFF else 1))
    return offsets


_HTML_SPACES = frozenset(" \t\r\n\v\f\0")
_HTML_TAGS = frozenset(
    {
        "a",
        "b",
        "strong",
        "i",
        "em",
        "s",
        "strike",
        "del",
        "u",
        "ins",
        "tg-spoiler",
        "tg-emoji",
        "span",
        "pre",
        "code",
        "blockquote",
    }
)
_SIMPLE_TAG_TYPES = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
}
_NAMED_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_ENTITY_RE = re.compile(r"&(?:#[xX]([0-9a-fA-F]{1,8})|#([0-9]{1,10})|([a-zA-Z]{1,10}));")


def _parse_error(detail: str) -> ApiError:
    return bad_request(f"can't parse entities: {detail}")


@dataclass
class _OpenTag:
    name: str
    argument: str
    utf16_start: int
    text_start: int
    byte_offset: int


class _HtmlParser:
    """Telegram's HTML parse mode: text plus entities, or a 400 error."""

    def __init__(self, source: str, resolve_user: Callable[[int], Json | None]) -> None:
        self.src = source
        self.pos = 0
        self.out: list[str] = []
        self.out_len = 0
        self.utf16 = 0
        self.open: list[_OpenTag] = []
        self.entities: list[Json] = []
        self.resolve_user = resolve_user

    def byte_offset(self, index: int) -> int:
        """Return the UTF-8 byte offset of ``index`` in the source."""
        return len(self.src[:index].encode("utf-8", "surrogatepass"))

    def emit(self, ch: str) -> None:
        """Append one character to the plain text."""
        self.out.append(ch)
        self.out_len += 1
        self.utf16 += 2 if ord(ch) > 0xFFFF else 1

    def decode_entity(self, index: int) -> tuple[str, int] | None:
        """Decode ``&...;`` at ``index``; return the character and the next index."""
        match = _ENTITY_RE.match(self.src, index)
        if match is None:
            return None
        hex_code, dec_code, name = match.groups()
        if name is not None:
            char = _NAMED_ENTITIES.get(name)
            return (char, match.end()) if char else None
        code = int(hex_code, 16) if hex_code else int(dec_code)
        if code == 0 or code >= 0x10FFFF or 0xD800 <= code <= 0xDFFF:
            return None
        return chr(code), match.end()

    def parse(self) -> tuple[str, list[Json]]:
        """Run the parser over the whole source."""
        src = self.src
        while self.pos < len(src):
            ch = src[self.pos]
            if ch == "&":
                decoded = self.decode_entity(self.pos)
                if decoded is None:
                    raise _parse_error(
                        f'Character "&" must be escaped as "&amp;" at byte offset '
                        f"{self.byte_offset(self.pos)}"
                    )
                self.emit(decoded[0])
                self.pos = decoded[1]
            elif ch == "<":
                if self.pos + 1 < len(src) and src[self.pos + 1] == "/":
                    self.end_tag()
                else:
                    self.start_tag()
            else:
                self.emit(ch)
                self.pos += 1
        if self.open:
            raise _parse_error(
                f'Can\'t find end tag corresponding to start tag "{self.open[-1].name}"'
            )
        return "".join(self.out), self.entities

    def skip_spaces(self) -> None:
        """Advance past HTML whitespace."""
        while self.pos < len(self.src) and self.src[self.pos] in _HTML_SPACES:
            self.pos += 1

    def read_until_space_or_gt(self) -> str:
        """Read a name up to whitespace or ``>``."""
        begin = self.pos
        while self.pos < len(self.src) and self.src[self.pos] not in _HTML_SPACES:
            if self.src[self.pos] == ">":
                break
            self.pos += 1
        return self.src[begin : self.pos]

    def start_tag(self) -> None:
        """Parse ``<tag attr=...>`` and push it."""
        begin = self.pos
        offset = self.byte_offset(begin)
        self.pos += 1
        name = self.read_until_space_or_gt().lower()
        if self.pos >= len(self.src):
            raise _parse_error(f"Unclosed start tag at byte offset {offset}")
        if name not in _HTML_TAGS:
            raise _parse_error(f'Unsupported start tag "{name}" at byte offset {offset}')
        argument = ""
        while self.src[self.pos] != ">":
            argument = self.attribute(name, offset, argument)
        self.pos += 1
        if name == "span" and argument != "spoiler":
            raise _parse_error(f'Tag "span" must have class "tg-spoiler" at byte offset {offset}')
        self.open.append(_OpenTag(name, argument, self.utf16, self.out_len, offset))

    def attribute(self, tag: str, offset: int, argument: str) -> str:
        """Parse one attribute of ``tag``; return the tag's (possibly new) argument."""
        self.skip_spaces()
        if self.pos >= len(self.src):
            raise _parse_error(f"Unclosed start tag at byte offset {offset}")
        if self.src[self.pos] == ">":
            return argument
        begin = self.pos
        while self.pos < len(self.src) and self.src[self.pos] not in _HTML_SPACES:
            if self.src[self.pos] in "=>":
                break
            self.pos += 1
        attr = self.src[begin : self.pos].lower()
        if not attr:
            raise _parse_error(f'Empty attribute name in the tag "{tag}" at byte offset {offset}')
        self.skip_spaces()
        if self.pos >= len(self.src):
            raise _parse_error(f"Unclosed start tag at byte offset {offset}")
        if self.src[self.pos] != "=":
            if tag == "blockquote" and attr == "expandable":
                return "1"
            raise _parse_error(
                "Expected equal sign in declaration of an attribute of the tag "
                f'"{tag}" at byte offset {offset}'
            )
        self.pos += 1
        self.skip_spaces()
        value = self.attribute_value(offset)
        return _tag_argument(tag, attr, value, argument)

    def attribute_value(self, offset: int) -> str:
        """Parse a quoted string or a bare name token."""
        src = self.src
        if self.pos >= len(src):
            raise _parse_error(f"Unclosed start tag at byte offset {offset}")
        quote_char = src[self.pos]
        if quote_char not in "'\"":
            begin = self.pos
            while self.pos < len(src) and (src[self.pos].isalnum() or src[self.pos] in ".-"):
                self.pos += 1
            if self.pos >= len(src) or (src[self.pos] not in _HTML_SPACES and src[self.pos] != ">"):
                raise _parse_error(
                    f"Unexpected end of name token at byte offset {self.byte_offset(self.pos)}"
                )
            return src[begin : self.pos].lower()
        self.pos += 1
        chars: list[str] = []
        while self.pos < len(src) and src[self.pos] != quote_char:
            decoded = self.decode_entity(self.pos) if src[self.pos] == "&" else None
            if decoded is not None:
                chars.append(decoded[0])
                self.pos = decoded[1]
            else:
                chars.append(src[self.pos])
                self.pos += 1
        if self.pos >= len(src):
            raise _parse_error(f"Unclosed start tag at byte offset {offset}")
        self.pos += 1
        return "".join(chars)

    def end_tag(self) -> None:
        """Parse ``</tag>`` and close the innermost open tag."""
        begin = self.pos
        offset = self.byte_offset(begin)
        if not self.open:
            raise _parse_error(f"Unexpected end tag at byte offset {offset}")
        self.pos += 2
        name = self.read_until_space_or_gt().lower()
        self.skip_spaces()
        if self.pos >= len(self.src) or self.src[self.pos] != ">":
            raise _parse_error(f"Unclosed end tag at byte offset {offset}")
        self.pos += 1
        tag = self.open.pop()
        if name and name != tag.name:
            raise _parse_error(
                f'Unmatched end tag at byte offset {offset}, expected "</{tag.name}>", '
                f'found "</{name}>"'
            )
        if self.utf16 > tag.utf16_start:
            self.close_entity(tag)

    def close_entity(self, tag: _OpenTag) -> None:
        """Turn a closed, non-empty tag into an entity."""
        start, length = tag.utf16_start, self.utf16 - tag.utf16_start
        entity: Json = {"offset": start, "length": length}
        if tag.name in _SIMPLE_TAG_TYPES:
            entity["type"] = _SIMPLE_TAG_TYPES[tag.name]
        elif tag.name == "a":
            link = self.link_entity(tag)
            if link is None:
                return
            entity.update(link)
        elif tag.name == "code":
            entity.update(type="code", language=tag.argument)
        elif tag.name == "pre":
            self.close_pre(entity)
            return
        elif tag.name == "blockquote":
            entity["type"] = "expandable_blockquote" if tag.argument else "blockquote"
        else:
            if not tag.argument.isdigit():
                raise _parse_error("Invalid custom emoji identifier specified")
            entity.update(type="custom_emoji", custom_emoji_id=tag.argument)
        self.entities.append(entity)

    def close_pre(self, entity: Json) -> None:
        """Add a pre entity, merging ``<pre><code class="language-x">`` into one."""
        last = self.entities[-1] if self.entities else None
        if (
            last is not None
            and last["type"] == "code"
            and last["offset"] == entity["offset"]
            and last["length"] == entity["length"]
        ):
            self.entities.pop()
            entity["language"] = last.get("language", "")
        entity["type"] = "pre"
        self.entities.append(entity)

    def link_entity(self, tag: _OpenTag) -> Json | None:
        """Return the entity fields for ``<a>``, or None when Telegram drops the link."""
        url = tag.argument or "".join(self.out[tag.text_start :])
        user_match = re.fullmatch(r"tg://user\?id=(\d{1,19})", url.strip(), re.IGNORECASE)
        if user_match:
            user = self.resolve_user(int(user_match.group(1)))
            return {"type": "text_mention", "user": user} if user else None
        normalized = normalize_url(url)
        return {"type": "text_link", "url": normalized} if normalized else None


def _tag_argument(tag: str, attr: str, value: str, current: str) -> str:
    """Return the argument a tag keeps from one of its attributes."""
    if tag == "a" and attr == "href":
        return value
    if tag == "code" and attr == "class" and value.startswith("language-"):
        return value[len("language-") :]
    if tag == "span" and attr == "class" and value.startswith("tg-"):
        return value[len("tg-") :]
    if tag == "tg-emoji" and attr == "emoji-id":
        return value
    if tag == "blockquote" and attr == "expandable":
        return "1"
    return current


def normalize_url(url: str) -> str | None:
    """Return the URL as Telegram stores it for a link, or None when it is not a link."""
    url = url.strip()
    if not url or any(ch in url for ch in ' \n\t<>"'):
        return None
    parts = urlsplit(url if "://" in url else f"http://{url}")
    if parts.scheme.lower() in ("tg", "ton"):
        return url
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return None
    if "." not in parts.hostname and parts.hostname != "localhost":
        return None
    text = parts.geturl()
    return text if parts.path else text.replace(parts.netloc, parts.netloc + "/", 1)


def parse_html(
    source: str, *, resolve_user: Callable[[int], Json | None] | None = None
) -> tuple[str, list[Json]]:
    """Parse Telegram HTML into plain text and entities (UTF-16 offsets).

    The sandbox is stricter than Telegram about one thing: a bare ``&`` that is not
    an entity is an error here, so unescaped player text is caught.

    Args:
        source: the bot's text with ``parse_mode=HTML``.
        resolve_user: maps a ``tg://user?id=`` link to a user, or None to drop it.

    Returns:
        The plain text and its entities, nested entities inside code/pre removed.

    Raises:
        ApiError: 400 ``Bad Request: can't parse entities: ...``.
    """
    parser = _HtmlParser(source, resolve_user or (lambda _user_id: None))
    text, entities = parser.parse()
    return text, _drop_nested_in_code(entities)


def _drop_nested_in_code(entities: list[Json]) -> list[Json]:
    """Remove entities inside code or pre, as Telegram does; sort the rest."""
    blocks = [e for e in entities if e["type"] in ("code", "pre")]
    kept = []
    for entity in entities:
        inside = any(
            block is not entity
            and block["offset"] <= entity["offset"]
            and entity["offset"] + entity["length"] <= block["offset"] + block["length"]
            for block in blocks
        )
        if not inside:
            kept.append(_without_empty_language(entity))
    return sorted(kept, key=lambda e: (e["offset"], -e["length"]))


def _without_empty_language(entity: Json) -> Json:
    if entity["type"] == "code" or ("language" in entity and not entity["language"]):
        return {k: v for k, v in entity.items() if k != "language"}
    return entity


_TRIM = " \t\r\n\v\f"
_TEXT_BUTTONS_UNALLOWED = (
    "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"
)


def trim_formatted(text: str, entities: list[Json]) -> tuple[str, list[Json]]:
    """Strip outer whitespace as Telegram does, clipping entities to the kept text."""
    stripped = text.strip(_TRIM)
    if stripped == text:
        return text, entities
    lead = utf16_len(text[: len(text) - len(text.lstrip(_TRIM))])
    end = lead + utf16_len(stripped)
    kept = []
    for entity in entities:
        start = max(entity["offset"], lead)
        stop = min(entity["offset"] + entity["length"], end)
        if stop > start:
            kept.append({**entity, "offset": start - lead, "length": stop - start})
    return stripped, kept


_DETECTORS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "bot_command",
        re.compile(r"(?<![\w/<>.])/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,32})?(?![\w/@])"),
    ),
    ("mention", re.compile(r"(?<![\w@])@[A-Za-z][A-Za-z0-9_]{3,31}(?![\w@])")),
    ("url", re.compile(r"(?<![\w@])https?://[^\s<>\"]+[^\s<>\".,;:!?)\]'}]")),
)
_OPAQUE_TYPES = frozenset({"code", "pre", "text_link", "text_mention", "custom_emoji"})


def detect_entities(text: str, entities: list[Json]) -> list[Json]:
    """Add the commands, mentions and links Telegram finds in any message text."""
    offsets: list[int] | None = None
    blocking = [e for e in entities if e["type"] in _OPAQUE_TYPES]
    detected: list[Json] = []
    for kind, pattern in _DETECTORS:
        for match in pattern.finditer(text):
            offsets = offsets or _utf16_offsets(text)
            start, stop = offsets[match.start()], offsets[match.end()]
            if not any(_overlaps(start, stop, e) for e in blocking):
                entity = {"type": kind, "offset": start, "length": stop - start}
                detected.append(entity)
                blocking.append(entity)
    return sorted(entities + detected, key=lambda e: (e["offset"], -e["length"]))


def _overlaps(start: int, stop: int, entity: Json) -> bool:
    """Whether [start, stop) intersects the entity."""
    end: int = entity["offset"] + entity["length"]
    return start < end and entity["offset"] < stop


def _checked_entities(text: str, entities: Any) -> list[Json]:
    """Validate entities passed with a text (instead of a parse mode)."""
    if entities is None:
        return []
    total = utf16_len(text)
    if not isinstance(entities, list):
        raise _parse_error("entities must be an Array")
    for entity in entities:
        if not (
            isinstance(entity, dict)
            and isinstance(entity.get("type"), str)
            and isinstance(entity.get("offset"), int)
            and isinstance(entity.get("length"), int)
            and entity["offset"] >= 0
            and entity["length"] > 0
            and entity["offset"] + entity["length"] <= total
        ):
            raise _parse_error(f"invalid entity {entity!r}")
    return [dict(entity) for entity in entities]


def format_text(
    text: str,
    parse_mode: str | None,
    entities: list[Json] | None,
    *,
    resolve_user: Callable[[int], Json | None],
    max_length: int,
    empty_error: str,
) -> tuple[str, list[Json]]:
    """Parse, trim, check the length of and detect entities in a text or caption."""
    mode = (parse_mode or "").lower()
    if mode == "html":
        plain, found = parse_html(text, resolve_user=resolve_user)
    elif mode in ("", "none"):
        plain, found = text, _checked_entities(text, entities)
    elif mode in ("markdown", "markdownv2"):
        raise bad_request(f"the sandbox does not support parse_mode {parse_mode}; use HTML")
    else:
        raise bad_request(f"unsupported parse_mode {parse_mode}")
    plain, found = trim_formatted(plain, found)
    if not plain and empty_error:
        raise bad_request(empty_error)
    if len(plain) > max_length:
        raise bad_request(
            "message is too long"
            if max_length == MAX_TEXT_LENGTH
            else "message caption is too long"
        )
    return plain, detect_entities(plain, found)
