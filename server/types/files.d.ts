// Files imported `with { type: 'file' }` are paths (into the compiled binary when built; STACK.md trap 6).
declare module '*.ttf' {
  const path: string
  export default path
}

// pako 1 (pdf-lib's deflate) ships no types; pdf-kit.ts replaces its deflate with the runtime's zlib
declare module 'pako' {
  const pako: { deflate(data: Uint8Array, options?: unknown): Uint8Array }
  export default pako
}
