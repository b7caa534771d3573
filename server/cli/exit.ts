// What every einlass command shares: the error that ends the process with one line and an exit code,
// and the configuration read from flags, environment and einlass.toml. Light on purpose: main.ts
// loads it before it knows which command runs (issue 25: `--version` and `health` stay fast).
import { ConfigError, type Config, loadConfig } from '../config/config'

export class ExitError extends Error {
  constructor(
    message: string,
    readonly code = 1,
  ) {
    super(message)
  }
}

export function configOrExit(argv: string[]): Config {
  try {
    return loadConfig({ argv })
  } catch (e) {
    if (e instanceof ConfigError) throw new ExitError(`einlass: configuration error: ${e.message}`, 2)
    throw e
  }
}
