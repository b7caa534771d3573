// The pay page's German strings (see ./german.ts); imported by ui/apps/pay.
import { registerGerman } from '.'
import { germanPart } from './german' with { type: 'macro' }

registerGerman(germanPart('pay'), 'pay')
