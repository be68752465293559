// A minimal Chrome DevTools Protocol client for the browser tests: starts
// headless Chromium, talks CDP over a WebSocket written here (node 20 has no
// WebSocket client; the protocol subset is: client handshake, masked text
// frames out, unmasked text frames in, fragmentation, close), and serves
// files over HTTP on 127.0.0.1.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

class WebSocketClient {
  static connect(url) {
    return new Promise((resolve, reject) => {
      const key = crypto.randomBytes(16).toString('base64');
      const req = http.request(url.replace(/^ws:/, 'http:'), {
        headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13',
          'Sec-WebSocket-Key': key },
      });
      req.on('upgrade', (res, socket, head) => {
        const expect = crypto.createHash('sha1')
          .update(key + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64');
        if (res.headers['sec-websocket-accept'] !== expect) {
          reject(new Error('websocket: bad handshake'));
          return;
        }
        resolve(new WebSocketClient(socket, head));
      });
      req.on('response', (res) => reject(new Error(`websocket: HTTP ${res.statusCode}`)));
      req.on('error', reject);
      req.end();
    });
  }

  constructor(socket, head) {
    this.socket = socket;
    this.buf = head.length ? Buffer.from(head) : Buffer.alloc(0);
    this.parts = [];
    this.onmessage = () => {};
    socket.setNoDelay(true);
    socket.on('data', (d) => { this.buf = Buffer.concat([this.buf, d]); this.parse(); });
  }

  parse() {
    for (;;) {
      const b = this.buf;
      if (b.length < 2) return;
      let len = b[1] & 0x7f, off = 2;
      if (len === 126) { if (b.length < 4) return; len = b.readUInt16BE(2); off = 4; }
      else if (len === 127) { if (b.length < 10) return; len = Number(b.readBigUInt64BE(2)); off = 10; }
      if (b.length < off + len) return;
      const fin = b[0] & 0x80, opcode = b[0] & 0x0f, payload = b.subarray(off, off + len);
      this.buf = b.subarray(off + len);
      if (opcode === 0x8) { this.socket.end(); return; }
      if (opcode === 0x9) { this.send(payload, 0xa); continue; }
      if (opcode === 0x1 || opcode === 0x0) {
        this.parts.push(Buffer.from(payload));
        if (fin) { const msg = Buffer.concat(this.parts).toString('utf8'); this.parts = []; this.onmessage(msg); }
      }
    }
  }

  send(data, opcode = 0x1) {
    const payload = Buffer.isBuffer(data) ? data : Buffer.from(data, 'utf8');
    const mask = crypto.randomBytes(4);
    let header;
    if (payload.length < 126) { header = Buffer.from([0x80 | opcode, 0x80 | payload.length]); }
    else if (payload.length < 65536) { header = Buffer.alloc(4); header[0] = 0x80 | opcode; header[1] = 0x80 | 126; header.writeUInt16BE(payload.length, 2); }
    else { header = Buffer.alloc(10); header[0] = 0x80 | opcode; header[1] = 0x80 | 127; header.writeBigUInt64BE(BigInt(payload.length), 2); }
    const masked = Buffer.alloc(payload.length);
    for (let i = 0; i < payload.length; i++) masked[i] = payload[i] ^ mask[i & 3];
    this.socket.write(Buffer.concat([header, mask, masked]));
  }

  close() { this.socket.destroy(); }
}

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.png': 'image/png' };

/** Serve @p routes ({ urlPrefix: directory }) on 127.0.0.1; resolves to the base URL. */
export function serve(routes) {
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const prefix = Object.keys(routes).sort((a, b) => b.length - a.length).find((p) => url.startsWith(p));
    const file = prefix && path.join(routes[prefix], url.slice(prefix.length));
    if (!file || !file.startsWith(routes[prefix]) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404); res.end('not found'); return;
    }
    res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () =>
    resolve({ server, base: `http://127.0.0.1:${server.address().port}` })));
}

/** Start headless Chromium and open one page; resolves to a Page. */
export async function launch(chromium) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'utouch-chromium-'));
  const proc = spawn(chromium, ['--headless=new', '--no-sandbox', '--disable-gpu',
    '--remote-debugging-port=0', '--remote-debugging-address=127.0.0.1', `--user-data-dir=${profile}`,
    '--window-size=1100,500', '--no-first-run', '--disable-extensions', 'about:blank'],
  { stdio: ['ignore', 'ignore', 'pipe'], detached: true }); // own process group
  const wsUrl = await new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`chromium did not start:\n${text}`)), 30000);
    proc.stderr.on('data', (d) => {
      text += d;
      const m = /DevTools listening on (ws:\S+)/.exec(text);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    proc.on('exit', (code) => reject(new Error(`chromium exited (${code}):\n${text}`)));
  });
  const ws = await WebSocketClient.connect(wsUrl);
  const browser = new Session(ws, proc, profile);
  await browser.openPage();
  return browser;
}

class Session {
  constructor(ws, proc, profile) {
    this.ws = ws; this.proc = proc; this.profile = profile;
    this.seq = 0; this.pending = new Map(); this.sessionId = undefined; this.logs = [];
    ws.onmessage = (text) => {
      const msg = JSON.parse(text);
      if (msg.id && this.pending.has(msg.id)) {
        const { resolve, reject } = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        if (msg.error) reject(new Error(`CDP: ${msg.error.message}`)); else resolve(msg.result);
      } else if (msg.method === 'Runtime.consoleAPICalled' || msg.method === 'Runtime.exceptionThrown') {
        this.logs.push(JSON.stringify(msg.params).slice(0, 500));
      }
    };
  }

  /**
   * Open a new tab and talk to it from now on, with a 1100x500 viewport and
   * touch input.  (A fresh tab per test page: after a navigation, touches
   * dispatched through CDP did not reach the new document.)
   */
  async openPage() {
    this.sessionId = undefined;
    const { targetId } = await this.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await this.send('Target.attachToTarget', { targetId, flatten: true });
    this.sessionId = sessionId;
    await this.send('Runtime.enable');
    await this.send('Page.enable');
    await this.send('Emulation.setDeviceMetricsOverride', { width: 1100, height: 500, deviceScaleFactor: 1, mobile: false });
    await this.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 10 });
  }

  /** Send a CDP command (to the page once attached). */
  send(method, params = {}) {
    const id = ++this.seq;
    const msg = { id, method, params };
    if (this.sessionId) msg.sessionId = this.sessionId;
    this.ws.send(JSON.stringify(msg));
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  /** Evaluate @p expr in the page (awaiting promises) and return its value. */
  async eval(expr) {
    const r = await this.send('Runtime.evaluate', { expression: expr, awaitPromise: true, returnByValue: true });
    if (r.exceptionDetails) throw new Error(`page: ${JSON.stringify(r.exceptionDetails).slice(0, 400)}`);
    return r.result.value;
  }

  /** Poll @p expr until it is truthy (or fail after @p ms). */
  async waitFor(expr, ms = 10000) {
    const end = Date.now() + ms;
    for (;;) {
      const v = await this.eval(expr);
      if (v) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${expr}\n${this.logs.join('\n')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Two animation frames: moves are aligned to frames. */
  frames() { return this.eval('new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(1))))'); }

  /** Input.dispatchTouchEvent, then wait for the page to see it. */
  async touch(type, points) {
    await this.send('Input.dispatchTouchEvent', { type, touchPoints: points });
    await this.frames();
  }

  async close() {
    this.ws.close();
    const exited = new Promise((r) => { if (this.proc.exitCode !== null) r(); else this.proc.on('exit', r); });
    try { process.kill(-this.proc.pid, 'SIGTERM'); } catch (_) { /* already gone */ }
    await exited;
    // its helper processes (same group) may still be writing the profile
    try { process.kill(-this.proc.pid, 'SIGKILL'); } catch (_) { /* all gone */ }
    fs.rmSync(this.profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
}
