import { expect, test } from 'bun:test'
import { joinTxt } from './settings-check'

test('TXT strings answered as records of their own are joined after a full 255-byte string only', () => {
  const key = `v=DKIM1; k=rsa; p=${'A'.repeat(237)}`
  expect(key.length).toBe(255)
  expect(joinTxt([[key], ['BBBB'], ['google-site-verification=x'], ['v=spf1 -all']])).toEqual([`${key}BBBB`, 'google-site-verification=x', 'v=spf1 -all'])
  expect(joinTxt([['v=spf1 include:a ~all'], ['google-site-verification=x']])).toEqual(['v=spf1 include:a ~all', 'google-site-verification=x'])
  expect(joinTxt([['v=DKIM1; p=AB', 'CD']])).toEqual(['v=DKIM1; p=ABCD'])
})
