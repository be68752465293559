// What the node-side web tests share: the built module (the test is skipped,
// exit 77, where it was not built) and checks that print "ok:"/"FAIL:" lines
// and end the process with the verdict.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadModule } from '../../web/recognizer.js';

/** The module built in @p wasmDir, loaded under node; exits 77 when missing. */
export async function loadBuiltModule(wasmDir) {
  const wasmFile = path.join(wasmDir, 'utouch-wasm.wasm');
  if (!fs.existsSync(wasmFile)) { console.log(`SKIP: ${wasmFile} was not built`); process.exit(77); }
  return loadModule({ wasmBinary: fs.readFileSync(wasmFile) },
    pathToFileURL(path.join(wasmDir, 'utouch-wasm.mjs')).href);
}

let failures = 0;

/** Print one check's result; a false @p ok counts as a failure. */
export function check(what, ok, detail = '') {
  console.log(`${ok ? 'ok' : 'FAIL'}: ${what}${detail ? ' — ' + detail : ''}`);
  if (!ok) failures++;
}

/** Print the verdict and exit: 0 when every check passed, else 1. */
export function finish() {
  console.log(failures ? `${failures} checks failed` : 'all checks passed');
  process.exit(failures ? 1 : 0);
}
