// The page's side of Collision Math Toy (the Rust side is web/src/page.rs): the query string
// in; the summary line, messages and the first frame's time out, to the console and into the
// page's HTML, outside the canvas, so that `chromium --headless --dump-dom` shows them.
"use strict";
(function () {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const text = (ptr, len) => decoder.decode(new Uint8Array(wasm_memory.buffer, ptr, len));
  const query = () => encoder.encode(window.location.search);
  const show = (id, words, cls) => {
    const el = document.getElementById(id);
    el.textContent = words;
    if (cls) el.className = cls;
  };
  const report = (kind, ptr, len) => {
    const words = text(ptr, len);
    if (kind === 0) {
      console.log(words);
      show("summary", words);
      // The run is over: miniquad's loop stops asking for frames, so a browser (or a test's
      // virtual time) does not spend itself redrawing a still table.
      window.blocking_event_loop = true;
    } else if (kind === 1) {
      console.log(words);
      show("status", words, "");
    } else if (kind === 2) {
      console.error(words);
      show("status", words, "error");
    } else if (kind === 3) {
      const ms = performance.now().toFixed(0);
      console.log("first frame drawn " + ms + " ms after the page started loading");
      show("first-frame", ms);
      document.getElementById("first-frame-note").hidden = false;
    }
  };
  miniquad_add_plugin({
    register_plugin: function (importObject) {
      importObject.env.cmt_query_len = () => query().length;
      importObject.env.cmt_query_copy = (ptr, len) =>
        new Uint8Array(wasm_memory.buffer, ptr, len).set(query().subarray(0, len));
      importObject.env.cmt_report = report;
      importObject.env.cmt_now = () => performance.now() / 1000;
    },
    name: "cmt_page",
    version: 1,
  });
})();
