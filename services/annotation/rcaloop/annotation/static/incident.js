/* The incident view's evaluation form: a draft saved after every change, errors beside fields. */
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  var data = rc.pageData(), form = document.getElementById("evaluation-form");
  var fields = ["case_type", "expected_family", "gate_comment", "resolution_outcome", "action_that_worked", "memo"];

  function collect() {
    var scores = {};
    form.querySelectorAll("tr[data-path^='scores.']").forEach(function (row) {
      var picked = row.querySelector("input:checked");
      scores[row.dataset.path.slice(7)] = picked ? Number(picked.value) : null;
    });
    var out = {scores: scores, agrees: document.getElementById("agrees").checked,
      failed_gates: Array.prototype.map.call(form.querySelectorAll(".failed-gate:checked"), function (b) { return b.value; })};
    fields.forEach(function (id) { out[id] = document.getElementById(id).value; });
    return out;
  }
  function restore(d) {
    fields.forEach(function (id) { if (d[id] !== undefined) document.getElementById(id).value = d[id]; });
    Object.keys(d.scores || {}).forEach(function (k) {
      var box = form.querySelector('input[name="score-' + k + '"][value="' + d.scores[k] + '"]');
      if (box) box.checked = true;
    });
    document.getElementById("agrees").checked = !!d.agrees;
    form.querySelectorAll(".failed-gate").forEach(function (b) { b.checked = (d.failed_gates || []).indexOf(b.value) >= 0; });
  }
  function evaluation() {
    var d = collect(), scores = {};
    Object.keys(d.scores).forEach(function (k) { if (d.scores[k] !== null) scores[k] = d.scores[k]; });
    return {
      task_id: data.task_id || undefined,
      case_type: d.case_type || null,
      expected_family: d.expected_family || null,
      scores: scores,
      hard_gate_judgement: {agrees_with_harness: d.agrees, failed_gates: d.failed_gates, comment: d.gate_comment || null},
      resolution_outcome: d.resolution_outcome,
      action_that_worked: d.action_that_worked || null,
      memo: d.memo || null
    };
  }
  if (data.draft) restore(data.draft);
  var save = rc.draftSaver(data, collect);
  form.addEventListener("input", save);
  form.addEventListener("change", save);

  function submit(ev, next) {
    if (ev) ev.preventDefault();
    var status = document.getElementById("submit-status"), summary = document.getElementById("errors");
    status.textContent = "Checking…";
    rc.call("POST", "/ui/incidents/" + encodeURIComponent(data.analysis_hash) + "/evaluation", evaluation()).then(function (r) {
      if (r.status === 200 && r.data && r.data.valid) {
        rc.placeErrors([], form, summary);
        status.textContent = "Stored (" + r.data.evaluation_id + ")." + (next ? " Opening the next task…" : " Reloading…");
        var lease = document.getElementById("lease");
        if (lease && data.task_id) lease.dataset.status = "submitted";
        if (next) { rc.claimNext(); return; }
        setTimeout(function () { window.location.reload(); }, 600);
        return;
      }
      status.textContent = "";
      var errors = r.data && r.data.errors ? r.data.errors
        : [{code: (r.data && r.data.error && r.data.error.code) || "error", path: "$", message: (r.data && r.data.error && r.data.error.message) || "the server answered " + r.status}];
      rc.placeErrors(errors, form, summary);
    });
  }
  form.addEventListener("submit", function (ev) { submit(ev, false); });
  var nextButton = document.getElementById("submit-next");
  if (nextButton) nextButton.addEventListener("click", function (ev) { submit(ev, true); });
  document.addEventListener("keydown", function (ev) {
    if ((ev.ctrlKey || ev.metaKey) && ev.key === "Enter") submit(ev, ev.shiftKey && !!nextButton);
    if (ev.key === "L" && ev.shiftKey && !rc.isTyping(ev) && document.getElementById("leave")) document.getElementById("leave").click();
  });
  rc.keepLease(data);
});
