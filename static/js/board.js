// Keeps the public envelope board current without reloading the page.
// Progressive enhancement: without JavaScript the board is an ordinary page.
// Updates can be paused (WCAG 2.2.2) and changes are announced politely.
(function () {
  "use strict";
  var board = document.getElementById("board");
  var live = document.getElementById("board-live");
  var status = document.getElementById("board-status");
  if (!board || !live || !status || !window.fetch || !window.DOMParser) { return; }
  document.documentElement.classList.add("has-js");
  var seconds = parseInt(board.getAttribute("data-refresh-seconds"), 10) || 20;
  var paused = false;
  var timer = null;

  var pause = document.createElement("button");
  pause.type = "button";
  pause.className = "pause";
  var pauseLabel = board.getAttribute("data-pause-label") || "Pause updates";
  var resumeLabel = board.getAttribute("data-resume-label") || "Resume updates";
  pause.textContent = pauseLabel;
  pause.setAttribute("aria-pressed", "false");
  status.parentNode.appendChild(pause);
  pause.addEventListener("click", function () {
    paused = !paused;
    pause.textContent = paused ? resumeLabel : pauseLabel;
    pause.setAttribute("aria-pressed", paused ? "true" : "false");
    if (!paused) { refresh(); }
  });

  function stamp(text) {
    status.textContent = text;
  }

  function refresh() {
    if (paused) { return; }
    fetch(window.location.href, { cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) { throw new Error(response.status); }
        return response.text();
      })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("board-live");
        if (fresh && fresh.innerHTML !== live.innerHTML) {
          live.innerHTML = fresh.innerHTML;
          var latest = document.getElementById("latest-result");
          stamp((status.getAttribute("data-updated-label") || "Updated at") + " " + new Date().toLocaleTimeString() + "." + (latest ? " " + latest.textContent : ""));
        }
        board.setAttribute("data-refreshed", String(Date.now()));
      })
      .catch(function () {
        stamp(new Date().toLocaleTimeString() + ": " + (status.getAttribute("data-offline-label") || "Could not reach the server; trying again shortly."));
      });
  }

  timer = window.setInterval(refresh, seconds * 1000);
  window.addEventListener("pagehide", function () { window.clearInterval(timer); });
})();
