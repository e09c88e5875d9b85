/* The lead's adjudication page: start the written decision from one reviewer's review, and send
   the comment with whichever decision is made. Everything works without it (the first review
   prefills the decision; the comment goes with the first adopt button). */
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  var own = document.getElementById("own-review");
  document.querySelectorAll(".start-from").forEach(function (button) {
    button.addEventListener("click", function () {
      var id = button.getAttribute("data-review");
      var source = document.querySelector('.review-json[data-review="' + CSS.escape(id) + '"]');
      if (!source || !own) return;
      own.value = JSON.stringify(JSON.parse(source.textContent), null, 2);
      own.focus();
      own.scrollIntoView({block: "center"});
    });
  });
  var comment = document.getElementById("comment");
  if (comment) {
    var sync = function () {
      document.querySelectorAll(".comment-copy").forEach(function (copy) { copy.value = comment.value; });
    };
    comment.addEventListener("input", sync);
    sync();
  }
});
