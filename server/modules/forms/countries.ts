// The country table of agency-side.md 9.2: about 250 countries in continent groups, each group
// opened by a non-selectable spacer row (code spacer-N). Europe/DACH first (DEU, AUT, CHE), then
// Europe, Africa, North America, North and South America, Asia, Australia/Oceania; alphabetical by
// German name inside a group. Names are CLDR's German and English region names; codes ISO 3166-1
// alpha-3, plus XKX for Kosovo (not assigned by ISO). Generated once from the `countries-list` data
// and Intl.DisplayNames; edit by hand from here on. Default country DEU.
export interface CountryOption {
  /** three-letter code, or spacer-N for a group heading */
  code: string
  /** German name */
  name: string
  /** English name */
  intName: string
  /** continent group (German) */
  group: string
  translated: boolean
  spacer: boolean
}

export const DEFAULT_COUNTRY = 'DEU'

// [code, German name, English name, group number]
const ROWS: ReadonlyArray<readonly [string, string, string, number]> = [
  ['spacer-1', "Europa (DACH)", "Europe (DACH)", 1],
  ["DEU", "Deutschland", "Germany", 1],
  ["AUT", "Österreich", "Austria", 1],
  ["CHE", "Schweiz", "Switzerland", 1],
  ['spacer-2', "Europa", "Europe", 2],
  ["ALA", "Ålandinseln", "Åland Islands", 2],
  ["ALB", "Albanien", "Albania", 2],
  ["AND", "Andorra", "Andorra", 2],
  ["BLR", "Belarus", "Belarus", 2],
  ["BEL", "Belgien", "Belgium", 2],
  ["BIH", "Bosnien und Herzegowina", "Bosnia & Herzegovina", 2],
  ["BGR", "Bulgarien", "Bulgaria", 2],
  ["DNK", "Dänemark", "Denmark", 2],
  ["EST", "Estland", "Estonia", 2],
  ["FRO", "Färöer", "Faroe Islands", 2],
  ["FIN", "Finnland", "Finland", 2],
  ["FRA", "Frankreich", "France", 2],
  ["GIB", "Gibraltar", "Gibraltar", 2],
  ["GRC", "Griechenland", "Greece", 2],
  ["GGY", "Guernsey", "Guernsey", 2],
  ["IRL", "Irland", "Ireland", 2],
  ["ISL", "Island", "Iceland", 2],
  ["IMN", "Isle of Man", "Isle of Man", 2],
  ["ITA", "Italien", "Italy", 2],
  ["JEY", "Jersey", "Jersey", 2],
  ["XKX", "Kosovo", "Kosovo", 2],
  ["HRV", "Kroatien", "Croatia", 2],
  ["LVA", "Lettland", "Latvia", 2],
  ["LIE", "Liechtenstein", "Liechtenstein", 2],
  ["LTU", "Litauen", "Lithuania", 2],
  ["LUX", "Luxemburg", "Luxembourg", 2],
  ["MLT", "Malta", "Malta", 2],
  ["MCO", "Monaco", "Monaco", 2],
  ["MNE", "Montenegro", "Montenegro", 2],
  ["NLD", "Niederlande", "Netherlands", 2],
  ["MKD", "Nordmazedonien", "North Macedonia", 2],
  ["NOR", "Norwegen", "Norway", 2],
  ["POL", "Polen", "Poland", 2],
  ["PRT", "Portugal", "Portugal", 2],
  ["MDA", "Republik Moldau", "Moldova", 2],
  ["ROU", "Rumänien", "Romania", 2],
  ["SMR", "San Marino", "San Marino", 2],
  ["SWE", "Schweden", "Sweden", 2],
  ["SRB", "Serbien", "Serbia", 2],
  ["SVK", "Slowakei", "Slovakia", 2],
  ["SVN", "Slowenien", "Slovenia", 2],
  ["ESP", "Spanien", "Spain", 2],
  ["SJM", "Spitzbergen und Jan Mayen", "Svalbard & Jan Mayen", 2],
  ["CZE", "Tschechien", "Czechia", 2],
  ["UKR", "Ukraine", "Ukraine", 2],
  ["HUN", "Ungarn", "Hungary", 2],
  ["VAT", "Vatikanstadt", "Vatican City", 2],
  ["GBR", "Vereinigtes Königreich", "United Kingdom", 2],
  ["CYP", "Zypern", "Cyprus", 2],
  ['spacer-3', "Afrika", "Africa", 3],
  ["EGY", "Ägypten", "Egypt", 3],
  ["DZA", "Algerien", "Algeria", 3],
  ["AGO", "Angola", "Angola", 3],
  ["GNQ", "Äquatorialguinea", "Equatorial Guinea", 3],
  ["ASC", "Ascension", "Ascension Island", 3],
  ["ETH", "Äthiopien", "Ethiopia", 3],
  ["BEN", "Benin", "Benin", 3],
  ["BWA", "Botsuana", "Botswana", 3],
  ["BFA", "Burkina Faso", "Burkina Faso", 3],
  ["BDI", "Burundi", "Burundi", 3],
  ["CPV", "Cabo Verde", "Cape Verde", 3],
  ["CIV", "Côte d’Ivoire", "Côte d’Ivoire", 3],
  ["DJI", "Dschibuti", "Djibouti", 3],
  ["ERI", "Eritrea", "Eritrea", 3],
  ["SWZ", "Eswatini", "Eswatini", 3],
  ["GAB", "Gabun", "Gabon", 3],
  ["GMB", "Gambia", "Gambia", 3],
  ["GHA", "Ghana", "Ghana", 3],
  ["GIN", "Guinea", "Guinea", 3],
  ["GNB", "Guinea-Bissau", "Guinea-Bissau", 3],
  ["CMR", "Kamerun", "Cameroon", 3],
  ["KEN", "Kenia", "Kenya", 3],
  ["COM", "Komoren", "Comoros", 3],
  ["COG", "Kongo-Brazzaville", "Congo - Brazzaville", 3],
  ["COD", "Kongo-Kinshasa", "Congo - Kinshasa", 3],
  ["LSO", "Lesotho", "Lesotho", 3],
  ["LBR", "Liberia", "Liberia", 3],
  ["LBY", "Libyen", "Libya", 3],
  ["MDG", "Madagaskar", "Madagascar", 3],
  ["MWI", "Malawi", "Malawi", 3],
  ["MLI", "Mali", "Mali", 3],
  ["MAR", "Marokko", "Morocco", 3],
  ["MRT", "Mauretanien", "Mauritania", 3],
  ["MUS", "Mauritius", "Mauritius", 3],
  ["MYT", "Mayotte", "Mayotte", 3],
  ["MOZ", "Mosambik", "Mozambique", 3],
  ["NAM", "Namibia", "Namibia", 3],
  ["NER", "Niger", "Niger", 3],
  ["NGA", "Nigeria", "Nigeria", 3],
  ["REU", "Réunion", "Réunion", 3],
  ["RWA", "Ruanda", "Rwanda", 3],
  ["ZMB", "Sambia", "Zambia", 3],
  ["STP", "São Tomé und Príncipe", "São Tomé & Príncipe", 3],
  ["SEN", "Senegal", "Senegal", 3],
  ["SYC", "Seychellen", "Seychelles", 3],
  ["SLE", "Sierra Leone", "Sierra Leone", 3],
  ["ZWE", "Simbabwe", "Zimbabwe", 3],
  ["SOM", "Somalia", "Somalia", 3],
  ["SHN", "St. Helena", "St. Helena", 3],
  ["ZAF", "Südafrika", "South Africa", 3],
  ["SDN", "Sudan", "Sudan", 3],
  ["SSD", "Südsudan", "South Sudan", 3],
  ["TZA", "Tansania", "Tanzania", 3],
  ["TGO", "Togo", "Togo", 3],
  ["TAA", "Tristan da Cunha", "Tristan da Cunha", 3],
  ["TCD", "Tschad", "Chad", 3],
  ["TUN", "Tunesien", "Tunisia", 3],
  ["UGA", "Uganda", "Uganda", 3],
  ["ESH", "Westsahara", "Western Sahara", 3],
  ["CAF", "Zentralafrikanische Republik", "Central African Republic", 3],
  ['spacer-4', "Nordamerika", "North America", 4],
  ["BMU", "Bermuda", "Bermuda", 4],
  ["GRL", "Grönland", "Greenland", 4],
  ["CAN", "Kanada", "Canada", 4],
  ["MEX", "Mexiko", "Mexico", 4],
  ["SPM", "St. Pierre und Miquelon", "St. Pierre & Miquelon", 4],
  ["USA", "Vereinigte Staaten", "United States", 4],
  ['spacer-5', "Nord- und Südamerika", "North and South America", 5],
  ["VIR", "Amerikanische Jungferninseln", "U.S. Virgin Islands", 5],
  ["AIA", "Anguilla", "Anguilla", 5],
  ["ATG", "Antigua und Barbuda", "Antigua & Barbuda", 5],
  ["ARG", "Argentinien", "Argentina", 5],
  ["ABW", "Aruba", "Aruba", 5],
  ["BHS", "Bahamas", "Bahamas", 5],
  ["BRB", "Barbados", "Barbados", 5],
  ["BLZ", "Belize", "Belize", 5],
  ["BOL", "Bolivien", "Bolivia", 5],
  ["BRA", "Brasilien", "Brazil", 5],
  ["VGB", "Britische Jungferninseln", "British Virgin Islands", 5],
  ["CHL", "Chile", "Chile", 5],
  ["CRI", "Costa Rica", "Costa Rica", 5],
  ["CUW", "Curaçao", "Curaçao", 5],
  ["DMA", "Dominica", "Dominica", 5],
  ["DOM", "Dominikanische Republik", "Dominican Republic", 5],
  ["ECU", "Ecuador", "Ecuador", 5],
  ["SLV", "El Salvador", "El Salvador", 5],
  ["FLK", "Falklandinseln", "Falkland Islands", 5],
  ["GUF", "Französisch-Guayana", "French Guiana", 5],
  ["GRD", "Grenada", "Grenada", 5],
  ["GLP", "Guadeloupe", "Guadeloupe", 5],
  ["GTM", "Guatemala", "Guatemala", 5],
  ["GUY", "Guyana", "Guyana", 5],
  ["HTI", "Haiti", "Haiti", 5],
  ["HND", "Honduras", "Honduras", 5],
  ["JAM", "Jamaika", "Jamaica", 5],
  ["CYM", "Kaimaninseln", "Cayman Islands", 5],
  ["BES", "Karibische Niederlande", "Caribbean Netherlands", 5],
  ["COL", "Kolumbien", "Colombia", 5],
  ["CUB", "Kuba", "Cuba", 5],
  ["MTQ", "Martinique", "Martinique", 5],
  ["MSR", "Montserrat", "Montserrat", 5],
  ["NIC", "Nicaragua", "Nicaragua", 5],
  ["PAN", "Panama", "Panama", 5],
  ["PRY", "Paraguay", "Paraguay", 5],
  ["PER", "Peru", "Peru", 5],
  ["PRI", "Puerto Rico", "Puerto Rico", 5],
  ["SXM", "Sint Maarten", "Sint Maarten", 5],
  ["BLM", "St. Barthélemy", "St. Barthélemy", 5],
  ["KNA", "St. Kitts und Nevis", "St. Kitts & Nevis", 5],
  ["LCA", "St. Lucia", "St. Lucia", 5],
  ["MAF", "St. Martin", "St. Martin", 5],
  ["VCT", "St. Vincent und die Grenadinen", "St. Vincent & Grenadines", 5],
  ["SUR", "Suriname", "Suriname", 5],
  ["TTO", "Trinidad und Tobago", "Trinidad & Tobago", 5],
  ["TCA", "Turks- und Caicosinseln", "Turks & Caicos Islands", 5],
  ["URY", "Uruguay", "Uruguay", 5],
  ["VEN", "Venezuela", "Venezuela", 5],
  ['spacer-6', "Asien", "Asia", 6],
  ["AFG", "Afghanistan", "Afghanistan", 6],
  ["ARM", "Armenien", "Armenia", 6],
  ["AZE", "Aserbaidschan", "Azerbaijan", 6],
  ["BHR", "Bahrain", "Bahrain", 6],
  ["BGD", "Bangladesch", "Bangladesh", 6],
  ["BTN", "Bhutan", "Bhutan", 6],
  ["IOT", "Britisches Territorium im Indischen Ozean", "British Indian Ocean Territory", 6],
  ["BRN", "Brunei Darussalam", "Brunei", 6],
  ["CHN", "China", "China", 6],
  ["GEO", "Georgien", "Georgia", 6],
  ["IND", "Indien", "India", 6],
  ["IDN", "Indonesien", "Indonesia", 6],
  ["IRQ", "Irak", "Iraq", 6],
  ["IRN", "Iran", "Iran", 6],
  ["ISR", "Israel", "Israel", 6],
  ["JPN", "Japan", "Japan", 6],
  ["YEM", "Jemen", "Yemen", 6],
  ["JOR", "Jordanien", "Jordan", 6],
  ["KHM", "Kambodscha", "Cambodia", 6],
  ["KAZ", "Kasachstan", "Kazakhstan", 6],
  ["QAT", "Katar", "Qatar", 6],
  ["KGZ", "Kirgisistan", "Kyrgyzstan", 6],
  ["CCK", "Kokosinseln", "Cocos (Keeling) Islands", 6],
  ["KWT", "Kuwait", "Kuwait", 6],
  ["LAO", "Laos", "Laos", 6],
  ["LBN", "Libanon", "Lebanon", 6],
  ["MYS", "Malaysia", "Malaysia", 6],
  ["MDV", "Malediven", "Maldives", 6],
  ["MNG", "Mongolei", "Mongolia", 6],
  ["MMR", "Myanmar", "Myanmar (Burma)", 6],
  ["NPL", "Nepal", "Nepal", 6],
  ["PRK", "Nordkorea", "North Korea", 6],
  ["OMN", "Oman", "Oman", 6],
  ["PAK", "Pakistan", "Pakistan", 6],
  ["PSE", "Palästinensische Autonomiegebiete", "Palestinian Territories", 6],
  ["PHL", "Philippinen", "Philippines", 6],
  ["RUS", "Russland", "Russia", 6],
  ["SAU", "Saudi-Arabien", "Saudi Arabia", 6],
  ["SGP", "Singapur", "Singapore", 6],
  ["HKG", "Sonderverwaltungsregion Hongkong", "Hong Kong SAR China", 6],
  ["MAC", "Sonderverwaltungsregion Macau", "Macao SAR China", 6],
  ["LKA", "Sri Lanka", "Sri Lanka", 6],
  ["KOR", "Südkorea", "South Korea", 6],
  ["SYR", "Syrien", "Syria", 6],
  ["TJK", "Tadschikistan", "Tajikistan", 6],
  ["TWN", "Taiwan", "Taiwan", 6],
  ["THA", "Thailand", "Thailand", 6],
  ["TUR", "Türkei", "Türkiye", 6],
  ["TKM", "Turkmenistan", "Turkmenistan", 6],
  ["UZB", "Usbekistan", "Uzbekistan", 6],
  ["ARE", "Vereinigte Arabische Emirate", "United Arab Emirates", 6],
  ["VNM", "Vietnam", "Vietnam", 6],
  ["CXR", "Weihnachtsinsel", "Christmas Island", 6],
  ['spacer-7', "Australien/Ozeanien", "Australia/Oceania", 7],
  ["ASM", "Amerikanisch-Samoa", "American Samoa", 7],
  ["UMI", "Amerikanische Überseeinseln", "U.S. Outlying Islands", 7],
  ["ATA", "Antarktis", "Antarctica", 7],
  ["AUS", "Australien", "Australia", 7],
  ["BVT", "Bouvetinsel", "Bouvet Island", 7],
  ["COK", "Cookinseln", "Cook Islands", 7],
  ["FJI", "Fidschi", "Fiji", 7],
  ["PYF", "Französisch-Polynesien", "French Polynesia", 7],
  ["ATF", "Französische Süd- und Antarktisgebiete", "French Southern Territories", 7],
  ["GUM", "Guam", "Guam", 7],
  ["HMD", "Heard und McDonaldinseln", "Heard & McDonald Islands", 7],
  ["KIR", "Kiribati", "Kiribati", 7],
  ["MHL", "Marshallinseln", "Marshall Islands", 7],
  ["FSM", "Mikronesien", "Micronesia", 7],
  ["NRU", "Nauru", "Nauru", 7],
  ["NCL", "Neukaledonien", "New Caledonia", 7],
  ["NZL", "Neuseeland", "New Zealand", 7],
  ["NIU", "Niue", "Niue", 7],
  ["MNP", "Nördliche Marianen", "Northern Mariana Islands", 7],
  ["NFK", "Norfolkinsel", "Norfolk Island", 7],
  ["PLW", "Palau", "Palau", 7],
  ["PNG", "Papua-Neuguinea", "Papua New Guinea", 7],
  ["PCN", "Pitcairninseln", "Pitcairn Islands", 7],
  ["SLB", "Salomonen", "Solomon Islands", 7],
  ["WSM", "Samoa", "Samoa", 7],
  ["SGS", "Südgeorgien und die Südlichen Sandwichinseln", "South Georgia & South Sandwich Islands", 7],
  ["TLS", "Timor-Leste", "Timor-Leste", 7],
  ["TKL", "Tokelau", "Tokelau", 7],
  ["TON", "Tonga", "Tonga", 7],
  ["TUV", "Tuvalu", "Tuvalu", 7],
  ["VUT", "Vanuatu", "Vanuatu", 7],
  ["WLF", "Wallis und Futuna", "Wallis & Futuna", 7],]

const GROUP_NAMES = ROWS.filter((r) => r[0].startsWith('spacer-')).map((r) => r[1])

export const COUNTRIES: readonly CountryOption[] = ROWS.map(([code, name, intName, g]) => ({
  code,
  name,
  intName,
  group: GROUP_NAMES[g - 1],
  translated: true,
  spacer: code.startsWith('spacer-'),
}))

const BY_CODE = new Map(COUNTRIES.filter((c) => !c.spacer).map((c) => [c.code, c]))

/** A selectable country code (spacer rows are not). */
export const isCountryCode = (code: unknown): code is string => typeof code === 'string' && BY_CODE.has(code)

/**
 * A stored code's name in the reader's language (issue 20 item 24): the table's German and English
 * names, any other language from Intl.DisplayNames (no table shipped for it); an unknown code as it is.
 */
export function countryName(code: string | null | undefined, language = 'de'): string {
  const c = code ? BY_CODE.get(code) : undefined
  if (!c) return code ?? ''
  if (language.startsWith('de')) return c.name
  if (language.startsWith('en')) return c.intName
  try {
    const a2 = alpha2Of(c.code)
    const n = a2 ? new Intl.DisplayNames([language], { type: 'region' }).of(a2) : undefined
    return n && n !== a2 ? n : c.intName
  } catch {
    return c.intName
  }
}

/** The selectable countries in their continent groups, named in the reader's language (the pay page's and the seller settings' list). */
export function countryGroups(language = 'de'): Array<{ group: string; items: Array<{ code: string; name: string }> }> {
  const groups = new Map<string, Array<{ code: string; name: string }>>()
  const heading = new Map(COUNTRIES.filter((c) => c.spacer).map((c) => [c.group, language.startsWith('de') ? c.name : c.intName]))
  for (const c of COUNTRIES) if (!c.spacer) groups.set(c.group, [...(groups.get(c.group) ?? []), { code: c.code, name: countryName(c.code, language) }])
  return [...groups].map(([g, items]) => ({ group: heading.get(g) ?? g, items }))
}

let alpha2: Map<string, string> | null = null
/**
 * The ISO 3166-1 alpha-2 code of a stored alpha-3 code (e-invoices and wallet passes want two
 * letters). The table's English names are CLDR's, so Intl's region names map them back; built once.
 */
export function alpha2Of(code: string): string | null {
  if (!alpha2) {
    const names = new Intl.DisplayNames(['en'], { type: 'region' })
    const byName = new Map<string, string>()
    const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
    for (const a of A) {
      for (const b of A) {
        try {
          const n = names.of(a + b)
          if (n && n !== a + b) byName.set(n, a + b)
        } catch {}
      }
    }
    alpha2 = new Map(COUNTRIES.filter((c) => !c.spacer && byName.has(c.intName)).map((c) => [c.code, byName.get(c.intName)!]))
  }
  return alpha2.get(code) ?? null
}
