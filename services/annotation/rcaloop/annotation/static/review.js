/* The annotation task page: the seed's questions in order, evidence cited by clicking a value,
   the difficulty rubric scored live, alternatives, a draft saved after every change. */
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  var el = rc.el, data = rc.pageData(), agent = data.agent || {};
  var root = document.getElementById("review");
  var rcAgent = agent.root_cause || {};
  var LEVELS = ["high", "medium", "low"];

  function copy(x) { return JSON.parse(JSON.stringify(x === undefined ? null : x)); }

  var initial = {
    answers: {},
    category: "", category_comment: "",
    summary: "", summary_comment: "",
    confidence: LEVELS.indexOf(rcAgent.confidence) >= 0 ? rcAgent.confidence : "",
    evidence_feedback: "",
    evidence: (agent.evidence || []).map(function (e, i) {
      var item = copy(e); item._agent = i; return item;
    }),
    rubric: [], rubric_used: false,
    difficulty_comment: "",
    alternatives: copy(agent.alternative_diagnoses || []),
    recommendations: copy(agent.recommendations || []),
    current: 1
  };
  var s = data.draft && data.draft.answers ? data.draft : initial;
  if (data.draft && data.draft.answers) {
    var note = document.getElementById("draft-note");
    note.hidden = false;
    note.textContent = "Your draft was restored.";
  }
  var saveDraft = rc.draftSaver(data, function () { return s; });
  function changed() { saveDraft(); }

  // -- yes/no questions ---------------------------------------------------------------
  var questions = Array.prototype.slice.call(root.querySelectorAll("fieldset.q"));
  function paintAnswers() {
    questions.forEach(function (q) {
      var key = q.dataset.yesno, value = s.answers[key];
      q.querySelectorAll(".yesno button").forEach(function (b) {
        b.classList.toggle("chosen", b.dataset.value === value);
        b.setAttribute("aria-pressed", b.dataset.value === value ? "true" : "false");  // the choice, to a screen reader too
      });
      q.classList.toggle("answered-no", value === "no");
      q.classList.toggle("answered-yes", value === "yes");
      q.classList.toggle("current", Number(q.dataset.q) === s.current);
    });
  }
  function answer(q, value) {
    s.answers[q.dataset.yesno] = value;
    if (q.dataset.yesno === "alternatives_add") {
      if (value === "yes" && !s.alternatives.some(function (a) { return a._added; })) addAlternative();
      if (value === "no") { s.alternatives = s.alternatives.filter(function (a) { return !untouched(a); }); renderAlternatives(); }
    }
    paintAnswers(); changed();
  }
  questions.forEach(function (q) {
    q.querySelectorAll(".yesno button").forEach(function (b) {
      b.addEventListener("click", function () { s.current = Number(q.dataset.q); answer(q, b.dataset.value); });
    });
    q.addEventListener("focusin", function () { s.current = Number(q.dataset.q); paintAnswers(); });
  });
  function go(step) {
    s.current = Math.min(questions.length, Math.max(1, s.current + step));
    paintAnswers();
    questions[s.current - 1].scrollIntoView({block: "start", behavior: "smooth"});
    changed();
  }

  // -- plain fields ---------------------------------------------------------------------
  ["category", "category_comment", "summary", "summary_comment", "confidence", "evidence_feedback", "difficulty_comment"].forEach(function (id) {
    var node = document.getElementById(id);
    node.value = s[id] || "";
    node.addEventListener("input", function () { s[id] = node.value; changed(); });
    node.addEventListener("change", function () { s[id] = node.value; changed(); });
  });

  // -- evidence -----------------------------------------------------------------------
  var list = document.getElementById("evidence-list");
  function select(options, value, onchange, label) {
    var node = el("select", {"aria-label": label});
    options.forEach(function (o) { node.appendChild(el("option", {value: o, text: o || "choose…", selected: o === value})); });
    node.addEventListener("change", function () { onchange(node.value); });
    return node;
  }
  function shownValue(item) {
    if (item.exact_quote) return "quote: " + item.exact_quote + (item.line_number ? " (line " + item.line_number + ")" : "");
    return JSON.stringify(item.exact_value);
  }
  function renderEvidence() {
    list.textContent = "";
    if (!s.evidence.length) list.appendChild(el("p", {"class": "empty", text: "No evidence yet: click a value in a step file."}));
    s.evidence.forEach(function (item, i) {
      var broken = item._agent !== undefined ? (data.evidence_checks || [])[item._agent] : null;
      var card = el("div", {"class": "evidence" + (broken ? " broken" : "") + (item.is_root_cause ? " root" : ""), "data-path": "evidence[" + i + "]"},
        el("div", {"class": "ev-head"},
          el("b", {text: "#" + (i + 1)}), " ",
          el("span", {"class": "badge", text: item.source || "?"}), " ",
          item._agent !== undefined ? el("span", {"class": "muted small", text: "cited by the agent"}) : el("span", {"class": "badge ok", text: "added by you"}),
          broken ? el("span", {"class": "badge bad", title: broken, text: "broken"}) : null,
          el("label", {"class": "check root-pick", "data-path": "evidence[" + i + "].is_root_cause"},
            el("input", {type: "radio", name: "root", checked: !!item.is_root_cause, on: {change: function () {
              s.evidence.forEach(function (e, j) { e.is_root_cause = j === i; }); renderEvidence(); changed();
            }}}), " root cause"),
          el("button", {type: "button", "class": "link", text: "remove", on: {click: function () {
            s.evidence.splice(i, 1); renderEvidence(); changed();
          }}})),
        broken ? el("p", {"class": "bad-text small", text: "Does not trace: " + broken + " — remove it or cite the value yourself."}) : null,
        el("div", {"class": "ev-where mono small"},
          el("span", {"data-path": "evidence[" + i + "].source_file", text: (item.source_file || "—").split("/").pop()}),
          " › ",
          el("span", {"data-path": "evidence[" + i + "].json_path", text: item.json_path || "—"}),
          " = ",
          el("span", {"class": "ev-value", "data-path": "evidence[" + i + "].exact_value", title: shownValue(item), text: shownValue(item)})),
        el("div", {"class": "ev-fields"},
          el("label", {"class": "grow", "data-path": "evidence[" + i + "].message"},
            el("input", {value: item.message || "", placeholder: "message: what this evidence shows", "aria-label": "message",
              on: {input: function (ev) { item.message = ev.target.value; changed(); }}})),
          el("label", {"data-path": "evidence[" + i + "].confidence"},
            select(["", "high", "medium", "low"], item.confidence || "", function (v) { item.confidence = v || null; changed(); }, "confidence"))));
      list.appendChild(card);
    });
    document.querySelectorAll(".tree .val").forEach(function (b) {
      var pane = b.closest(".tree-pane");
      b.classList.toggle("cited", s.evidence.some(function (e) { return e.json_path === b.dataset.jp && e.source_file === pane.dataset.file; }));
    });
  }
  document.getElementById("sources").addEventListener("click", function (ev) {
    var tab = ev.target.closest(".tab");
    if (tab) {
      document.querySelectorAll("#sources .tab, #sources .tree-pane").forEach(function (n) { n.classList.remove("active"); });
      tab.classList.add("active");
      document.getElementById(tab.dataset.tab).classList.add("active");
      return;
    }
    var val = ev.target.closest(".val");
    if (!val) return;
    var pane = val.closest(".tree-pane");
    var already = s.evidence.findIndex(function (e) { return e.source_file === pane.dataset.file && e.json_path === val.dataset.jp; });
    if (already >= 0) {  // cited once is enough: go to that item
      var existing = list.querySelectorAll(".evidence")[already];
      existing.scrollIntoView({block: "center"});
      existing.querySelector("input:not([type=radio])").focus();
      return;
    }
    s.evidence.push({
      source: pane.dataset.source, source_file: pane.dataset.file, json_path: val.dataset.jp,
      exact_value: JSON.parse(val.dataset.value), message: "", confidence: "medium", is_root_cause: false
    });
    if (!s.answers.evidence_wrong) s.answers.evidence_wrong = "yes";
    paintAnswers(); renderEvidence(); changed();
    var inputs = list.querySelectorAll(".evidence:last-child input:not([type=radio])");
    if (inputs.length) { inputs[0].focus(); inputs[0].scrollIntoView({block: "nearest"}); }
  });

  // -- difficulty rubric ----------------------------------------------------------------
  var criteria = data.rubric.criteria, byKey = {};
  criteria.forEach(function (c) { byKey[c.key] = c; });
  var agentScore = agent.difficulty_score;
  var agentUsable = typeof agentScore === "number" && Math.round(agentScore) === agentScore && agentScore >= 0 && agentScore <= 10;
  function rubricResult() {
    var chosen = criteria.filter(function (c) { return s.rubric.indexOf(c.key) >= 0; });
    var raw = chosen.reduce(function (n, c) { return n + c.points; }, 0), total = Math.min(raw, data.rubric.max);
    var label = total <= 3 ? "easy" : total <= 6 ? "medium" : "hard";
    var parts = chosen.map(function (c) { return c.text + " (+" + c.points + ")"; });
    var capped = raw > data.rubric.max ? " (sum " + raw + ", capped at " + data.rubric.max + ")" : "";
    return {score: total, label: label,
      justification: (parts.length ? parts.join(", ") + "." : "No rubric criterion applies.") + " Total: " + total + capped + "."};
  }
  function difficulty() {
    if (s.rubric_used || !agentUsable) return rubricResult();
    return {score: agentScore, label: agent.difficulty, justification: agent.difficulty_justification};
  }
  function paintRubric() {
    root.querySelectorAll(".criterion").forEach(function (box) { box.checked = s.rubric.indexOf(box.value) >= 0; });
    var d = difficulty();
    document.getElementById("rubric-score").textContent = d.score === undefined || d.score === null ? "—" : d.score + "/10";
    document.getElementById("rubric-label").textContent = d.label || "—";
    document.getElementById("rubric-justification").textContent = d.justification || "";
    document.getElementById("rubric-mode").textContent = (s.rubric_used || !agentUsable)
      ? "Your rubric score is the difficulty of record."
      : "Keeping the agent's rating; tick the criteria that apply to score it yourself.";
  }
  root.querySelectorAll(".criterion").forEach(function (box) {
    box.addEventListener("change", function () {
      s.rubric_used = true;
      s.rubric = criteria.map(function (c) { return c.key; }).filter(function (k) {
        var b = root.querySelector('.criterion[value="' + k + '"]'); return b && b.checked;
      });
      paintRubric(); changed();
    });
  });

  // -- alternatives and recommendations -----------------------------------------------------
  var alts = document.getElementById("alternatives");
  /* A row the reviewer added and has not filled in yet: never sent (an empty alternative is no alternative). */
  function untouched(a) {
    return !!a._added && !a.category && !a.plausibility && !(a.summary || "").trim() && !(a.why_wrong || "").trim() &&
      !(a.supporting_evidence || []).length && !(a.contradicting_evidence || []).length;
  }
  /* One empty row at a time: asking for another while one waits goes to that one. */
  function addAlternative() {
    var waiting = s.alternatives.findIndex(untouched);
    if (waiting < 0) {
      s.alternatives.push({category: "", summary: "", why_wrong: "", plausibility: "", supporting_evidence: [], contradicting_evidence: [], _added: true});
      waiting = s.alternatives.length - 1;
      if (s.answers.alternatives_add !== "yes") { s.answers.alternatives_add = "yes"; paintAnswers(); }
      renderAlternatives(); changed();
    }
    var row = alts.querySelectorAll(".alternative")[waiting];
    if (row) { row.scrollIntoView({block: "nearest"}); row.querySelector("select").focus(); }
  }
  function text(label, value, path, set, area) {
    var input = el(area ? "textarea" : "input", {rows: area ? 2 : null, on: {input: function (ev) { set(ev.target.value); changed(); }}});
    input.value = value || "";
    return el("label", {"data-path": path}, label + " ", input);
  }
  function renderAlternatives() {
    alts.textContent = "";
    s.alternatives.forEach(function (a, i) {
      var p = "alternative_diagnoses[" + i + "]";
      alts.appendChild(el("div", {"class": "alternative", "data-path": p},
        el("div", {"class": "ev-head"}, el("b", {text: "Alternative " + (i + 1)}), " ",
          el("button", {type: "button", "class": "link", text: "remove", on: {click: function () { s.alternatives.splice(i, 1); renderAlternatives(); changed(); }}})),
        el("div", {"class": "row"},
          el("label", {"data-path": p + ".category"}, "Category ", select([""].concat(data.categories), a.category || "", function (v) { a.category = v; changed(); }, "category")),
          el("label", {"data-path": p + ".plausibility"}, "Plausibility ", select(["", "high", "medium", "low"], a.plausibility || "", function (v) { a.plausibility = v; changed(); }, "plausibility"))),
        text("Summary", a.summary, p + ".summary", function (v) { a.summary = v; }, true),
        text("Why wrong", a.why_wrong, p + ".why_wrong", function (v) { a.why_wrong = v; }, true),
        text("Supporting evidence (comma-separated)", (a.supporting_evidence || []).join(", "), p + ".supporting_evidence", function (v) { a.supporting_evidence = csv(v); }),
        text("Contradicting evidence (comma-separated)", (a.contradicting_evidence || []).join(", "), p + ".contradicting_evidence", function (v) { a.contradicting_evidence = csv(v); })));
    });
  }
  function csv(v) { return v.split(",").map(function (x) { return x.trim(); }).filter(Boolean); }
  document.getElementById("add-alternative").addEventListener("click", addAlternative);
  var recs = document.getElementById("recommendations");
  function renderRecommendations() {
    recs.textContent = "";
    if (!s.recommendations.length) recs.appendChild(el("p", {"class": "muted", text: "none"}));
    s.recommendations.forEach(function (r, i) {
      recs.appendChild(el("div", {"class": "row rec", "data-path": "recommendations[" + i + "]"},
        el("label", {"data-path": "recommendations[" + i + "].priority"}, "Priority ",
          select(["", "high", "medium", "low"], LEVELS.indexOf(r.priority) >= 0 ? r.priority : "", function (v) { r.priority = v; changed(); }, "priority")),
        el("span", {text: r.action || ""}), r.file ? el("code", {text: r.file}) : null));
    });
  }

  // -- the annotation.json --------------------------------------------------------------
  function clean(item) {
    var out = {};
    Object.keys(item).forEach(function (k) { if (k.charAt(0) !== "_") out[k] = item[k]; });
    return out;
  }
  function yes(key) { return s.answers[key] === "yes" ? true : s.answers[key] === "no" ? false : null; }
  function annotation() {
    var d = difficulty(), catOk = yes("category_correct"), sumOk = yes("summary_accurate");
    var body = {
      job_id: data.job_id,
      annotated_at: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
      category_correct: catOk,
      category_comment: s.category_comment || null,
      root_cause: {
        category: catOk === false ? (s.category || null) : (rcAgent.category || null),
        summary: sumOk === false && s.summary.trim() ? s.summary.trim() : (rcAgent.summary || null),
        confidence: s.confidence || null
      },
      summary_accurate: sumOk,
      summary_comment: s.summary_comment || null,
      evidence: s.evidence.map(clean),
      evidence_feedback: s.evidence_feedback || null,
      difficulty: d.label || null,
      difficulty_score: d.score === undefined ? null : d.score,
      difficulty_justification: d.justification || null,
      difficulty_appropriate: yes("difficulty_appropriate"),
      difficulty_comment: s.difficulty_comment || null,
      recommendations: s.recommendations.map(clean),
      contributing_factors: agent.contributing_factors || [],
      alternative_diagnoses: s.alternatives.filter(function (a) { return !untouched(a); }).map(clean)
    };
    return body;
  }
  var submitting = false;
  function submit(next) {
    if (submitting) return;
    submitting = true;
    var status = document.getElementById("submit-status");
    var empty = s.alternatives.filter(untouched).length;
    if (empty) {  // left out, and said so: the findings' paths then point at the rows on the page
      s.alternatives = s.alternatives.filter(function (a) { return !untouched(a); });
      renderAlternatives(); changed();
    }
    var left = empty ? " The empty alternative row was left out." : "";
    status.className = "";
    status.textContent = "Checking…" + left;
    rc.call("POST", "/ui/tasks/" + encodeURIComponent(data.task_id) + "/annotation", annotation()).then(function (r) {
      submitting = false;
      var summary = document.getElementById("errors");
      if (r.status === 200 && r.data && r.data.valid) {
        rc.placeErrors([], root, summary);
        status.textContent = "Submitted and stored (" + r.data.annotation_id + ")." + left + (next ? " Opening the next task…" : "");
        status.className = "ok-text";
        document.getElementById("lease").dataset.status = "submitted";
        if (next) rc.claimNext();
        return;
      }
      status.textContent = left.trim();
      var errors = r.data && r.data.errors ? r.data.errors
        : [{code: (r.data && r.data.error && r.data.error.code) || "error", path: "$", message: (r.data && r.data.error && r.data.error.message) || "the server answered " + r.status}];
      rc.placeErrors(errors, root, summary);
    }, function () { submitting = false; status.textContent = "Could not reach the server; your draft is kept."; });
  }
  document.getElementById("submit").addEventListener("click", function () { submit(false); });
  document.getElementById("submit-next").addEventListener("click", function () { submit(true); });

  // -- keys -------------------------------------------------------------------------------
  document.addEventListener("keydown", function (ev) {
    if ((ev.ctrlKey || ev.metaKey) && ev.key === "Enter") { ev.preventDefault(); submit(ev.shiftKey); return; }
    if (ev.key === "Escape" && rc.isTyping(ev)) { ev.target.blur(); return; }
    if (rc.isTyping(ev) || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    var q = questions[s.current - 1];
    if (ev.key === "y" || ev.key === "n") { ev.preventDefault(); answer(q, ev.key === "y" ? "yes" : "no"); }
    else if (ev.key === "j") { ev.preventDefault(); go(1); }
    else if (ev.key === "k") { ev.preventDefault(); go(-1); }
    else if (ev.key === "a") { ev.preventDefault(); addAlternative(); }
    else if (ev.key === "L" && ev.shiftKey && document.getElementById("leave")) { document.getElementById("leave").click(); }
    else if (ev.key === "?") { var help = document.getElementById("help"); help.hidden = !help.hidden; }
  });

  paintAnswers(); renderEvidence(); paintRubric(); renderAlternatives(); renderRecommendations();
  rc.keepLease(data);
});
