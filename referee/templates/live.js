/* The game page kept live: each change of the game file arrives as a server-sent event with
   the page's parts drawn by the server (text already escaped), put in place here. A question
   being answered is replaced only when it changes, so a half-typed answer stays. A roll's
   bytes asked of this seat are sent at once (this phone's own random bytes). No other script
   runs on the page. */
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live) { return; }
  var status = document.getElementById("status");

  function put(id, html) {
    var el = document.getElementById(id);
    if (el && typeof html === "string" && el.innerHTML !== html) {
      var open = {};
      el.querySelectorAll("article[id] > details[open]").forEach(function (d) {
        open[d.parentNode.id] = true;
      });
      el.innerHTML = html;
      Object.keys(open).forEach(function (id) {
        var again = document.querySelector("#" + CSS.escape(id) + " > details");
        if (again) { again.open = true; }
      });
    }
  }

  function hex(bytes) {
    return Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  /* The opponent's part of a roll's dice: asked of this seat once the attack's declaration
     is written, answered at once with random bytes of this phone's own. The parts this
     phone gave are remembered on it, so that a part the seat's list shows and this phone
     never sent (given with the seat's address from another device: the laptop's holder
     sees every address) is marked for the player to see. */
  var given = null;
  var store = "referee-parts:" + live.dataset.base;
  function mine() {
    try { return JSON.parse(window.localStorage.getItem(store) || "[]"); }
    catch (e) { return []; }
  }
  function remember(value) {
    try {
      var kept = mine();
      kept.push(value.slice(0, 8));
      window.localStorage.setItem(store, JSON.stringify(kept.slice(-200)));
    } catch (e) { /* a phone that keeps nothing: nothing marked */ }
  }
  function give(request) {
    if (!request || request.id === given || !window.fetch) { return; }
    given = request.id;
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    var value = hex(bytes);
    remember(value);
    window.fetch(live.dataset.base + "/bytes", {
      method: "POST", credentials: "omit",
      headers: {"Content-Type": "application/x-www-form-urlencoded"},
      body: "r=" + encodeURIComponent(String(request.id)) + "&value=" + value
    }).catch(function () { given = null; });
  }
  function showGiven(parts) {
    var shown = document.getElementById("given");
    if (!shown || !parts) { return; }
    var ours = mine();
    shown.querySelector("span").textContent = parts.map(function (part) {
      var found = ours.indexOf(part.slice(-8)) >= 0;
      return found ? part : part + " (" + shown.dataset.foreign + ")";
    }).join(", ");
    shown.hidden = parts.length === 0;
  }

  if (!window.EventSource) { return; }
  var source = new EventSource(live.dataset.events);
  source.addEventListener("update", function (event) {
    var data = JSON.parse(event.data);
    put("progress", data.progress);
    put("log", data.log);
    put("board", data.board);
    if (data.question_key !== live.dataset.question) {
      live.dataset.question = data.question_key;
      put("question", data.question);
    }
    var code = document.getElementById("code");
    if (code) { code.textContent = data.code || ""; }
    var error = document.getElementById("error");
    if (error) { error.textContent = data.error || ""; error.hidden = !data.error; }
    showGiven(data.given);
    live.dataset.version = String(data.version);
    give(data.bytes);
    status.textContent = "";
    status.classList.remove("offline");
  });
  source.addEventListener("error", function () {
    status.textContent = status.dataset.offline;
    status.classList.add("offline");
  });
}());
