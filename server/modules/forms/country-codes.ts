// The selectable country codes of the spec's table (agency-side.md 9.2, forms/countries.ts) with
// their ISO alpha-2 codes, compact: "DEUDE AUTAT …", in the table's order (DACH first). The pay page
// and the seller settings name them with Intl.DisplayNames in the UI language, so they carry no
// table of names (issue 20 item 24), and the public page's chunks stay as they are (its budget).
// Kept equal to the table by server/modules/ticketing/country-names.test.ts.
const PACKED =
  'DEUDE AUTAT CHECH ALAAX ALBAL ANDAD BLRBY BELBE BIHBA BGRBG DNKDK ESTEE FROFO FINFI FRAFR GIBGI GRCGR GGYGG IRLIE ISLIS IMNIM ITAIT JEYJE XKXXK HRVHR LVALV LIELI LTULT LUXLU MLTMT MCOMC MNEME NLDNL MKDMK NORNO POLPL PRTPT MDAMD ROURO SMRSM SWESE SRBRS SVKSK SVNSI ESPES SJMSJ CZECZ UKRUA HUNHU VATVA GBRGB CYPCY EGYEG DZADZ AGOAO GNQGQ ASCAC ETHET BENBJ BWABW BFABF BDIBI CPVCV CIVCI DJIDJ ERIER SWZSZ GABGA GMBGM GHAGH GINGN GNBGW CMRCM KENKE COMKM COGCG CODCD LSOLS LBRLR LBYLY MDGMG MWIMW MLIML MARMA MRTMR MUSMU MYTYT MOZMZ NAMNA NERNE NGANG REURE RWARW ZMBZM STPST SENSN SYCSC SLESL ZWEZW SOMSO SHNSH ZAFZA SDNSD SSDSS TZATZ TGOTG TAATA TCDTD TUNTN UGAUG ESHEH CAFCF BMUBM GRLGL CANCA MEXMX SPMPM USAUS VIRVI AIAAI ATGAG ARGAR ABWAW BHSBS BRBBB BLZBZ BOLBO BRABR VGBVG CHLCL CRICR CUWCW DMADM DOMDO ECUEC SLVSV FLKFK GUFGF GRDGD GLPGP GTMGT GUYGY HTIHT HNDHN JAMJM CYMKY BESBQ COLCO CUBCU MTQMQ MSRMS NICNI PANPA PRYPY PERPE PRIPR SXMSX BLMBL KNAKN LCALC MAFMF VCTVC SURSR TTOTT TCATC URYUY VENVE AFGAF ARMAM AZEAZ BHRBH BGDBD BTNBT IOTIO BRNBN CHNCN GEOGE INDIN IDNID IRQIQ IRNIR ISRIL JPNJP YEMYE JORJO KHMKH KAZKZ QATQA KGZKG CCKCC KWTKW LAOLA LBNLB MYSMY MDVMV MNGMN MMRMM NPLNP PRKKP OMNOM PAKPK PSEPS PHLPH RUSRU SAUSA SGPSG HKGHK MACMO LKALK KORKR SYRSY TJKTJ TWNTW THATH TURTR TKMTM UZBUZ AREAE VNMVN CXRCX ASMAS UMIUM ATAAQ AUSAU BVTBV COKCK FJIFJ PYFPF ATFTF GUMGU HMDHM KIRKI MHLMH FSMFM NRUNR NCLNC NZLNZ NIUNU MNPMP NFKNF PLWPW PNGPG PCNPN SLBSB WSMWS SGSGS TLSTL TKLTK TONTO TUVTV VUTVU WLFWF'

/** [three-letter code, two-letter code] in the table's order */
export const COUNTRY_CODES: ReadonlyArray<readonly [string, string]> = PACKED.split(' ').map((x) => [x.slice(0, 3), x.slice(3)] as const)

/** The form's default country (the table's first row). */
export const DEFAULT_COUNTRY = 'DEU'

const CODES = new Set(COUNTRY_CODES.map(([c]) => c))
/**
 * A selectable country code: what the form engine checks (forms/engine.ts), so the public page loads
 * the table of names (./countries.ts) only for a form with a country or address field (issue 25).
 */
export const isCountryCode = (code: unknown): code is string => typeof code === 'string' && CODES.has(code)

/** The list to choose from: DACH first (the table's first three), then every other country by its name in the language. */
export function countryChoices(language: string): Array<{ code: string; name: string }> {
  let names: Intl.DisplayNames | null = null
  try {
    names = new Intl.DisplayNames([language], { type: 'region' })
  } catch {}
  const all = COUNTRY_CODES.map(([code, a2]) => ({ code, name: names?.of(a2) ?? code }))
  return [...all.slice(0, 3), ...all.slice(3).sort((a, b) => a.name.localeCompare(b.name, language))]
}

/** A code's name in the language (Intl.DisplayNames); the code itself when unknown. */
export function countryLabel(code: string | null | undefined, language: string): string {
  const a2 = COUNTRY_CODES.find(([c]) => c === code)?.[1]
  try {
    return (a2 && new Intl.DisplayNames([language], { type: 'region' }).of(a2)) || (code ?? '')
  } catch {
    return code ?? ''
  }
}
