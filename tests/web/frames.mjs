// What the web tests and the benchmark read from recordings and from
// utouch-replay --frames output.
import fs from 'node:fs';
import path from 'node:path';
import { Op } from '../../web/recognizer.js';

// X/Y axis [min, max, resolution per metre] from the recording's device
// description: evemu "A:" lines (in the file or in device.prop beside it)
// or the absinfo map of a libinput record YAML file
export function axes(rec) {
  let text = fs.readFileSync(rec, 'utf8');
  const ax = {};
  if (/^\s*absinfo:/m.test(text)) {
    // libinput record: "      53: [min, max, fuzz, flat, resolution]"
    const block = text.slice(text.search(/^\s*absinfo:/m)).split('\n').slice(1);
    for (const line of block) {
      const m = /^\s*(\d+): \[\s*(-?\d+),\s*(-?\d+),\s*-?\d+,\s*-?\d+,\s*(\d+)\]/.exec(line);
      if (!m) break;
      ax[Number(m[1])] = [Number(m[2]), Number(m[3]), Number(m[4]) * 1000];
    }
  } else {
    if (!/^A: /m.test(text)) {
      const prop = path.join(path.dirname(rec), 'device.prop');
      if (fs.existsSync(prop)) text = fs.readFileSync(prop, 'utf8');
    }
    for (const m of text.matchAll(/^A: ([0-9a-f]+) (-?\d+) (-?\d+) \d+ \d+(?: (\d+))?/gm)) {
      ax[parseInt(m[1], 16)] = [Number(m[2]), Number(m[3]), Number(m[4] || 0) * 1000];
    }
  }
  return { x: ax[0x35] || [0, 0, 0], y: ax[0x36] || [0, 0, 0] };
}

const KIND = { begin: Op.BEGIN, update: Op.UPDATE, end: Op.END, owned: Op.OWN };
const FRAME = /^# frame t=(\d+) (\w+) id=(\d+) win=(\S+),(\S+) dev=(\S+),(\S+)$/;

// Frames from the --frames lines.  utouch-replay prints no frame boundaries,
// so they are recovered: with split=1 in the header every operation is a
// frame of its own; otherwise a new frame starts when the time changes, when
// ownership follows other operations (or the other way round), and when a
// touch repeats.  The caller checks the count against the header's frames=.
export function framesOf(lines) {
  const split = /^# file=.* split=1 /.test(lines[0] || '');
  const frames = [];
  let cur = null;
  for (const l of lines) {
    const m = FRAME.exec(l);
    if (!m) continue;
    const t = Number(m[1]), op = KIND[m[2]], id = Number(m[3]);
    if (op === undefined) throw new Error(`unknown operation in: ${l}`);
    if (!cur || split || cur.t !== t || (op === Op.OWN && cur.ops.at(-1).op !== Op.OWN) ||
        (op !== Op.OWN && cur.ops.at(-1).op === Op.OWN) || cur.ops.some((o) => o.id === id)) {
      cur = { t, ops: [] };
      frames.push(cur);
    }
    cur.ops.push({ op, id, x: Number(m[4]), y: Number(m[5]), dx: Number(m[6]), dy: Number(m[7]) });
  }
  return frames;
}
