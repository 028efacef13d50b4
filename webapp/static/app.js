// Stonetable Mini App: reads Telegram's launch parameters, applies the theme,
// loads server-rendered fragments with the signed initData, and sends edits.
// Works with telegram-web-app.js, and from the URL hash alone (the same launch
// parameters Telegram passes) when that script is not there.
(function () {
  "use strict";
  var tg = window.Telegram && window.Telegram.WebApp;
  var launch = new URLSearchParams(location.hash.slice(1));
  var main = document.getElementById("app");
  var history = [];

  // Each control of the platform only where the client has it: an older Telegram
  // gets a working page without the newer controls.
  function can(version) {
    return Boolean(tg && tg.isVersionAtLeast && tg.isVersionAtLeast(version));
  }

  // Small values kept for this Telegram user: in Telegram's CloudStorage (6.9+, the
  // same on all their devices), else in this device's localStorage.
  var cloud = can("6.9") && tg.CloudStorage ? tg.CloudStorage : null;
  var store = {
    get: function (key, done) {
      if (cloud) {
        try { cloud.getItem(key, function (error, value) { done(error ? "" : value || ""); }); return; }
        catch (e) { /* fall through */ }
      }
      try { done(localStorage.getItem("stonetable." + key) || ""); } catch (e) { done(""); }
    },
    set: function (key, value) {
      if (cloud) { try { cloud.setItem(key, value); return; } catch (e) { /* too long: not kept */ return; } }
      try { localStorage.setItem("stonetable." + key, value); } catch (e) { /* full */ }
    },
    remove: function (key) {
      if (cloud) { try { cloud.removeItem(key); return; } catch (e) { return; } }
      try { localStorage.removeItem("stonetable." + key); } catch (e) { /* none */ }
    },
  };
  // The player's preferences (the settings button's page): the app's language
  // ("" follows Telegram's) and haptics.
  var prefs = { language: "", haptics: true };

  function themeParams() {
    if (tg && tg.themeParams && Object.keys(tg.themeParams).length) return tg.themeParams;
    try { return JSON.parse(launch.get("tgWebAppThemeParams") || "{}"); } catch (e) { return {}; }
  }

  function applyTheme(params) {
    var root = document.documentElement.style;
    Object.keys(params).forEach(function (key) {
      root.setProperty("--tg-theme-" + key.replace(/_/g, "-"), params[key]);
    });
    var bg = params.bg_color || "#ffffff";
    var rgb = parseInt(bg.slice(1), 16);
    var dark = ((rgb >> 16) * 0.299 + ((rgb >> 8) & 255) * 0.587 + (rgb & 255) * 0.114) < 128;
    document.documentElement.dataset.theme = (tg && tg.colorScheme) || (dark ? "dark" : "light");
    if (can("6.1") && /^#[0-9a-f]{6}$/i.test(bg)) {
      tg.setHeaderColor(/^#[0-9a-f]{6}$/i.test(params.header_bg_color || "") ? params.header_bg_color : bg);
      tg.setBackgroundColor(bg);
    }
  }

  var initData = (tg && tg.initData) || launch.get("tgWebAppData") || "";

  // The viewer's words: the shell carries every language's, keyed by catalogue.
  function viewerLanguage() {
    var user = tg && tg.initDataUnsafe && tg.initDataUnsafe.user;
    if (!user) {
      try { user = JSON.parse(new URLSearchParams(initData).get("user") || "{}"); } catch (e) { user = {}; }
    }
    return String((user && user.language_code) || "en").toLowerCase().split(/[-_]/)[0];
  }
  var words = {};
  try { words = JSON.parse(document.getElementById("words").textContent); } catch (e) { words = {}; }
  var language = "en", word = {};
  function applyWords() {
    var wanted = prefs.language || viewerLanguage();
    language = words[wanted] ? wanted : "en";
    word = words[language] || words.en || {};
    document.documentElement.lang = language;
    document.querySelectorAll("[data-word]").forEach(function (el) {
      if (word[el.dataset.word]) el.textContent = word[el.dataset.word];
    });
  }
  applyWords();
  var startParam = (tg && tg.initDataUnsafe && tg.initDataUnsafe.start_param) ||
    launch.get("tgWebAppStartParam") || new URLSearchParams(location.search).get("startapp") || "";

  // Haptics are a nicety: an older Telegram client without them must never break a page.
  function haptic(kind) {
    var feedback = tg && tg.HapticFeedback;
    if (!feedback || !prefs.haptics) return;
    try {
      if (kind === "error" || kind === "success") feedback.notificationOccurred(kind);
      else feedback.impactOccurred(kind || "light");
    } catch (e) { /* not supported here */ }
  }

  function toast(text, isError) {
    var box = document.createElement("div");
    box.className = "toast" + (isError ? " error" : "");
    box.setAttribute("role", "status");
    box.textContent = text;
    document.body.appendChild(box);
    setTimeout(function () { box.remove(); }, 3500);
  }

  function request(url, options) {
    options = options || {};
    var own = { Authorization: "tma " + initData };
    if (prefs.language) own["X-Stonetable-Language"] = prefs.language;
    options.headers = Object.assign(own, options.headers || {});
    options.credentials = "omit";
    return fetch(url, options);
  }

  // A change (edit, undo, detail, picture): one key per user action, sent with every
  // try of it, so a retry after a lost answer or a "try again" (503) applies once.
  var TRIES = 4;

  function actionKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  function later(seconds) {
    return new Promise(function (resolve) { setTimeout(resolve, seconds * 1000); });
  }

  // An action given up on without a final answer keeps its key: pressing the same
  // thing again is the offered retry, and cannot apply it twice.
  var unsettled = {};

  // Resolves with the answer's JSON once the change is saved; rejects with the words
  // to show when it is refused or, after the tries, still not saved.
  function change(url, options) {
    options = Object.assign({ method: "POST" }, options || {});
    var same = typeof options.body === "string" ? url + " " + options.body : null;
    var key = (same && unsettled[same]) || actionKey();
    options.headers = Object.assign({ "Idempotency-Key": key }, options.headers || {});
    var tries = 0;
    function again(seconds) {
      if (tries >= TRIES) {
        if (same) unsettled[same] = key;
        return Promise.reject(new Error(word.try_again));
      }
      toast(word.retrying);
      return later(seconds).then(send);
    }
    function send() {
      tries++;
      return request(url, options).then(function (response) {
        if (response.status === 503) {
          return again(Math.min(Number(response.headers.get("Retry-After")) || 2, 10));
        }
        if (same) delete unsettled[same];  // a final answer, whichever
        return response.json().then(function (body) {
          if (!response.ok) throw new Error(body.error || word.failed);
          var replayed = response.headers.get("Idempotent-Replayed");
          if (tries > 1 || body.done || replayed) toast(body.done || word.done);
          return body;
        }, function () {
          if (!response.ok) throw new Error(word.failed);
          return {};
        });
      }, function () {  // no answer at all: whether it was saved, only a retry can tell
        return again(2);
      });
    }
    return send();
  }

  function updateBackButton() {
    if (!tg || !tg.BackButton) return;
    if (history.length > 1 || isFullscreen()) tg.BackButton.show(); else tg.BackButton.hide();
  }

  var loads = 0, inflight = 0;

  // live: a refresh nobody asked for; it gives way to typing and to other loads.
  function load(url, remember, live) {
    var mine = ++loads;
    var status = "";
    inflight++;
    return request(url).then(function (response) {
      status = String(response.status);
      return response.text();
    }).then(function (html) {
      if (mine !== loads) return;  // a newer load is on its way
      if (live && busy()) { main.dataset.stale = "1"; return; }
      main.dataset.status = status;
      main.innerHTML = html;
      if (remember !== false) history.push(url);
      main.dataset.url = url;
      updateBackButton();
      document.dispatchEvent(new CustomEvent("stonetable:page", { detail: { url: url } }));
      afterLoad();
    }).catch(function () {
      if (live || mine !== loads) return;
      var box = document.createElement("section"), title = document.createElement("h1");
      var text = document.createElement("p");
      box.className = "card problem";
      title.textContent = word.offline_title;
      text.textContent = word.offline_text;
      box.append(title, text);
      main.replaceChildren(box);
    }).then(function () {
      inflight--;
      if (!inflight && main.dataset.stale && !busy()) { delete main.dataset.stale; refresh(); }
    });
  }

  function campaignToken() {
    var el = main.querySelector("[data-campaign]");
    return el ? el.dataset.campaign : "";
  }

  function formPayload(form) {
    var payload = {};
    new FormData(form).forEach(function (value, key) {
      if (key.slice(-2) === "[]") {  // name="skills[]": a list, in form order
        key = key.slice(0, -2);
        (payload[key] = payload[key] || []).push(value);
        return;
      }
      var input = form.elements[key];
      if (input && input.dataset && input.dataset.number !== undefined) {
        // <select data-number>: a number, or left out when nothing is chosen
        if (value !== "") payload[key] = Number(value);
        return;
      }
      var numeric = input && input.type === "number";
      payload[key] = numeric && value !== "" ? Number(value) : value;
    });
    return payload;
  }

  // ``kept``: what to do once the edit is saved, before the page is drawn again (a form's
  // draft goes first, or the new page would restore it and ask before closing).
  function sendEdit(action, payload, kept) {
    var token = campaignToken();
    return change("/api/c/" + encodeURIComponent(token) + "/edit", {
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ action: action, payload: payload }),
    }).then(function () {
      haptic(action.indexOf("roll") >= 0 ? "heavy" : "success");
      if (kept) kept();
      return load(main.dataset.url || "/app/c/" + encodeURIComponent(token), false)
        .then(function () { return true; });
    }).catch(function (error) {
      haptic("error");
      toast(error.message || word.failed, true);
      return false;
    });
  }

  // Destructive steps (ending, undoing, removing) ask first: Telegram's own confirm
  // dialog where the client has popups (6.2), the browser's otherwise.
  function confirmed(el, go) {
    var text = el.dataset.confirm;
    if (!text) { go(); return; }
    if (can("6.2") && tg.showConfirm) {
      try { tg.showConfirm(text, function (ok) { if (ok) go(); }); } catch (e) { /* a popup is open */ }
      return;
    }
    if (window.confirm(text)) go();
  }

  // Unsaved text: Telegram asks before the app is swiped shut (6.2), and the text is
  // kept (CloudStorage) until it is saved, and put back when the page opens again.
  var TEXT = "textarea, input:not([type]), input[type=text]";
  var FORMS = "form[data-edit], form[data-post]";

  function draftKey(form) {
    var forms = Array.prototype.slice.call(main.querySelectorAll(FORMS));
    var text = (main.dataset.url || "") + "|" + (form.dataset.edit || form.dataset.post) + "|" +
      forms.indexOf(form);
    var hash = 5381;
    for (var i = 0; i < text.length; i++) hash = ((hash * 33) ^ text.charCodeAt(i)) >>> 0;
    return "draft_" + hash.toString(36) + "_" + text.length.toString(36);
  }

  function guardClosing() {
    if (!can("6.2")) return;
    if (main.querySelector("form[data-dirty]")) tg.enableClosingConfirmation();
    else tg.disableClosingConfirmation();
  }

  function saveDraft(form, key) {
    var fields = {};
    form.querySelectorAll(TEXT).forEach(function (f) { if (f.name) fields[f.name] = f.value; });
    var value = JSON.stringify(fields);
    if (value.length <= 4096) store.set(key, value);
  }

  function restoreDrafts() {
    main.querySelectorAll(FORMS).forEach(function (form) {
      if (!form.querySelector(TEXT)) return;
      var key = draftKey(form);
      form.dataset.draft = key;
      store.get(key, function (value) {
        if (!value || !main.contains(form)) return;
        var fields;
        try { fields = JSON.parse(value); } catch (e) { return; }
        var changed = false;
        form.querySelectorAll(TEXT).forEach(function (f) {
          if (typeof fields[f.name] === "string" && fields[f.name] !== f.value) {
            f.value = fields[f.name];
            changed = true;
          }
        });
        if (!changed) { store.remove(key); return; }  // what was kept is what is saved now
        form.dataset.dirty = "1";
        form.dataset.restored = "1";
        var folded = form.closest("details");
        if (folded) folded.open = true;
        guardClosing();
        toast(word.draft_restored);
      });
    });
  }

  main.addEventListener("input", function (event) {
    var form = event.target.closest(FORMS);
    if (!form || !event.target.matches(TEXT)) return;
    form.dataset.dirty = "1";
    guardClosing();
    var key = form.dataset.draft || draftKey(form);
    clearTimeout(form.draftTimer);
    form.draftTimer = setTimeout(function () { saveDraft(form, key); }, 300);
  });

  function saved(form, key) {
    clearTimeout(form.draftTimer);
    delete form.dataset.dirty;
    store.remove(key);
    guardClosing();
  }

  main.addEventListener("submit", function (event) {
    var prefsForm = event.target.closest("form[data-prefs]");
    if (prefsForm) { event.preventDefault(); savePrefs(prefsForm); return; }
    var quietForm = event.target.closest("form[data-quiet]");
    if (quietForm) { event.preventDefault(); editors(function (e) { e.quiet(quietForm, false, word.failed); }); return; }
    var odds = event.target.closest("form[data-odds]");
    if (odds) {  // the odds calculator: the page answers for the typed roll
      event.preventDefault();
      load("/app/odds?expr=" + encodeURIComponent(odds.elements.expr.value), false);
      return;
    }
    var posted = event.target.closest("form[data-post]");
    if (posted) {  // a form for a route of its own, e.g. a granted detail
      event.preventDefault();
      confirmed(posted, function () {
        var key = posted.dataset.draft || draftKey(posted);
        var body = formPayload(posted);
        body.version = Number(posted.dataset.version);
        change(posted.dataset.post, {
          headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
        }).then(function () {
          haptic("success");
          saved(posted, key);
          return load(main.dataset.url, false);
        }).catch(function (error) { haptic("error"); toast(error.message, true); });
      });
      return;
    }
    var form = event.target.closest("form[data-edit]");
    if (!form) return;
    event.preventDefault();
    confirmed(form, function () {
      var key = form.dataset.draft || draftKey(form);
      sendEdit(form.dataset.edit, formPayload(form), function () { saved(form, key); });
    });
  });

  main.addEventListener("click", function (event) {
    var quietOff = event.target.closest("[data-quiet-off]");
    if (quietOff) { event.preventDefault(); editors(function (e) { e.quiet(quietOff.form, true, word.failed); }); return; }
    var nav = event.target.closest("[data-nav]");
    if (nav) {
      event.preventDefault();
      haptic("light");
      load(nav.dataset.nav);
      return;
    }
    var edit = event.target.closest("button[data-edit]:not([type=submit])");
    if (edit) {
      event.preventDefault();
      var payload = {};
      try { payload = JSON.parse(edit.dataset.payload || "{}"); } catch (e) { payload = {}; }
      // One press, one edit: a second tap while this one is on its way does nothing.
      if (edit.disabled) return;
      confirmed(edit, function () {
        edit.disabled = true;
        sendEdit(edit.dataset.edit, payload).then(function () { edit.disabled = false; });
      });
      return;
    }
    var roll = event.target.closest("button[data-roll]");
    if (roll) {  // a trait, skill, approach or ability: its roll starts in the game's chat
      event.preventDefault();
      if (roll.disabled) return;  // one tap, one roll
      roll.disabled = true;
      change("/api/c/" + encodeURIComponent(campaignToken()) + "/roll", {
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ what: roll.dataset.roll, name: roll.dataset.name || "" }),
      }).then(function () {
        if (can("6.1")) haptic("success");
        toast(word.roll_started);
      }, function (error) {
        if (can("6.1")) haptic("error");
        toast(error.message || word.failed, true);
      }).then(function () { roll.disabled = false; });
      return;
    }
    var savedRoll = event.target.closest("button[data-saved-roll]");
    if (savedRoll) {  // a saved roll: rolled now, its result posted in the game's chat
      event.preventDefault();
      if (savedRoll.disabled) return;
      savedRoll.disabled = true;
      change(savedRoll.dataset.savedRoll, {
        headers: { "Content-Type": "application/json" }, body: "{}",
      }).then(function () {
        haptic("heavy");  // change() showed the result's toast
      }).catch(function (error) {
        haptic("error");
        toast(error.message || word.failed, true);
      }).then(function () { savedRoll.disabled = false; });
      return;
    }
    var share = event.target.closest("button[data-story]");
    if (share) {
      event.preventDefault();
      confirmed(share, function () {
        change("/api/c/" + encodeURIComponent(campaignToken()) + "/story", {
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ action: share.dataset.story }),
        }).then(function () {
          haptic("success");
          return load(main.dataset.url, false);
        }).catch(function (error) { haptic("error"); toast(error.message, true); });
      });
      return;
    }
    // Links out of the app open in the browser (Telegram's openLink where there is one)
    var out = event.target.closest("a[data-open-link]");
    if (out && tg && tg.openLink && !out.hasAttribute("download")) {
      event.preventDefault();
      tg.openLink(out.href);
      return;
    }
    var full = event.target.closest("button[data-fullscreen]");
    if (full) {
      event.preventDefault();
      if (isFullscreen()) tg.exitFullscreen(); else tg.requestFullscreen();
    }
  });

  // Fullscreen (8.0), for the map: the page's own button and the back button lead out.
  function isFullscreen() { return Boolean(tg && tg.isFullscreen); }

  function showFullscreen() {
    var on = isFullscreen();
    document.documentElement.dataset.fullScreen = on ? "on" : "off";
    main.querySelectorAll("[data-fullscreen]").forEach(function (button) {
      button.hidden = !can("8.0");
      button.setAttribute("aria-pressed", String(on));
      button.textContent = on ? word.leave_full_screen : word.full_screen;
    });
    updateBackButton();
  }

  // Vertical swipes close or shrink the app: off while a finger draws or drags (7.7).
  main.addEventListener("pointerdown", function (event) {
    if (!can("7.7") || !event.target.closest("canvas[data-draw], [data-drag]")) return;
    tg.disableVerticalSwipes();
    function done() {
      tg.enableVerticalSwipes();
      document.removeEventListener("pointerup", done, true);
      document.removeEventListener("pointercancel", done, true);
    }
    document.addEventListener("pointerup", done, true);
    document.addEventListener("pointercancel", done, true);
  });

  // The preferences page (the settings button opens it).
  function showPrefs() {
    var form = main.querySelector("form[data-prefs]");
    if (!form) return;
    form.elements.language.value = prefs.language;
    form.elements.haptics.checked = prefs.haptics;
    form.querySelectorAll("[data-kept]").forEach(function (el) {
      el.hidden = el.dataset.kept !== (cloud ? "cloud" : "device");
    });
  }

  function savePrefs(form) {
    prefs = { language: form.elements.language.value, haptics: form.elements.haptics.checked };
    store.set("prefs", JSON.stringify(prefs));
    applyWords();
    haptic("success");
    history.pop();
    load(history.length ? history[history.length - 1] : "/app/home", false);
  }

  function openPrefs() {
    if (main.querySelector("form[data-prefs]")) return;
    load("/app/prefs");
  }

  applyTheme(themeParams());
  if (tg) {
    tg.ready();
    tg.expand();
    if (tg.onEvent) tg.onEvent("themeChanged", function () { applyTheme(themeParams()); });
    if (tg.BackButton) tg.BackButton.onClick(function () {
      if (isFullscreen()) { tg.exitFullscreen(); return; }
      history.pop();
      if (history.length) load(history[history.length - 1], false);
      updateBackButton();
    });
    if (can("7.0") && tg.SettingsButton) {
      tg.SettingsButton.onClick(openPrefs);
      tg.SettingsButton.show();
    }
    if (can("8.0")) {
      tg.onEvent("fullscreenChanged", showFullscreen);
      tg.onEvent("fullscreenFailed", function (event) {
        if (event && event.error !== "ALREADY_FULLSCREEN") toast(word.no_full_screen, true);
      });
    }
  }

  // Live updates: a text/event-stream read with fetch, so initData stays in a header.
  var live = null;

  function busy() {
    return main.querySelector("[data-live=off]") ||
      (document.activeElement && main.contains(document.activeElement) &&
       document.activeElement.matches("input, textarea, select"));
  }

  function refresh() {
    if (busy() || inflight) { main.dataset.stale = "1"; return; }
    haptic("soft");
    load(main.dataset.url, false, true);
  }

  function listen(token) {
    if (live && live.token === token) return;
    if (live) live.abort.abort();
    if (!token || !window.AbortController || !window.ReadableStream) { live = null; return; }
    var state = { token: token, abort: new AbortController() };
    live = state;
    request("/api/c/" + encodeURIComponent(token) + "/events", { signal: state.abort.signal })
      .then(function (response) {
        if (!response.ok || !response.body) { state.done = true; return; }
        var reader = response.body.getReader();
        var decoder = new TextDecoder();
        var buffer = "";
        function pump() {
          return reader.read().then(function (chunk) {
            if (chunk.done) return;
            buffer += decoder.decode(chunk.value, { stream: true });
            var blocks = buffer.split("\n\n");
            buffer = blocks.pop();
            blocks.forEach(function (block) {
              if (/^event: changed$/m.test(block)) refresh();
              if (/^event: ready$/m.test(block)) main.dataset.live = "on";
            });
            return pump();
          });
        }
        return pump();
      })
      .catch(function () { /* dropped: retry below */ })
      .then(function () {
        if (live !== state || state.abort.signal.aborted) return;
        live = null;
        main.dataset.live = "off";
        if (!state.done) setTimeout(function () { listen(token); }, 2000);
      });
  }

  // Telegram's main button does what the page's main action does: submits its form, or
  // presses its button (a step with no fields, such as finishing a character).
  function mainButton() {
    if (!tg || !tg.MainButton) return;
    var form = main.querySelector("[data-main-button]");
    tg.MainButton.offClick && tg.MainButton.offClick(mainButton.click);
    if (!form) { tg.MainButton.hide(); return; }
    mainButton.click = function () {
      if (form.tagName === "FORM") form.requestSubmit(); else form.click();
    };
    tg.MainButton.setText(form.dataset.mainButton);
    tg.MainButton.onClick(mainButton.click);
    tg.MainButton.show();
  }


  function afterLoad() {
    listen(campaignToken());
    var editor = main.querySelector("form.system-editor");
    if (editor) editors(function (e) { e.system(editor, word.failed); });
    mainButton();
    restoreDrafts();
    guardClosing();
    if (isFullscreen() && !main.querySelector("[data-fullscreen]")) tg.exitFullscreen();
    showFullscreen();
    showPrefs();
    main.querySelectorAll("img[data-src]").forEach(function (img) {
      request(img.dataset.src).then(function (r) { return r.ok ? r.blob() : null; })
        .then(function (blob) { if (blob) img.src = URL.createObjectURL(blob); });
    });
    var canvases = main.querySelectorAll("canvas[data-draw]");
    var portraits = main.querySelectorAll("[data-portrait]");
    if (!canvases.length && !portraits.length) return;
    var ready = function () {
      canvases.forEach(function (c) { window.Stonetable.draw(c); });
      portraits.forEach(function (p) { window.Stonetable.portrait(p, confirmed, word.failed); });
    };
    if (window.Stonetable.draw) { ready(); return; }
    var script = document.createElement("script");
    script.src = "/static/draw.js";
    script.onload = ready;
    document.head.appendChild(script);
  }

  // The editors of quiet hours and game systems come with their pages only (as draw.js).
  function editors(then) {
    if (window.Stonetable.editors) { then(window.Stonetable.editors); return; }
    var script = document.createElement("script");
    script.src = "/static/editors.js";
    script.onload = function () { then(window.Stonetable.editors); };
    document.head.appendChild(script);
  }

  main.addEventListener("focusout", function () {
    setTimeout(function () {
      if (main.dataset.stale && !main.contains(document.activeElement)) {
        delete main.dataset.stale;
        refresh();
      }
    }, 300);
  });

  window.Stonetable = {
    load: load, edit: sendEdit, request: request, change: change, toast: toast, haptic: haptic,
  };
  // "<campaign token>-map" opens that campaign's map (the /map picture's button);
  // a bare token opens its sheet.
  function start() {
    var opens = /^([A-Za-z0-9_-]{22})-(map)$/.exec(startParam);
    if (opens) load("/app/c/" + opens[1] + "/" + opens[2]);
    else load("/app/home?startapp=" + encodeURIComponent(startParam));
  }
  var started = false;
  function begin() { if (!started) { started = true; start(); } }
  setTimeout(begin, 1500);  // a client that never answers must not keep the app shut
  store.get("prefs", function (value) {
    try {
      var kept = JSON.parse(value || "{}");
      prefs = {
        language: typeof kept.language === "string" ? kept.language : "",
        haptics: kept.haptics !== false,
      };
    } catch (e) { /* defaults */ }
    applyWords();
    begin();
  });
})();
