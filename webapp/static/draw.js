// Stonetable: a small drawing canvas and picture upload for location cards, and the
// characters' portraits on the sheet. Loaded by app.js only on pages that hold a
// canvas[data-draw] or a portrait's file input.
(function () {
  "use strict";
  var S = window.Stonetable;

  function upload(url, blob, type) {
    return S.change(url, { headers: { "Content-Type": type }, body: blob })
      .then(function () {
        S.toast("Picture saved.");
        return S.load(document.getElementById("app").dataset.url, false);
      }).catch(function (error) { S.toast(error.message, true); });
  }

  // A character's portrait: the chosen file sent as it is (the server checks its bytes);
  // its remove button asks first. The page is drawn again once the change is saved.
  S.portrait = function (input, confirmed, failed) {
    if (input.dataset.ready) return;
    input.dataset.ready = "1";
    function saved(words) {
      S.haptic("success");
      if (words) S.toast(words);
      return S.load(document.getElementById("app").dataset.url, false);
    }
    function refused(error) { input.value = ""; S.haptic("error"); S.toast(error.message || failed, true); }
    input.addEventListener("change", function () {
      var chosen = input.files && input.files[0];
      if (!chosen) return;
      if (chosen.size > Number(input.dataset.maxBytes)) { refused(new Error(input.dataset.tooBig)); return; }
      S.change(input.dataset.portrait, {
        headers: { "Content-Type": chosen.type || "application/octet-stream" }, body: chosen,
      }).then(function () { return saved(input.dataset.saved); }, refused);
    });
    var remove = input.closest(".buttons").querySelector("[data-portrait-remove]");
    if (remove) remove.addEventListener("click", function () {
      confirmed(remove, function () {
        S.change(remove.dataset.portraitRemove, { method: "DELETE" })
          .then(function () { return saved(""); }, refused);
      });
    });
  };

  S.draw = function (canvas) {
    if (canvas.dataset.ready) return;
    canvas.dataset.ready = "1";
    var ctx = canvas.getContext("2d");
    var box = canvas.closest("details") || canvas.parentNode;
    var ink = getComputedStyle(document.documentElement).getPropertyValue("--text") || "#000";
    function clear() {
      ctx.fillStyle = "#fffdf6";
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      canvas.dataset.drawn = "";
    }
    clear();
    ctx.lineWidth = 3; ctx.lineCap = "round"; ctx.lineJoin = "round"; ctx.strokeStyle = "#222";
    var down = false;
    function at(event) {
      var r = canvas.getBoundingClientRect();
      return [(event.clientX - r.left) * canvas.width / r.width,
              (event.clientY - r.top) * canvas.height / r.height];
    }
    canvas.addEventListener("pointerdown", function (event) {
      down = true; canvas.setPointerCapture(event.pointerId);
      var p = at(event); ctx.beginPath(); ctx.moveTo(p[0], p[1]);
    });
    canvas.addEventListener("pointermove", function (event) {
      if (!down) return;
      var p = at(event); ctx.lineTo(p[0], p[1]); ctx.stroke(); canvas.dataset.drawn = "1";
    });
    canvas.addEventListener("pointerup", function () { down = false; });
    var clearButton = box.querySelector("[data-clear]");
    if (clearButton) clearButton.addEventListener("click", clear);
    var save = box.querySelector("[data-save-drawing]");
    if (save) save.addEventListener("click", function () {
      if (!canvas.dataset.drawn) { S.toast("Draw something first.", true); return; }
      canvas.toBlob(function (blob) { upload(canvas.dataset.upload, blob, "image/png"); }, "image/png");
    });
    var file = box.querySelector("[data-upload-file]");
    if (file) file.addEventListener("change", function () {
      var chosen = file.files && file.files[0];
      if (chosen) upload(file.dataset.uploadFile, chosen, chosen.type || "application/octet-stream");
    });
    void ink;
  };
})();
