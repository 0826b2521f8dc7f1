// The page's side of Collision Math Toy (the Rust side is src/web/page.rs): it loads the
// module itself (its download begun at once, its compiling after checking for WebGL and
// WebAssembly SIMD, saying in words what is missing) and gives it the query string; lines
// out, to the console and into the page's HTML outside the canvas (so `chromium --headless
// --dump-dom` shows them); text that answers the address (?help, ?tour=list, a refusal) as a
// readable page; the browser's storage and the offer to keep an address's settings;
// downloads and the file chooser; Web Audio after the first click or key; the clocks; the
// keys the browser keeps (F5, F11, F12) and the wheel in notches; the end of a run (after
// which nothing reaches the module); and the time the first frame took.
"use strict";
(function () {
  // The module's download starts first, while the page checks the browser and sets up (it
  // is most of the first frame's wait on a slow line); dropped if the browser cannot run it.
  const download_abort = new AbortController();
  const module_response = fetch("collision-math-toy.wasm", { signal: download_abort.signal });
  module_response.catch(() => {});
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const bytes = (ptr, len) => new Uint8Array(wasm_memory.buffer, ptr, len);
  const text = (ptr, len) => decoder.decode(bytes(ptr, len));
  const el = (id) => document.getElementById(id);
  const status = (words) => {
    el("status").textContent = words;
    el("status").hidden = words === "";
  };
  // Text in place of the toy: a title and the text, in a column that scrolls.
  const page = (title, words, refusal) => {
    status("");
    const t = el("text");
    t.querySelector("h1").textContent = title;
    t.querySelector("pre").textContent = words;
    t.className = refusal ? "refusal" : "";
    t.hidden = false;
  };
  const firstFrameDrawn = () => Boolean(window.cmt_first_frame_ms);

  // Strings to Rust: a call leaves the text here and returns its length; cmt_take copies it.
  let slot = new Uint8Array(0);
  const put = (s) => {
    slot = encoder.encode(s);
    return slot.length;
  };

  // Lines from the app (src/web/page.rs's `Kind`): standard output into #summary, standard
  // error to the console (warnings and errors as such, progress quietly), a refusal or a text
  // as the page, a notice over the canvas.
  let lastError = "";
  const refused = (words) =>
    page(firstFrameDrawn() ? "The toy stopped" : "The toy cannot start with this address",
      words, true);
  const report = (kind, ptr, len) => {
    const words = text(ptr, len);
    if (kind === 0) {
      console.log(words);
      const out = el("summary");
      out.textContent += words + "\n";
      out.hidden = false;
      // A headless run draws no frame: its line is the end of the loading.
      status("");
    } else if (kind === 1) {
      if (/^(warning|error)/.test(words)) console.warn(words);
      else console.debug(words);
      lastError = words;
      // A headless run's profile by stage goes under its summary line.
      if (words.startsWith("profile")) el("summary").textContent += words + "\n";
    } else if (kind === 2) {
      console.error(words);
      refused(words);
    } else if (kind === 3) {
      const [title, ...rest] = words.trimEnd().split("\n");
      page(title, rest.join("\n").trimStart(), false);
    } else if (kind === 4) {
      console.warn(words);
      const said = words.replace(/^warning: /, "");
      el("notice").querySelector("span").textContent = said.charAt(0).toUpperCase() + said.slice(1);
      el("notice").hidden = false;
    }
  };
  el("notice").querySelector("button").onclick = () => (el("notice").hidden = true);

  // The end of a run: the loop stops (the last frame stays on show), nothing reaches the
  // module again (a run ends inside a call, whose state is left as it was), and the page
  // says why.
  class PageExit extends Error {}
  const exit = (code) => {
    window.blocking_event_loop = true;
    window.cmt_ended = { code };
    const memory = wasm_memory;
    wasm_exports = new Proxy({}, { get: (_, k) => (k === "memory" ? memory : () => 0) });
    el("keep").hidden = true;
    if (code === 0) {
      // Out of the table's way: under the summary line.
      el("summary").textContent += "(the run has ended; reload the page to start again)";
      el("summary").hidden = false;
      status("");
    } else {
      refused(lastError || "the toy stopped with status " + code);
    }
    throw new PageExit("exit " + code);
  };

  // Files: downloads, and the file chooser whose choice waits in `uploads` for the app.
  // The names downloaded and the choosers opened are kept for the page's checks.
  const uploads = [];
  window.cmt_downloads = [];
  window.cmt_picks = 0;
  const download = (nptr, nlen, ptr, len) => {
    window.cmt_downloads.push(text(nptr, nlen));
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
    window.cmt_picks += 1;
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

  // What the window shows, each frame (for the page's checks), and the offer to keep the
  // settings of a visit set up by its address.
  const facts = (ptr, len) => {
    window.cmt_facts = JSON.parse(text(ptr, len));
    const offer = window.cmt_facts.settings === "visit" && !window.cmt_ended;
    if (el("keep").hidden === offer) el("keep").hidden = !offer;
  };
  el("keep").querySelector("button").onclick = () => {
    wasm_exports.cmt_keep_settings();
    el("keep").hidden = true;
  };

  miniquad_add_plugin({
    register_plugin: function (importObject) {
      const env = importObject.env;
      env.cmt_query = () => put(window.location.search);
      env.cmt_take = (ptr) => bytes(ptr, slot.length).set(slot);
      env.cmt_report = report;
      env.cmt_exit = exit;
      env.cmt_facts = facts;
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
      // egui's links (the toy shows none): the URL is a handle the bundle keeps to itself.
      env.quad_url_link_open = () => {};
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

  // Keys the browser keeps (reload, full screen, its developer tools) never reach the canvas,
  // so the browser does what they mean; the toy's screenshot key is another (Help names it).
  const BROWSER_KEYS = ["F5", "F11", "F12"];
  for (const ev of ["keydown", "keyup", "keypress"]) {
    window.addEventListener(ev, (e) => {
      if (BROWSER_KEYS.includes(e.code)) e.stopPropagation();
    }, { capture: true });
  }

  // The wheel over the canvas in notches, as the desktop reports it: a browser reports pixels
  // (about 100 a notch; Chromium on Linux 120), lines (3 a notch) or pages, which the app would
  // take as that many notches (one turn scrolling the whole side panel).
  const PER_NOTCH = [100, 3, 1];
  window.addEventListener("wheel", (e) => {
    if (e.target !== canvas || typeof wasm_exports === "undefined") return;
    e.preventDefault();
    e.stopPropagation();
    const per = PER_NOTCH[e.deltaMode] || 100;
    wasm_exports.mouse_wheel(-e.deltaX / per, -e.deltaY / per);
  }, { capture: true, passive: false });

  // The frame loop: the time to the first frame, from the page's start to the end of the first
  // frame's call (compiling the module, building the world, laying out and drawing the frame);
  // a run's end (thrown from inside the frame) stops it quietly.
  const loop = animation;
  animation = function () {
    try {
      loop();
    } catch (e) {
      if (e instanceof PageExit) return;
      throw e;
    }
    if (!window.cmt_first_frame_ms) {
      const ms = performance.now();
      window.cmt_first_frame_ms = ms;
      console.log("first frame drawn " + ms.toFixed(0) + " ms after the page started loading");
      el("first-frame").textContent = ms.toFixed(0);
      if (el("status").textContent.startsWith("loading")) status("");
    }
  };

  // The smallest module using a SIMD instruction (a function returning `i8x16.splat` of 0):
  // a browser that validates it runs the toy's module, built with simd128.
  const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2,
    1, 0, 10, 8, 1, 6, 0, 65, 0, 253, 15, 11]);
  const missing = () => {
    const probe = document.createElement("canvas");
    if (!(probe.getContext("webgl2") || probe.getContext("webgl"))) {
      return "This browser could not give the page WebGL, which the toy draws with. Turn on " +
        "hardware acceleration (or WebGL) in the browser's settings, or try another browser.";
    }
    if (typeof WebAssembly !== "object" || !WebAssembly.validate(SIMD_PROBE)) {
      return "This browser does not run WebAssembly SIMD (128-bit vectors), which the toy's " +
        "physics is built with. Any current Chrome, Edge, Firefox or Safari (16.4 or later) " +
        "runs it; update the browser, or try another.";
    }
    return null;
  };

  // The module loaded as macroquad's `load` does, less its console lines: compiled as it
  // downloads, the plugins started quietly, then `main`, whose end of a run is the page's.
  const start = async () => {
    register_plugins(plugins);
    const module = await WebAssembly.compileStreaming(module_response);
    add_missing_functions_stabs(module);
    const instance = await WebAssembly.instantiate(module, importObject);
    wasm_memory = instance.exports.memory;
    wasm_exports = instance.exports;
    if (version !== wasm_exports.crate_version()) {
      console.error("the page's loader and the module's miniquad differ in version");
    }
    for (const p of plugins) if (p.on_init) p.on_init();
    try {
      instance.exports.main();
    } catch (e) {
      if (!(e instanceof PageExit)) throw e;
    }
  };

  const why = missing();
  if (why) {
    download_abort.abort();
    console.error(why);
    page("The toy cannot run in this browser", why, true);
  } else {
    start().catch((e) => {
      console.error(e);
      page("The toy could not start", String(e), true);
    });
  }
})();
