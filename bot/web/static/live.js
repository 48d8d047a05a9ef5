// The encounter page, live: the server sends the changed part of the page (already escaped HTML) as
// Server-Sent Events; without this script the page reloads itself every few seconds instead.
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  var region = document.getElementById("live");
  if (!region || !window.EventSource) {
    return;
  }
  var source = new EventSource(region.getAttribute("data-live"));
  source.addEventListener("update", function (event) {
    region.innerHTML = event.data;
  });
});
