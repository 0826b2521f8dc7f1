// Runs the page's module headless in Node, for comparing builds of the physics on a busy
// machine: the imports the page gives (src/web/page.rs's) answered here, the rest (WebGL,
// audio, storage) doing nothing, and the app's `main` run with a query as the page's address
// would give it. Prints the summary line and the profile by stage.
//
// Usage: node [--no-liftoff --no-wasm-lazy-compilation] web/node_run.mjs WASM QUERY
//   e.g. node web/node_run.mjs target/web/collision-math-toy.wasm '?fill=3000&frames=300&headless'
// With WEB_CPU_CLOCK=1 the app's clock is the process's CPU time (user and system, ms), not
// the wall clock: other work on the machine then counts far less, so two builds run one
// after the other compare within a few per cent on a loaded machine. The V8 flags above
// compile every function with the optimizing tier before `main` starts (no compiler threads
// during the run). Figures are Node's V8, not the browser's; the page's own figures come
// from web/bench.sh.
import fs from "fs";

const [file, query] = process.argv.slice(2);
if (!file || query === undefined) {
  console.error("usage: node web/node_run.mjs WASM QUERY");
  process.exit(2);
}
const encoder = new TextEncoder();
const decoder = new TextDecoder();
let memory;
let slot = new Uint8Array(0);
const put = (s) => {
  slot = encoder.encode(s);
  return slot.length;
};
const text = (ptr, len) => decoder.decode(new Uint8Array(memory.buffer, ptr, len));
class Exit extends Error {}
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const env = {
  cmt_query: () => put(query),
  cmt_take: (ptr) => new Uint8Array(memory.buffer, ptr, slot.length).set(slot),
  // Standard output and the profile line; other standard error quietly dropped; the rest
  // (a refusal, a text, a notice) with its kind.
  cmt_report: (kind, ptr, len) => {
    const words = text(ptr, len);
    if (kind === 0 || words.startsWith("profile")) console.log(words);
    else if (kind !== 1) console.log(`[${kind}] ${words}`);
  },
  cmt_exit: (code) => {
    throw new Exit(`exit ${code}`);
  },
  cmt_perf_now: process.env.WEB_CPU_CLOCK === "1" ? cpuMs : () => performance.now(),
  cmt_date_now: () => Date.now(),
  cmt_store_get: () => -1,
  cmt_store_set: () => 0,
  cmt_upload: () => -1,
  now: () => performance.now() / 1000,
};
const module = await WebAssembly.compile(fs.readFileSync(file));
const imports = {};
for (const i of WebAssembly.Module.imports(module)) {
  imports[i.module] ??= {};
  imports[i.module][i.name] = env[i.name] ?? (() => 0);
}
const instance = await WebAssembly.instantiate(module, imports);
memory = instance.exports.memory;
try {
  instance.exports.main();
} catch (e) {
  if (!(e instanceof Exit)) throw e;
}
