"""Telegram's HTML parse mode in the sandbox: examples and properties."""

from __future__ import annotations

import html

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tgbot.sandbox.fake_api import ApiError, format_text, parse_html, trim_formatted, utf16_len


def test_nested_tags_give_nested_entities() -> None:
    text, entities = parse_html("<b>bold <i>both</i></b> &lt;tag&gt; &#128512;")
    assert text == "bold both <tag> 😀"
    assert entities == [
        {"type": "bold", "offset": 0, "length": 9},
        {"type": "italic", "offset": 5, "length": 4},
    ]


def test_offsets_count_utf16_units() -> None:
    text, entities = parse_html("🐉 <u>x</u>")
    assert text == "🐉 x"
    assert entities == [{"type": "underline", "offset": 3, "length": 1}]


def test_links_code_spoilers_and_quotes() -> None:
    source = (
        '<a href="https://example.org">site</a> <pre><code class="language-python">x=1</code></pre>'
        ' <span class="tg-spoiler">s</span> <tg-spoiler>t</tg-spoiler>'
        " <blockquote expandable>q</blockquote> <code>c</code>"
    )
    _, entities = parse_html(source)
    kinds = [(e["type"], e.get("url") or e.get("language")) for e in entities]
    assert kinds == [
        ("text_link", "https://example.org/"),
        ("pre", "python"),
        ("spoiler", None),
        ("spoiler", None),
        ("expandable_blockquote", None),
        ("code", None),
    ]


def test_mention_of_a_known_user() -> None:
    _, entities = parse_html(
        '<a href="tg://user?id=7">Ann</a>', resolve_user=lambda uid: {"id": uid}
    )
    assert entities == [{"type": "text_mention", "offset": 0, "length": 3, "user": {"id": 7}}]


@pytest.mark.parametrize(
    ("source", "detail"),
    [
        ("a < b", 'Unsupported start tag "" at byte offset 2'),
        ("<script>x</script>", 'Unsupported start tag "script" at byte offset 0'),
        ("<b>x", 'Can\'t find end tag corresponding to start tag "b"'),
        ("<b>x</i>", 'Unmatched end tag at byte offset 4, expected "</b>", found "</i>"'),
        ("x</b>", "Unexpected end tag at byte offset 1"),
        ("é <b", "Unclosed start tag at byte offset 3"),
        ("Tom & Jerry", 'Character "&" must be escaped as "&amp;" at byte offset 4'),
        ('<span class="x">y</span>', 'Tag "span" must have class "tg-spoiler" at byte offset 0'),
    ],
)
def test_errors_read_like_telegram(source: str, detail: str) -> None:
    with pytest.raises(ApiError) as caught:
        parse_html(source)
    assert caught.value.code == 400
    assert caught.value.description == f"Bad Request: can't parse entities: {detail}"


def test_trimming_clips_entities() -> None:
    text, entities = trim_formatted("  hi  ", [{"type": "bold", "offset": 0, "length": 4}])
    assert text == "hi"
    assert entities == [{"type": "bold", "offset": 0, "length": 2}]


def test_commands_are_detected_outside_code() -> None:
    text, entities = format_text(
        "/roll@stonetable_bot 2d6 <code>/not</code>",
        "HTML",
        None,
        resolve_user=lambda _: None,
        max_length=4096,
        empty_error="message text is empty",
    )
    assert text == "/roll@stonetable_bot 2d6 /not"
    assert {"type": "bot_command", "offset": 0, "length": 20} in entities
    assert not any(e["type"] == "bot_command" and e["offset"] == 25 for e in entities)


@given(st.text())
def test_escaped_text_round_trips(text: str) -> None:
    plain, entities = parse_html(html.escape(text, quote=False))
    assert plain == text
    assert entities == []


@given(st.text(), st.sampled_from(["b", "i", "u", "s", "code", "tg-spoiler"]))
def test_wrapped_escaped_text_gives_one_entity(text: str, tag: str) -> None:
    plain, entities = parse_html(f"<{tag}>{html.escape(text)}</{tag}>")
    assert plain == text
    assert len(entities) == (1 if text else 0)
    if text:
        assert entities[0]["offset"] == 0 and entities[0]["length"] == utf16_len(text)


_HTMLISH = st.text(alphabet=st.sampled_from(list("<>/&;#=\"' abiuspcodelqtx-gmrnkf0123")))


@given(st.one_of(st.text(), _HTMLISH))
def test_arbitrary_input_parses_or_fails_with_400(source: str) -> None:
    try:
        plain, entities = parse_html(source)
    except ApiError as error:
        assert error.code == 400
        assert error.description.startswith("Bad Request: can't parse entities: ")
        return
    total = utf16_len(plain)
    for entity in entities:
        assert entity["length"] > 0
        assert entity["offset"] >= 0
        assert entity["offset"] + entity["length"] <= total
