// The executable copied alone into an empty folder starts, keeps its data in ./data beside it and
// serves the UI (every asset is inside the file).
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServerProcess } from '../server/testing/process'
import { BINARY, expect, shot, test, watchCsp } from './fixtures'

test('the binary alone in an empty folder serves the setup page', async ({ page }) => {
  const folder = mkdtempSync(join(tmpdir(), 'einlass-alone-'))
  const binary = join(folder, 'einlass')
  copyFileSync(BINARY, binary)
  expect(readdirSync(folder)).toEqual(['einlass'])
  // a stray .env in the folder is not configuration (it would stop the start if it were read)
  writeFileSync(join(folder, '.env'), 'EINLASS_LOG_LEVEL=loud\n')
  // no data dir, no config, no base URL: only the port
  const server = await startServerProcess({ command: [binary], cwd: folder, dataDir: folder, cleanup: false, env: { EINLASS_DATA_DIR: '', EINLASS_BASE_URL: '' } })
  try {
    const violations = watchCsp(page)
    await page.goto(server.url)
    await expect(page).toHaveURL(/\/setup$/)
    await expect(page.getByRole('heading', { name: 'einlass einrichten' })).toBeVisible()
    await shot(page, 'alone-01-setup')
    expect(violations).toEqual([])
    const css = await page.evaluate(() => [...document.querySelectorAll('link[rel=stylesheet]')].map((l) => (l as HTMLLinkElement).href))
    expect(css.length).toBeGreaterThan(0)
    for (const href of css) expect((await page.request.get(href)).status()).toBe(200)
    expect(existsSync(join(folder, 'data', 'einlass.sqlite'))).toBe(true)
    expect(existsSync(join(folder, 'data', 'secrets.json'))).toBe(true)
  } finally {
    await server.stop()
    rmSync(folder, { recursive: true, force: true })
  }
})
