// The editors that come with their pages only: quiet hours (kept on the server with the
// device's time zone) and a game system (checked as it is typed, with each outcome's
// exact chance for the sample inputs, or what is wrong).
(function () {
  "use strict";
  var failed = "";
  var systemTimer = null, systemAsked = 0, checking = false, checkAgain = null;

  // One check at a time (the server works out one heavy request per player at once):
  // text typed while a check is out is checked once that answer is in.
  function checkSystem(form) {
    if (checking) { checkAgain = form; return; }
    checking = true;
    var shown = form.querySelector(".system-odds");
    var asked = ++systemAsked;
    window.Stonetable.request(form.dataset.check, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ text: form.elements.text.value, inputs: form.elements.inputs.value }),
    }).then(function (response) {
      return response.json().then(function (body) { return { ok: response.ok, body: body }; });
    }).then(function (answer) {
      if (asked !== systemAsked || checkAgain) return;  // a newer text is waiting
      shown.textContent = "";
      if (!answer.ok) {
        var problem = document.createElement("p");
        problem.className = "problem";
        problem.textContent = answer.body.error || failed;
        shown.appendChild(problem);
        return;
      }
      var list = document.createElement("ul");
      answer.body.outcomes.concat(answer.body.marks).forEach(function (row) {
        var item = document.createElement("li");
        var label = document.createElement("span");
        label.textContent = row.label;
        var chance = document.createElement("b");
        chance.textContent = row.shown;
        chance.title = row.chance;
        item.appendChild(label);
        item.appendChild(chance);
        list.appendChild(item);
      });
      shown.appendChild(list);
    }).catch(function () {}).then(function () {
      checking = false;
      var next = checkAgain;
      checkAgain = null;
      if (next) checkSystem(next);
    });
  }

  document.addEventListener("input", function (event) {
    var form = event.target.closest("form.system-editor");
    if (!form) return;
    clearTimeout(systemTimer);
    systemTimer = setTimeout(function () { checkSystem(form); }, 400);
  });

  // Quiet hours are kept on the server, with the device's time zone (its IANA name,
  // else its UTC offset), so a reminder due in them waits for them to end.
  function deviceZone() {
    try {
      var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      if (zone) return zone;
    } catch (e) { /* an old engine: the offset below */ }
    var minutes = -new Date().getTimezoneOffset(), sign = minutes < 0 ? "-" : "+";
    minutes = Math.abs(minutes);
    return sign + ("0" + Math.floor(minutes / 60)).slice(-2) + ":" + ("0" + minutes % 60).slice(-2);
  }

  function saveQuiet(form, off, failed) {
    var body = off ? { off: true } : {
      from: form.elements.from.value, to: form.elements.to.value, zone: deviceZone(),
    };
    var st = window.Stonetable;
    return st.change("/api/quiet", {
      headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    }).then(function (answer) {
      st.haptic("success");
      st.toast(answer.done);
      return st.load("/app/prefs", false);
    }).catch(function (error) {
      st.haptic("error");
      st.toast(error.message || failed, true);
    });
  }

  window.Stonetable.editors = {
    quiet: saveQuiet,
    system: function (form, failedWord) {
      failed = failedWord || failed;
      checkSystem(form);
    },
  };
})();
