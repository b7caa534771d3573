// One <canvas> for every chair of an area: pan and pinch with pointer events, wheel zoom, a tap finds
// its chair by geometry (chairAt). Used by the guest's picker and the organiser's assign mode.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks'
import { t } from '../../i18n'
import { Button } from '../ui'
import { type Area, type Chair, type View, ZOOM_MIN, ZOOM_MAX, ZOOM_STEP, ZOOM_BUTTON_MAX, chairAt, clampAxis, fitView } from './model'

/** The canvas's size on screen (w × h) and the whole area's size at zoom 1 (w × H). */
interface Size {
  w: number
  h: number
  H: number
}

export function PlanCanvas(p: { area: Area; chairs: Chair[]; mine: Record<number, unknown>; touchGestures: boolean; onPick(c: Chair): void }) {
  const box = useRef<HTMLDivElement>(null)
  const canvas = useRef<HTMLCanvasElement>(null)
  const [size, setSize] = useState<Size>({ w: 0, h: 0, H: 0 })
  const view = useRef<View>({ z: 1, x: 0, y: 0 })
  const [zoom, setZoom] = useState(1)
  const frame = useRef(0)
  const props = useRef(p)
  props.current = p
  const image = useRef<HTMLImageElement | null>(null)
  useEffect(() => {
    image.current = null
    if (!p.area.areaImage) return
    const img = new Image()
    img.onload = () => {
      image.current = img
      redraw()
    }
    img.src = `/proxy/api/asset/${p.area.areaImage}?dimension=Regular_2000`
  }, [p.area.areaImage])

  // the canvas follows its box's width, resized at most every 100 ms (§9); measured before the first
  // paint, so the plan is drawn in the frame that first shows the picker. Its height and first view
  // fit the chairs (fitView): not the empty canvas around them, and on a phone big enough to tap.
  const fitted = useRef('')
  useLayoutEffect(() => {
    const el = box.current!
    let timer: ReturnType<typeof setTimeout> | undefined
    const measure = () => {
      const w = el.clientWidth
      const chairs = props.current.chairs
      const key = `${w}:${chairs.length > 0}`
      if (key === fitted.current) return
      fitted.current = key
      const H = (w * p.area.height) / p.area.width
      const coarse = typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches
      const f = fitView(chairs, w, H, coarse, Math.max(220, Math.round(window.innerHeight * 0.6)))
      view.current = { z: f.z, x: f.x, y: f.y }
      setZoom(f.z)
      setSize({ w, h: f.h, H })
    }
    measure()
    const ro = new ResizeObserver(() => {
      clearTimeout(timer)
      timer = setTimeout(measure, 100)
    })
    ro.observe(el)
    return () => (ro.disconnect(), clearTimeout(timer), (fitted.current = ''))
  }, [p.area.id, p.chairs.length > 0])

  const draw = () => {
    frame.current = 0
    const cv = canvas.current
    if (!cv || !size.w) return
    const dpr = window.devicePixelRatio || 1
    const g = cv.getContext('2d')!
    const v = view.current
    g.setTransform(1, 0, 0, 1, 0, 0)
    g.clearRect(0, 0, cv.width, cv.height)
    g.setTransform(dpr * v.z, 0, 0, dpr * v.z, dpr * v.x, dpr * v.y)
    // what a test needs to find a chair on screen: zoom, offset and the area's size at zoom 1
    cv.dataset.view = `${v.z} ${v.x} ${v.y} ${size.w} ${size.H}`
    const { chairs, mine } = props.current
    if (image.current) {
      g.globalAlpha = 0.6
      g.drawImage(image.current, 0, 0, size.w, size.H)
      g.globalAlpha = 1
    }
    const sx = size.w / 100
    const sy = size.H / 100
    const line = 1 / v.z
    // Batched: one path per colour, filled once, so 5,000 chairs are a few canvas calls instead of
    // 10,000; chairs outside the visible part are skipped when zoomed in. The white outline only when
    // chairs are big enough on screen to need it: stroking thousands of tiny ellipses cost four times
    // their fill (measured in Chromium, 4× CPU throttling: 5,000 chairs 110 ms filled, 480 ms outlined).
    const x0 = -v.x / v.z
    const y0 = -v.y / v.z
    const x1 = x0 + size.w / v.z
    const y1 = y0 + size.h / v.z
    // a chair of a few pixels on screen is drawn as its box: round or square looks the same there,
    // and a box costs half an ellipse to fill
    const px = chairs.length > 0 ? Math.min(chairs[0].percentWidth * sx, chairs[0].percentHeight * sy) * v.z : 0
    const boxes = px < 6
    const fills = new Map<string, Path2D>()
    const crosses = new Map<number, Path2D>()
    const own: Array<{ x: number; y: number; w: number; h: number; c: Chair }> = []
    const labelled: Array<{ x: number; y: number; w: number; h: number; m: number; taken: boolean; c: Chair }> = []
    for (const c of chairs) {
      const x = c.percentX * sx
      const y = c.percentY * sy
      const w = c.percentWidth * sx
      const h = c.percentHeight * sy
      if (x > x1 || y > y1 || x + w < x0 || y + h < y0) continue
      const isMine = !!mine[c.id]
      const taken = !isMine && (c.freeChairs <= 0 || c.status === 'BLOCKED')
      const fill = taken ? '#d0d4da' : (c.priceCategory?.color ?? '#5c7cfa')
      let path = fills.get(fill)
      if (!path) fills.set(fill, (path = new Path2D()))
      if (c.viewType === 'CIRCLE' && !boxes) {
        path.moveTo(x + w, y + h / 2)
        path.ellipse(x + w / 2, y + h / 2, w / 2, h / 2, 0, 0, Math.PI * 2)
      } else path.rect(x, y, w, h)
      // marks besides colour: ✓ yours, × taken
      const m = Math.min(w, h)
      if (isMine) own.push({ x, y, w, h, c })
      else if (taken) {
        const lw = Math.round(Math.max(m * 0.08, line) * 100) / 100
        let cross = crosses.get(lw)
        if (!cross) crosses.set(lw, (cross = new Path2D()))
        cross.moveTo(x + w / 2 - m * 0.22, y + h / 2 - m * 0.22)
        cross.lineTo(x + w / 2 + m * 0.22, y + h / 2 + m * 0.22)
        cross.moveTo(x + w / 2 + m * 0.22, y + h / 2 - m * 0.22)
        cross.lineTo(x + w / 2 - m * 0.22, y + h / 2 + m * 0.22)
      }
      if (m * v.z > 34) labelled.push({ x, y, w, h, m, taken, c })
    }
    const outline = px >= 12
    g.lineWidth = line
    g.strokeStyle = '#fff'
    for (const [fill, path] of fills) {
      g.fillStyle = fill
      g.fill(path)
      if (outline) g.stroke(path)
    }
    g.strokeStyle = '#6b7280'
    for (const [lw, cross] of crosses) {
      g.lineWidth = lw
      g.stroke(cross)
    }
    for (const { x, y, w, h, c } of own) {
      const m = Math.min(w, h)
      g.beginPath()
      if (c.viewType === 'CIRCLE') g.ellipse(x + w / 2, y + h / 2, w / 2, h / 2, 0, 0, Math.PI * 2)
      else g.rect(x, y, w, h)
      g.lineWidth = 3 * line
      g.strokeStyle = '#111'
      g.stroke()
      g.beginPath()
      g.moveTo(x + w / 2 - m * 0.25, y + h / 2)
      g.lineTo(x + w / 2 - m * 0.05, y + h / 2 + m * 0.2)
      g.lineTo(x + w / 2 + m * 0.28, y + h / 2 - m * 0.22)
      g.lineWidth = Math.max(m * 0.14, line)
      g.strokeStyle = '#fff'
      g.stroke()
    }
    g.textAlign = 'center'
    for (const { x, y, w, h, m, taken, c } of labelled) {
      g.fillStyle = taken ? '#374151' : '#fff'
      g.font = `${Math.min(m * 0.22, 14 / v.z)}px sans-serif`
      g.fillText(c.label, x + w / 2, y + h - m * 0.12)
    }
  }
  const redraw = () => {
    if (!frame.current) frame.current = requestAnimationFrame(draw)
  }
  // new chairs, holds or size: drawn before the browser paints them (a frame earlier than a redraw);
  // pan, zoom and the background image go through redraw, one draw per frame
  useLayoutEffect(() => {
    if (frame.current) cancelAnimationFrame(frame.current)
    draw()
  }, [p.chairs, p.mine, size])

  const clamp = (v: View): View => {
    const z = Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, v.z))
    return { z, x: clampAxis(v.x, size.w, size.w * z), y: clampAxis(v.y, size.h, size.H * z) }
  }
  /** zooms to z keeping the point (px, py) of the canvas where it is */
  const zoomTo = (z: number, px = size.w / 2, py = size.h / 2) => {
    const v = view.current
    const nz = Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, z))
    view.current = clamp({ z: nz, x: px - ((px - v.x) * nz) / v.z, y: py - ((py - v.y) * nz) / v.z })
    setZoom(view.current.z)
    redraw()
  }


  // wheel zoom on desktops (a non-passive listener, so the page does not scroll meanwhile)
  useEffect(() => {
    const cv = canvas.current
    if (!cv) return
    const onWheel = (e: WheelEvent) => {
      e.preventDefault()
      const r = cv.getBoundingClientRect()
      zoomTo(view.current.z * Math.exp(-e.deltaY * 0.0015), e.clientX - r.left, e.clientY - r.top)
    }
    cv.addEventListener('wheel', onWheel, { passive: false })
    return () => cv.removeEventListener('wheel', onWheel)
  }, [size])

  // pointers: one drags, two pinch; a pointer that hardly moved picks the chair under it
  const pointers = useRef(new Map<number, { x: number; y: number; sx: number; sy: number }>())
  const pinch = useRef<{ d: number; z: number } | null>(null)
  const moved = useRef(false)
  const local = (e: PointerEvent) => {
    const r = canvas.current!.getBoundingClientRect()
    return { x: e.clientX - r.left, y: e.clientY - r.top }
  }
  const gestures = (e: PointerEvent) => e.pointerType !== 'touch' || p.touchGestures
  const down = (e: PointerEvent) => {
    picked.current = null
    const q = local(e)
    pointers.current.set(e.pointerId, { ...q, sx: q.x, sy: q.y })
    if (pointers.current.size === 1) moved.current = false
    if (gestures(e)) canvas.current!.setPointerCapture(e.pointerId)
    if (pointers.current.size === 2) {
      const [a, b] = [...pointers.current.values()]
      pinch.current = { d: Math.hypot(a.x - b.x, a.y - b.y) || 1, z: view.current.z }
      moved.current = true
    }
  }
  const move = (e: PointerEvent) => {
    const prev = pointers.current.get(e.pointerId)
    if (!prev || !gestures(e)) return
    const q = local(e)
    pointers.current.set(e.pointerId, { ...prev, ...q })
    if (Math.hypot(q.x - prev.sx, q.y - prev.sy) > 6) moved.current = true
    if (pointers.current.size === 2 && pinch.current) {
      const [a, b] = [...pointers.current.values()]
      zoomTo((pinch.current.z * Math.hypot(a.x - b.x, a.y - b.y)) / pinch.current.d, (a.x + b.x) / 2, (a.y + b.y) / 2)
    } else if (pointers.current.size === 1 && moved.current) {
      const v = view.current
      view.current = clamp({ ...v, x: v.x + q.x - prev.x, y: v.y + q.y - prev.y })
      redraw()
    }
  }
  const up = (e: PointerEvent) => {
    const had = pointers.current.get(e.pointerId)
    pointers.current.delete(e.pointerId)
    if (pointers.current.size < 2) pinch.current = null
    if (!had || moved.current || pointers.current.size > 0) return
    const v = view.current
    const q = local(e)
    picked.current = chairAt(props.current.chairs, ((q.x - v.x) / v.z / size.w) * 100, ((q.y - v.y) / v.z / size.H) * 100)
  }
  // The popup opens on the click that follows the tap, not on pointerup: opened earlier, a phone's
  // click after the tap lands on the popup (sticky at the bottom of the screen) when the chair lay
  // under it, and reserved the seat without the guest asking.
  const picked = useRef<Chair | null>(null)
  const click = () => {
    const c = picked.current
    picked.current = null
    if (c) p.onPick(c)
  }
  const dpr = typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1
  // the zoom buttons sit below the drawing, never over a chair
  return (
    <>
      <div class="seat-canvas-box" ref={box}>
        <canvas
          ref={canvas}
          width={Math.round(size.w * dpr)}
          height={Math.round(size.h * dpr)}
          style={{ width: `${size.w}px`, height: `${size.h}px`, touchAction: p.touchGestures ? 'none' : 'manipulation' }}
          role="img"
          aria-label={t('registration.seats.canvasLabel', { area: p.area.displayName })}
          onPointerDown={down}
          onPointerMove={move}
          onPointerUp={up}
          onPointerCancel={up}
          onClick={click}
        />
      </div>
      <div class="seat-zoom">
        <Button variant="secondary" aria-label={t('registration.seats.zoomIn')} disabled={zoom + ZOOM_STEP > ZOOM_BUTTON_MAX + 1e-9} onClick={() => zoomTo(Math.min(ZOOM_BUTTON_MAX, view.current.z + ZOOM_STEP))}>
          +
        </Button>
        <Button variant="secondary" aria-label={t('registration.seats.zoomOut')} disabled={zoom <= ZOOM_MIN} onClick={() => zoomTo(view.current.z - ZOOM_STEP)}>
          −
        </Button>
        <Button variant="ghost" onClick={() => zoomTo(1)}>
          {t('registration.seats.zoomReset')}
        </Button>
      </div>
    </>
  )
}
