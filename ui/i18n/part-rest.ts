// The signed-in areas' German strings (see ./german.ts); imported by each of those areas once, so
// the bundler keeps one copy in a chunk they share.
import { registerGerman } from '.'
import { germanPart } from './german' with { type: 'macro' }

registerGerman(germanPart('rest'), 'rest')
