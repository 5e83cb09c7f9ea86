import { crc32, deflateSync } from 'node:zlib';
import { rolldown } from 'rolldown';

/*
 * The Excel add-in's generated files that need the server's tools: the functions script (the Excel
 * entry of src/lib/spreadsheet bundled into one classic script, for the manifest's stable
 * functions.js address) and the icons (the site's favicon drawn as PNG, which Office requires).
 * Both are made once at build time by the prerendered endpoints under src/pages/excel-add-in/.
 */

/** The Excel entry the script bundles. */
const ENTRY = 'src/lib/spreadsheet/excel-runtime.ts';
/** The global the bundle defines; the script's last line registers the functions through it. */
const GLOBAL_NAME = 'SpreadsheetAddIn';

/**
 * functions.js: the Excel entry as one minified classic script (Office's custom-functions runtime
 * on some platforms loads a plain script, not a module), registering the functions against
 * `dataApiUrl` when it runs inside Excel.
 */
export async function addInFunctionsScript(dataApiUrl: string): Promise<string> {
  const bundle = await rolldown({ input: ENTRY, platform: 'browser', logLevel: 'silent' });
  try {
    const { output } = await bundle.generate({ format: 'iife', name: GLOBAL_NAME, minify: true });
    const [chunk] = output;
    return `${chunk.code}\n${GLOBAL_NAME}.registerExcelFunctions({ baseUrl: ${JSON.stringify(dataApiUrl)} });\n`;
  } finally {
    await bundle.close();
  }
}

// The favicon (public/favicon.svg) in its own 32-unit box: an indigo rounded square, a white rising
// line and a fainter white base line.
const BRAND = [0x4f, 0x46, 0xe5] as const;
const CORNER = 8;
const RISE: readonly (readonly [number, number])[] = [
  [7, 21.5],
  [12.5, 15],
  [16.5, 18.5],
  [25, 9],
];
const RISE_WIDTH = 2.6;
const BASE: readonly (readonly [number, number])[] = [
  [7, 25],
  [25, 25],
];
const BASE_WIDTH = 2;
const BASE_OPACITY = 0.55;
/** Samples per pixel side: 4 × 4 samples smooth the edges. */
const SAMPLES = 4;

function insideRoundedSquare(x: number, y: number): boolean {
  if (x < 0 || y < 0 || x > 32 || y > 32) return false;
  const cx = Math.min(Math.max(x, CORNER), 32 - CORNER);
  const cy = Math.min(Math.max(y, CORNER), 32 - CORNER);
  return (x - cx) ** 2 + (y - cy) ** 2 <= CORNER ** 2;
}

function distanceToSegment(
  x: number,
  y: number,
  [ax, ay]: readonly number[],
  [bx, by]: readonly number[],
): number {
  const [x1, y1, x2, y2] = [ax ?? 0, ay ?? 0, bx ?? 0, by ?? 0];
  const length = (x2 - x1) ** 2 + (y2 - y1) ** 2;
  const t =
    length === 0 ? 0 : Math.min(1, Math.max(0, ((x - x1) * (x2 - x1) + (y - y1) * (y2 - y1)) / length));
  return Math.hypot(x - (x1 + t * (x2 - x1)), y - (y1 + t * (y2 - y1)));
}

function onPolyline(
  x: number,
  y: number,
  points: readonly (readonly [number, number])[],
  width: number,
): boolean {
  for (let i = 1; i < points.length; i += 1) {
    const from = points[i - 1];
    const to = points[i];
    if (from !== undefined && to !== undefined && distanceToSegment(x, y, from, to) <= width / 2) return true;
  }
  return false;
}

/** One sample's colour and coverage: [r, g, b, a] in 0..1. */
function sample(x: number, y: number): [number, number, number, number] {
  if (!insideRoundedSquare(x, y)) return [0, 0, 0, 0];
  const [r, g, b] = BRAND.map((channel) => channel / 255) as [number, number, number];
  if (onPolyline(x, y, RISE, RISE_WIDTH)) return [1, 1, 1, 1];
  if (onPolyline(x, y, BASE, BASE_WIDTH)) {
    const mix = (channel: number): number => channel + (1 - channel) * BASE_OPACITY;
    return [mix(r), mix(g), mix(b), 1];
  }
  return [r, g, b, 1];
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** The add-in's icon, `size` pixels square, as a PNG (RGBA, premultiplied edges resolved). */
export function addInIconPng(size: number): Buffer {
  const scanline = size * 4 + 1;
  const pixels = Buffer.alloc(scanline * size);
  const unit = 32 / size;
  for (let py = 0; py < size; py += 1) {
    pixels[py * scanline] = 0; // filter: none
    for (let px = 0; px < size; px += 1) {
      let [r, g, b, a] = [0, 0, 0, 0];
      for (let sy = 0; sy < SAMPLES; sy += 1) {
        for (let sx = 0; sx < SAMPLES; sx += 1) {
          const [cr, cg, cb, ca] = sample(
            (px + (sx + 0.5) / SAMPLES) * unit,
            (py + (sy + 0.5) / SAMPLES) * unit,
          );
          r += cr * ca;
          g += cg * ca;
          b += cb * ca;
          a += ca;
        }
      }
      const offset = py * scanline + 1 + px * 4;
      pixels[offset] = a === 0 ? 0 : Math.round((r / a) * 255);
      pixels[offset + 1] = a === 0 ? 0 : Math.round((g / a) * 255);
      pixels[offset + 2] = a === 0 ? 0 : Math.round((b / a) * 255);
      pixels[offset + 3] = Math.round((a / (SAMPLES * SAMPLES)) * 255);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
