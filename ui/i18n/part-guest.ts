// The guest pages' German strings (see ./german.ts); imported by ui/apps/guest. The signed-in
// organiser areas load part-rest instead; the guest's lazily loaded account area loads it too.
import { registerGerman } from '.'
import { germanPart } from './german' with { type: 'macro' }

registerGerman(germanPart('guest'), 'guest')
