// A small stand-in for https://telegram.org/js/telegram-web-app.js, for the sandbox
// (no Telegram access). Same launch parameters (URL hash), same window.Telegram.WebApp
// surface for what Stonetable uses, same postMessage protocol with the host page.
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

  function postEvent(eventType, eventData) {
    if (window.parent === window) return;
    window.parent.postMessage(JSON.stringify({ eventType: eventType, eventData: eventData || {} }), "*");
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
    version: launch.tgWebAppVersion || "8.0",
    platform: launch.tgWebAppPlatform || "web",
    colorScheme: "light",
    themeParams: themeParams,
    isExpanded: true,
    viewportHeight: window.innerHeight,
    viewportStableHeight: window.innerHeight,
    isClosingConfirmationEnabled: false,
    headerColor: themeParams.header_bg_color || themeParams.bg_color,
    backgroundColor: themeParams.bg_color,
    isVersionAtLeast: function (version) {
      var a = String(WebApp.version).split("."), b = String(version).split(".");
      for (var i = 0; i < Math.max(a.length, b.length); i++) {
        var x = parseInt(a[i] || "0", 10), y = parseInt(b[i] || "0", 10);
        if (x !== y) return x > y;
      }
      return true;
    },
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
      popupCallback = callback || null;
      postEvent("web_app_open_popup", {
        title: params.title || "", message: params.message,
        buttons: params.buttons || [{ id: "", type: "close" }],
      });
    },
    showAlert: function (message, callback) {
      WebApp.showPopup({ message: message }, function () { if (callback) callback(); });
    },
    showConfirm: function (message, callback) {
      WebApp.showPopup({ message: message, buttons: [{ id: "ok", type: "ok" }, { id: "", type: "cancel" }] },
        function (id) { if (callback) callback(id === "ok"); });
    },
    setHeaderColor: function (color) { WebApp.headerColor = color; postEvent("web_app_set_header_color", { color: color }); },
    setBackgroundColor: function (color) { WebApp.backgroundColor = color; postEvent("web_app_set_background_color", { color: color }); },
    enableClosingConfirmation: function () { WebApp.isClosingConfirmationEnabled = true; },
    disableClosingConfirmation: function () { WebApp.isClosingConfirmationEnabled = false; },
    HapticFeedback: {
      impactOccurred: function () { return WebApp.HapticFeedback; },
      notificationOccurred: function () { return WebApp.HapticFeedback; },
      selectionChanged: function () { return WebApp.HapticFeedback; },
    },
  };
  WebApp.MainButton = bottomButton("main");
  WebApp.SecondaryButton = bottomButton("secondary");
  WebApp.BackButton = {
    isVisible: false,
    show: function () { WebApp.BackButton.isVisible = true; postEvent("web_app_setup_back_button", { is_visible: true }); return WebApp.BackButton; },
    hide: function () { WebApp.BackButton.isVisible = false; postEvent("web_app_setup_back_button", { is_visible: false }); return WebApp.BackButton; },
    onClick: function (callback) { WebApp.onEvent("backButtonClicked", callback); return WebApp.BackButton; },
    offClick: function (callback) { WebApp.offEvent("backButtonClicked", callback); return WebApp.BackButton; },
  };

  window.addEventListener("message", function (event) {
    if (event.source !== window.parent) return;
    var parsed;
    try { parsed = JSON.parse(event.data); } catch (error) { return; }
    var data = parsed.eventData || {};
    switch (parsed.eventType) {
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
      default: break;
    }
  });

  applyTheme();
  window.Telegram = window.Telegram || {};
  window.Telegram.WebApp = WebApp;
})();
