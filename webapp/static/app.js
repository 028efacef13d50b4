// Reads Telegram's launch parameters, applies the theme and loads the page.
// Works with telegram-web-app.js when Telegram provides it, and from the URL
// hash alone (the same parameters Telegram passes) when it does not.
(function () {
  "use strict";
  var tg = window.Telegram && window.Telegram.WebApp;
  var launch = new URLSearchParams(location.hash.slice(1));

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
  var startParam = (tg && tg.initDataUnsafe && tg.initDataUnsafe.start_param) ||
    launch.get("tgWebAppStartParam") || new URLSearchParams(location.search).get("startapp") || "";

  applyTheme(themeParams());
  if (tg) {
    tg.ready();
    tg.expand();
    if (tg.onEvent) tg.onEvent("themeChanged", function () { applyTheme(themeParams()); });
  }

  var main = document.getElementById("app");
  fetch("/app/home?startapp=" + encodeURIComponent(startParam), {
    headers: { Authorization: "tma " + initData },
    credentials: "omit",
  }).then(function (response) {
    main.dataset.status = String(response.status);
    return response.text();
  }).then(function (html) {
    main.innerHTML = html;
  }).catch(function () {
    main.innerHTML = '<section class="card problem"><h1>No connection</h1>' +
      '<p>Check your connection and open the app again.</p></section>';
  });
})();
