import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import { ApiError, get } from '../api/client'

export interface Resource<T> {
  data: T | undefined
  error: ApiError | null
  loading: boolean
  reload(): Promise<void>
}

/**
 * Loads a GET resource; reload() fetches again. A null path waits. Data of an earlier path is never
 * returned for a new one (after copying an event the editor of the copy showed the source's values).
 */
export function useResource<T>(path: string | null): Resource<T> {
  const [loaded, setLoaded] = useState<{ path: string; data: T } | undefined>(undefined)
  const [error, setError] = useState<ApiError | null>(null)
  const [loading, setLoading] = useState(path !== null)
  const ctrl = useRef<AbortController | null>(null)
  const load = useCallback(async () => {
    if (path === null) return
    ctrl.current?.abort()
    const c = new AbortController()
    ctrl.current = c
    setLoading(true)
    try {
      const d = await get<T>(path, { signal: c.signal })
      if (!c.signal.aborted) {
        setLoaded({ path, data: d })
        setError(null)
      }
    } catch (e) {
      if ((e as Error)?.name === 'AbortError') return
      setError(e instanceof ApiError ? e : new ApiError(0, 'INTERNAL_ERROR', String(e)))
    } finally {
      if (!c.signal.aborted) setLoading(false)
    }
  }, [path])
  useEffect(() => {
    void load()
    return () => ctrl.current?.abort()
  }, [load])
  const data = loaded && loaded.path === path ? loaded.data : undefined
  return { data, error, loading, reload: load }
}

/** Warns before leaving the page while dirty is true. */
export function useUnsavedChangesWarning(dirty: boolean) {
  useEffect(() => {
    if (!dirty) return
    const h = (e: BeforeUnloadEvent) => {
      e.preventDefault()
      e.returnValue = ''
    }
    window.addEventListener('beforeunload', h)
    return () => window.removeEventListener('beforeunload', h)
  }, [dirty])
}
