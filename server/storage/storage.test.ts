// The storage interface on its own: the file storage writes whole objects or none, lists and deletes;
// decryption as a stream gives the same bytes as decrypting the whole file, whatever the chunking,
// and refuses an altered file (the GCM tag is checked at the end).
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { decryptStream, encrypt } from '../modules/assets/service'
import { FileStorage, sha256Of } from './storage'

const dir = mkdtempSync(join(tmpdir(), 'einlass-storage-unit-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function chunked(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return c.close()
      c.enqueue(bytes.slice(at, at + size))
      at += size
    },
  })
}
const collect = async (s: ReadableStream<Uint8Array>) => new Uint8Array(await new Response(s).arrayBuffer())

describe('decryptStream', () => {
  const key = randomBytes(32)
  const plain = new Uint8Array(randomBytes(300_001))
  const stored = encrypt(key, plain)
  for (const size of [7, 28, 29, 4096, 1 << 20]) {
    test(`chunks of ${size} bytes give the plain bytes`, async () => {
      expect(Buffer.from(await collect(decryptStream(key, chunked(stored, size)))).equals(Buffer.from(plain))).toBe(true)
    })
  }
  test('one byte at a time (the header arrives in 28 pieces) gives the plain bytes', async () => {
    const small = encrypt(key, plain.slice(0, 1000))
    expect(Buffer.from(await collect(decryptStream(key, chunked(small, 1)))).equals(Buffer.from(plain.slice(0, 1000)))).toBe(true)
  })
  test('an altered byte, a wrong key or a truncated file end the stream with an error', async () => {
    const altered = stored.slice()
    altered[5000] ^= 1
    await expect(collect(decryptStream(key, chunked(altered, 4096)))).rejects.toThrow()
    await expect(collect(decryptStream(randomBytes(32), chunked(stored, 4096)))).rejects.toThrow()
    await expect(collect(decryptStream(key, chunked(stored.slice(0, 20), 4096)))).rejects.toThrow()
  })
})

describe('FileStorage', () => {
  test('write, read, stream, size, list and delete; a missing object is null, never an error', async () => {
    const s = new FileStorage(join(dir, 'uploads'))
    await s.check()
    expect(await s.read('none.txt')).toBeNull()
    expect(await s.stream('none.txt')).toBeNull()
    expect(await s.size('none.txt')).toBeNull()
    const data = new Uint8Array(randomBytes(70_000))
    expect(await s.write('a.bin', data)).toBe(70_000)
    expect(await s.size('a.bin')).toBe(70_000)
    expect(Buffer.from((await s.read('a.bin'))!).equals(Buffer.from(data))).toBe(true)
    expect(await sha256Of((await s.stream('a.bin'))!)).toBe(new Bun.CryptoHasher('sha256').update(data).digest('hex'))
    const listed = []
    for await (const o of s.list()) listed.push(o)
    expect(listed).toEqual([{ key: 'a.bin', size: 70_000 }])
    // no temporary or probe files are left behind
    expect(readdirSync(join(dir, 'uploads'))).toEqual(['a.bin'])
    await s.delete('a.bin')
    await s.delete('a.bin')
    expect(await s.read('a.bin')).toBeNull()
  })

  test('keys that would leave the folder are refused', async () => {
    const s = new FileStorage(join(dir, 'uploads'))
    for (const k of ['../x', 'a/b', '.hidden', '']) await expect(s.write(k, new Uint8Array(1))).rejects.toThrow('invalid storage key')
  })
})
