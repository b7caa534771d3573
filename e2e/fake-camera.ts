// A fake camera for journeys: an image (a page of a rendered ticket PDF, as PNG) becomes a Y4M video
// file that Chromium plays as its camera (`--use-file-for-fake-video-capture`), so the check-in desk's
// scanner reads a real printed QR code through getUserMedia. Headless Chromium on Linux has no
// BarcodeDetector: the desk's jsQR fallback decodes the frames, as on such a phone or laptop.
//
//   const png = pdfPageToPng(pdfBytes)                     // pdftoppm -png -r 150
//   const file = writeCameraFile(png, join(dir, 'cam.y4m')) // QR located, cropped, scaled to 640×480
//   const browser = await launchWithCamera(file)           // a separate Chromium with that camera
//
// Y4M is a text header and raw YUV 4:2:0 frames; the PNG is decoded here (node:zlib), so nothing needs
// to be installed or downloaded.
import { type Browser, chromium } from '@playwright/test'
import jsQR from 'jsqr'
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inflateSync } from 'node:zlib'

export interface Image {
  width: number
  height: number
  /** RGBA, 4 bytes per pixel, rows top to bottom */
  rgba: Uint8ClampedArray
}

/** Decodes a non-interlaced 8-bit PNG (grey, grey+alpha, RGB, RGBA or palette), what pdftoppm writes. */
export function decodePng(bytes: Uint8Array): Image {
  const buf = Buffer.from(bytes)
  if (buf.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG')
  let pos = 8
  let width = 0
  let height = 0
  let depth = 0
  let colour = 0
  let interlace = 0
  let palette: Buffer | null = null
  const idat: Buffer[] = []
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos)
    const type = buf.toString('latin1', pos + 4, pos + 8)
    const data = buf.subarray(pos + 8, pos + 8 + len)
    if (type === 'IHDR') {
      width = data.readUInt32BE(0)
      height = data.readUInt32BE(4)
      depth = data[8]
      colour = data[9]
      interlace = data[12]
    } else if (type === 'PLTE') palette = Buffer.from(data)
    else if (type === 'IDAT') idat.push(Buffer.from(data))
    else if (type === 'IEND') break
    pos += 12 + len
  }
  if (depth !== 8 || interlace !== 0) throw new Error(`PNG with bit depth ${depth}, interlace ${interlace} is not supported`)
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colour as 0 | 2 | 3 | 4 | 6]
  if (!channels) throw new Error(`PNG colour type ${colour} is not supported`)
  const raw = inflateSync(Buffer.concat(idat))
  const stride = width * channels
  const pixels = Buffer.alloc(stride * height)
  let prev = Buffer.alloc(stride)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1))
    const out = pixels.subarray(y * stride, (y + 1) * stride)
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? out[i - channels] : 0
      const b = prev[i]
      const c = i >= channels ? prev[i - channels] : 0
      let v = line[i]
      if (filter === 1) v += a
      else if (filter === 2) v += b
      else if (filter === 3) v += (a + b) >> 1
      else if (filter === 4) {
        const p = a + b - c
        const pa = Math.abs(p - a)
        const pb = Math.abs(p - b)
        const pc = Math.abs(p - c)
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c
      }
      out[i] = v & 0xff
    }
    prev = out
  }
  const rgba = new Uint8ClampedArray(width * height * 4)
  for (let i = 0; i < width * height; i++) {
    const s = i * channels
    let r: number, g: number, b: number, al: number
    if (colour === 0) (r = g = b = pixels[s]), (al = 255)
    else if (colour === 4) (r = g = b = pixels[s]), (al = pixels[s + 1])
    else if (colour === 3) (r = palette![pixels[s] * 3]), (g = palette![pixels[s] * 3 + 1]), (b = palette![pixels[s] * 3 + 2]), (al = 255)
    else (r = pixels[s]), (g = pixels[s + 1]), (b = pixels[s + 2]), (al = colour === 6 ? pixels[s + 3] : 255)
    // transparent parts are paper: white
    const k = al / 255
    rgba[i * 4] = r * k + 255 * (1 - k)
    rgba[i * 4 + 1] = g * k + 255 * (1 - k)
    rgba[i * 4 + 2] = b * k + 255 * (1 - k)
    rgba[i * 4 + 3] = 255
  }
  return { width, height, rgba }
}

/** First page of a PDF as PNG (pdftoppm -png -r 150, poppler-utils). */
export function pdfPageToPng(pdf: Uint8Array, opts: { dpi?: number; page?: number } = {}): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'einlass-cam-'))
  const input = join(dir, 'in.pdf')
  writeFileSync(input, pdf)
  const page = String(opts.page ?? 1)
  const p = spawnSync('pdftoppm', ['-png', '-r', String(opts.dpi ?? 150), '-f', page, '-l', page, '-singlefile', input, join(dir, 'page')], { stdio: 'ignore' })
  if (p.status !== 0) throw new Error('pdftoppm failed')
  return readFileSync(join(dir, 'page.png'))
}

/** The QR codes zbarimg reads in a PNG (their texts), e.g. to assert what a ticket carries. */
export function zbarDecode(png: Uint8Array): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'einlass-zbar-'))
  const file = join(dir, 'img.png')
  writeFileSync(file, png)
  try {
    const out = execFileSync('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Sqrcode.enable', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
    return out.split('\n').filter(Boolean)
  } catch {
    return []
  }
}

export interface Box {
  x: number
  y: number
  width: number
  height: number
}

/**
 * Where jsQR finds a QR code in the image (bounding box of its corners), or null. A printed page may
 * hold several codes side by side (a ticket has one per person), which confuses jsQR's finder-pattern
 * search over the whole page: windows of the page are tried in reading order, so the first code
 * (the main guest's) is found first.
 */
export function locateQr(img: Image): { box: Box; data: string } | null {
  const side = Math.max(120, Math.round(Math.min(img.width, img.height) / 2.5))
  const step = Math.max(40, Math.round(side / 4))
  const tries: Array<{ x: number; y: number; w: number; h: number }> = []
  for (let y = 0; y < img.height; y += step) for (let x = 0; x < img.width; x += step) tries.push({ x, y, w: Math.min(side, img.width - x), h: Math.min(side, img.height - y) })
  for (const t of tries) {
    if (t.w < 60 || t.h < 60) continue
    const crop = new Uint8ClampedArray(t.w * t.h * 4)
    for (let row = 0; row < t.h; row++) crop.set(img.rgba.subarray(((t.y + row) * img.width + t.x) * 4, ((t.y + row) * img.width + t.x + t.w) * 4), row * t.w * 4)
    const found = jsQR(crop, t.w, t.h)
    if (found) return boxOf(found, t.x, t.y)
  }
  const whole = jsQR(img.rgba, img.width, img.height)
  return whole ? boxOf(whole, 0, 0) : null
}

function boxOf(found: NonNullable<ReturnType<typeof jsQR>>, dx: number, dy: number): { box: Box; data: string } {
  const l = found.location
  const xs = [l.topLeftCorner.x, l.topRightCorner.x, l.bottomLeftCorner.x, l.bottomRightCorner.x]
  const ys = [l.topLeftCorner.y, l.topRightCorner.y, l.bottomLeftCorner.y, l.bottomRightCorner.y]
  const x = Math.min(...xs)
  const y = Math.min(...ys)
  return { box: { x: x + dx, y: y + dy, width: Math.max(...xs) - x, height: Math.max(...ys) - y }, data: found.data }
}

/**
 * One camera frame: the box (with a quiet zone around it) scaled to fill `fill` of the frame's height,
 * centred on white, as grey values (bilinear sampling).
 */
export function frameOf(img: Image, box: Box, opts: { width?: number; height?: number; fill?: number } = {}): { width: number; height: number; grey: Uint8Array } {
  const W = opts.width ?? 640
  const H = opts.height ?? 480
  const quiet = Math.max(box.width, box.height) * 0.15
  const src = { x: box.x - quiet, y: box.y - quiet, size: Math.max(box.width, box.height) + 2 * quiet }
  const side = Math.round(H * (opts.fill ?? 0.8))
  const scale = src.size / side
  const left = Math.round((W - side) / 2)
  const top = Math.round((H - side) / 2)
  const grey = new Uint8Array(W * H).fill(255)
  const lum = (x: number, y: number) => {
    if (x < 0 || y < 0 || x >= img.width || y >= img.height) return 255
    const i = (y * img.width + x) * 4
    return 0.299 * img.rgba[i] + 0.587 * img.rgba[i + 1] + 0.114 * img.rgba[i + 2]
  }
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const sx = src.x + (x + 0.5) * scale - 0.5
      const sy = src.y + (y + 0.5) * scale - 0.5
      const x0 = Math.floor(sx)
      const y0 = Math.floor(sy)
      const fx = sx - x0
      const fy = sy - y0
      const v = lum(x0, y0) * (1 - fx) * (1 - fy) + lum(x0 + 1, y0) * fx * (1 - fy) + lum(x0, y0 + 1) * (1 - fx) * fy + lum(x0 + 1, y0 + 1) * fx * fy
      grey[(top + y) * W + left + x] = Math.round(v)
    }
  }
  return { width: W, height: H, grey }
}

/** A Y4M file (4:2:0, studio range) showing the grey frame `frames` times at `fps`. */
export function y4m(frame: { width: number; height: number; grey: Uint8Array }, opts: { fps?: number; frames?: number } = {}): Buffer {
  const { width: W, height: H } = frame
  const header = Buffer.from(`YUV4MPEG2 W${W} H${H} F${opts.fps ?? 10}:1 Ip A1:1 C420jpeg\n`, 'latin1')
  const y = Buffer.alloc(W * H)
  for (let i = 0; i < W * H; i++) y[i] = 16 + Math.round((frame.grey[i] * 219) / 255)
  const chroma = Buffer.alloc((W / 2) * (H / 2) * 2, 128)
  const one = Buffer.concat([Buffer.from('FRAME\n', 'latin1'), y, chroma])
  return Buffer.concat([header, ...Array.from({ length: opts.frames ?? 5 }, () => one)])
}

/**
 * Writes the camera file for a PNG: the QR code located with jsQR (or `box` given), cropped, scaled
 * into a 640×480 frame. Returns the path and what jsQR read in the source image (null with `box`).
 */
export function writeCameraFile(png: Uint8Array, path: string, opts: { box?: Box; fill?: number } = {}): { path: string; data: string | null } {
  const img = decodePng(png)
  const found = opts.box ? null : locateQr(img)
  const box = opts.box ?? found?.box
  if (!box) throw new Error('no QR code found in the image')
  writeFileSync(path, y4m(frameOf(img, box, { fill: opts.fill })))
  return { path, data: found?.data ?? null }
}

/** The Chromium switches that make `file` the camera and allow it without asking. */
export const cameraArgs = (file: string) => ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${file}`]

/** A separate Chromium (the journeys' switches plus the fake camera playing `file`). */
export async function launchWithCamera(file: string): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--lang=de-DE', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', ...cameraArgs(file)],
  })
}
