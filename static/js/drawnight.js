// Draw night: stop a double click from sending a step twice. The server
// refuses a repeated step anyway (expected_state); this only saves a refusal.
(function () {
  "use strict";
  var forms = document.querySelectorAll("form.step-form");
  Array.prototype.forEach.call(forms, function (form) {
    form.addEventListener("submit", function () {
      var button = form.querySelector("button[type=submit]");
      if (button) {
        window.setTimeout(function () { button.disabled = true; button.textContent = "Working…"; }, 0);
      }
    });
  });
})();
