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
  var language = words[viewerLanguage()] ? viewerLanguage() : "en";
  var word = words[language] || words.en || {};
  document.documentElement.lang = language;
  document.querySelectorAll("[data-word]").forEach(function (el) {
    if (word[el.dataset.word]) el.textContent = word[el.dataset.word];
  });
  var startParam = (tg && tg.initDataUnsafe && tg.initDataUnsafe.start_param) ||
    launch.get("tgWebAppStartParam") || new URLSearchParams(location.search).get("startapp") || "";

  // Haptics are a nicety: an older Telegram client without them must never break a page.
  function haptic(kind) {
    var feedback = tg && tg.HapticFeedback;
    if (!feedback) return;
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
    options.headers = Object.assign({ Authorization: "tma " + initData }, options.headers || {});
    options.credentials = "omit";
    return fetch(url, options);
  }

  function updateBackButton() {
    if (!tg || !tg.BackButton) return;
    if (history.length > 1) tg.BackButton.show(); else tg.BackButton.hide();
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

  function sendEdit(action, payload) {
    var token = campaignToken();
    return request("/api/c/" + encodeURIComponent(token) + "/edit", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ action: action, payload: payload }),
    }).then(function (response) {
      return response.json().then(function (body) {
        if (!response.ok) throw new Error(body.error || word.failed);
        haptic(action.indexOf("roll") >= 0 ? "heavy" : "success");
        return load(main.dataset.url || "/app/c/" + encodeURIComponent(token), false);
      });
    }).catch(function (error) {
      haptic("error");
      toast(error.message || word.failed, true);
    });
  }

  main.addEventListener("submit", function (event) {
    var odds = event.target.closest("form[data-odds]");
    if (odds) {  // the odds calculator: the page answers for the typed roll
      event.preventDefault();
      load("/app/odds?expr=" + encodeURIComponent(odds.elements.expr.value), false);
      return;
    }
    var posted = event.target.closest("form[data-post]");
    if (posted) {  // a form for a route of its own, e.g. a granted detail
      event.preventDefault();
      var body = formPayload(posted);
      body.version = Number(posted.dataset.version);
      request(posted.dataset.post, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
      }).then(function (response) {
        return response.json().then(function (reply) {
          if (!response.ok) throw new Error(reply.error || word.failed);
          haptic("success");
          return load(main.dataset.url, false);
        });
      }).catch(function (error) { haptic("error"); toast(error.message, true); });
      return;
    }
    var form = event.target.closest("form[data-edit]");
    if (!form) return;
    event.preventDefault();
    sendEdit(form.dataset.edit, formPayload(form));
  });

  main.addEventListener("click", function (event) {
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
      edit.disabled = true;
      sendEdit(edit.dataset.edit, payload).then(function () { edit.disabled = false; });
    }
  });

  applyTheme(themeParams());
  if (tg) {
    tg.ready();
    tg.expand();
    if (tg.onEvent) tg.onEvent("themeChanged", function () { applyTheme(themeParams()); });
    if (tg.BackButton) tg.BackButton.onClick(function () {
      history.pop();
      if (history.length) load(history[history.length - 1], false);
      updateBackButton();
    });
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

  function mainButton() {
    if (!tg || !tg.MainButton) return;
    var form = main.querySelector("form[data-main-button]");
    tg.MainButton.offClick && tg.MainButton.offClick(mainButton.click);
    if (!form) { tg.MainButton.hide(); return; }
    mainButton.click = function () { form.requestSubmit(); };
    tg.MainButton.setText(form.dataset.mainButton);
    tg.MainButton.onClick(mainButton.click);
    tg.MainButton.show();
  }

  function afterLoad() {
    listen(campaignToken());
    mainButton();
    main.querySelectorAll("img[data-src]").forEach(function (img) {
      request(img.dataset.src).then(function (r) { return r.ok ? r.blob() : null; })
        .then(function (blob) { if (blob) img.src = URL.createObjectURL(blob); });
    });
    var canvases = main.querySelectorAll("canvas[data-draw]");
    if (!canvases.length) return;
    var ready = function () { canvases.forEach(function (c) { window.Stonetable.draw(c); }); };
    if (window.Stonetable.draw) { ready(); return; }
    var script = document.createElement("script");
    script.src = "/static/draw.js";
    script.onload = ready;
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

  window.Stonetable = { load: load, edit: sendEdit, request: request, toast: toast };
  // "<campaign token>-map" opens that campaign's map (the /map picture's button);
  // a bare token opens its sheet.
  var opens = /^([A-Za-z0-9_-]{22})-(map)$/.exec(startParam);
  if (opens) load("/app/c/" + opens[1] + "/" + opens[2]);
  else load("/app/home?startapp=" + encodeURIComponent(startParam));
})();
