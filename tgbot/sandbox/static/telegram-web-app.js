// A small stand-in for https://telegram.org/js/telegram-web-app.js, for the sandbox
// (no Telegram access). Same launch parameters (URL hash), same window.Telegram.WebApp
// surface for what Stonetable uses, same postMessage protocol with the host page, and
// the same version gates: a method newer than tgWebAppVersion warns and does nothing,
// or throws WebAppMethodUnsupported, as Telegram's script does.
//
// Framed (the sandbox page), events go to the parent window. Opened on its own (the
// browser tests), the page is its own client: window.TelegramClient records every
// event the app posts (events), answers CloudStorage itself (kept in localStorage, per
// user), and receive(eventType, data) plays what the client would send back (a popup's
// button, a settings press, fullscreen changes, safe-area insets).
(function () {
  "use strict";
  if (window.Telegram && window.Telegram.WebApp) return;

  var STORAGE_KEY = "__telegram__initParams";

  function parseParams(text) {
    var params = {};
    text.split("&").forEach(function (pair) {
      if (!pair) return;
      var index = pair.indexOf("=");
      var key = decodeURIComponent(index < 0 ? pair : pair.slice(0, index));
      params[key] = index < 0 ? "" : decodeURIComponent(pair.slice(index + 1).replace(/\+/g, "%20"));
    });
    return params;
  }

  function launchParams() {
    if (window.__telegramLaunch) return window.__telegramLaunch;  // the test harness's
    var fromHash = parseParams(window.location.hash.replace(/^#/, ""));
    try {
      if (fromHash.tgWebAppData) {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify(fromHash));
        return fromHash;
      }
      return JSON.parse(sessionStorage.getItem(STORAGE_KEY) || "{}");
    } catch (error) {
      return fromHash;
    }
  }

  function parseInitData(initData) {
    var fields = parseParams(initData);
    var unsafe = {};
    Object.keys(fields).forEach(function (key) {
      var value = fields[key];
      if (key === "user" || key === "receiver" || key === "chat") {
        try { unsafe[key] = JSON.parse(value); } catch (error) { /* keep it out */ }
      } else if (key === "auth_date") {
        unsafe[key] = parseInt(value, 10);
      } else {
        unsafe[key] = value;
      }
    });
    return unsafe;
  }

  function isDark(color) {
    var match = /^#([0-9a-f]{6})$/i.exec(color || "");
    if (!match) return false;
    var n = parseInt(match[1], 16);
    var luminance = 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255);
    return luminance < 120;
  }

  var launch = launchParams();
  var handlers = {};
  var themeParams = {};
  try { themeParams = JSON.parse(launch.tgWebAppThemeParams || "{}"); } catch (error) { /* none */ }

  var framed = window.parent !== window;

  function postEvent(eventType, eventData) {
    if (!framed) { client.post(eventType, eventData || {}); return; }
    window.parent.postMessage(JSON.stringify({ eventType: eventType, eventData: eventData || {} }), "*");
  }

  function versionAtLeast(version) {
    var a = String(WebApp.version).split("."), b = String(version).split(".");
    for (var i = 0; i < Math.max(a.length, b.length); i++) {
      var x = parseInt(a[i] || "0", 10), y = parseInt(b[i] || "0", 10);
      if (x !== y) return x > y;
    }
    return true;
  }

  function unsupported(what, version) {
    if (versionAtLeast(version)) return false;
    console.warn("[Telegram.WebApp] " + what + " is not supported in version " + WebApp.version);
    return true;
  }

  function requireVersion(what, version) {
    if (versionAtLeast(version)) return;
    console.error("[Telegram.WebApp] " + what + " is not supported in version " + WebApp.version);
    throw new Error("WebAppMethodUnsupported");
  }

  function fire(name) {
    var args = Array.prototype.slice.call(arguments, 1);
    (handlers[name] || []).slice().forEach(function (callback) {
      try { callback.apply(WebApp, args); } catch (error) { console.error(error); }
    });
  }

  function applyTheme() {
    var style = document.documentElement.style;
    Object.keys(themeParams).forEach(function (key) {
      style.setProperty("--tg-theme-" + key.replace(/_/g, "-"), themeParams[key]);
    });
    WebApp.colorScheme = isDark(themeParams.bg_color) ? "dark" : "light";
    style.setProperty("--tg-color-scheme", WebApp.colorScheme);
    style.setProperty("--tg-viewport-height", window.innerHeight + "px");
    style.setProperty("--tg-viewport-stable-height", window.innerHeight + "px");
  }

  function bottomButton(kind) {
    var button = {
      text: kind === "main" ? "Continue" : "Cancel",
      color: themeParams.button_color || "#2481cc",
      textColor: themeParams.button_text_color || "#ffffff",
      isVisible: false,
      isActive: true,
      isProgressVisible: false,
    };
    var eventName = kind === "main" ? "mainButtonClicked" : "secondaryButtonClicked";
    function sync() {
      postEvent("web_app_setup_" + kind + "_button", {
        is_visible: button.isVisible, is_active: button.isActive, text: button.text,
        color: button.color, text_color: button.textColor,
        is_progress_visible: button.isProgressVisible,
      });
      return button;
    }
    button.setText = function (text) { button.text = String(text); return sync(); };
    button.show = function () { button.isVisible = true; return sync(); };
    button.hide = function () { button.isVisible = false; return sync(); };
    button.enable = function () { button.isActive = true; return sync(); };
    button.disable = function () { button.isActive = false; return sync(); };
    button.showProgress = function () { button.isProgressVisible = true; return sync(); };
    button.hideProgress = function () { button.isProgressVisible = false; return sync(); };
    button.setParams = function (params) {
      if ("text" in params) button.text = String(params.text);
      if ("color" in params) button.color = params.color;
      if ("text_color" in params) button.textColor = params.text_color;
      if ("is_visible" in params) button.isVisible = Boolean(params.is_visible);
      if ("is_active" in params) button.isActive = Boolean(params.is_active);
      return sync();
    };
    button.onClick = function (callback) { WebApp.onEvent(eventName, callback); return button; };
    button.offClick = function (callback) { WebApp.offEvent(eventName, callback); return button; };
    return button;
  }

  var popupCallback = null;
  var initData = launch.tgWebAppData || "";
  var WebApp = {
    initData: initData,
    initDataUnsafe: parseInitData(initData),
    version: launch.tgWebAppVersion || "6.0",
    platform: launch.tgWebAppPlatform || "web",
    colorScheme: "light",
    themeParams: themeParams,
    isExpanded: true,
    viewportHeight: window.innerHeight,
    viewportStableHeight: window.innerHeight,
    isClosingConfirmationEnabled: false,
    headerColor: themeParams.header_bg_color || themeParams.bg_color,
    backgroundColor: themeParams.bg_color,
    isVerticalSwipesEnabled: true,
    isFullscreen: false,
    safeAreaInset: { top: 0, bottom: 0, left: 0, right: 0 },
    contentSafeAreaInset: { top: 0, bottom: 0, left: 0, right: 0 },
    isVersionAtLeast: function (version) { return versionAtLeast(version); },
    onEvent: function (name, callback) { (handlers[name] = handlers[name] || []).push(callback); },
    offEvent: function (name, callback) {
      handlers[name] = (handlers[name] || []).filter(function (c) { return c !== callback; });
    },
    ready: function () { postEvent("web_app_ready"); },
    expand: function () { postEvent("web_app_expand"); },
    close: function () { postEvent("web_app_close"); },
    sendData: function (data) { postEvent("web_app_data_send", { data: String(data) }); },
    openLink: function (url) { postEvent("web_app_open_link", { url: url }); },
    openTelegramLink: function (url) {
      var parsed = new URL(url, "https://t.me");
      postEvent("web_app_open_tg_link", { path_full: parsed.pathname + parsed.search });
    },
    showPopup: function (params, callback) {
      requireVersion("Method showPopup", "6.2");
      if (popupCallback) throw new Error("WebAppPopupOpened");
      var message = String((params && params.message) || "");
      if (!message.length || message.length > 256) throw new Error("WebAppPopupParamInvalid");
      var buttons = (params && params.buttons) || [{ id: "", type: "close" }];
      if (!buttons.length || buttons.length > 3) throw new Error("WebAppPopupParamInvalid");
      popupCallback = callback || function () {};
      postEvent("web_app_open_popup", {
        title: String((params && params.title) || "").slice(0, 64), message: message, buttons: buttons,
      });
    },
    showAlert: function (message, callback) {
      WebApp.showPopup({ message: message }, function () { if (callback) callback(); });
    },
    showConfirm: function (message, callback) {
      WebApp.showPopup({ message: message, buttons: [{ id: "ok", type: "ok" }, { id: "cancel", type: "cancel" }] },
        function (id) { if (callback) callback(id === "ok"); });
    },
    setHeaderColor: function (color) {
      if (unsupported("Header color", "6.1")) return;
      WebApp.headerColor = color;
      postEvent("web_app_set_header_color", /^#/.test(color) ? { color: color } : { color_key: color });
    },
    setBackgroundColor: function (color) {
      if (unsupported("Background color", "6.1")) return;
      WebApp.backgroundColor = color;
      postEvent("web_app_set_background_color", { color: color });
    },
    enableClosingConfirmation: function () {
      if (unsupported("Closing confirmation", "6.2")) return;
      WebApp.isClosingConfirmationEnabled = true;
      postEvent("web_app_setup_closing_behavior", { need_confirmation: true });
    },
    disableClosingConfirmation: function () {
      if (unsupported("Closing confirmation", "6.2")) return;
      WebApp.isClosingConfirmationEnabled = false;
      postEvent("web_app_setup_closing_behavior", { need_confirmation: false });
    },
    enableVerticalSwipes: function () {
      if (unsupported("Changing swipes behavior", "7.7")) return;
      WebApp.isVerticalSwipesEnabled = true;
      postEvent("web_app_setup_swipe_behavior", { allow_vertical_swipe: true });
    },
    disableVerticalSwipes: function () {
      if (unsupported("Changing swipes behavior", "7.7")) return;
      WebApp.isVerticalSwipesEnabled = false;
      postEvent("web_app_setup_swipe_behavior", { allow_vertical_swipe: false });
    },
    requestFullscreen: function () {
      requireVersion("Method requestFullscreen", "8.0");
      postEvent("web_app_request_fullscreen");
    },
    exitFullscreen: function () {
      requireVersion("Method exitFullscreen", "8.0");
      postEvent("web_app_exit_fullscreen");
    },
    HapticFeedback: {
      impactOccurred: function () { return WebApp.HapticFeedback; },
      notificationOccurred: function () { return WebApp.HapticFeedback; },
      selectionChanged: function () { return WebApp.HapticFeedback; },
    },
  };
  if (!WebApp.initDataUnsafe.start_param && launch.tgWebAppStartParam) {
    WebApp.initDataUnsafe.start_param = launch.tgWebAppStartParam;
  }
  WebApp.MainButton = bottomButton("main");
  WebApp.SecondaryButton = bottomButton("secondary");
  WebApp.BackButton = {
    isVisible: false,
    show: function () { WebApp.BackButton.isVisible = true; postEvent("web_app_setup_back_button", { is_visible: true }); return WebApp.BackButton; },
    hide: function () { WebApp.BackButton.isVisible = false; postEvent("web_app_setup_back_button", { is_visible: false }); return WebApp.BackButton; },
    onClick: function (callback) { WebApp.onEvent("backButtonClicked", callback); return WebApp.BackButton; },
    offClick: function (callback) { WebApp.offEvent("backButtonClicked", callback); return WebApp.BackButton; },
  };

  WebApp.SettingsButton = {
    isVisible: false,
    show: function () {
      if (unsupported("SettingsButton", "7.0")) return WebApp.SettingsButton;
      WebApp.SettingsButton.isVisible = true;
      postEvent("web_app_setup_settings_button", { is_visible: true });
      return WebApp.SettingsButton;
    },
    hide: function () {
      if (unsupported("SettingsButton", "7.0")) return WebApp.SettingsButton;
      WebApp.SettingsButton.isVisible = false;
      postEvent("web_app_setup_settings_button", { is_visible: false });
      return WebApp.SettingsButton;
    },
    onClick: function (callback) { WebApp.onEvent("settingsButtonClicked", callback); return WebApp.SettingsButton; },
    offClick: function (callback) { WebApp.offEvent("settingsButtonClicked", callback); return WebApp.SettingsButton; },
  };

  // CloudStorage: kept by the client for this user and bot (1024 keys of 1-128
  // characters A-Z a-z 0-9 _ -, values of at most 4096 characters).
  var calls = {}, lastCall = 0;
  function invoke(method, params, callback) {
    requireVersion("CloudStorage", "6.9");
    var id = String(++lastCall) + "_" + Date.now();
    calls[id] = callback || function () {};
    postEvent("web_app_invoke_custom_method", { req_id: id, method: method, params: params });
  }
  function checkKey(key) {
    if (!/^[A-Za-z0-9_-]{1,128}$/.test(String(key))) throw new Error("WebAppCloudStorageKeyInvalid");
  }
  WebApp.CloudStorage = {
    setItem: function (key, value, callback) {
      checkKey(key);
      if (String(value).length > 4096) throw new Error("WebAppCloudStorageValueInvalid");
      invoke("saveStorageValue", { key: String(key), value: String(value) }, function (error, result) {
        if (callback) callback(error, error ? undefined : Boolean(result));
      });
    },
    getItem: function (key, callback) {
      checkKey(key);
      invoke("getStorageValues", { keys: [String(key)] }, function (error, result) {
        if (callback) callback(error, error ? undefined : (result || {})[key]);
      });
    },
    getItems: function (keys, callback) {
      keys.forEach(checkKey);
      invoke("getStorageValues", { keys: keys.map(String) }, function (error, result) {
        if (callback) callback(error, error ? undefined : result);
      });
    },
    removeItem: function (key, callback) {
      checkKey(key);
      invoke("deleteStorageValues", { keys: [String(key)] }, function (error, result) {
        if (callback) callback(error, error ? undefined : Boolean(result));
      });
    },
    removeItems: function (keys, callback) {
      keys.forEach(checkKey);
      invoke("deleteStorageValues", { keys: keys.map(String) }, function (error, result) {
        if (callback) callback(error, error ? undefined : Boolean(result));
      });
    },
    getKeys: function (callback) {
      invoke("getStorageKeys", {}, function (error, result) {
        if (callback) callback(error, error ? undefined : result);
      });
    },
  };

  function setInsets(name, data) {
    var inset = {
      top: Number(data.top) || 0, bottom: Number(data.bottom) || 0,
      left: Number(data.left) || 0, right: Number(data.right) || 0,
    };
    WebApp[name === "safe-area" ? "safeAreaInset" : "contentSafeAreaInset"] = inset;
    var style = document.documentElement.style;
    Object.keys(inset).forEach(function (side) {
      style.setProperty("--tg-" + name + "-inset-" + side, inset[side] + "px");
    });
  }

  function receive(eventType, data) {
    data = data || {};
    switch (eventType) {
      case "theme_changed":
        themeParams = data.theme_params || themeParams;
        WebApp.themeParams = themeParams;
        applyTheme();
        fire("themeChanged");
        break;
      case "main_button_pressed": fire("mainButtonClicked"); break;
      case "secondary_button_pressed": fire("secondaryButtonClicked"); break;
      case "back_button_pressed": fire("backButtonClicked"); break;
      case "viewport_changed": fire("viewportChanged", { isStateStable: true }); break;
      case "popup_closed":
        if (popupCallback) { var callback = popupCallback; popupCallback = null; callback(data.button_id || null); }
        fire("popupClosed", { button_id: data.button_id || null });
        break;
      case "settings_button_pressed": fire("settingsButtonClicked"); break;
      case "fullscreen_changed":
        WebApp.isFullscreen = Boolean(data.is_fullscreen);
        fire("fullscreenChanged");
        break;
      case "fullscreen_failed":
        if (data.error === "ALREADY_FULLSCREEN" && !WebApp.isFullscreen) {
          WebApp.isFullscreen = true;
          fire("fullscreenChanged");
        }
        fire("fullscreenFailed", { error: data.error });
        break;
      case "safe_area_changed":
        if (!versionAtLeast("8.0")) break;
        setInsets("safe-area", data);
        fire("safeAreaChanged");
        break;
      case "content_safe_area_changed":
        if (!versionAtLeast("8.0")) break;
        setInsets("content-safe-area", data);
        fire("contentSafeAreaChanged");
        break;
      case "custom_method_invoked": {
        var done = calls[data.req_id];
        if (!done) break;
        delete calls[data.req_id];
        if (data.error) done(data.error); else done(null, data.result);
        break;
      }
      default: break;
    }
  }

  window.addEventListener("message", function (event) {
    if (!framed || event.source !== window.parent) return;
    var parsed;
    try { parsed = JSON.parse(event.data); } catch (error) { return; }
    receive(parsed.eventType, parsed.eventData || {});
  });

  // The page's own client when it is not framed: what Telegram's app would do.
  var client = {
    events: [],
    post: function (eventType, data) {
      client.events.push({ eventType: eventType, eventData: data });
      if (eventType === "web_app_invoke_custom_method") {
        setTimeout(function () { receive("custom_method_invoked", client.storage(data)); }, 0);
      } else if (eventType === "web_app_request_fullscreen" && client.fullscreenAllowed) {
        setTimeout(function () {
          if (WebApp.isFullscreen) receive("fullscreen_failed", { error: "ALREADY_FULLSCREEN" });
          else receive("fullscreen_changed", { is_fullscreen: true });
        }, 0);
      } else if (eventType === "web_app_request_fullscreen") {
        setTimeout(function () { receive("fullscreen_failed", { error: "UNSUPPORTED" }); }, 0);
      } else if (eventType === "web_app_exit_fullscreen" && WebApp.isFullscreen) {
        setTimeout(function () { receive("fullscreen_changed", { is_fullscreen: false }); }, 0);
      }
    },
    fullscreenAllowed: true,
    last: function (eventType) {
      for (var i = client.events.length - 1; i >= 0; i--) {
        if (client.events[i].eventType === eventType) return client.events[i].eventData;
      }
      return null;
    },
    receive: function (eventType, data) { receive(eventType, data); },
    storage: function (call) {
      var user = (WebApp.initDataUnsafe.user && WebApp.initDataUnsafe.user.id) || 0;
      var area = "__telegram__cloud_" + user;
      var kept = {};
      try { kept = JSON.parse(localStorage.getItem(area) || "{}"); } catch (error) { kept = {}; }
      var params = call.params || {}, result;
      if (call.method === "saveStorageValue") {
        if (!(params.key in kept) && Object.keys(kept).length >= 1024) {
          return { req_id: call.req_id, error: "STORAGE_KEYS_TOO_MUCH" };
        }
        kept[params.key] = params.value;
        result = true;
      } else if (call.method === "getStorageValues") {
        result = {};
        (params.keys || []).forEach(function (key) { result[key] = key in kept ? kept[key] : ""; });
      } else if (call.method === "deleteStorageValues") {
        (params.keys || []).forEach(function (key) { delete kept[key]; });
        result = true;
      } else if (call.method === "getStorageKeys") {
        result = Object.keys(kept);
      } else {
        return { req_id: call.req_id, error: "UNKNOWN_METHOD" };
      }
      localStorage.setItem(area, JSON.stringify(kept));
      return { req_id: call.req_id, result: result };
    },
  };
  if (!framed) window.TelegramClient = client;

  applyTheme();
  if (versionAtLeast("8.0")) {  // as Telegram's script does on load
    postEvent("web_app_request_safe_area");
    postEvent("web_app_request_content_safe_area");
  }
  window.Telegram = window.Telegram || {};
  window.Telegram.WebApp = WebApp;
})();
