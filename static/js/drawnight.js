// Draw night, progressive enhancement only (every step works without it):
// - stop a double click from sending a step twice (the server refuses a
//   repeated step anyway, through expected_state; this only saves a refusal);
// - a step still working after a second (checking two members' passwords)
//   shows a progress bar and says so, so nobody presses again;
// - a Print button on the announcement screen (the browser's Print works too).
(function () {
  "use strict";
  var forms = document.querySelectorAll("form.step-form");
  Array.prototype.forEach.call(forms, function (form) {
    form.addEventListener("submit", function () {
      var button = form.querySelector("button[type=submit]");
      if (button) {
        window.setTimeout(function () { button.disabled = true; button.textContent = "Working…"; }, 0);
      }
      window.setTimeout(function () {
        var note = document.createElement("p");
        note.className = "working";
        note.setAttribute("role", "status");
        var bar = document.createElement("progress");
        bar.setAttribute("aria-label", "Working");
        note.appendChild(bar);
        note.appendChild(document.createTextNode(" " + (form.getAttribute("data-working") ||
          "Still working: this step takes a few seconds. Please wait; do not press the button again.")));
        form.appendChild(note);
      }, 1000);
    });
  });
  var announce = document.querySelector(".screen-sales_closed .announce");
  if (announce && window.print) {
    var print = document.createElement("button");
    print.type = "button";
    print.className = "no-print";
    print.textContent = "Print the announcement";
    print.addEventListener("click", function () { window.print(); });
    announce.parentNode.insertBefore(print, announce.nextSibling);
  }
})();
