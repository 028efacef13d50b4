"""Database rows. Players and chats are found by their Telegram id (``tg_id``)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from tortoise import fields
from tortoise.models import Model


class ChatKind(StrEnum):
    PRIVATE = "private"
    GROUP = "group"
    SUPERGROUP = "supergroup"
    CHANNEL = "channel"


class Player(Model):
    """A Telegram user who has used the bot."""

    id = fields.BigIntField(primary_key=True)
    tg_id = fields.BigIntField(unique=True)
    first_name = fields.CharField(max_length=128, default="")
    last_name = fields.CharField(max_length=128, default="")
    username = fields.CharField(max_length=64, default="")
    started_private = fields.BooleanField(default=False)
    # the catalogue their Telegram app asked for (core/words/i18n.py), last time they used the bot
    language = fields.CharField(max_length=8, default="en", db_default="en")
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "player"


class Chat(Model):
    """A Telegram chat the bot has been used in."""

    id = fields.BigIntField(primary_key=True)
    tg_id = fields.BigIntField(unique=True)
    kind = fields.CharEnumField(ChatKind, max_length=16)
    title = fields.CharField(max_length=255, default="")
    app_token = fields.CharField(max_length=32, unique=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "chat"


class RollRecord(Model):
    """One dice roll made with /roll, kept for the log."""

    id = fields.BigIntField(primary_key=True)
    chat: fields.ForeignKeyRelation[Chat] = fields.ForeignKeyField(
        "models.Chat", related_name="rolls", on_delete=fields.CASCADE
    )
    player: fields.ForeignKeyRelation[Player] = fields.ForeignKeyField(
        "models.Player", related_name="rolls", on_delete=fields.CASCADE
    )
    notation = fields.TextField()  # as long as a valid roll is (core/rules/dice.py)
    label = fields.CharField(max_length=160, default="")
    total = fields.BigIntField()
    faces: fields.Field[list[list[list[int]]]] = fields.JSONField()
    created_at = fields.DatetimeField(auto_now_add=True)
    topic_id = fields.BigIntField(default=0, db_default=0)  # the forum topic; 0: none/General
    # the game live in that topic when it was rolled (None: no game, or rolled in private)
    campaign_id = fields.BigIntField(null=True)
    # a secret roll: the Telegram ids of those who saw it (the roller, a GM); None: public
    seen_by: fields.Field[list[int] | None] = fields.JSONField(null=True)
    revealed = fields.BooleanField(default=False, db_default=False)
    # a game system's own roll: its name, version, inputs, outcome and chance
    # (core.rules.dicesystem.table.history); None: dice notation
    system: fields.Field[dict[str, object] | None] = fields.JSONField(null=True)

    class Meta:
        table = "roll_record"
        indexes = (
            ("player_id", "created_at"),
            ("chat_id", "created_at"),
            ("chat_id", "topic_id", "id"),
        )


class CampaignStatus(StrEnum):
    ACTIVE = "active"
    PAUSED = "paused"
    ARCHIVED = "archived"


class Campaign(Model):
    """One game played in one topic of one chat. At most one per topic is live.

    ``topic_id`` is the forum topic's ``message_thread_id``; 0 is a plain group, or
    a forum's General topic.
    """

    id = fields.BigIntField(primary_key=True)
    chat: fields.ForeignKeyRelation[Chat] = fields.ForeignKeyField(
        "models.Chat", related_name="campaigns", on_delete=fields.CASCADE
    )
    live_chat_id = fields.BigIntField(null=True)  # chat id while not archived
    topic_id = fields.BigIntField(default=0, db_default=0)
    system = fields.CharField(max_length=32)
    status = fields.CharEnumField(CampaignStatus, max_length=16, default=CampaignStatus.ACTIVE)
    host: fields.ForeignKeyRelation[Player] = fields.ForeignKeyField(
        "models.Player", related_name="hosted", on_delete=fields.CASCADE
    )
    app_token = fields.CharField(max_length=32, unique=True)
    state: fields.Field[dict[str, object]] = fields.JSONField(default=dict)
    version = fields.IntField(default=0)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)
    ended_at = fields.DatetimeField(null=True)  # when it last ended (it may be resumed later)
    # the catalogue the group reads (core/words/i18n.py): the host's language, or /language
    language = fields.CharField(max_length=8, default="en", db_default="en")

    class Meta:
        table = "campaign"
        unique_together = (("live_chat_id", "topic_id"),)


class ForumTopic(Model):
    """A forum topic's name, as its service messages tell it (created, edited)."""

    id = fields.BigIntField(primary_key=True)
    chat_tg_id = fields.BigIntField()
    thread_id = fields.BigIntField()
    name = fields.CharField(max_length=128)
    closed = fields.BooleanField(default=False)
    # the bot said once in General that it cannot post here
    refused = fields.BooleanField(default=False)
    # closing the topic paused its game (reopening resumes it, not a host's pause)
    paused_game = fields.BooleanField(default=False)

    class Meta:
        table = "forum_topic"
        unique_together = (("chat_tg_id", "thread_id"),)


class Member(Model):
    """A player in a campaign, with their roles and sheet."""

    id = fields.BigIntField(primary_key=True)
    campaign: fields.ForeignKeyRelation[Campaign] = fields.ForeignKeyField(
        "models.Campaign", related_name="members", on_delete=fields.CASCADE
    )
    player: fields.ForeignKeyRelation[Player] = fields.ForeignKeyField(
        "models.Player", related_name="memberships", on_delete=fields.CASCADE
    )
    roles: fields.Field[list[str]] = fields.JSONField(default=list)
    sheet: fields.Field[dict[str, object]] = fields.JSONField(default=dict)
    active = fields.BooleanField(default=True)
    joined_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "member"
        unique_together = (("campaign", "player"),)


class Panel(Model):
    """One running procedure shown as one message edited in place."""

    id = fields.BigIntField(primary_key=True)
    campaign: fields.ForeignKeyRelation[Campaign] = fields.ForeignKeyField(
        "models.Campaign", related_name="panels", on_delete=fields.CASCADE
    )
    campaign_id: int
    kind = fields.CharField(max_length=32)
    # What a newer panel in the chat supersedes (GameSystem.procedure); None: the kind.
    procedure = fields.CharField(max_length=64, null=True)
    state: fields.Field[dict[str, object]] = fields.JSONField(default=dict)
    version = fields.IntField(default=0)
    closed = fields.BooleanField(default=False)
    chat_tg_id = fields.BigIntField()
    message_id = fields.BigIntField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "panel"
        indexes = (("chat_tg_id", "message_id"),)


class ProcessedUpdate(Model):
    """A Telegram update whose changes were committed, so a redelivery changes nothing."""

    id = fields.BigIntField(primary_key=True)
    update_id = fields.BigIntField(unique=True)
    created_at = fields.DatetimeField(auto_now_add=True, db_index=True)

    class Meta:
        table = "processed_update"


class LockFence(Model):
    """The largest fencing token that committed a change under a lock key.

    A holder whose token is smaller held the key before a later holder did: its
    lease ran out, so it may not commit (see ``core.store.unit``).
    """

    lock_key = fields.CharField(max_length=64, primary_key=True)
    token = fields.BigIntField()

    class Meta:
        table = "lock_fence"


class DeadLetter(Model):
    """An update the bot can never use (unreadable, or its handling failed unexpectedly).

    Kept for an operator to look at (``python -m tgbot dead-letters``), so the
    webhook can acknowledge it and Telegram moves on to the updates behind it.
    """

    id = fields.BigIntField(primary_key=True)
    update_id = fields.BigIntField(null=True)
    reason = fields.CharField(max_length=300)
    body = fields.TextField()
    received_at = fields.DatetimeField(auto_now_add=True, db_index=True)
    # when ``python -m tgbot dead-letters replay`` handled it again (None: not replayed)
    replayed_at = fields.DatetimeField(null=True)

    class Meta:
        table = "dead_letter"


class OutboxRow(Model):
    """One thing a committed change sends to Telegram (a message, an edit, a private note).

    Written in the same transaction as the change; sent after the commit by the worker
    that made it, else by a redelivery of the same update or by a worker's sweeper
    (core/store/outbox.py). ``claimed_until`` is a lease (seconds since the epoch): only one
    worker sends a row at a time.
    """

    id = fields.BigIntField(primary_key=True)
    update_id = fields.BigIntField(null=True, db_index=True)  # None: a Mini App change
    kind = fields.CharField(max_length=16)
    # an edit's message ("chat:message"): a newer edit of it supersedes an older one
    target = fields.CharField(max_length=48, default="", db_index=True)
    payload: fields.Field[dict[str, Any]] = fields.JSONField()
    claimed_until = fields.FloatField(default=0.0)
    claimed_by = fields.CharField(max_length=32, default="")
    sent = fields.BooleanField(default=False, db_index=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "outbox"


class LogEntry(Model):
    """One line of a campaign's log (a roll, a detail...), in the order it happened."""

    id = fields.BigIntField(primary_key=True)
    campaign: fields.ForeignKeyRelation[Campaign] = fields.ForeignKeyField(
        "models.Campaign", related_name="log_entries", on_delete=fields.CASCADE
    )
    campaign_id: int
    kind = fields.CharField(max_length=16)
    text = fields.CharField(max_length=500)
    player_ids: fields.Field[list[int]] = fields.JSONField(default=list)
    # The line as a message id and its values (core.rules.log.Words), to show it in each
    # reader's language; None for lines kept before, shown as their text.
    words: fields.Field[dict[str, Any] | None] = fields.JSONField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "log_entry"
        indexes = (("campaign_id", "id"),)


class CardPicture(Model):
    """A location card's picture (PNG or JPEG, checked by its bytes), shown with its face."""

    id = fields.BigIntField(primary_key=True)
    campaign: fields.ForeignKeyRelation[Campaign] = fields.ForeignKeyField(
        "models.Campaign", related_name="card_pictures", on_delete=fields.CASCADE
    )
    campaign_id: int
    key = fields.CharField(max_length=32)  # the card's picture key in the campaign state
    author_tg_id = fields.BigIntField()
    media_type = fields.CharField(max_length=16)
    data = fields.BinaryField()
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "card_picture"
        unique_together = (("campaign", "key"),)


class Portrait(Model):
    """A character's portrait in one game (PNG or JPEG, checked by its bytes), shown on
    the sheet and sent with the character's posts. ``digest`` names the bytes;
    ``file_id`` is Telegram's id of them once it took them (reused, never re-uploaded)."""

    id = fields.BigIntField(primary_key=True)
    campaign: fields.ForeignKeyRelation[Campaign] = fields.ForeignKeyField(
        "models.Campaign", related_name="portraits", on_delete=fields.CASCADE
    )
    campaign_id: int
    player_tg_id = fields.BigIntField()  # whose character
    media_type = fields.CharField(max_length=16)
    data = fields.BinaryField()
    digest = fields.CharField(max_length=32)
    file_id = fields.CharField(max_length=256, null=True)
    set_by_tg_id = fields.BigIntField()
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "portrait"
        unique_together = (("campaign", "player_tg_id"),)


class PendingNote(Model):
    """A private message the bot could not deliver yet (the player never started it or
    blocked it); it is sent when the player opens the private chat again."""

    id = fields.BigIntField(primary_key=True)
    player_tg_id = fields.BigIntField(db_index=True)
    text = fields.TextField()
    markup: fields.Field[dict[str, object] | None] = fields.JSONField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "pending_note"


class JobRun(Model):
    """When a periodic job last ran anywhere, so several workers run it once between them."""

    id = fields.BigIntField(primary_key=True)
    name = fields.CharField(max_length=64, unique=True)
    ran_at = fields.DatetimeField()

    class Meta:
        table = "job_run"


class UndoStep(Model):
    """One recent step of a campaign, with what it replaced, so its author can take it back.

    Every step a player takes on a panel or in the Mini App leaves a row, undoable
    or not (a later row is "someone acted on top"); only the last few per campaign
    are kept. The before-images restore the campaign, the touched sheets and the
    touched panel exactly, and a turn order step's order (``turns``); the ``*_after``
    versions tell whether anything else changed them since, and the ``*_before`` ones
    which earlier step an undo leads back to (both are moved on to the undo's new
    versions, see ``core.campaigns.undo``).
    """

    id = fields.BigIntField(primary_key=True)
    campaign: fields.ForeignKeyRelation[Campaign] = fields.ForeignKeyField(
        "models.Campaign", related_name="undo_steps", on_delete=fields.CASCADE
    )
    campaign_id: int
    actor_tg_id = fields.BigIntField()
    label = fields.CharField(max_length=160)
    rolled = fields.BooleanField(default=False)
    final = fields.BooleanField(default=False)
    revealed = fields.BooleanField(default=False)  # it showed someone something, or finished
    undone = fields.BooleanField(default=False)
    campaign_state: fields.Field[dict[str, object] | None] = fields.JSONField(null=True)
    campaign_version_before = fields.IntField()
    campaign_version_after = fields.IntField()
    sheets: fields.Field[dict[str, object]] = fields.JSONField(default=dict)  # member id -> sheet
    panel_id = fields.BigIntField(null=True)
    panel_state: fields.Field[dict[str, object] | None] = fields.JSONField(null=True)
    panel_closed = fields.BooleanField(default=False)
    panel_version_before = fields.IntField(null=True)
    panel_version_after = fields.IntField(null=True)
    # a turn order's step (/turns, /next): the order before and after it, as stored
    turns: fields.Field[dict[str, Any] | None] = fields.JSONField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "undo_step"
        indexes = (("campaign_id", "id"),)


class RequestKey(Model):
    """A Mini App change's idempotency key (``Idempotency-Key``), written in the change's
    own transaction, with the answer it got, so a retry replays that answer.

    See ``core.store.request_keys``; kept for ``KEEP_REQUEST_KEYS`` (core/store/housekeeping.py).
    """

    id = fields.BigIntField(primary_key=True)
    user_tg_id = fields.BigIntField()
    idem_key = fields.CharField(max_length=100)
    fingerprint = fields.CharField(max_length=64)  # sha256 of method, path and body
    status = fields.IntField(null=True)  # the answer, once the change's request sent it
    response = fields.TextField(null=True)
    created_at = fields.DatetimeField(db_index=True)

    class Meta:
        table = "request_key"
        unique_together = (("user_tg_id", "idem_key"),)


class StoryLink(Model):
    """A campaign's story published behind a secret link (core/views/story.py): read-only, for
    anyone holding the link, until the host withdraws it (then the link answers 410)."""

    id = fields.BigIntField(primary_key=True)
    campaign: fields.ForeignKeyRelation[Campaign] = fields.ForeignKeyField(
        "models.Campaign", related_name="story_links", on_delete=fields.CASCADE
    )
    campaign_id: int
    secret = fields.CharField(max_length=64, unique=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    withdrawn_at = fields.DatetimeField(null=True)

    class Meta:
        table = "story_link"


class InlineRoll(Model):
    """A roll made from an inline query (``@bot 2d6+3`` in any chat), once, when the
    player picked the offer: kept by the inline message it was shown in, so a
    redelivered chosen result shows the same dice again. Telegram tells no chat for an
    inline message, so it is kept per player and stays out of every chat's history."""

    id = fields.BigIntField(primary_key=True)
    inline_message_id = fields.CharField(max_length=255, unique=True)
    player: fields.ForeignKeyRelation[Player] = fields.ForeignKeyField(
        "models.Player", related_name="inline_rolls", on_delete=fields.CASCADE
    )
    notation = fields.TextField()  # as long as a valid roll is (core/rules/dice.py)
    label = fields.CharField(max_length=160, default="")
    total = fields.BigIntField()
    faces: fields.Field[list[list[list[int]]]] = fields.JSONField()
    text = fields.TextField()  # the message as it was edited to show the dice (HTML)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "inline_roll"
        indexes = (("player_id", "created_at"),)


class SavedRoll(Model):
    """A roll a player saved under a name (core/campaigns/saved_rolls.py): their own, everywhere
    (``owner_tg_id``), or the table's, saved by a game's host for everyone playing in a
    chat's topic (``table_chat_tg_id`` and ``topic_id``)."""

    id = fields.BigIntField(primary_key=True)
    owner_tg_id = fields.BigIntField(null=True)
    table_chat_tg_id = fields.BigIntField(null=True)
    topic_id = fields.BigIntField(default=0, db_default=0)
    name = fields.CharField(max_length=32)  # as the player typed it
    name_key = fields.CharField(max_length=32)  # casefolded, for lookup
    text = fields.CharField(max_length=1000)  # the dice notation, as typed
    # Before the notation changed what this text means: the text as it was then, until
    # its owner has been shown the old and new reading once ("" once shown, or never).
    was_text = fields.CharField(max_length=1000, default="", db_default="")
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "saved_roll"
        unique_together = (
            ("owner_tg_id", "name_key"),
            ("table_chat_tg_id", "topic_id", "name_key"),
        )


class SavedList(Model):
    """A ``/saved`` list on screen (core/campaigns/saved_rolls.py): the message showing a
    player's saved rolls (and, in a group, its table's), redrawn when they change and
    retired when the player asks for a newer list in the same chat's topic."""

    id = fields.BigIntField(primary_key=True)
    chat_tg_id = fields.BigIntField()
    message_id = fields.BigIntField()
    owner_tg_id = fields.BigIntField()
    topic_id = fields.BigIntField(default=0, db_default=0)
    in_group = fields.BooleanField(default=False, db_default=False)  # shows the table's too
    language = fields.CharField(max_length=8, default="en", db_default="en")
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "saved_list"
        unique_together = (("chat_tg_id", "message_id"),)
        indexes = (("owner_tg_id",), ("chat_tg_id", "topic_id"))


class GameNudges(Model):
    """A game's reminders and turn order, for games played over days (core/store/reminders.py).

    ``wait_minutes``: how long the table waits on a player before a reminder (None: off);
    ``since``: when the table last moved on (seconds since the epoch; 0: not yet);
    ``muted``: the players who asked for no reminders in this game;
    ``turn_order``: :class:`core.rules.turns.TurnOrder` as stored, or None.
    """

    id = fields.BigIntField(primary_key=True)
    campaign: fields.OneToOneRelation[Campaign] = fields.OneToOneField(
        "models.Campaign", related_name="nudges", on_delete=fields.CASCADE
    )
    wait_minutes = fields.IntField(null=True)
    since = fields.FloatField(default=0.0)
    muted: fields.Field[list[int]] = fields.JSONField(default=list)
    turn_order: fields.Field[dict[str, Any] | None] = fields.JSONField(null=True)

    class Meta:
        table = "game_nudges"


class PlayerQuiet(Model):
    """A player's quiet hours, on their own clock: ``zone`` is the name or UTC offset
    their device gave (``Europe/Moscow``, ``+03:00``); ``start``/``end`` are ``HH:MM``."""

    id = fields.BigIntField(primary_key=True)
    player_tg_id = fields.BigIntField(unique=True)
    start = fields.CharField(max_length=5)
    end = fields.CharField(max_length=5)
    zone = fields.CharField(max_length=64)

    class Meta:
        table = "player_quiet"


class ReminderRow(Model):
    """The next reminder to one player a game waits on: private, then the group line.

    At most one per player and game. ``due_at`` and ``claimed_until`` are seconds since
    the epoch; a worker claims a due row as it claims outbox rows (a lease, one winner;
    a dead worker's rows are taken over at once on PostgreSQL).
    """

    id = fields.BigIntField(primary_key=True)
    campaign: fields.ForeignKeyRelation[Campaign] = fields.ForeignKeyField(
        "models.Campaign", related_name="reminders", on_delete=fields.CASCADE
    )
    player_tg_id = fields.BigIntField()
    stage = fields.CharField(max_length=8)
    due_at = fields.FloatField(db_index=True)
    claimed_until = fields.FloatField(default=0.0)
    claimed_by = fields.CharField(max_length=32, default="")

    class Meta:
        table = "reminder"
        unique_together = (("campaign", "player_tg_id"),)


class PlayerSeen(Model):
    """When a player last acted in a game, by a command or a press, and the newest log
    line then, so a player back after a while gets what happened since.

    ``at``: seconds since the epoch, by the bot's clock (core/views/away.py).
    """

    id = fields.BigIntField(primary_key=True)
    campaign: fields.ForeignKeyRelation[Campaign] = fields.ForeignKeyField(
        "models.Campaign", related_name="seen", on_delete=fields.CASCADE
    )
    campaign_id: int
    player_tg_id = fields.BigIntField()
    at = fields.FloatField()
    log_id = fields.BigIntField(default=0)

    class Meta:
        table = "player_seen"
        unique_together = (("campaign", "player_tg_id"),)


class OwnSystem(Model):
    """A game system a group wrote for itself (core/campaigns/own_systems.py): its key and
    names (unique in the group, and apart from the library's), the version now in use,
    and the link token it is shared by (none until shared). Each saved text is an
    :class:`OwnSystemVersion`."""

    id = fields.BigIntField(primary_key=True)
    chat_tg_id = fields.BigIntField(db_index=True)
    key = fields.CharField(max_length=32)
    name_en = fields.CharField(max_length=60)
    name_ru = fields.CharField(max_length=60)
    version = fields.IntField(default=1)  # the newest saved version
    share_token = fields.CharField(max_length=32, null=True, unique=True)
    created_by_tg_id = fields.BigIntField()
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_by_tg_id = fields.BigIntField()
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "own_system"
        unique_together = (("chat_tg_id", "key"),)


class OwnSystemDraft(Model):
    """A game system a host is writing step by step by reply (/system new alone): the
    step asked now, the answers so far and the message that asked, one per host and
    group (core/campaigns/system_drafts.py)."""

    id = fields.BigIntField(primary_key=True)
    chat_tg_id = fields.BigIntField()
    author_tg_id = fields.BigIntField()
    step = fields.CharField(max_length=16)
    answers: fields.Field[dict[str, Any]] = fields.JSONField(default=dict)
    asked_message_id = fields.BigIntField(null=True)  # the bot's question, replied to
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "own_system_draft"
        unique_together = (("chat_tg_id", "author_tg_id"),)


class OwnSystemVersion(Model):
    """One saved text of a group's own system: every version is kept, so a roll or a
    game started under it still reads it."""

    id = fields.BigIntField(primary_key=True)
    system: fields.ForeignKeyRelation[OwnSystem] = fields.ForeignKeyField(
        "models.OwnSystem", related_name="versions", on_delete=fields.CASCADE
    )
    version = fields.IntField()
    text = fields.TextField()
    saved_by_tg_id = fields.BigIntField()
    saved_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "own_system_version"
        unique_together = (("system", "version"),)
