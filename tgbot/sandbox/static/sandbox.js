// The sandbox page: one group chat and a player's private chat with the bot.
// Bot text is never inserted as HTML: messages are built from text + entities.
"use strict";

(() => {
  const body = document.body;
  const PREFIX = body.dataset.prefix;
  const BOT_ID = Number(body.dataset.botId);
  const BOT_NAME = body.dataset.botName;
  const BOT_USERNAME = body.dataset.botUsername;
  const $ = (id) => document.getElementById(id);
  // Every catalogue's words; the page speaks the language of the player it plays as.
  const WORDS = JSON.parse($("words").textContent);
  let words = WORDS.en;
  const t = (key, vars = {}) =>
    (words[key] || WORDS.en[key] || key).replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ""));

  function applyWords() {
    const player = state.players.find((p) => p.id === state.userId);
    const code = String((player && player.language_code) || "en").toLowerCase().split(/[-_]/)[0];
    words = WORDS[code] || WORDS.en;
    document.documentElement.lang = WORDS[code] ? code : "en";
    const offered = Array.from($("language").options).some((option) => option.value === code);
    $("language").value = offered ? code : "en";
    document.querySelectorAll("[data-word]").forEach((node) => { node.textContent = t(node.dataset.word); });
    document.querySelectorAll("[data-word-label]").forEach((node) => {
      node.setAttribute("aria-label", t(node.dataset.wordLabel));
    });
    document.querySelectorAll("[data-word-placeholder]").forEach((node) => {
      node.setAttribute("placeholder", t(node.dataset.wordPlaceholder));
    });
  }

  const state = {
    userId: null,
    viewer: null, // whose view the chats hold
    players: [],
    chats: new Map(), // chat id -> {chat, messages: Map, pinned, commands, menu_button, unread}
    order: [],
    current: null,
    seq: 0,
    replyTo: null,
    replyHint: null, // {messageId, text}: a forced reply's hint for the input field
    groupId: null,
    theme: localStorage.getItem("sandbox.theme") || "light",
    typingTimers: new Map(),
    inline: { asked: 0, timer: null, query: null }, // the composer's "@bot query"
  };

  // ------------------------------------------------------------------ helpers

  function el(tag, props = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props)) {
      if (key === "class") node.className = value;
      else if (key === "dataset") Object.assign(node.dataset, value);
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value);
    }
    node.append(...children.filter((c) => c !== null && c !== undefined));
    return node;
  }

  async function post(action, payload) {
    const response = await fetch(`${PREFIX}/${action}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ user_id: state.userId, ...payload }),
    });
    const data = await response.json();
    if (!data.ok) throw new Error(data.error || "failed");
    return data;
  }

  function toast(text, kind = "") {
    const node = el("div", { class: `toast ${kind}` }, text);
    $("toasts").append(node);
    setTimeout(() => node.remove(), 3500);
  }

  function showAlert(text) {
    $("alert-text").textContent = text;
    const dialog = $("alert-dialog");
    if (!dialog.open) dialog.showModal();
  }

  function userName(user) {
    if (!user) return "";
    return [user.first_name, user.last_name].filter(Boolean).join(" ");
  }

  function chatName(chat) {
    return chat.type === "private" ? BOT_NAME : chat.title;
  }

  function initials(name) {
    return Array.from(name.trim()).slice(0, 1).join("").toUpperCase() || "?";
  }

  function timeOf(seconds) {
    // In the page's language (the player's), as their Telegram app would write it.
    const lang = document.documentElement.lang || [];
    return new Date(seconds * 1000).toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
  }

  function messagePreview(message) {
    if (!message) return "";
    if (message.text) return message.text;
    if (message.photo) return `🖼 ${message.caption || t("photo")}`;
    if (message.forum_topic_created) return `🗂 ${message.forum_topic_created.name}`;
    if (message.forum_topic_edited) return `✏️ ${message.forum_topic_edited.name || ""}`;
    if (message.forum_topic_closed) return "🔒 topic closed";
    if (message.forum_topic_reopened) return "🔓 topic reopened";
    return "";
  }

  // ------------------------------------------------------------------ entities

  const SAFE_SCHEMES = ["http:", "https:", "tg:"];

  function safeUrl(url) {
    try {
      return SAFE_SCHEMES.includes(new URL(url).protocol) ? url : null;
    } catch {
      return null;
    }
  }

  function entityNode(entity, content) {
    switch (entity.type) {
      case "bold": return el("b");
      case "italic": return el("i");
      case "underline": return el("u");
      case "strikethrough": return el("s");
      case "code": return el("code");
      case "spoiler": {
        const node = el("span", { class: "spoiler", title: t("spoiler") });
        node.addEventListener("click", () => node.classList.add("revealed"));
        return node;
      }
      case "pre": {
        const code = el("code");
        const pre = el("pre", { "data-language": entity.language || null }, code);
        return { outer: pre, inner: code };
      }
      case "blockquote": return el("blockquote");
      case "expandable_blockquote": {
        const node = el("blockquote", { class: "expandable" });
        node.addEventListener("click", () => node.classList.toggle("open"));
        return node;
      }
      case "text_link":
      case "url": {
        const url = safeUrl(entity.type === "url" ? content : entity.url);
        if (!url) return el("span");
        return el("a", {
          href: url, target: "_blank", rel: "noopener noreferrer",
          onclick: (event) => { event.preventDefault(); openLink(url); },
        });
      }
      case "bot_command":
        return el("a", {
          class: "command", href: "#",
          onclick: (event) => { event.preventDefault(); sendText(content); },
        });
      case "mention": return el("span", { class: "mention" });
      case "text_mention": return el("span", { class: "mention", title: userName(entity.user) });
      default: return el("span");
    }
  }

  function buildEntities(parent, text, entities, start, end) {
    let pos = start;
    let i = 0;
    while (i < entities.length) {
      const entity = entities[i];
      const from = Math.max(entity.offset, pos);
      const to = Math.min(entity.offset + entity.length, end);
      let j = i + 1;
      while (j < entities.length && entities[j].offset < entity.offset + entity.length) j++;
      if (to > from) {
        if (from > pos) parent.append(text.slice(pos, from));
        const made = entityNode(entity, text.slice(from, to));
        const outer = made.outer || made;
        buildEntities(made.inner || made, text, entities.slice(i + 1, j), from, to);
        parent.append(outer);
        pos = to;
      }
      i = j;
    }
    if (pos < end) parent.append(text.slice(pos, end));
  }

  function renderText(text, entities) {
    const node = el("div", { class: "text" });
    const sorted = (entities || []).slice().sort((a, b) => a.offset - b.offset || b.length - a.length);
    buildEntities(node, text, sorted, 0, text.length); // JS strings index UTF-16, like Telegram
    return node;
  }

  // ------------------------------------------------------------------ messages

  function renderKeyboard(message) {
    const rows = (message.reply_markup && message.reply_markup.inline_keyboard) || [];
    if (!rows.length) return null;
    const board = el("div", { class: "keyboard" });
    rows.forEach((row, r) => {
      const line = el("div", { class: "row" });
      row.forEach((button, c) => line.append(renderButton(message, button, r, c)));
      board.append(line);
    });
    return board;
  }

  function buttonKind(button) {
    if ("callback_data" in button) return "";
    if ("web_app" in button) return "⧉";
    if ("url" in button) return "↗";
    if ("switch_inline_query_current_chat" in button) return "↪";
    return "·";
  }

  function renderButton(message, button, row, column) {
    const kind = buttonKind(button);
    const node = el("button", { type: "button", title: button.url || button.callback_data || "" },
      button.text, kind ? el("span", { class: "kind", "aria-hidden": "true" }, kind) : null);
    node.addEventListener("click", () => pressButton(node, message, button, row, column));
    return node;
  }

  async function pressButton(node, message, button, row, column) {
    const chatId = message.chat.id;
    try {
      if ("callback_data" in button) {
        node.disabled = true;
        setTimeout(() => { node.disabled = false; }, 1500);
        await post("press", { chat_id: chatId, message_id: message.message_id, data: button.callback_data });
      } else if ("url" in button || "web_app" in button) {
        const result = await post("open", {
          chat_id: chatId, message_id: message.message_id, row, column, theme: state.theme,
        });
        followOpen(result, button.text);
      } else if ("switch_inline_query_current_chat" in button) {
        // Telegram types "@bot query" into this chat's composer
        const text = $("text");
        text.value = `@${BOT_USERNAME} ${button.switch_inline_query_current_chat}`;
        text.focus();
        text.dispatchEvent(new Event("input"));
      } else if ("copy_text" in button) {
        await navigator.clipboard.writeText(button.copy_text.text);
        toast(t("copied"));
      } else {
        toast(t("unsupported_button"));
      }
    } catch (error) {
      node.disabled = false;
      toast(error.message, "error");
    }
  }

  function followOpen(result, title) {
    if (result.action === "web_app") openMiniApp(result.url, title);
    else if (result.action === "start") selectChat(result.chat_id);
    else if (result.action === "external" && safeUrl(result.url)) window.open(result.url, "_blank", "noopener");
  }

  async function openLink(url) {
    try {
      const result = await post("link", { chat_id: entryFor(state.current).chat.id, url, theme: state.theme });
      followOpen(result, BOT_NAME);
    } catch (error) {
      toast(error.message, "error");
    }
  }

  const TOPIC_SERVICE = ["forum_topic_created", "forum_topic_edited", "forum_topic_closed", "forum_topic_reopened"];

  function renderMessage(message) {
    if (TOPIC_SERVICE.some((key) => key in message)) {
      // a topic's service message: one centred line, as Telegram shows it
      return el("li", {
        class: "message service",
        dataset: { messageId: String(message.message_id), from: "service" },
      }, el("span", { class: "hint" }, `${userName(message.from)}: ${messagePreview(message)}`));
    }
    const own = message.from && message.from.id === state.userId;
    const fromBot = message.from && message.from.id === BOT_ID;
    const item = el("li", {
      class: `message${own ? " own" : ""}`,
      dataset: { messageId: String(message.message_id), from: fromBot ? "bot" : "player" },
    });
    const bubble = el("div", { class: "bubble" });
    const via = message.via_bot
      ? el("span", { class: "via" }, t("via", { bot: `@${message.via_bot.username}` })) : null;
    if (!own && message.chat.type !== "private") {
      bubble.append(el("div", { class: "sender" }, userName(message.from), via ? " " : null, via));
    } else if (via) {
      bubble.append(el("div", { class: "sender" }, via));
    }
    if (message.reply_to_message && !message.reply_to_message.forum_topic_created) {
      const quoted = message.reply_to_message;
      bubble.append(el("button", {
        type: "button", class: "reply-quote", title: t("show_replied"),
        onclick: () => showMessage(quoted.message_id),
      }, el("b", {}, userName(quoted.from)), " ", messagePreview(quoted)));
    }
    if (message.photo) {
      const largest = message.photo[message.photo.length - 1];
      bubble.append(el("img", {
        class: "photo", alt: message.caption || t("photo"), loading: "lazy",
        src: `${PREFIX}/photo/${encodeURIComponent(largest.file_id)}`,
      }));
    }
    if (message.text) bubble.append(renderText(message.text, message.entities));
    if (message.caption) bubble.append(renderText(message.caption, message.caption_entities));
    const footer = el("div", { class: "footer" },
      message.edit_date ? el("span", { class: "edited" }, t("edited")) : null,
      el("time", {}, timeOf(message.date)),
      el("button", {
        type: "button", class: "ghost reply-action", title: t("reply_to_this"),
        "aria-label": t("reply"), onclick: () => startReply(message),
      }, `↩ ${t("reply")}`));
    bubble.append(footer);
    item.append(bubble);
    const keyboard = renderKeyboard(message);
    if (keyboard) item.append(keyboard);
    return item;
  }

  function showMessage(messageId) {
    // Like Telegram: tapping a quote scrolls to the message it quotes, and flashes it.
    const node = $("messages").querySelector(`[data-message-id="${messageId}"]`);
    if (!node) {
      toast(t("gone"));
      return;
    }
    node.scrollIntoView({ block: "center" });
    node.classList.remove("flash");
    void node.offsetWidth; // restart the animation
    node.classList.add("flash");
  }

  // ------------------------------------------------------------------ chats

  function entryFor(chatId) {
    return state.chats.get(chatId) || null;
  }

  // A forum group shows as one sub-chat per topic (General is topic 0), keyed
  // "<chat id>/<thread id>"; other chats are keyed by their id.
  function topicKey(chatId, thread) {
    return `${chatId}/${thread || 0}`;
  }

  function keyOf(message) {
    return message.chat.is_forum
      ? topicKey(message.chat.id, message.is_topic_message ? message.message_thread_id : 0)
      : message.chat.id;
  }

  function topicEntry(item, thread, name, closed) {
    const chat = { ...item.chat, title: `${item.chat.title} › ${name}` };
    const messages = new Map(item.messages
      .filter((m) => (m.is_topic_message ? m.message_thread_id : 0) === thread)
      .map((m) => [m.message_id, m]));
    return { ...item, chat, messages, unread: 0, thread, closed, forumId: item.chat.id };
  }

  function addTopic(message) {
    // a topic opened while the page is open
    const key = keyOf(message);
    if (state.chats.has(key) || !message.forum_topic_created) return;
    const general = entryFor(topicKey(message.chat.id, 0));
    if (!general) return;
    const item = { ...general, chat: message.chat, messages: [] };
    state.chats.set(key, topicEntry(item, message.message_thread_id, message.forum_topic_created.name, false));
    state.order.push(key);
  }

  function me() {
    return state.players.find((p) => p.id === state.userId);
  }

  function renderChatList() {
    const list = $("chats");
    list.replaceChildren();
    for (const chatId of state.order) {
      const entry = entryFor(chatId);
      const name = chatName(entry.chat);
      const last = Array.from(entry.messages.values()).pop();
      const item = el("button", {
        type: "button", class: "chat-item", "aria-current": String(chatId === state.current),
        dataset: { chatId: String(chatId) }, onclick: () => selectChat(chatId),
      },
      el("span", { class: `avatar${entry.chat.type === "private" ? "" : " group"}`, "aria-hidden": "true" },
        initials(name)),
      el("span", { class: "meta" },
        el("span", { class: "name" }, name),
        el("span", { class: "preview hint" }, messagePreview(last) || (entry.chat.type === "private" ? t("private_chat") : t("group")))),
      entry.unread ? el("span", { class: "badge" }, String(entry.unread)) : null);
      list.append(item);
    }
  }

  function renderHeader(entry) {
    const name = chatName(entry.chat);
    $("chat-title").textContent = name;
    $("chat-avatar").textContent = initials(name);
    $("chat-avatar").className = `avatar${entry.chat.type === "private" ? "" : " group"}`;
    $("chat-subtitle").textContent = entry.chat.type === "private"
      ? `bot · @${body.dataset.botUsername}`
      : `${entry.closed ? "🔒 " : ""}${t("players_and_bot", { count: state.players.length })}`;
    const toggle = $("topic-toggle");
    toggle.hidden = !entry.thread;
    toggle.textContent = entry.closed ? t("reopen_topic") : t("close_topic");
    const pinned = entry.pinned && entry.messages.get(entry.pinned);
    $("pinned").hidden = !pinned;
    $("pinned").textContent = pinned ? `📌 ${messagePreview(pinned)}` : "";
  }

  function renderComposer(entry) {
    const player = me();
    const locked = entry.chat.type === "private" && player && (!player.started || player.blocked);
    $("composer").hidden = locked;
    $("start-bar").hidden = !locked;
    $("start-button").textContent = player && player.blocked ? t("restart") : t("start");
    const menu = $("menu-button");
    const webApp = entry.menu_button && entry.menu_button.type === "web_app";
    menu.textContent = webApp ? entry.menu_button.text : "/";
    menu.classList.toggle("web-app", Boolean(webApp));
    menu.title = webApp ? t("open_app") : t("commands");
    renderReplyBar();
  }

  function renderMessages(entry) {
    const list = $("messages");
    const items = Array.from(entry.messages.values()).map(renderMessage);
    if (!items.length) {
      const player = me();
      const locked = entry.chat.type === "private" && player && !player.started;
      if (locked && entry.description) {
        // Telegram shows the bot's description in an empty chat, before Start
        items.push(el("li", { class: "empty description", id: "bot-description" },
          el("strong", {}, t("what_can_it_do")), el("p", {}, entry.description)));
      }
      items.push(el("li", { class: "empty" },
        locked ? t("press_start", { bot: BOT_NAME }) : t("no_messages")));
    }
    list.replaceChildren(...items);
    list.scrollTop = list.scrollHeight;
  }

  function renderCurrent() {
    const entry = entryFor(state.current);
    if (!entry) return;
    entry.unread = 0;
    renderHeader(entry);
    renderMessages(entry);
    renderComposer(entry);
    renderChatList();
    $("command-list").hidden = true;
  }

  function selectChat(chatId) {
    if (!entryFor(chatId)) return;
    state.current = chatId;
    state.replyTo = null;
    hideInline();
    renderCurrent();
    if (entryFor(chatId).forcedReply) startForcedReply(entryFor(chatId));
    $("text").focus();
  }

  // ------------------------------------------------------------------ live updates

  function upsert(message, kind) {
    if (message.chat.is_forum) addTopic(message);
    const key = keyOf(message);
    const entry = entryFor(key);
    if (!entry) return;
    if (message.forum_topic_closed) entry.closed = true;
    if (message.forum_topic_reopened) entry.closed = false;
    if (message.forum_topic_edited && message.forum_topic_edited.name) {
      entry.chat = { ...entry.chat, title: `${message.chat.title} › ${message.forum_topic_edited.name}` };
    }
    const isNew = !entry.messages.has(message.message_id);
    entry.messages.set(message.message_id, message);
    if (key !== state.current) {
      if (isNew && kind === "message") entry.unread += 1;
      renderChatList();
      return;
    }
    const list = $("messages");
    const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 80;
    const node = renderMessage(message);
    const old = list.querySelector(`[data-message-id="${message.message_id}"]`);
    if (old) {
      old.replaceWith(node);
      node.classList.add("flash");
    } else {
      const empty = list.querySelector(".empty");
      if (empty) empty.remove();
      list.append(node);
    }
    if (nearBottom || message.from.id === state.userId) list.scrollTop = list.scrollHeight;
    renderHeader(entry);
    renderChatList();
  }

  // The markup that acts on the readers' apps, never part of the message: a forced reply
  // opens a reply to it in the composer of those it is meant for (all, or those a
  // selective one picks), its hint in the input field, as Telegram's apps do.
  function applyClientMarkup(event) {
    const markup = event.client_markup;
    const chosen = event.client_markup_for;
    if (!markup.force_reply || (chosen && !chosen.includes(state.userId))) return;
    const key = keyOf(event.message);
    const entry = entryFor(key);
    if (!entry) return;
    entry.forcedReply = { message: event.message, hint: markup.input_field_placeholder || "" };
    if (key === state.current) startForcedReply(entry);
  }

  function startForcedReply(entry) {
    const forced = entry.forcedReply;
    entry.forcedReply = null;
    state.replyHint = { messageId: forced.message.message_id, text: forced.hint };
    startReply(forced.message);
  }

  function removeMessage(chatId, messageId) {
    const key = Array.from(state.chats.keys()).find((k) =>
      (k === chatId || String(k).startsWith(`${chatId}/`)) && state.chats.get(k).messages.has(messageId));
    const entry = key === undefined ? null : entryFor(key);
    if (!entry) return;
    entry.messages.delete(messageId);
    if (key === state.current) {
      const old = $("messages").querySelector(`[data-message-id="${messageId}"]`);
      if (old) old.remove();
    }
    renderChatList();
  }

  function showTyping(chatId, action) {
    if (chatId !== state.current) return;
    const subtitle = $("chat-subtitle");
    subtitle.textContent = t(action === "typing" ? "typing" : "sending", { bot: BOT_NAME });
    clearTimeout(state.typingTimers.get(chatId));
    state.typingTimers.set(chatId, setTimeout(() => renderHeader(entryFor(chatId)), 5000));
  }

  function handleEvent(event) {
    // While a snapshot loads, hold events: applied now they would land in chats the
    // snapshot is about to replace, and a message sent meanwhile would vanish.
    if (state.pending) state.pending.push(event);
    else applyEvent(event);
  }

  function applyEvent(event) {
    state.seq = Math.max(state.seq, event.seq);
    switch (event.kind) {
      case "message":
      case "edit":
        upsert(event.message, event.kind);
        if (event.client_markup) applyClientMarkup(event);
        break;
      case "delete":
        removeMessage(event.chat_id, event.message_id);
        break;
      case "alert":
        if (event.user_id === state.userId && event.alert.text) {
          if (event.alert.show_alert) showAlert(event.alert.text);
          else toast(event.alert.text);
        }
        break;
      case "pin": {
        const entry = entryFor(event.chat_id);
        if (entry) entry.pinned = event.message_id;
        if (event.chat_id === state.current) renderHeader(entry);
        break;
      }
      case "chat_action":
        showTyping(event.chat_id, event.action);
        break;
      case "reset":
      case "topic_deleted":
      case "player":
      case "commands":
      case "menu_button":
        loadState();
        break;
      default:
        break;
    }
  }

  let source = null;
  function connect() {
    if (source) source.close();
    source = new EventSource(`${PREFIX}/events?since=${state.seq}`);
    source.onmessage = (message) => handleEvent(JSON.parse(message.data));
  }

  let loading = Promise.resolve();
  function loadState() {
    // One snapshot at a time; events that arrive meanwhile are applied after it.
    loading = loading.then(loadSnapshot, loadSnapshot);
    return loading;
  }

  async function loadSnapshot() {
    state.pending = [];
    let seq = -Infinity; // no snapshot: every held event still counts
    try {
      seq = await readSnapshot();
    } finally {
      const held = state.pending;
      state.pending = null;
      for (const event of held) if (event.seq > seq) applyEvent(event);
    }
  }

  async function readSnapshot() {
    const response = await fetch(`${PREFIX}/state?user_id=${state.userId}`);
    const data = await response.json();
    state.players = data.players;
    state.groupId = data.group_id;
    state.themes = data.themes;
    // The same player's view reloaded (a menu changed, a topic went): their unread
    // counts stay, as a client keeps them; another player's view starts at none.
    const previous = state.viewer === state.userId ? state.chats : new Map();
    state.viewer = state.userId;
    state.chats = new Map();
    state.order = [];
    for (const item of data.chats) {
      if (item.topics) {
        for (const [thread, name, closed] of [[0, t("general_topic"), false],
          ...item.topics.map((topic) => [topic.message_thread_id, topic.name, topic.is_closed])]) {
          const key = topicKey(item.chat.id, thread);
          state.chats.set(key, topicEntry(item, thread, name, closed));
          state.order.push(key);
        }
        continue;
      }
      const messages = new Map(item.messages.map((m) => [m.message_id, m]));
      state.chats.set(item.chat.id, { ...item, messages, unread: 0 });
      state.order.push(item.chat.id);
    }
    carryUnread(previous);
    state.seq = Math.max(state.seq, data.seq);
    if (!state.chats.has(state.current)) state.current = state.groupId;
    renderPlayers();
    applyWords();
    applyTheme();
    renderCurrent();
    return data.seq;
  }

  function carryUnread(previous) {
    // what was unread still is, and what came while the snapshot was read is too
    for (const [key, entry] of state.chats) {
      const before = previous.get(key);
      if (!before || key === state.current) continue;
      const arrived = [...entry.messages.keys()].filter((id) => !before.messages.has(id));
      entry.unread = before.unread + arrived.length;
    }
  }

  function renderPlayers() {
    const select = $("player");
    select.replaceChildren(...state.players.map((p) =>
      el("option", { value: String(p.id), selected: p.id === state.userId },
        `${userName(p)}${p.username ? ` (@${p.username})` : ""}`)));
  }

  // ------------------------------------------------------------------ composing

  async function sendText(text) {
    const clean = text.trim();
    if (!clean) return;
    try {
      const entry = entryFor(state.current);
      const replied = state.replyTo;
      await post("send", {
        chat_id: entry.chat.id, thread_id: entry.thread || null, text: clean,
        reply_to_message_id: replied ? replied.message_id : null,
      });
      // the bot may have asked for a reply meanwhile (a forced reply): that one stays
      if (state.replyTo === replied) state.replyTo = null;
      renderReplyBar();
    } catch (error) {
      toast(error.message, "error");
    }
  }

  function startReply(message) {
    state.replyTo = message;
    renderReplyBar();
    $("text").focus();
  }

  function renderReplyBar() {
    const bar = $("reply-bar");
    bar.hidden = !state.replyTo;
    $("reply-text").textContent = state.replyTo
      ? t("reply_to", { name: userName(state.replyTo.from), text: messagePreview(state.replyTo) })
      : "";
    const hint = state.replyTo && state.replyHint && state.replyHint.messageId === state.replyTo.message_id
      ? state.replyHint.text : "";
    $("text").setAttribute("placeholder", hint || t("placeholder"));
  }

  function renderCommandList(filter) {
    const entry = entryFor(state.current);
    const list = $("command-list");
    const commands = (entry && entry.commands) || [];
    const shown = commands.filter((c) => `/${c.command}`.startsWith(filter));
    list.replaceChildren(...shown.map((c) => el("li", {},
      el("button", {
        type: "button", onclick: () => { list.hidden = true; sendText(`/${c.command}`); },
      }, el("span", { class: "cmd" }, `/${c.command}`), c.description))));
    list.hidden = shown.length === 0;
  }

  // "@bot query" typed in the composer: the bot's inline results above it, as Telegram
  // lists them; tapping one posts its message "via @bot" and tells the bot the choice.
  const INLINE = /^@(\w+) ([\s\S]*)$/;

  function inlineQueryOf(value) {
    const found = INLINE.exec(value);
    return found && found[1].toLowerCase() === BOT_USERNAME.toLowerCase() ? found[2] : null;
  }

  function hideInline() {
    state.inline.asked += 1; // an answer still on its way is no longer shown
    state.inline.query = null;
    clearTimeout(state.inline.timer);
    $("inline-results").hidden = true;
    $("inline-results").replaceChildren();
  }

  function askInline(query) {
    clearTimeout(state.inline.timer);
    const asked = ++state.inline.asked;
    state.inline.timer = setTimeout(async () => {
      try {
        const entry = entryFor(state.current);
        const answer = await post("inline", { chat_id: entry.chat.id, query });
        if (asked === state.inline.asked) renderInline(answer, entry);
      } catch (error) {
        if (asked === state.inline.asked) toast(error.message, "error");
      }
    }, 250);
  }

  function renderInline(answer, entry) {
    const list = $("inline-results");
    // the bot's button above the results, as Telegram shows it: it posts nothing here
    const button = answer.button ? [el("li", {}, el("button", {
      type: "button", class: "inline-results-button",
      onclick: () => pressResultsButton(answer.query_id, answer.button.text),
    }, answer.button.text))] : [];
    list.replaceChildren(...button, ...answer.results.map((result) => el("li", {},
      el("button", {
        type: "button", class: "inline-result", dataset: { resultId: result.id },
        onclick: () => chooseInline(answer.query_id, result.id, entry),
      }, el("b", { class: "title" }, result.title),
      result.description ? el("span", { class: "hint" }, result.description) : null))));
    list.hidden = answer.results.length === 0 && !answer.button;
  }

  async function pressResultsButton(queryId, title) {
    $("text").value = "";
    hideInline();
    try {
      followOpen(await post("results_button", { query_id: queryId }), title);
    } catch (error) {
      toast(error.message, "error");
    }
  }

  async function chooseInline(queryId, resultId, entry) {
    $("text").value = "";
    hideInline();
    try {
      await post("choose", {
        chat_id: entry.chat.id, thread_id: entry.thread || null, query_id: queryId, result_id: resultId,
      });
    } catch (error) {
      toast(error.message, "error");
    }
  }

  function bindComposer() {
    const text = $("text");
    $("composer").addEventListener("submit", async (event) => {
      event.preventDefault();
      const value = text.value;
      text.value = "";
      $("command-list").hidden = true;
      hideInline();
      await sendText(value);
    });
    text.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey) {
        event.preventDefault();
        $("composer").requestSubmit();
      }
    });
    text.addEventListener("input", () => {
      const value = text.value;
      if (value.startsWith("/") && !value.includes(" ")) renderCommandList(value);
      else $("command-list").hidden = true;
      const query = inlineQueryOf(value);
      if (query === null) hideInline();
      else if (query !== state.inline.query) {
        state.inline.query = query;
        askInline(query);
      }
    });
    $("menu-button").addEventListener("click", async () => {
      const entry = entryFor(state.current);
      if (entry && entry.menu_button && entry.menu_button.type === "web_app") {
        try {
          const result = await post("menu", { theme: state.theme });
          openMiniApp(result.url, entry.menu_button.text);
        } catch (error) {
          toast(error.message, "error");
        }
        return;
      }
      const list = $("command-list");
      if (list.hidden) renderCommandList("/");
      else list.hidden = true;
    });
    $("reply-cancel").addEventListener("click", () => { state.replyTo = null; renderReplyBar(); });
    $("topic-toggle").addEventListener("click", async () => {
      const entry = entryFor(state.current);
      if (!entry || !entry.thread) return;
      try {
        await post("topic", {
          chat_id: entry.chat.id, thread_id: entry.thread, do: entry.closed ? "reopen" : "close",
        });
      } catch (error) {
        toast(error.message, "error");
      }
    });
    $("start-button").addEventListener("click", async () => {
      try {
        await post("start", {});
      } catch (error) {
        toast(error.message, "error");
      }
    });
    $("pinned").addEventListener("click", () => {
      const entry = entryFor(state.current);
      const node = $("messages").querySelector(`[data-message-id="${entry.pinned}"]`);
      if (node) node.scrollIntoView({ block: "center" });
    });
  }

  // ------------------------------------------------------------------ Mini App frame

  function sendToApp(eventType, eventData) {
    const frame = $("miniapp-frame");
    if (frame.contentWindow) {
      frame.contentWindow.postMessage(JSON.stringify({ eventType, eventData }), "*");
    }
  }

  // What the open Mini App asked of its client (Telegram's app): closing confirmation,
  // swipes, fullscreen, the settings button. Reset when it closes.
  const app = { confirmClose: false, swipes: true, fullscreen: false, popup: null };

  function openMiniApp(url, title) {
    Object.assign(app, { confirmClose: false, swipes: true, fullscreen: false, popup: null });
    $("miniapp").hidden = false;
    $("miniapp").classList.remove("fullscreen");
    $("miniapp-settings").hidden = true;
    $("miniapp-back").hidden = true;
    $("miniapp-title").textContent = title || BOT_NAME;
    $("main-button").hidden = true;
    $("miniapp-frame").src = url;
  }

  function closeMiniApp() {
    $("miniapp").hidden = true;
    $("miniapp").classList.remove("fullscreen");
    $("miniapp-frame").src = "about:blank";
  }

  // The ✕ asks first while the app holds unsaved changes (enableClosingConfirmation).
  function askToClose() {
    if (!app.confirmClose) { closeMiniApp(); return; }
    openPopup({
      message: t("unsaved"),
      buttons: [{ id: "close", type: "destructive", text: t("close_anyway") }, { id: "", type: "cancel" }],
    }, (id) => { if (id === "close") closeMiniApp(); });
  }

  function popupLabel(button) {
    if (button.type === "ok") return t("ok");
    if (button.type === "close") return t("close_app");
    if (button.type === "cancel") return t("cancel");
    return button.text || "";
  }

  function openPopup(data, done) {
    const dialog = $("popup-dialog");
    $("popup-title").textContent = data.title || "";
    $("popup-title").hidden = !data.title;
    $("popup-text").textContent = data.message || "";
    const buttons = (data.buttons || [{ id: "", type: "close" }]).map((button) => el("button", {
      type: "submit", value: button.id || "", class: button.type === "destructive" ? "destructive" : "",
      "data-button-id": button.id || "",
    }, popupLabel(button)));
    $("popup-buttons").replaceChildren(...buttons);
    dialog.returnValue = "";
    dialog.addEventListener("close", () => done(dialog.returnValue || ""), { once: true });
    if (!dialog.open) dialog.showModal();
  }

  function setFullscreen(on) {
    app.fullscreen = on;
    $("miniapp").classList.toggle("fullscreen", on);
    sendToApp("fullscreen_changed", { is_fullscreen: on });
    sendSafeAreas();
  }

  // In fullscreen the app runs under the client's own buttons (✕, ⋯): that strip is the
  // content safe area's top.
  function sendSafeAreas() {
    sendToApp("safe_area_changed", { top: 0, bottom: 0, left: 0, right: 0 });
    sendToApp("content_safe_area_changed", { top: app.fullscreen ? 46 : 0, bottom: 0, left: 0, right: 0 });
  }

  // CloudStorage: the client keeps it per user, across the app's launches.
  function cloudStorage(call) {
    const area = `sandbox.cloud.${state.userId}`;
    let kept = {};
    try { kept = JSON.parse(localStorage.getItem(area) || "{}"); } catch { kept = {}; }
    const params = call.params || {};
    let result;
    switch (call.method) {
      case "saveStorageValue": kept[params.key] = String(params.value); result = true; break;
      case "getStorageValues":
        result = {};
        (params.keys || []).forEach((key) => { result[key] = key in kept ? kept[key] : ""; });
        break;
      case "deleteStorageValues": (params.keys || []).forEach((key) => { delete kept[key]; }); result = true; break;
      case "getStorageKeys": result = Object.keys(kept); break;
      default: return { req_id: call.req_id, error: "UNKNOWN_METHOD" };
    }
    localStorage.setItem(area, JSON.stringify(kept));
    return { req_id: call.req_id, result };
  }

  function themeParams() {
    return (state.themes && state.themes[state.theme]) || {};
  }

  function handleAppEvent(eventType, data) {
    switch (eventType) {
      case "web_app_close": closeMiniApp(); break;
      case "web_app_open_link": if (data && safeUrl(data.url)) window.open(data.url, "_blank", "noopener"); break;
      case "web_app_open_tg_link":
        if (data && data.path_full) openLink(`https://t.me${data.path_full}`);
        break;
      case "web_app_setup_main_button": {
        const button = $("main-button");
        button.hidden = !(data && data.is_visible);
        button.textContent = (data && data.text) || "";
        button.disabled = data && data.is_active === false;
        if (data && data.color) button.style.background = data.color;
        if (data && data.text_color) button.style.color = data.text_color;
        break;
      }
      case "web_app_open_popup":
        openPopup(data, (id) => sendToApp("popup_closed", { button_id: id }));
        break;
      case "web_app_setup_closing_behavior": app.confirmClose = Boolean(data.need_confirmation); break;
      case "web_app_setup_swipe_behavior":
        app.swipes = data.allow_vertical_swipe !== false;
        $("miniapp").dataset.swipes = app.swipes ? "on" : "off";
        break;
      case "web_app_request_fullscreen":
        if (app.fullscreen) sendToApp("fullscreen_failed", { error: "ALREADY_FULLSCREEN" });
        else setFullscreen(true);
        break;
      case "web_app_exit_fullscreen": if (app.fullscreen) setFullscreen(false); break;
      case "web_app_request_safe_area":
      case "web_app_request_content_safe_area":
        sendSafeAreas();
        break;
      case "web_app_setup_settings_button": $("miniapp-settings").hidden = !data.is_visible; break;
      // Telegram's ← in the header while the app shows its back button; a press is its backButtonClicked
      case "web_app_setup_back_button": $("miniapp-back").hidden = !data.is_visible; break;
      case "web_app_invoke_custom_method": sendToApp("custom_method_invoked", cloudStorage(data)); break;
      case "web_app_set_header_color":
        if (data.color) $("miniapp").querySelector(".phone-head").style.background = data.color;
        break;
      case "web_app_set_background_color":
        if (data.color) $("miniapp").querySelector(".phone").style.background = data.color;
        break;
      case "web_app_request_theme":
        sendToApp("theme_changed", { theme_params: themeParams() });
        break;
      case "web_app_request_viewport":
        sendToApp("viewport_changed", { height: $("miniapp-frame").clientHeight, is_expanded: true, is_state_stable: true });
        break;
      default:
        break;
    }
  }

  function bindMiniApp() {
    $("miniapp-close").addEventListener("click", askToClose);
    $("miniapp-settings").addEventListener("click", () => sendToApp("settings_button_pressed", {}));
    $("miniapp-back").addEventListener("click", () => sendToApp("back_button_pressed", {}));
    $("miniapp-reload").addEventListener("click", () => {
      const frame = $("miniapp-frame");
      $("miniapp-back").hidden = true;
      frame.src = frame.src; // eslint-disable-line no-self-assign
    });
    $("main-button").addEventListener("click", () => sendToApp("main_button_pressed", {}));
    window.addEventListener("message", (event) => {
      if (event.source !== $("miniapp-frame").contentWindow) return;
      try {
        const parsed = typeof event.data === "string" ? JSON.parse(event.data) : event.data;
        handleAppEvent(parsed.eventType, parsed.eventData || {});
      } catch {
        // not a Mini App event
      }
    });
  }

  // ------------------------------------------------------------------ theme and start

  function applyTheme() {
    document.documentElement.dataset.theme = state.theme;
    const toggle = $("theme-toggle");
    toggle.textContent = state.theme === "dark" ? t("light_theme") : t("dark_theme");
    toggle.title = toggle.textContent; // a phone shows the switch as a symbol
    toggle.setAttribute("aria-pressed", String(state.theme === "dark"));
  }

  function bindTop() {
    $("theme-toggle").addEventListener("click", () => {
      state.theme = state.theme === "dark" ? "light" : "dark";
      localStorage.setItem("sandbox.theme", state.theme);
      applyTheme();
      if (!$("miniapp").hidden) sendToApp("theme_changed", { theme_params: themeParams() });
    });
    $("language").addEventListener("change", async (event) => {
      await post("language", { language_code: event.target.value });
      await loadState();
    });
    $("player").addEventListener("change", async (event) => {
      state.userId = Number(event.target.value);
      localStorage.setItem("sandbox.player", String(state.userId));
      closeMiniApp();
      // What the bot told the last player (toasts, an alert) and their half-written
      // reply belong to them: the next player starts clean.
      $("toasts").replaceChildren();
      if ($("alert-dialog").open) $("alert-dialog").close();
      state.replyTo = null;
      await loadState();
    });
  }

  async function main() {
    applyTheme();
    bindTop();
    bindComposer();
    bindMiniApp();
    const stored = Number(localStorage.getItem("sandbox.player"));
    const probe = await fetch(`${PREFIX}/players`).then((r) => r.json());
    const ids = probe.players.map((p) => p.id);
    state.userId = ids.includes(stored) ? stored : ids[0];
    await loadState();
    connect();
  }

  main().catch((error) => toast(t("failed_start", { error: error.message }), "error"));
})();
