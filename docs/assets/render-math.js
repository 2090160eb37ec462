// Render the math that pymdownx.arithmatex (generic mode) leaves as \( ... \) and \[ ... \]
// inside elements of class "arithmatex", with the KaTeX copy served by this site.
(function () {
  "use strict";
  function render() {
    document.querySelectorAll(".arithmatex").forEach(function (element) {
      renderMathInElement(element, {
        delimiters: [
          { left: "\\(", right: "\\)", display: false },
          { left: "\\[", right: "\\]", display: true },
        ],
        throwOnError: false,
      });
    });
  }
  if (typeof document$ !== "undefined") {
    document$.subscribe(render);  // mkdocs-material's page-load observable
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", render);
  } else {
    render();
  }
})();
