// The control plane console: "Copy" buttons next to route addresses and image references.
// The clipboard API needs a secure context; over plain http the textarea fallback is used.
"use strict";
(function () {
  function copied(button) {
    button.classList.add("cp-copied");
    button.textContent = "Copied";
    window.setTimeout(function () {
      button.classList.remove("cp-copied");
      button.textContent = "Copy";
    }, 1500);
  }

  function fallbackCopy(text, button) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.top = "-1000px";
    document.body.appendChild(area);
    area.select();
    try {
      if (document.execCommand("copy")) {
        copied(button);
      }
    } finally {
      document.body.removeChild(area);
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy]");
    if (!button) {
      return;
    }
    event.preventDefault();
    var text = button.getAttribute("data-copy");
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(
        function () { copied(button); },
        function () { fallbackCopy(text, button); }
      );
    } else {
      fallbackCopy(text, button);
    }
  });
})();
