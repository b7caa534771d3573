// Field messages wait while a pointer is pressed. A field validated on blur (react-hook-form
// `mode: 'onTouched'`, the form engine's touched fields) loses focus on the pointerdown of the
// button the person is clicking; a message appearing above the button at that moment pushes the
// button away before the pointerup, and the click is lost. So a message that would appear, change
// or disappear while a pointer is down is shown once the pointer is released: the click lands on
// the button where it was pressed. Keyboard use is unaffected (no pointer is down).
import { useEffect, useRef, useState } from 'preact/hooks'

let pressed = 0
const waiting = new Set<() => void>()

function release() {
  pressed = 0
  // after the click that follows this pointerup has been dispatched
  setTimeout(() => {
    if (pressed) return
    const all = [...waiting]
    waiting.clear()
    for (const w of all) w()
  }, 0)
}

if (typeof window !== 'undefined') {
  window.addEventListener('pointerdown', () => (pressed = 1), true)
  window.addEventListener('pointerup', release, true)
  window.addEventListener('pointercancel', release, true)
  // a drag that ends outside the window never sends pointerup here
  window.addEventListener('blur', release)
}

export const pointerPressed = () => pressed === 1

/** The value to show: `value`, except that it does not change while a pointer is pressed. */
export function useSettled<T>(value: T): T {
  const shown = useRef(value)
  const [, rerender] = useState(0)
  const wait = useRef<() => void>(() => rerender((n) => n + 1))
  if (shown.current !== value) {
    if (pointerPressed()) waiting.add(wait.current)
    else shown.current = value
  }
  useEffect(() => () => void waiting.delete(wait.current), [])
  return shown.current
}
