// The brand at the top of guest pages (guest-side.md 2, shell: "header with the agency's logo"): the
// agency's logo, else its name; einlass's own mark when no single agency stands behind the page
// (agency/branding.ts decides which agency that is).
export interface Brand {
  displayName: string
  logoPath: string | null
}

export function AgencyBrand({ brand }: { brand: Brand | null | undefined }) {
  if (brand?.logoPath) return <img class="agency-logo" src={brand.logoPath} alt={brand.displayName} />
  if (brand) return <span class="agency-name">{brand.displayName}</span>
  return (
    <>
      <img src="/favicon.svg" alt="" width="28" height="28" />
      <span>einlass</span>
    </>
  )
}
