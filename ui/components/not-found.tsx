// "Seite nicht gefunden": the fallback for every address no area claims (before, /pay/1, /support
// and /foo/bar showed the events list under the wrong address, and guests were sent elsewhere
// silently). Only the fallback route: real pages (guest portal, ticketing) simply add their routes.
import { t } from '../i18n'
import { PublicFrame } from './public-frame'

/** The message and the way back, inside whatever frame the caller has (the organiser shell). */
export function NotFoundContent() {
  return (
    <section class="not-found" aria-labelledby="not-found-title">
      <p class="not-found-code" aria-hidden="true">
        404
      </p>
      <h1 id="not-found-title">{t('common.notFound.title')}</h1>
      <p>{t('common.notFound.text', { path: location.pathname })}</p>
      <a class="btn btn-primary" href="/">
        {t('common.notFound.home')}
      </a>
    </section>
  )
}

export function NotFound() {
  return (
    <PublicFrame>
      <NotFoundContent />
    </PublicFrame>
  )
}
