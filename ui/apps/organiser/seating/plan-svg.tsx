// The editor's drawing: one SVG node per chair in area percent; select with a click or a rectangle
// (shift adds), move the selection by dragging, snapped to SNAP when snapping is on.
import { useMemo, useRef, useState } from 'preact/hooks'
import { t } from '../../../i18n'
import { type EChair, type ECategory, type EArea, clamp, snap } from './model'

export function PlanSvg(p: { area: EArea; categoryOf(k: string | null): ECategory | undefined; selected: Set<string>; setSelected(s: Set<string>): void; snapOn: boolean; onMove(m: Map<string, EChair>): void }) {
  const svg = useRef<SVGSVGElement>(null)
  const [drag, setDrag] = useState<{ kind: 'move' | 'rect'; x0: number; y0: number; x: number; y: number; hit?: string; shift?: boolean } | null>(null)
  const at = (e: PointerEvent) => {
    const r = svg.current!.getBoundingClientRect()
    return { x: ((e.clientX - r.left) / r.width) * 100, y: ((e.clientY - r.top) / r.height) * 100 }
  }
  const offset = useMemo(() => {
    if (!drag || drag.kind !== 'move') return null
    return { dx: drag.x - drag.x0, dy: drag.y - drag.y0 }
  }, [drag])
  const moved = (c: EChair): EChair => {
    if (!offset || !p.selected.has(c.uid)) return c
    return { ...c, percentX: clamp(snap(c.percentX + offset.dx, p.snapOn), 0, 100 - c.percentWidth), percentY: clamp(snap(c.percentY + offset.dy, p.snapOn), 0, 100 - c.percentHeight) }
  }
  const down = (e: PointerEvent) => {
    const q = at(e)
    const uidHit = (e.target as Element).getAttribute('data-uid')
    svg.current!.setPointerCapture(e.pointerId)
    if (uidHit) {
      let next = p.selected
      if (e.shiftKey) {
        next = new Set(p.selected)
        next.has(uidHit) ? next.delete(uidHit) : next.add(uidHit)
      } else if (!p.selected.has(uidHit)) next = new Set([uidHit])
      p.setSelected(next)
      setDrag({ kind: 'move', x0: q.x, y0: q.y, x: q.x, y: q.y, hit: uidHit, shift: e.shiftKey })
    } else setDrag({ kind: 'rect', x0: q.x, y0: q.y, x: q.x, y: q.y })
  }
  const move = (e: PointerEvent) => {
    if (!drag) return
    const q = at(e)
    setDrag({ ...drag, x: q.x, y: q.y })
  }
  const up = (e: PointerEvent) => {
    if (!drag) return
    if (drag.kind === 'move' && offset && (Math.abs(offset.dx) > 0.1 || Math.abs(offset.dy) > 0.1)) {
      const m = new Map<string, EChair>()
      for (const c of p.area.chairs) if (p.selected.has(c.uid)) m.set(c.uid, moved(c))
      p.onMove(m)
    } else if (drag.kind === 'move' && drag.hit && !drag.shift) {
      // a click without moving on a chair of a selection: that chair alone
      p.setSelected(new Set([drag.hit]))
    } else if (drag.kind === 'rect') {
      const [x1, x2] = [Math.min(drag.x0, drag.x), Math.max(drag.x0, drag.x)]
      const [y1, y2] = [Math.min(drag.y0, drag.y), Math.max(drag.y0, drag.y)]
      const hit = p.area.chairs.filter((c) => c.percentX + c.percentWidth / 2 >= x1 && c.percentX + c.percentWidth / 2 <= x2 && c.percentY + c.percentHeight / 2 >= y1 && c.percentY + c.percentHeight / 2 <= y2)
      const next = e.shiftKey ? new Set(p.selected) : new Set<string>()
      for (const c of hit) next.add(c.uid)
      p.setSelected(next)
    }
    setDrag(null)
  }
  const W = p.area.width
  const H = p.area.height
  const sx = W / 100
  const sy = H / 100
  return (
    <svg
      ref={svg}
      class="seating-svg"
      viewBox={`0 0 ${W} ${H}`}
      role="application"
      aria-label={t('seating.canvas', { area: p.area.displayName, n: p.area.chairs.length })}
      onPointerDown={down}
      onPointerMove={move}
      onPointerUp={up}
      onPointerCancel={() => setDrag(null)}
    >
      <rect x={0} y={0} width={W} height={H} class="seating-bg" />
      {p.area.areaImage && <image href={`/proxy/api/asset/${p.area.areaImage}?dimension=Regular_2000`} x={0} y={0} width={W} height={H} preserveAspectRatio="none" opacity={0.6} pointer-events="none" />}
      {p.snapOn && <rect x={0} y={0} width={W} height={H} fill="url(#seating-grid)" pointer-events="none" />}
      <defs>
        <pattern id="seating-grid" width={sx * 5} height={sy * 5} patternUnits="userSpaceOnUse">
          <path d={`M ${sx * 5} 0 L 0 0 0 ${sy * 5}`} fill="none" stroke="#e2e8f0" stroke-width={1} />
        </pattern>
      </defs>
      {p.area.chairs.map((c0) => {
        const c = moved(c0)
        const x = c.percentX * sx
        const y = c.percentY * sy
        const w = c.percentWidth * sx
        const h = c.percentHeight * sy
        const sel = p.selected.has(c.uid)
        const fill = c.status === 'BLOCKED' ? '#d0d4da' : (p.categoryOf(c.priceCategory)?.color ?? '#94a3b8')
        const common = { 'data-uid': c.uid, fill, stroke: sel ? '#111' : '#fff', 'stroke-width': sel ? 4 : 1.5, class: 'seating-chair' }
        const text = c.status === 'BLOCKED' ? '×' : c.places > 1 ? `${c.label} (${c.places})` : (c.label.split(' ').slice(-1)[0] ?? '')
        const fs = Math.min(h * 0.4, (w * 0.9) / Math.max(2, text.length * 0.6))
        return (
          <g key={c.uid}>
            {c.viewType === 'CIRCLE' ? <ellipse cx={x + w / 2} cy={y + h / 2} rx={w / 2} ry={h / 2} {...common} /> : <rect x={x} y={y} width={w} height={h} rx={4} {...common} />}
            <text x={x + w / 2} y={y + h / 2} font-size={fs} text-anchor="middle" dominant-baseline="central" pointer-events="none" fill={c.status === 'BLOCKED' ? '#374151' : '#fff'}>
              {text}
            </text>
          </g>
        )
      })}
      {drag?.kind === 'rect' && (
        <rect
          x={Math.min(drag.x0, drag.x) * sx}
          y={Math.min(drag.y0, drag.y) * sy}
          width={Math.abs(drag.x - drag.x0) * sx}
          height={Math.abs(drag.y - drag.y0) * sy}
          class="seating-marquee"
        />
      )}
    </svg>
  )
}
