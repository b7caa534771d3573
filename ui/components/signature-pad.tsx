// A drawn signature: a canvas that takes mouse, finger and pen through pointer events (touch-action
// none, so drawing does not scroll the page), sharp on high-DPI screens, kept as strokes so a resize
// redraws instead of losing the ink. It hands out a PNG data URL of the ink cropped to its bounds and
// scaled to at most EXPORT_W × EXPORT_H on white (a few kB; the server takes up to 300 kB and the
// signature lists show it on white), or null while nothing is drawn. Used by the check-in desk and
// meant for the guest's own signing too.
import { useEffect, useRef, useState } from 'preact/hooks'
import { t } from '../i18n'
import { Button } from './ui'

type Point = { x: number; y: number }
type Stroke = Point[]

const INK = '#10223e'
const LINE = 2.6
const EXPORT_W = 600
const EXPORT_H = 240
/** Less ink than this (CSS px of stroke length) is a slip, not a signature. */
const MIN_INK = 12

function strokeLength(s: Stroke) {
  let n = 0
  for (let i = 1; i < s.length; i++) n += Math.hypot(s[i].x - s[i - 1].x, s[i].y - s[i - 1].y)
  return n
}

/** Smooth strokes: quadratic curves through the midpoints; a single point is a dot. */
function paint(ctx: CanvasRenderingContext2D, strokes: Stroke[], width: number) {
  ctx.strokeStyle = INK
  ctx.fillStyle = INK
  ctx.lineWidth = width
  ctx.lineCap = 'round'
  ctx.lineJoin = 'round'
  for (const s of strokes) {
    if (s.length === 1) {
      ctx.beginPath()
      ctx.arc(s[0].x, s[0].y, width / 2, 0, Math.PI * 2)
      ctx.fill()
      continue
    }
    ctx.beginPath()
    ctx.moveTo(s[0].x, s[0].y)
    for (let i = 1; i < s.length - 1; i++) {
      const mid = { x: (s[i].x + s[i + 1].x) / 2, y: (s[i].y + s[i + 1].y) / 2 }
      ctx.quadraticCurveTo(s[i].x, s[i].y, mid.x, mid.y)
    }
    const last = s[s.length - 1]
    ctx.lineTo(last.x, last.y)
    ctx.stroke()
  }
}

/** The ink as a PNG data URL: cropped, scaled down to fit EXPORT_W × EXPORT_H, on white. */
export function signaturePng(strokes: Stroke[]): string | null {
  const pts = strokes.flat()
  if (!pts.length || strokes.reduce((n, s) => n + Math.max(strokeLength(s), s.length === 1 ? LINE : 0), 0) < MIN_INK) return null
  const pad = LINE * 2
  const minX = Math.min(...pts.map((p) => p.x)) - pad
  const minY = Math.min(...pts.map((p) => p.y)) - pad
  const w = Math.max(...pts.map((p) => p.x)) + pad - minX
  const h = Math.max(...pts.map((p) => p.y)) + pad - minY
  // drawn at twice the CSS size (crisp on the lists' high-DPI screens) unless that exceeds the limit
  const scale = Math.min(2, EXPORT_W / w, EXPORT_H / h)
  const c = document.createElement('canvas')
  c.width = Math.max(1, Math.round(w * scale))
  c.height = Math.max(1, Math.round(h * scale))
  const ctx = c.getContext('2d')!
  ctx.fillStyle = '#fff'
  ctx.fillRect(0, 0, c.width, c.height)
  ctx.setTransform(scale, 0, 0, scale, -minX * scale, -minY * scale)
  paint(ctx, strokes, LINE)
  return c.toDataURL('image/png')
}

export function SignaturePad({ onChange, id = 'signature-pad', invalid }: { onChange(png: string | null): void; id?: string; invalid?: boolean }) {
  const canvas = useRef<HTMLCanvasElement>(null)
  const strokes = useRef<Stroke[]>([])
  const drawing = useRef<number | null>(null)
  const [empty, setEmpty] = useState(true)

  const redraw = () => {
    const c = canvas.current
    if (!c) return
    const dpr = window.devicePixelRatio || 1
    const rect = c.getBoundingClientRect()
    const w = Math.round(rect.width * dpr)
    const h = Math.round(rect.height * dpr)
    if (c.width !== w || c.height !== h) {
      c.width = w
      c.height = h
    }
    const ctx = c.getContext('2d')!
    ctx.setTransform(1, 0, 0, 1, 0, 0)
    ctx.clearRect(0, 0, c.width, c.height)
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0)
    paint(ctx, strokes.current, LINE)
  }

  useEffect(() => {
    redraw()
    const c = canvas.current
    if (!c || typeof ResizeObserver === 'undefined') return
    const ro = new ResizeObserver(() => redraw())
    ro.observe(c)
    return () => ro.disconnect()
  }, [])

  const at = (e: PointerEvent): Point => {
    const r = canvas.current!.getBoundingClientRect()
    return { x: e.clientX - r.left, y: e.clientY - r.top }
  }
  const finish = () => {
    if (drawing.current === null) return
    drawing.current = null
    const png = signaturePng(strokes.current)
    setEmpty(!png)
    onChange(png)
  }
  const clear = () => {
    strokes.current = []
    drawing.current = null
    redraw()
    setEmpty(true)
    onChange(null)
  }

  return (
    <div class={`signature-pad ${invalid ? 'has-error' : ''}`}>
      <div class="signature-pad-head">
        <span id={`${id}-label`} class="signature-pad-label">
          {t('signature.here')}
        </span>
        <Button variant="secondary" onClick={clear} disabled={empty} aria-describedby={`${id}-label`}>
          {t('signature.clear')}
        </Button>
      </div>
      <div class="signature-pad-area">
        <canvas
          id={id}
          ref={canvas}
          role="img"
          aria-labelledby={`${id}-label`}
          aria-describedby={`${id}-hint`}
          onPointerDown={(e) => {
            if (e.button > 0) return
            e.preventDefault()
            canvas.current!.setPointerCapture?.(e.pointerId)
            drawing.current = e.pointerId
            strokes.current.push([at(e)])
            redraw()
          }}
          onPointerMove={(e) => {
            if (drawing.current !== e.pointerId) return
            e.preventDefault()
            const s = strokes.current[strokes.current.length - 1]
            const events = (e as PointerEvent & { getCoalescedEvents?(): PointerEvent[] }).getCoalescedEvents?.() ?? []
            for (const ev of events.length ? events : [e]) s.push(at(ev))
            redraw()
          }}
          onPointerUp={finish}
          onPointerCancel={finish}
          onLostPointerCapture={finish}
        />
        <span class="signature-pad-line" aria-hidden="true">
          ×
        </span>
      </div>
      <small id={`${id}-hint`} class="muted" aria-live="polite">
        {empty ? t('signature.hint') : t('signature.done')}
      </small>
    </div>
  )
}
