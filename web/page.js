// The page's side of Collision Math Toy (the Rust side is src/web/page.rs): the query string
// in; lines out, to the console and into the page's HTML outside the canvas (so that
// `chromium --headless --dump-dom` shows them); the browser's storage; downloads and the file
// chooser; Web Audio after the first click or key; the clocks; the end of a run; and the time
// the first frame took.
"use strict";
(function () {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const bytes = (ptr, len) => new Uint8Array(wasm_memory.buffer, ptr, len);
  const text = (ptr, len) => decoder.decode(bytes(ptr, len));
  const el = (id) => document.getElementById(id);
  const status = (words, cls) => {
    el("status").textContent = words;
    el("status").className = cls || "";
    el("status").hidden = words === "";
  };

  // Strings to Rust: a call leaves the text here and returns its length; cmt_take copies it.
  let slot = new Uint8Array(0);
  const put = (s) => {
    slot = encoder.encode(s);
    return slot.length;
  };

  // Lines from the app: standard output into #summary, standard error to the console.
  let lastError = "";
  const report = (kind, ptr, len) => {
    const words = text(ptr, len);
    if (kind === 0) {
      console.log(words);
      const out = el("summary");
      out.textContent += words + "\n";
      out.hidden = false;
      // A headless run draws no frame: its line is the end of the loading.
      if (el("status").textContent.startsWith("loading")) status("", "");
    } else if (kind === 1) {
      console.warn(words);
      lastError = words;
    } else if (kind === 2) {
      console.error(words);
      status(words, "error");
    }
  };

  // The end of a run: the loop stops (the last frame stays on show) and the status says why.
  class PageExit extends Error {}
  window.addEventListener("error", (e) => {
    if (e.error instanceof PageExit) e.preventDefault();
  });
  const exit = (code) => {
    window.blocking_event_loop = true;
    if (code === 0) {
      // Out of the table's way: under the summary line.
      el("summary").textContent += "(the run has ended; reload the page to start again)";
      el("summary").hidden = false;
      status("", "");
    } else {
      status(lastError || "the toy stopped with status " + code, "error");
    }
    throw new PageExit("exit " + code);
  };

  // Files: downloads, and the file chooser whose choice waits in `uploads` for the app.
  const uploads = [];
  const download = (nptr, nlen, ptr, len) => {
    const blob = new Blob([bytes(ptr, len).slice()], { type: "application/octet-stream" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = text(nptr, nlen);
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  };
  const pick = (kind) => {
    const input = document.createElement("input");
    input.type = "file";
    input.accept = ".ron,text/plain";
    input.onchange = () => {
      const f = input.files[0];
      if (f) f.text().then((t) => uploads.push(kind + "\n" + f.name + "\n" + t));
    };
    input.click();
  };

  // Sound: Web Audio, started by the first click or key (browsers ask for one).
  let audio = null;
  let queuedTo = 0;
  const startAudio = () => {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    if (!audio) audio = new Ctx();
    if (audio.state !== "running") audio.resume();
  };
  for (const ev of ["pointerdown", "keydown", "touchstart"]) {
    window.addEventListener(ev, startAudio, { capture: true });
  }
  const audioAhead = () =>
    audio && audio.state === "running" ? Math.max(0, queuedTo - audio.currentTime) : -1;
  const audioPush = (ptr, len, rate) => {
    if (!audio || audio.state !== "running") return;
    const buffer = audio.createBuffer(1, len, rate);
    buffer.copyToChannel(new Float32Array(wasm_memory.buffer, ptr, len).slice(), 0);
    const source = audio.createBufferSource();
    source.buffer = buffer;
    source.connect(audio.destination);
    const at = Math.max(queuedTo, audio.currentTime + 0.02);
    source.start(at);
    queuedTo = at + len / rate;
  };

  const storage = (f, fallback) => {
    try {
      return f(window.localStorage);
    } catch (e) {
      return fallback;
    }
  };

  miniquad_add_plugin({
    register_plugin: function (importObject) {
      const env = importObject.env;
      env.cmt_query = () => put(window.location.search);
      env.cmt_take = (ptr) => bytes(ptr, slot.length).set(slot);
      env.cmt_report = report;
      env.cmt_exit = exit;
      env.cmt_perf_now = () => performance.now();
      env.cmt_date_now = () => Date.now();
      env.cmt_store_get = (kptr, klen) =>
        storage((s) => {
          const v = s.getItem(text(kptr, klen));
          return v === null ? -1 : put(v);
        }, -1);
      env.cmt_store_set = (kptr, klen, ptr, len) =>
        storage((s) => (s.setItem(text(kptr, klen), text(ptr, len)), 1), 0);
      env.cmt_store_remove = (kptr, klen) => storage((s) => s.removeItem(text(kptr, klen)));
      env.cmt_download = download;
      env.cmt_pick = pick;
      env.cmt_upload = () => (uploads.length ? put(uploads.shift()) : -1);
      env.cmt_audio_ahead = audioAhead;
      env.cmt_audio_push = audioPush;
      // Not in macroquad's gl.js: the app checks its framebuffer copies with it.
      env.glGetError = () => gl.getError();
      // gl.js's fails on a name WebGL answers with null, GL_EXTENSIONS among them, which the
      // app reads to choose its drawing path: the extensions' names instead, else "".
      env.glGetString = (name) => {
        const v = name === 0x1f03 ? (gl.getSupportedExtensions() || []).join(" ")
          : gl.getParameter(name);
        const s = encoder.encode(v == null ? "" : v.toString());
        const ptr = wasm_exports.allocate_vec_u8(s.length + 1);
        bytes(ptr, s.length + 1).set(s);
        bytes(ptr + s.length, 1)[0] = 0;
        return ptr;
      };
    },
    name: "cmt_page",
    version: 2,
  });

  // The time to the first frame: from the page's start to the end of the first frame's call
  // (compiling the module, building the world, laying out and drawing the frame).
  const loop = animation;
  animation = function () {
    loop();
    if (!window.cmt_first_frame_ms) {
      const ms = performance.now();
      window.cmt_first_frame_ms = ms;
      console.log("first frame drawn " + ms.toFixed(0) + " ms after the page started loading");
      el("first-frame").textContent = ms.toFixed(0);
      if (el("status").textContent.startsWith("loading")) status("", "");
    }
  };
})();
