// The ticket chooser's German strings (see ./german.ts); imported by ui/apps/public/ticket-picker.tsx,
// so the public page of an event that sells nothing does not carry them.
import { registerGerman } from '.'
import { germanPart } from './german' with { type: 'macro' }

registerGerman(germanPart('shop'), 'shop')
