// The filter dialog of the events list and of the guest list (agency-side.md 3): the dialog edits a
// draft of the filter; "reset" empties the draft, "apply" hands it over and closes.
import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'
import { Dialog } from '../../components/dialog'
import { Button } from '../../components/ui'
import { t } from '../../i18n'

export function FilterDialog<F>({
  title,
  value,
  empty,
  invalid,
  onApply,
  onClose,
  children,
}: {
  title: string
  value: F
  empty: F
  /** a draft that cannot be applied (its field shows why) */
  invalid?: (f: F) => boolean
  onApply(f: F): void
  onClose(): void
  children: (f: F, set: (patch: Partial<F>) => void) => ComponentChildren
}) {
  const [f, setF] = useState(value)
  const set = (patch: Partial<F>) => setF({ ...f, ...patch })
  return (
    <Dialog
      title={title}
      onClose={onClose}
      actions={
        <>
          <Button variant="ghost" onClick={() => setF(empty)}>
            {t('events.filter.reset')}
          </Button>
          <Button
            disabled={invalid?.(f)}
            onClick={() => {
              onApply(f)
              onClose()
            }}
          >
            {t('events.filter.apply')}
          </Button>
        </>
      }
    >
      <div class="form-grid">{children(f, set)}</div>
    </Dialog>
  )
}

/** One yes/no condition on a row of its own. */
export function FilterCheck({ id, label, checked, onChange }: { id: string; label: string; checked: boolean; onChange(v: boolean): void }) {
  return (
    <div class="field field-full field-check">
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange((e.target as HTMLInputElement).checked)} />
      <label for={id}>{label}</label>
    </div>
  )
}

/** One of a list of choices. */
export function FilterSelect<T extends string>({ id, label, options, value, onChange }: { id: string; label: string; options: Array<[T, string]>; value: T; onChange(v: T): void }) {
  return (
    <div class="field field-full">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange((e.target as HTMLSelectElement).value as T)}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  )
}

/** Any of a list of choices (none checked = no condition). */
export function CheckSet<T extends string | number>({ legend, options, value, onChange, grid }: { legend: string; options: Array<[T, string]>; value: T[]; onChange(v: T[]): void; grid?: boolean }) {
  const boxes = options.map(([v, label]) => (
    <label key={v} class="inline-check">
      <input type="checkbox" checked={value.includes(v)} onChange={(e) => onChange((e.target as HTMLInputElement).checked ? [...value, v] : value.filter((x) => x !== v))} />
      {label}
    </label>
  ))
  return (
    <fieldset class="field-full">
      <legend>{legend}</legend>
      {grid ? <div class="check-grid">{boxes}</div> : boxes}
    </fieldset>
  )
}
