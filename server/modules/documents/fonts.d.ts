// Files imported `with { type: 'file' }` are paths into the compiled binary (STACK.md trap 6).
declare module '*.ttf' {
  const path: string
  export default path
}
