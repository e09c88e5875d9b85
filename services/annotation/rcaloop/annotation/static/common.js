/* Shared helpers of the review pages: DOM building with text only, calls to the UI routes,
   errors placed next to their fields, the lease keeper and the draft saver. */
"use strict";
var rc = (function () {
  function el(tag, attrs) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      var v = attrs[k];
      if (v === null || v === undefined || v === false) return;
      if (k === "text") node.textContent = v;
      else if (k === "on") Object.keys(v).forEach(function (ev) { node.addEventListener(ev, v[ev]); });
      else node.setAttribute(k, v === true ? "" : String(v));
    });
    for (var i = 2; i < arguments.length; i++) {
      var c = arguments[i];
      if (c === null || c === undefined) continue;
      node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    }
    return node;
  }

  function call(method, url, body) {
    return fetch(url, {
      method: method,
      credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-Rcaloop-UI": "1"},
      body: body === undefined ? undefined : JSON.stringify(body)
    }).then(function (resp) {
      return resp.text().then(function (text) {
        var data = null;
        try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
        return {status: resp.status, data: data};
      });
    });
  }

  function pageData() {
    var node = document.getElementById("page-data");
    return node ? JSON.parse(node.textContent) : {};
  }

  /* Each finding goes beside the element whose data-path is its path, or the nearest parent path. */
  function placeErrors(errors, root, summary) {
    root.querySelectorAll(".field-error").forEach(function (n) { n.remove(); });
    root.querySelectorAll(".has-error").forEach(function (n) { n.classList.remove("has-error"); });
    summary.textContent = "";
    summary.hidden = !errors.length;
    if (errors.length) summary.appendChild(el("p", {text: errors.length + " problem(s): fix the fields marked below."}));
    var first = null;
    errors.forEach(function (err) {
      var path = err.path || "$", target = null;
      while (path && !target) {
        target = root.querySelector('[data-path="' + CSS.escape(path) + '"]');
        if (target) break;
        var cut = Math.max(path.lastIndexOf("."), path.lastIndexOf("["));
        path = cut > 0 ? path.slice(0, cut) : "";
      }
      var note = el("div", {"class": "field-error", role: "alert", "data-code": err.code}, el("b", {text: err.code}), " " + err.message);
      if (target) {
        target.classList.add("has-error");
        target.appendChild(note);
        first = first || target;
      } else {
        summary.appendChild(note);
      }
    });
    (first || summary).scrollIntoView({block: "center"});
  }

  function isTyping(ev) {
    var t = ev.target;
    if (t && t.tagName === "INPUT" && ["checkbox", "radio", "button", "submit"].indexOf(t.type) >= 0) return false;
    return t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable);
  }

  /* Keep the lease: extend it on a timer while the page is open — in a background tab too (browsers
     slow such timers to about once a minute, well inside a lease) — and at once when the tab is shown
     again. The indicator says the real state: leased until a time, extension failing (with the
     server's reason, retried), or lost (expired, released elsewhere, taken) with the claim button. */
  function keepLease(data) {
    var box = document.getElementById("lease"), until = document.getElementById("lease-until");
    if (until) until.textContent = clock(Number(until.dataset.epoch));
    if (!box || !data.lease || data.lease.status !== "leased" || !data.task_id) return;
    var badge = document.getElementById("lease-badge"), note = document.getElementById("lease-note");
    var banner = document.getElementById("lease-lost"), claim = document.getElementById("claim-form");
    var expires = Number(until.dataset.epoch), every = Math.max(5, Math.min(60, data.lease_s / 3)) * 1000;
    var timer = null, ticker = null, failures = 0;
    var skew = typeof data.server_now === "number" ? data.server_now - Date.now() / 1000 : 0;  // the server's clock decides
    function now() { return Date.now() / 1000 + skew; }

    function clock(epoch) { return new Date(epoch * 1000).toLocaleTimeString(); }
    function reason(r) {
      if (r.status === 0) return "the server could not be reached";
      var e = r.data && r.data.error;
      return (e && e.message ? e.message : "the server answered " + r.status) + " (" + r.status + ")";
    }
    function state(status, badgeText, noteText, ok) {
      box.dataset.status = status;
      badge.textContent = badgeText;
      badge.className = "badge " + (ok ? "ok" : "bad");
      note.textContent = noteText;
    }
    function leased(epoch) {
      expires = epoch; failures = 0;
      until.dataset.epoch = epoch; until.textContent = clock(epoch);
      state("leased", "leased to you", "(extended while this page is open)", true);
    }
    function lost(why) {
      clearTimeout(timer); clearInterval(ticker);
      document.getElementById("lease-when").hidden = true;
      state("lost", "lease lost", why, false);
      banner.textContent = "Your lease is gone: " + why + ". Claim the task again before submitting (your draft is kept).";
      banner.hidden = false;
      if (claim) claim.hidden = false;
      var leave = document.getElementById("leave-form");
      if (leave) leave.hidden = true;
    }
    function finished() { return box.dataset.status === "submitted" || box.dataset.status === "lost"; }
    function extend() {
      clearTimeout(timer);
      if (finished()) return;
      call("POST", "/ui/tasks/" + encodeURIComponent(data.task_id) + "/extend").then(function (r) {
        if (finished()) return;
        if (r.status === 200 && r.data) { leased(r.data.expires_at); schedule(every); return; }
        if (r.status === 409 || r.status === 404) { lost(reason(r)); return; }
        failing(reason(r));
      }, function () { if (!finished()) failing("the server could not be reached"); });
    }
    function failing(why) {
      failures += 1;
      if (now() >= expires) { lost("it expired at " + clock(expires) + " while extending failed: " + why); return; }
      state("failing", "extension failing", "still yours until " + clock(expires) + " unless renewed; last try: " + why +
        " — retrying (" + failures + ")", false);
      schedule(Math.min(every, 5000));
    }
    function schedule(ms) { clearTimeout(timer); timer = setTimeout(extend, ms); }
    ticker = setInterval(function () {  // the clock alone can end it: never show a time already past
      if (!finished() && now() >= expires) lost("it expired at " + clock(expires));
    }, 1000);
    document.addEventListener("visibilitychange", function () { if (!document.hidden) extend(); });
    schedule(every);
  }

  /* Save the draft after each change (debounced) and when the page is hidden. */
  function draftSaver(data, collect) {
    var timer = null, note = document.getElementById("draft-note");
    function save() {
      timer = null;
      if (!data.task_id) return;
      call("PUT", "/ui/tasks/" + encodeURIComponent(data.task_id) + "/draft", collect()).then(function (r) {
        if (r.status === 204 && note) { note.hidden = false; note.textContent = "Draft saved " + new Date().toLocaleTimeString() + "."; }
      });
    }
    document.addEventListener("visibilitychange", function () { if (document.hidden && timer) { clearTimeout(timer); save(); } });
    return function () { if (timer) clearTimeout(timer); timer = setTimeout(save, 400); };
  }

  /* After a stored submission: claim and open the next task (the queue says when none is left). */
  function claimNext() {
    var form = document.getElementById("next-form");
    if (form) form.submit(); else window.location.assign("/ui/");
  }

  document.addEventListener("keydown", function (ev) {
    if (isTyping(ev) || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === "c" && document.getElementById("claim-next")) { ev.preventDefault(); document.getElementById("claim-next").click(); }
    if (ev.key === "/" && document.querySelector("#filters input[name=q]")) { ev.preventDefault(); document.querySelector("#filters input[name=q]").focus(); }
  });

  return {el: el, call: call, pageData: pageData, placeErrors: placeErrors, isTyping: isTyping, keepLease: keepLease, draftSaver: draftSaver,
          claimNext: claimNext};
})();
