// Page frames of the signed-in areas: the organiser shell (side navigation, hidden under 845 px behind
// a menu button) and the guest shell. The public frame, language switcher and footer live in
// ./public-frame, so the public registration page loads none of the signed-in navigation.
import type { ComponentChildren } from 'preact'
import { useContext, useEffect, useRef, useState } from 'preact/hooks'
import { Link, useLocation } from 'wouter'
import { t, useLanguage } from '../i18n'
import { AuthContext, logout } from './navigation-auth'
import { showChangeRole } from './navigation-rules'
import { Footer } from './public-frame'
import { AgencyBrand } from './agency-brand'

export interface NavItem {
  href: string
  label: string
  match?: (path: string) => boolean
}

export function AdminShell({ nav, title, userLabel, children, menu }: { nav: NavItem[]; title: string; userLabel: string; children: ComponentChildren; menu?: ComponentChildren }) {
  useLanguage()
  const [open, setOpen] = useState(false)
  const [path] = useLocation()
  return (
    <div class="shell">
      <header class="topbar">
        <button type="button" class="icon-btn nav-toggle" aria-label="Menü" aria-expanded={open} onClick={() => setOpen(!open)}>
          ☰
        </button>
        <Link href="/events" class="brand">
          <img src="/favicon.svg" alt="" width="28" height="28" />
          <span>einlass</span>
        </Link>
        <span class="topbar-title">{title}</span>
        <div class="topbar-user">
          {menu}
          <UserMenu label={userLabel} />
        </div>
      </header>
      <div class="shell-body">
        <nav class={`sidenav ${open ? 'open' : ''}`} aria-label="Hauptmenü">
          {nav.map((n) => {
            const active = n.match ? n.match(path) : path === n.href || path.startsWith(`${n.href}/`)
            return (
              <Link key={n.href} href={n.href} class={`sidenav-item ${active ? 'active' : ''}`} aria-current={active ? 'page' : undefined} onClick={() => setOpen(false)}>
                {n.label}
              </Link>
            )
          })}
        </nav>
        <main class="content" id="main">
          {children}
        </main>
      </div>
      <Footer />
    </div>
  )
}

const initials = (name: string) =>
  name
    .replace(/@.*/, '')
    .split(/[\s._-]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((p) => p[0]!.toUpperCase())
    .join('')

/**
 * The user menu of both shells: account pages, "change role" (only with more than one valid
 * account) and logout; guests see their events and, unless the entry-pass variant is on, profile.
 */
export function UserMenu({ label }: { label?: string }) {
  const auth = useContext(AuthContext)
  const [open, setOpen] = useState(false)
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!open) return
    const close = (e: Event) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !ref.current?.contains(e.target as Node)) setOpen(false)
    }
    document.addEventListener('mousedown', close)
    document.addEventListener('keydown', close)
    return () => {
      document.removeEventListener('mousedown', close)
      document.removeEventListener('keydown', close)
    }
  }, [open])
  if (!auth) {
    return (
      <a class="btn btn-ghost" href="/logout?redirect=/login">
        {t('common.logout')}
      </a>
    )
  }
  const { details, view } = auth
  const guest = view === 'guest'
  const base = guest ? '/guest/account' : '/account'
  const entryPass = details.features.includes('SYSTEM_COVIDOO')
  const item = (href: string, text: string) => (
    <Link href={href} role="menuitem" class="menu-item" onClick={() => setOpen(false)}>
      {text}
    </Link>
  )
  return (
    <div class="user-menu" ref={ref}>
      <button type="button" class="btn btn-ghost user-menu-toggle" aria-haspopup="menu" aria-expanded={open} aria-label={`${t('nav.userMenu')}: ${label ?? details.user.email}`} onClick={() => setOpen(!open)}>
        <span class="avatar" aria-hidden="true">
          {initials(label ?? details.user.email)}
        </span>
        <span class="user-menu-label">{label ?? details.user.email}</span>
        <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div class="menu" role="menu" aria-label={t('nav.userMenu')}>
          <div class="menu-head">{details.user.email}</div>
          {guest && item('/guest/dashboard', t('nav.events'))}
          {!(guest && entryPass) && item(`${base}/profile`, t('account.tab.profile'))}
          {item(`${base}/security`, t('account.tab.security'))}
          {item(`${base}/settings`, t('account.tab.settings'))}
          {showChangeRole(details.user) && (
            <button
              type="button"
              role="menuitem"
              class="menu-item"
              onClick={() => {
                setOpen(false)
                auth.openAccountSwitcher()
              }}
            >
              {t('nav.changeRole')}
            </button>
          )}
          <button type="button" role="menuitem" class="menu-item" onClick={() => logout(view, details.via)}>
            {t('common.logout')}
          </button>
        </div>
      )}
    </div>
  )
}

export function GuestShell({ children, menu, title }: { children: ComponentChildren; menu?: ComponentChildren; title?: string }) {
  useLanguage()
  const auth = useContext(AuthContext)
  return (
    <div class="guest-shell">
      <header class="topbar">
        <a href="/guest/dashboard" class="brand guest-brand">
          <AgencyBrand brand={auth?.details.brand} />
        </a>
        <span class="topbar-title">{title ?? t('guest.dashboard.title')}</span>
        <div class="topbar-user">
          {menu}
          {auth && <UserMenu />}
        </div>
      </header>
      <main class="content narrow" id="main">
        {children}
      </main>
      <Footer />
    </div>
  )
}
