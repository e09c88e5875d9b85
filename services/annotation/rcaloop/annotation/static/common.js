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

  /* Extend the lease on a timer while the page is open; show the banner when it is lost. */
  function keepLease(data) {
    var until = document.getElementById("lease-until");
    function show(epoch) {
      if (until) { until.dataset.epoch = epoch; until.textContent = new Date(epoch * 1000).toLocaleTimeString(); }
    }
    if (until) show(Number(until.dataset.epoch));
    if (!data.lease || data.lease.status !== "leased" || !data.task_id) return;
    var every = Math.max(5, Math.min(60, data.lease_s / 3)) * 1000;
    setInterval(function () {
      if (document.hidden) return;
      call("POST", "/ui/tasks/" + encodeURIComponent(data.task_id) + "/extend").then(function (r) {
        if (r.status === 200) show(r.data.expires_at);
        else if (r.status === 409) document.getElementById("lease-lost").hidden = false;
      });
    }, every);
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

  document.addEventListener("keydown", function (ev) {
    if (isTyping(ev) || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === "c" && document.getElementById("claim-next")) { ev.preventDefault(); document.getElementById("claim-next").click(); }
    if (ev.key === "/" && document.querySelector("#filters input[name=q]")) { ev.preventDefault(); document.querySelector("#filters input[name=q]").focus(); }
  });

  return {el: el, call: call, pageData: pageData, placeErrors: placeErrors, isTyping: isTyping, keepLease: keepLease, draftSaver: draftSaver};
})();
