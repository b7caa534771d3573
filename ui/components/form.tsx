// Form fields bound to react-hook-form; every input has a label and its error is announced.
import type { ComponentChildren, HTMLAttributes } from 'preact'
import type { FieldErrors, UseFormRegisterReturn, UseFormSetError } from 'react-hook-form'
import { ApiError } from '../api/client'
import { COUNTRIES, type CountryOption } from '../../server/modules/forms/countries'
import { useState } from 'preact/hooks'
import { currentLanguage, fieldMessage, t } from '../i18n'
import { useSettled } from './settle'

const errorOf = (errors: FieldErrors<any>, name: string): string | undefined => {
  const e = name.split('.').reduce<any>((o, k) => (o ? o[k] : undefined), errors)
  return e?.message as string | undefined
}

interface FieldProps {
  label: ComponentChildren
  name: string
  errors: FieldErrors<any>
  hint?: ComponentChildren
  required?: boolean
  size?: 'full' | 'half'
  children: (p: { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string }) => ComponentChildren
  /** the input's length limit: a TOO_LONG message names it ("Höchstens N Zeichen.") */
  maxLength?: number
}

export function Field({ label, name, errors, hint, required, size = 'full', children, maxLength }: FieldProps) {
  const id = `f-${name.replace(/\./g, '-')}`
  // a message does not move the form under a pressed pointer (settle.ts)
  const err = useSettled(errorOf(errors, name))
  const describedBy = [hint ? `${id}-hint` : '', err ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined
  return (
    <div class={`field field-${size} ${err ? 'has-error' : ''}`}>
      <label for={id}>
        {label}
        {required && <span class="req" aria-hidden="true"> *</span>}
      </label>
      {children({ id, 'aria-invalid': Boolean(err), 'aria-describedby': describedBy })}
      {hint && (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      )}
      {err && (
        <small id={`${id}-error`} class="field-error" role="alert">
          {err === 'TOO_LONG' && maxLength ? t('field.MAX_CHARACTERS', { max: maxLength }) : fieldMessage(err)}
        </small>
      )}
    </div>
  )
}

type InputProps = Omit<HTMLAttributes<HTMLInputElement>, 'size'> & { type?: string; autocomplete?: string; placeholder?: string; min?: string | number; max?: string | number; step?: string | number }

export function TextField({ label, reg, errors, hint, required, size, ...input }: { label: ComponentChildren; reg: UseFormRegisterReturn; errors: FieldErrors<any>; hint?: ComponentChildren; required?: boolean; size?: 'full' | 'half' } & InputProps) {
  // a password can be shown while typing (a typo in a hidden password cost a reset)
  const [shown, setShown] = useState(false)
  const password = input.type === 'password'
  return (
    <Field label={label} name={reg.name} errors={errors} hint={hint} required={required} size={size} maxLength={(reg as { maxLength?: number }).maxLength ?? (input as { maxLength?: number }).maxLength}>
      {(a) =>
        password ? (
          <div class="password-row">
            <input {...(input as any)} type={shown ? 'text' : 'password'} {...a} {...reg} aria-required={required ? 'true' : undefined} />
            <button type="button" class="btn btn-ghost password-toggle" aria-controls={a.id} aria-pressed={shown} onClick={() => setShown(!shown)}>
              {shown ? t('common.passwordHide') : t('common.passwordShow')}
            </button>
          </div>
        ) : (
          <input {...(input as any)} {...a} {...reg} aria-required={required ? 'true' : undefined} />
        )
      }
    </Field>
  )
}

export function SelectField({ label, reg, errors, options, required, size, placeholder }: { label: ComponentChildren; reg: UseFormRegisterReturn; errors: FieldErrors<any>; options: Array<{ value: string; label: string }>; required?: boolean; size?: 'full' | 'half'; placeholder?: string }) {
  return (
    <Field label={label} name={reg.name} errors={errors} required={required} size={size}>
      {(a) => (
        <select {...a} {...reg} aria-required={required ? 'true' : undefined}>
          {placeholder !== undefined && <option value="">{placeholder}</option>}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
}

/**
 * A country from the spec's table (agency-side.md 9.2) in its continent groups, stored as the
 * three-letter code: the profile and the event editor choose from the same list (a free text field
 * refused "Deutschland" as too long).
 */
export function CountryField({ label, reg, errors, placeholder, size = 'half' }: { label: ComponentChildren; reg: UseFormRegisterReturn; errors: FieldErrors<any>; placeholder: string; size?: 'full' | 'half' }) {
  const german = currentLanguage().startsWith('de')
  const groups = new Map<string, CountryOption[]>()
  for (const c of COUNTRIES) if (!c.spacer) groups.set(c.group, [...(groups.get(c.group) ?? []), c])
  return (
    <Field label={label} name={reg.name} errors={errors} size={size}>
      {(a) => (
        <select {...a} {...reg}>
          <option value="">{placeholder}</option>
          {[...groups].map(([group, list]) => (
            <optgroup key={group} label={group}>
              {list.map((c) => (
                <option key={c.code} value={c.code}>
                  {german ? c.name : c.intName}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      )}
    </Field>
  )
}

export function CheckboxField({ label, reg, errors }: { label: ComponentChildren; reg: UseFormRegisterReturn; errors: FieldErrors<any> }) {
  const id = `f-${reg.name.replace(/\./g, '-')}`
  const err = useSettled(errorOf(errors, reg.name))
  return (
    <div class="field field-full field-check">
      <input type="checkbox" id={id} {...reg} aria-invalid={Boolean(err)} />
      <label for={id}>{label}</label>
      {err && <small class="field-error">{fieldMessage(err)}</small>}
    </div>
  )
}

/** Marks the fields a server FIELD_ERROR names; returns true when it did. */
export function applyServerErrors(e: unknown, setError: UseFormSetError<any>): boolean {
  if (!(e instanceof ApiError) || !e.errorFields.length) return false
  for (const f of e.errorFields) setError(f.field as any, { type: 'server', message: f.errorType })
  return true
}
