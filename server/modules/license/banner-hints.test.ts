// The organiser's hint banner rules (ui/apps/organiser/banner-hints.ts; pure, tested here because
// the bun test root is server/): PAUSED hides the booking hints, the entry-pass variant hides the
// guest-account limit and the feature hints, operational hints always show.
import { expect, test } from 'bun:test'
import { type BannerInput, bannerHints } from '../../../ui/apps/organiser/banner-hints'

const init = (over: Partial<BannerInput> = {}): BannerInput => ({
  pausedStatus: null,
  limits: { allowedEvents: 2, usedEvents: 2, allowedGuestAccounts: 100, usedGuestAccounts: 100, allowedAgencyUsers: 10, usedAgencyUsers: 9, allowedStorage: -1, usedStorage: 5000 },
  agencyMessages: [
    { agencyMessageType: 'LIMIT_NEARLY_REACHED', limit: 'agencyUsers', allowed: 10, used: 9 },
    { agencyMessageType: 'LICENSE_EXPIRES', validUntil: '2026-12-18', daysLeft: 20 },
    { agencyMessageType: 'PAYMENT_WEBHOOK_FAILING', paymentMethodId: 4, since: '2026-11-28T03:00:00.000Z' },
    { agencyMessageType: 'MAIL_SETTINGS_INVALID', mailSettingsId: 7, displayName: 'Firma SMTP' },
  ],
  ...over,
})
const kinds = (hints: ReturnType<typeof bannerHints>) => hints.map((h) => ('key' in h ? `${h.kind}-${h.key}` : h.kind))

test('all hints: reached, 90 % used, licence ending, features, webhook, mail; unlimited storage never', () => {
  expect(kinds(bannerHints(init(), { entryPass: false, missingFeatures: ['MEDIA_GALLERY'] }))).toEqual(['reached-Events', 'reached-GuestAccounts', 'nearly-AgencyUsers', 'expires', 'features', 'webhook', 'mail'])
})

test('PAUSED: the booking hints are hidden, the operational ones stay', () => {
  expect(kinds(bannerHints(init({ pausedStatus: 'PAUSED' }), { entryPass: false, missingFeatures: ['MEDIA_GALLERY'] }))).toEqual(['webhook', 'mail'])
})

test('entry-pass variant: no guest-account limit hint and no feature hint', () => {
  expect(kinds(bannerHints(init(), { entryPass: true, missingFeatures: ['MEDIA_GALLERY'] }))).toEqual(['reached-Events', 'nearly-AgencyUsers', 'expires', 'webhook', 'mail'])
})

test('the feature hint only with features missing and not hidden by the user (null)', () => {
  expect(kinds(bannerHints(init({ agencyMessages: [] }), { entryPass: false, missingFeatures: null }))).toEqual(['reached-Events', 'reached-GuestAccounts'])
  expect(kinds(bannerHints(init({ agencyMessages: [] }), { entryPass: false, missingFeatures: [] }))).toEqual(['reached-Events', 'reached-GuestAccounts'])
})
