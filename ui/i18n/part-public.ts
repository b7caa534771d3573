// The public registration page's German strings (see ./german.ts); imported by ui/apps/public.
import { registerGerman } from '.'
import { germanPart } from './german' with { type: 'macro' }

registerGerman(germanPart('public'), 'public')
