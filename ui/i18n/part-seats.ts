// The seat picker's German strings (see ./german.ts); imported by ui/components/seat-picker, so the
// public page of an event without a plan does not carry them.
import { registerGerman } from '.'
import { germanPart } from './german' with { type: 'macro' }

registerGerman(germanPart('seats'), 'seats')
